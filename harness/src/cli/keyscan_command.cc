// `labgate keyscan PROFILE [--write]`: every host's and jump host's key type,
// SHA256 fingerprint and known_hosts line, through labgate's own SSH stack, for
// checking out of band; known_hosts is written only with --write.
#include <iostream>
#include <memory>
#include <string>

#include "labgate/cli/commands.h"
#include "labgate/profile/load.h"
#include "labgate/transport/host_key_scan.h"

namespace labgate::cli {
namespace {

struct KeyscanArgs {
  std::string profile;
  bool write = false;
};

ExitCode keyscan(const KeyscanArgs& a) {
  const profile::Profile p = profile::load_or_throw(a.profile);
  bool complete = true;
  std::vector<transport::HostScan> scans;
  for (const profile::Host& h : p.hosts)
    if (!h.is_local()) scans.push_back(transport::scan_host(h));
  if (a.write) transport::write_unknown_keys(scans);
  for (const transport::HostScan& s : scans) {
    std::cout << "host " << s.host << ":\n";
    for (const std::string& l : s.resolution) std::cout << "  " << l << "\n";
    for (const transport::ScannedKey& k : s.keys) {
      std::cout << "  " << k.who << ": " << k.key.type << " " << k.key.fingerprint << "  "
                << transport::describe_verdict(k) << "\n    " << k.key.line() << "\n";
    }
    if (!s.error.empty()) {
      complete = false;
      std::cout << "  stopped: " << s.error << "\n";
    }
  }
  if (!a.write)
    std::cout << "(nothing written; after checking each fingerprint out of band, e.g. ssh-keygen -lf "
                 "/etc/ssh/ssh_host_*_key.pub on the server, run again with --write)\n";
  std::cout.flush();
  return complete ? ExitCode::kPassed : ExitCode::kCouldNotRun;
}

}  // namespace

void add_keyscan_command(CLI::App& app, Action& action) {
  auto args = std::make_shared<KeyscanArgs>();
  CLI::App* cmd = app.add_subcommand(
      "keyscan",
      "show each host's and jump host's host key (type, SHA256 fingerprint, known_hosts line) through "
      "labgate's own SSH stack, old servers included");
  cmd->add_option("profile", args->profile, "profile file (TOML)")->required();
  cmd->add_flag("--write", args->write,
                "append the keys known_hosts does not know yet (never a revoked or changed one)");
  cmd->callback([&action, args] { action = [args] { return keyscan(*args); }; });
}

}  // namespace labgate::cli
