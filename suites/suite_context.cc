// Options, profile loading and exit codes shared by the acceptance suites.
#include "suite_context.h"

#include <cstdlib>
#include <cstring>
#include <iostream>

#include <gtest/gtest.h>

#include "labgate/pool/pool_slot.h"
#include "labgate/profile/load.h"
#include "labgate/util/exit_code.h"
#include "pool_ledger.h"

namespace labgate::suites {
namespace {

// The pair CTest allocated becomes this run's profile and results folder (the
// state file its gate.pool.setup.<id> fixture wrote). Exits 2 when it cannot.
void use_pool_pair(const pool::PoolRequest& request, SuiteOptions& o, const char* program) {
  if (request.state_dir.empty()) {
    std::cerr << program << ": --pool needs --pool-state DIR (where each pair's run state is kept)\n";
    std::exit(2);
  }
  try {
    const pool::PoolSlot slot = pool::resolve_slot(request);
    o.profile = slot.profile;
    o.pool_pair = slot.pair;
    o.run_state = slot.state_file;
    ledger_at_exit(slot.state_file, slot.pair, program, o.only_test);
    std::cout << program << ": on lab pair " << slot.pair << " (" << slot.profile << ")" << std::endl;
  } catch (const Failure& f) {
    std::cerr << program << ": " << f.what() << "\n";
    std::exit(2);
  }
}

}  // namespace

SuiteOptions parse_suite_options(int argc, char** argv, const char* program) {
  SuiteOptions o;
  pool::PoolRequest pool;
  const char* env = std::getenv("LABGATE_PROFILE");
  o.profile = env && *env ? env : "profiles/lab.toml";
  if (const char* v = std::getenv("LABGATE_VERBOSITY"); v && *v) {
    const std::string s = v;
    if (s == "quiet") o.verbosity = Verbosity::kQuiet;
    else if (s == "verbose") o.verbosity = Verbosity::kVerbose;
  }
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
    else if (a == "--state") o.run_state = value("--state");
    else if (a == "--pool") pool.pool_dir = value("--pool");
    else if (a == "--pool-state") pool.state_dir = value("--pool-state");
    else if (a == "--pair") pool.pair = value("--pair");
    else if (a == "-v" || a == "--verbose") o.verbosity = Verbosity::kVerbose;
    else if (a == "-q" || a == "--quiet") o.verbosity = Verbosity::kQuiet;
    else {
      std::cerr << program << ": unknown argument '" << a
                << "' (use --profile FILE, --test NAME, --suffix S, --state FILE, -v, -q, --pool DIR --pool-state DIR [--pair ID], "
                   "and gtest's --gtest_* flags)\n";
      std::exit(2);
    }
  }
  if (!pool.pool_dir.empty()) use_pool_pair(pool, o, program);
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
