// `labgate validate PROFILE...`: loads each profile and prints either a one-line
// summary or every error with its file:line:column; exit 0 only if all are valid.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "labgate/cli/commands.h"
#include "labgate/profile/load.h"
#include "labgate/transport/host_resolution.h"

namespace labgate::cli {
namespace {

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// What each SSH host resolves to (ssh_config aliases, jump chain): printed with
// -v; a bad ssh_config is an error either way. False if one cannot be resolved.
bool resolve_hosts(const profile::Profile& p) {
  bool ok = true;
  for (const profile::Host& h : p.hosts) {
    if (h.is_local()) continue;
    try {
      const transport::ResolvedHost r = transport::resolve_host(h);
      if (spdlog::should_log(spdlog::level::debug))
        for (const std::string& l : transport::describe_resolution(r)) std::cout << "  " << l << "\n";
    } catch (const Failure& f) {
      std::cerr << p.path << ": host " << h.name << ": " << f.what() << "\n";
      ok = false;
    }
  }
  return ok;
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
      if (!resolve_hosts(p)) {
        all_valid = false;
        std::cerr << "invalid: " << path << " (a host cannot be resolved)\n";
      }
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
