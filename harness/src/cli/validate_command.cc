// `labgate validate PROFILE...`: loads each profile and prints either a one-line
// summary or every error with its file:line:column; exit 0 only if all are valid.
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "labgate/cli/commands.h"
#include "labgate/profile/load.h"
#include "labgate/transport/host_resolution.h"

namespace labgate::cli {
namespace {

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// What each SSH host resolves to (ssh_config aliases, jump chain), for -v; a
// host that cannot be resolved (a bad ssh_config) is an error either way.
struct Resolution {
  std::vector<std::string> lines, errors;
};
Resolution resolve_hosts(const profile::Profile& p) {
  Resolution out;
  for (const profile::Host& h : p.hosts) {
    if (h.is_local()) continue;
    try {
      for (const std::string& l : transport::describe_resolution(transport::resolve_host(h)))
        out.lines.push_back("  " + l);
    } catch (const Failure& f) {
      out.errors.push_back(p.path + ": host " + h.name + ": " + f.what());
    }
  }
  return out;
}

ExitCode validate(const std::vector<std::string>& paths) {
  bool all_valid = true;
  for (const std::string& path : paths) {
    const profile::LoadResult r = profile::load(path);
    if (r.profile) {
      const profile::Profile& p = *r.profile;
      const Resolution res = resolve_hosts(p);
      if (!res.errors.empty()) {
        all_valid = false;
        for (const std::string& e : res.errors) std::cerr << e << "\n";
        std::cerr << "invalid: " << path << " (" << plural(res.errors.size(), "host")
                  << " cannot be resolved)\n";
        continue;
      }
      std::cout << "ok: " << path << " (" << plural(p.hosts.size(), "host") << ", "
                << plural(static_cast<std::size_t>(p.preconditions.rule_count()), "rule") << ", "
                << plural(p.tests.size(), "test") << ")\n";
      if (spdlog::should_log(spdlog::level::debug))
        for (const std::string& l : res.lines) std::cout << l << "\n";
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
