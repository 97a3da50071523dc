// The namespace pair of the probe integration tests (see netns_pair.h).
#include "netns_pair.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <sstream>

#include "labgate/util/exit_code.h"

namespace labgate::probes_test {
namespace {

using namespace std::chrono_literals;

profile::Host local_host(const std::string& name, std::optional<std::string> netns) {
  profile::Host h;
  h.name = name;
  h.address = "local";
  h.netns = std::move(netns);
  h.ssh.command_timeout = 20s;
  return h;
}

/// Deletes lgp-<pid>-a/b namespaces whose creating process is gone.
void remove_stale(transport::Transport& root) {
  const transport::RunResult list = root.run({"ip", "netns", "list"}, {});
  std::istringstream lines(list.out);
  std::string line;
  while (std::getline(lines, line)) {
    const std::string name = line.substr(0, line.find(' '));
    long pid = 0;
    char side = 0;
    if (std::sscanf(name.c_str(), "lgp-%ld-%c", &pid, &side) != 2 || pid <= 0) continue;
    if (pid == getpid() || kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    root.run({"ip", "netns", "del", name}, {});
  }
}

}  // namespace

bool lab_possible(std::string* why) {
  if (geteuid() != 0) {
    *why =
        "the probe integration tests create network namespaces and need root (run as root, or set "
        "LABGATE_SKIP_LAB=1 to skip them)";
    return false;
  }
  return true;
}

void NetnsPair::must(transport::Transport& t, const std::vector<std::string>& argv) {
  transport::require_ok(t.run(argv, {}), t.host_name(), argv);
}

NetnsPair::NetnsPair() {
  const std::string tag = "lgp-" + std::to_string(getpid());
  ns_a_ = tag + "-a";
  ns_b_ = tag + "-b";
  // Interface names are limited to 15 characters; a pid has at most 7 digits.
  const std::string veth_a = "lgp" + std::to_string(getpid()) + "a",
                    veth_b = "lgp" + std::to_string(getpid()) + "b";
  root_ = transport::make_transport(local_host("root", std::nullopt));
  remove_stale(*root_);
  root_->run({"ip", "netns", "del", ns_a_}, {});
  root_->run({"ip", "netns", "del", ns_b_}, {});
  must(*root_, {"ip", "netns", "add", ns_a_});
  must(*root_, {"ip", "netns", "add", ns_b_});
  must(*root_,
       {"ip", "link", "add", veth_a, "netns", ns_a_, "type", "veth", "peer", "name", veth_b, "netns", ns_b_});
  a_ = transport::make_transport(local_host("a", ns_a_));
  b_ = transport::make_transport(local_host("b", ns_b_));
  must(*a_, {"ip", "addr", "add", std::string(kAddrA) + "/24", "dev", veth_a});
  must(*b_, {"ip", "addr", "add", std::string(kAddrB) + "/24", "dev", veth_b});
  for (auto* t : {a_.get(), b_.get()}) {
    must(*t, {"ip", "link", "set", "lo", "up"});
    must(*t, {"ip", "link", "set", t == a_.get() ? veth_a : veth_b, "up"});
  }
}

NetnsPair::~NetnsPair() {
  if (!root_) return;
  root_->run({"ip", "netns", "del", ns_a_}, {});
  root_->run({"ip", "netns", "del", ns_b_}, {});
}

void NetnsPair::add_udp_loss(int percent) {
  // Dropped as b receives them, like loss on the wire: a drop in a's own output
  // hook would fail a's send() with EPERM instead of losing the datagram.
  must(*b_, {"nft", "add", "table", "inet", "lgp"});
  must(*b_, {"nft", "add", "chain", "inet", "lgp", "in", "{ type filter hook input priority 0 ; }"});
  std::vector<std::string> rule{"nft", "add",   "rule", "inet", "lgp",     "in",
                                "ip",  "saddr", kAddrA, "meta", "l4proto", "udp"};
  if (percent < 100)
    rule.insert(rule.end(), {"numgen", "random", "mod", "100", "<", std::to_string(percent)});
  rule.push_back("drop");
  must(*b_, rule);
}

void NetnsPair::clear_loss() { b_->run({"nft", "delete", "table", "inet", "lgp"}, {}); }

}  // namespace labgate::probes_test
