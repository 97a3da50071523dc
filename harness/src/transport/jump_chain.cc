// The jump chain: hop sessions, their forward channels and the byte pump.
#include "jump_chain.h"

#include <fcntl.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "labgate/util/exit_code.h"

namespace labgate::transport {
namespace {
// Bytes a link holds for a slow reader before it stops reading its channel
// (the SSH window then holds the sender back).
constexpr std::size_t kMaxPending = 1 << 20;
// How long the pump sleeps when no socket is readable: libssh may hold data it
// read while writing, which no poll on its fd shows, so the pump looks again.
constexpr int kIdlePollMs = 10;
}  // namespace

std::string JumpChain::who(const Endpoint& hop) { return hop.label + " (" + hop.target() + ")"; }

JumpChain::JumpChain(const std::vector<Endpoint>& hops, const std::string& host, int port,
                     const Opener& open) {
  links_.reserve(hops.size());  // the pump reads links_[0..active_) while we append: never reallocate
  try {
    for (std::size_t i = 0; i < hops.size(); ++i) {
      const std::string w = who(hops[i]);
      ssh_session s = open(hops[i], w, next_fd_);
      next_fd_ = -1;  // the session owns it now
      const bool last = i + 1 == hops.size();
      add_link(w, s, last ? host : hops[i + 1].host.address, last ? port : hops[i + 1].host.ssh.port);
      if (i == 0) thread_ = std::thread([this] { pump(); });
    }
  } catch (...) {
    close_all();
    throw;
  }
}

JumpChain::~JumpChain() { close_all(); }

int JumpChain::take_fd() {
  const int fd = next_fd_;
  next_fd_ = -1;
  return fd;
}

void JumpChain::add_link(const std::string& who, ssh_session s, const std::string& host, int port) {
  Link l;
  l.who = who;
  l.session = s;
  l.channel = ssh_channel_new(s);
  auto fail = [&](const std::string& msg) {
    if (l.channel) ssh_channel_free(l.channel);
    ssh_disconnect(s);
    ssh_free(s);
    throw Failure(ExitCode::kCouldNotRun, who + ": " + msg);
  };
  if (!l.channel) fail("cannot allocate a channel");
  if (ssh_channel_open_forward(l.channel, host.c_str(), port, "127.0.0.1", 0) != SSH_OK)
    fail("cannot open a forwarded connection (direct-tcpip) to " + host + ":" + std::to_string(port) + ": " +
         ssh_get_error(s) + " (does its sshd allow it: AllowTcpForwarding, PermitOpen?)");
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
    fail(std::string("cannot make a socket pair: ") + std::strerror(errno));
  fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK);
  l.ours = pair[0];
  next_fd_ = pair[1];
  links_.push_back(std::move(l));
  active_.store(links_.size());
}

void JumpChain::pump() {
  while (!stop_.load()) {
    const std::size_t n = active_.load();
    std::vector<pollfd> fds;
    for (std::size_t i = 0; i < n; ++i) {
      Link& l = links_[i];
      if (l.closed) continue;
      fds.push_back({l.ours, static_cast<short>(POLLIN | (l.to_next.empty() ? 0 : POLLOUT)), 0});
      fds.push_back({ssh_get_fd(l.session), POLLIN, 0});
    }
    poll(fds.empty() ? nullptr : fds.data(), fds.size(), kIdlePollMs);
    for (std::size_t i = 0; i < n; ++i)
      if (!links_[i].closed && !pump_link(links_[i])) {
        links_[i].closed = true;
        shutdown(links_[i].ours, SHUT_RDWR);  // the next session sees the end and reports it
      }
  }
}

// Moves what is ready in both directions; false once the link is finished.
bool JumpChain::pump_link(Link& l) {
  char buf[64 * 1024];
  // Next session -> channel.
  const ssize_t r = read(l.ours, buf, sizeof buf);
  if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
    ssh_channel_send_eof(l.channel);
    return false;
  }
  if (r > 0 && ssh_channel_write(l.channel, buf, static_cast<uint32_t>(r)) != r) {
    spdlog::debug("{}: forwarding failed: {}", l.who, ssh_get_error(l.session));
    return false;
  }
  // Channel -> next session.
  while (l.to_next.size() < kMaxPending) {
    const int got = ssh_channel_read_nonblocking(l.channel, buf, sizeof buf, 0);
    if (got == SSH_ERROR) {
      spdlog::debug("{}: connection lost: {}", l.who, ssh_get_error(l.session));
      return false;
    }
    if (got <= 0) break;
    l.to_next.append(buf, static_cast<std::size_t>(got));
  }
  while (!l.to_next.empty()) {
    const ssize_t w = write(l.ours, l.to_next.data(), l.to_next.size());
    if (w < 0) {
      if (errno == EAGAIN || errno == EINTR) break;
      return false;
    }
    l.to_next.erase(0, static_cast<std::size_t>(w));
  }
  if (l.to_next.empty() && (ssh_channel_is_eof(l.channel) || ssh_channel_is_closed(l.channel))) {
    spdlog::debug("{}: the forwarded connection was closed by the far side", l.who);
    return false;
  }
  return true;
}

void JumpChain::close_all() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  if (next_fd_ >= 0) close(next_fd_);
  next_fd_ = -1;
  for (auto it = links_.rbegin(); it != links_.rend(); ++it) {
    if (it->channel) {
      ssh_channel_close(it->channel);
      ssh_channel_free(it->channel);
    }
    if (it->ours >= 0) close(it->ours);
    if (ssh_is_connected(it->session)) ssh_disconnect(it->session);
    ssh_free(it->session);
  }
  links_.clear();
}

}  // namespace labgate::transport
