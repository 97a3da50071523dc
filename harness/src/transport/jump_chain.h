// Reaching a host through jump hosts without an ssh binary: each hop is a libssh
// session (reached over the previous hop's channel), whose direct-tcpip channel
// (ssh_channel_open_forward) to the next hop is pumped by one thread to a socket
// pair; the other end of the pair is the next session's socket (SSH_OPTIONS_FD).
#pragma once

#include <libssh/libssh.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "labgate/transport/host_resolution.h"

namespace labgate::transport {

class JumpChain {
 public:
  /// Opens a session to one hop over `fd` (-1: directly by TCP); the session owns fd.
  using Opener = std::function<ssh_session(const Endpoint& hop, const std::string& who, int fd)>;

  /// Connects every hop in order and opens a forward from the last one to
  /// host:port. Throws Failure naming the hop ("jump host 2 of 2 (u@h:22): ...").
  JumpChain(const std::vector<Endpoint>& hops, const std::string& host, int port, const Opener& open);
  ~JumpChain();
  JumpChain(const JumpChain&) = delete;
  JumpChain& operator=(const JumpChain&) = delete;

  /// The socket for the session to host:port (hand it to SSH_OPTIONS_FD; taken once).
  int take_fd();
  /// "jump host 1 of 2 (u@h:22)", how messages name a hop.
  static std::string who(const Endpoint& hop);

 private:
  struct Link {
    std::string who;
    ssh_session session = nullptr;
    ssh_channel channel = nullptr;
    int ours = -1;        ///< our end of the pair: what the next session sends arrives here
    std::string to_next;  ///< bytes from the channel not yet written to `ours`
    bool closed = false;
  };
  void add_link(const std::string& who, ssh_session s, const std::string& host, int port);
  void pump();
  bool pump_link(Link& l);
  void close_all();

  std::vector<Link> links_;
  std::atomic<std::size_t> active_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
  int next_fd_ = -1;  ///< the peer end of the last link, for the next session
};

}  // namespace labgate::transport
