// Options, profile loading and exit codes shared by the acceptance suites.
#include "suite_context.h"

#include <cstdlib>
#include <cstring>
#include <iostream>

#include <gtest/gtest.h>

#include "labgate/profile/load.h"

namespace labgate::suites {

SuiteOptions parse_suite_options(int argc, char** argv, const char* program) {
  SuiteOptions o;
  const char* env = std::getenv("LABGATE_PROFILE");
  o.profile = env && *env ? env : "profiles/lab.toml";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* flag) -> std::string {
      if (i + 1 >= argc) {
        std::cerr << program << ": " << flag << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--profile") o.profile = value("--profile");
    else if (a == "--test") o.only_test = value("--test");
    else if (a == "--suffix") o.suffix = value("--suffix");
    else {
      std::cerr << program << ": unknown argument '" << a
                << "' (use --profile FILE, --test NAME, --suffix S, and gtest's --gtest_* flags)\n";
      std::exit(2);
    }
  }
  return o;
}

std::optional<profile::Profile> load_profile(const std::string& path) {
  auto r = profile::load(path);
  if (r.profile && r.errors.empty()) return std::move(*r.profile);
  for (const auto& e : r.errors) std::cerr << e.str() << "\n";
  if (r.errors.empty()) std::cerr << path << ": could not be loaded\n";
  return std::nullopt;
}

bool listing_only() { return GTEST_FLAG_GET(list_tests); }

}  // namespace labgate::suites
