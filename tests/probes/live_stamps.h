// Receive stamps made live before a test relies on them. The kernel stamps
// arrivals only once a socket has asked (a deferred static key, turned on by a
// kworker): until then a datagram is stamped when it is read. On a loaded
// machine that kworker can wait long enough for a test's first datagrams to
// carry their read's time (seen: a 20 ms wait measured as 3.8 us). This holds
// a socket of its own with SO_TIMESTAMPNS (so the key stays on) and waits until
// one of its datagrams carries a stamp older than its read by the sleep.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

namespace labgate::probes_test {

/// A connected UDP pair on loopback: tx sends to rx.
struct UdpLoopPair {
  int rx = -1, tx = -1;
  UdpLoopPair() {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    rx = socket(AF_INET, SOCK_DGRAM, 0);
    tx = socket(AF_INET, SOCK_DGRAM, 0);
    bind(rx, reinterpret_cast<sockaddr*>(&a), sizeof a);
    getsockname(rx, reinterpret_cast<sockaddr*>(&a), &len);
    connect(tx, reinterpret_cast<sockaddr*>(&a), sizeof a);
  }
  ~UdpLoopPair() {
    close(rx);
    close(tx);
  }
  UdpLoopPair(const UdpLoopPair&) = delete;
  UdpLoopPair& operator=(const UdpLoopPair&) = delete;
};

class LiveRxStamps {
 public:
  LiveRxStamps() {
    const int on = 1;
    setsockopt(p_.rx, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
    for (int i = 0; i < 200 && !live_; ++i) live_ = one_stamped_on_arrival();
  }
  /// Whether arrivals are stamped (within 200 tries of 5 ms).
  bool live() const { return live_; }

 private:
  static std::uint64_t real_ns() {
    timespec t{};
    clock_gettime(CLOCK_REALTIME, &t);
    return static_cast<std::uint64_t>(t.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(t.tv_nsec);
  }
  bool one_stamped_on_arrival() {
    if (send(p_.tx, "w", 1, 0) != 1) return false;
    int queued = 0;
    for (int i = 0; i < 2000 && ioctl(p_.rx, FIONREAD, &queued) == 0 && queued == 0; ++i) usleep(1000);
    usleep(5000);
    char b[8];
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
    iovec iov{b, sizeof b};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    if (recvmsg(p_.rx, &msg, 0) != 1) return false;
    const std::uint64_t read_at = real_ns();
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
        timespec ts{};
        std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
        const std::uint64_t stamp =
            static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
        return stamp <= read_at && read_at - stamp >= 4000000;
      }
    return false;
  }
  UdpLoopPair p_;
  bool live_ = false;
};

}  // namespace labgate::probes_test
