// A private pair of network namespaces joined by a veth (198.19.200.1/24 and
// .2/24), the stand-in for two servers that the probe integration tests measure
// between, plus the fault injection they need (packet loss through nftables).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "labgate/transport/transport.h"

namespace labgate::probes_test {

/// Owns two namespaces named lgp-<pid>-a / lgp-<pid>-b; destroying it deletes
/// them (and with them the veth, the addresses and any nft rules).
class NetnsPair {
 public:
  static constexpr const char* kAddrA = "198.19.200.1";
  static constexpr const char* kAddrB = "198.19.200.2";

  /// Creates the pair; throws labgate::Failure naming the command that failed.
  /// Namespaces lgp-<pid>-* left by a test process that no longer exists are
  /// deleted first, so a crashed run cannot leave litter behind for long.
  NetnsPair();
  ~NetnsPair();
  NetnsPair(const NetnsPair&) = delete;
  NetnsPair& operator=(const NetnsPair&) = delete;

  /// Runs or starts commands inside namespace a (client side) or b (server side).
  transport::Transport& a() { return *a_; }
  transport::Transport& b() { return *b_; }
  /// Runs in the root namespace.
  transport::Transport& root() { return *root_; }

  /// Drops `percent`% of the UDP packets b receives from a (nftables numgen, since
  /// this kernel may lack sch_netem). Undone by clear_loss() or destruction.
  void add_udp_loss(int percent);
  void clear_loss();

  const std::string& name_a() const { return ns_a_; }
  const std::string& name_b() const { return ns_b_; }

 private:
  void must(transport::Transport& t, const std::vector<std::string>& argv);

  std::string ns_a_, ns_b_;
  std::unique_ptr<transport::Transport> root_, a_, b_;
};

/// Whether this process may build namespaces; the reason when not.
bool lab_possible(std::string* why);

}  // namespace labgate::probes_test
