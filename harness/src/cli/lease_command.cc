// `labgate lease status|break PROFILE [--host H] [--force]`: shows who holds the
// lab lease on each host, and removes a stale one (a run that died, or whose
// harness machine is gone) so the next gate run can take it.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "labgate/cli/commands.h"
#include "labgate/lease/lab_lease.h"
#include "labgate/profile/load.h"

namespace labgate::cli {
namespace {

struct LeaseArgs {
  std::string profile;
  std::vector<std::string> hosts;
  bool force = false;
};

std::vector<profile::Host> hosts_to_lease(const profile::Profile& p, const std::vector<std::string>& names) {
  if (names.empty()) return p.hosts;
  std::vector<profile::Host> out;
  for (const auto& n : names) {
    const profile::Host* h = p.find_host(n);
    if (!h) {
      std::string known;
      for (const auto& k : p.hosts) known += (known.empty() ? "" : ", ") + k.name;
      throw Failure(ExitCode::kUsageError, p.path + ": no host '" + n + "' (hosts: " + known + ")");
    }
    out.push_back(*h);
  }
  return out;
}

void print(const std::string& lab, const std::vector<lease::LeaseStatus>& states, const char* verb) {
  for (const auto& s : states) {
    std::cout << "host " << s.host << ": lab lease " << lab << ": ";
    if (!s.held) {
      std::cout << "free\n";
      continue;
    }
    std::cout << "held by " << (s.holder ? s.holder->describe() : std::string("an unknown holder"));
    if (s.heartbeat_age) std::cout << ", heartbeat " << *s.heartbeat_age << "s ago";
    std::cout << (s.stale ? "; STALE: " + s.note : std::string("; alive")) << verb << "\n";
  }
  std::cout.flush();
}

ExitCode run_lease(const LeaseArgs& a, bool do_break) {
  const profile::Profile p = profile::load_or_throw(a.profile);
  const auto hosts = hosts_to_lease(p, a.hosts);
  lease::LeaseOptions o;
  o.wait = p.lease_wait;
  if (do_break) {
    print(p.lab_name, lease::break_lease(p.lab_name, hosts, o, a.force), " -> removed");
  } else {
    print(p.lab_name, lease::inspect(p.lab_name, hosts, o), "");
  }
  return ExitCode::kPassed;
}

}  // namespace

void add_lease_command(CLI::App& app, Action& action) {
  CLI::App* lease = app.add_subcommand("lease", "show or break the lab lease that keeps two gate runs apart");
  lease->require_subcommand(1);
  for (const bool do_break : {false, true}) {
    auto args = std::make_shared<LeaseArgs>();
    CLI::App* cmd =
        do_break
            ? lease->add_subcommand("break", "remove a stale lease (its run died or its harness is gone)")
            : lease->add_subcommand("status", "who holds the lease on each host, and whether it is stale");
    cmd->add_option("profile", args->profile, "profile file (TOML)")->required();
    cmd->add_option("--host", args->hosts, "only this host (repeatable); default: every host of the profile");
    if (do_break) cmd->add_flag("--force", args->force, "break a lease even though its holder looks alive");
    cmd->callback(
        [&action, args, do_break] { action = [args, do_break] { return run_lease(*args, do_break); }; });
  }
}

}  // namespace labgate::cli
