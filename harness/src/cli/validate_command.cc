// `labgate validate PROFILE...`: loads each profile and prints either a one-line
// summary or every error with its file:line:column; exit 0 only if all are valid.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "labgate/cli/commands.h"
#include "labgate/profile/load.h"

namespace labgate::cli {
namespace {

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

ExitCode validate(const std::vector<std::string>& paths) {
  bool all_valid = true;
  for (const std::string& path : paths) {
    const profile::LoadResult r = profile::load(path);
    if (r.profile) {
      const profile::Profile& p = *r.profile;
      std::cout << "ok: " << path << " (" << plural(p.hosts.size(), "host") << ", "
                << plural(static_cast<std::size_t>(p.preconditions.rule_count()), "rule") << ", "
                << plural(p.tests.size(), "test") << ")\n";
      continue;
    }
    all_valid = false;
    for (const profile::ProfileError& e : r.errors) std::cerr << e.str() << "\n";
    std::cerr << "invalid: " << path << " (" << plural(r.errors.size(), "error") << ")\n";
  }
  std::cout.flush();
  return all_valid ? ExitCode::kPassed : ExitCode::kUsageError;
}

}  // namespace

void add_validate_command(CLI::App& app, Action& action) {
  auto paths = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand("validate",
                                     "check profiles: every unknown key, wrong type, bad unit or "
                                     "undefined host, with file:line:column");
  cmd->add_option("profiles", *paths, "profile files (TOML)")->required();
  cmd->callback([&action, paths] { action = [paths] { return validate(*paths); }; });
}

}  // namespace labgate::cli
