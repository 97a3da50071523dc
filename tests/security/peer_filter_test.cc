// The probe servers' peer filter (probes/common/lg_net_peer.c) on loopback,
// where 127.0.0.2 plays the harness's client and 127.0.0.3 a stranger.
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

extern "C" {
#include "lg_measure_util.h"
#include "lg_net.h"
#include "lg_net_peer.h"
}

namespace {

sockaddr_in addr(const char* ip, int port) {
  sockaddr_in a{};
  EXPECT_EQ(lg_addr(ip, port, &a), 0) << ip;
  return a;
}

// A TCP socket bound to `src`, connected to `dst` (the kernel completes the
// handshake from the listen queue before anyone calls accept()).
int connect_from(const char* src, const sockaddr_in& dst) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  const sockaddr_in s = addr(src, 0);
  EXPECT_EQ(bind(fd, reinterpret_cast<const sockaddr*>(&s), sizeof s), 0) << strerror(errno);
  EXPECT_EQ(connect(fd, reinterpret_cast<const sockaddr*>(&dst), sizeof dst), 0) << strerror(errno);
  return fd;
}

class Listener : public ::testing::Test {
 protected:
  void SetUp() override {
    char err[256];
    sockaddr_in a = addr("127.0.0.1", 0);
    lfd_ = lg_listen_tcp(&a, &port_, err, sizeof err);
    ASSERT_GE(lfd_, 0) << err;
    at_ = addr("127.0.0.1", port_);
  }
  void TearDown() override { close(lfd_); }
  int lfd_ = -1, port_ = 0;
  sockaddr_in at_{};
};

TEST(PeerFilter, OffServesAnyoneOnServesOnlyThePeer) {
  lg_peer_filter f;
  ASSERT_EQ(lg_peer_set(&f, nullptr), 0);
  const sockaddr_in stranger = addr("127.0.0.3", 4000), peer = addr("127.0.0.2", 5000);
  EXPECT_EQ(lg_peer_allows(&f, &stranger), 1);
  ASSERT_EQ(lg_peer_set(&f, "127.0.0.2"), 0);
  EXPECT_EQ(lg_peer_allows(&f, &peer), 1) << "any port of the peer's address";
  EXPECT_EQ(lg_peer_allows(&f, &stranger), 0);
  EXPECT_EQ(lg_peer_allows(&f, &stranger), 0);
  EXPECT_EQ(f.foreign, 2u);
}

TEST(PeerFilter, SomethingThatIsNotAnAddressIsRefused) {
  lg_peer_filter f;
  for (const char* bad : {"", "1.2.3", "host.example", "127.0.0.1; rm -rf /", "::1"})
    EXPECT_EQ(lg_peer_set(&f, bad), -1) << bad;
  EXPECT_EQ(f.on, 0);
}

TEST_F(Listener, AStrangerQueuedFirstIsResetAndThePeerIsServed) {
  lg_peer_filter f;
  ASSERT_EQ(lg_peer_set(&f, "127.0.0.2"), 0);
  const int stranger = connect_from("127.0.0.3", at_);
  const int peer = connect_from("127.0.0.2", at_);
  const int fd = lg_accept_peer(lfd_, &f, lg_now_ns() + 2000000000ull);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(f.foreign, 1u);
  // The one served is the peer: what it sends arrives on fd.
  ASSERT_EQ(send(peer, "x", 1, 0), 1);
  char c = 0;
  EXPECT_EQ(recv(fd, &c, 1, 0), 1);
  EXPECT_EQ(c, 'x');
  // The stranger was reset without a byte: its read fails with ECONNRESET.
  timeval tv{2, 0};
  setsockopt(stranger, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  EXPECT_EQ(recv(stranger, &c, 1, 0), -1);
  EXPECT_EQ(errno, ECONNRESET);
  close(fd);
  close(peer);
  close(stranger);
}

TEST_F(Listener, StrangersDoNotMoveTheDeadline) {
  lg_peer_filter f;
  ASSERT_EQ(lg_peer_set(&f, "127.0.0.2"), 0);
  const uint64_t start = lg_now_ns();
  int strangers[3];
  for (int& s : strangers) s = connect_from("127.0.0.3", at_);
  EXPECT_EQ(lg_accept_peer(lfd_, &f, start + 300000000ull), -2);
  const uint64_t took = lg_now_ns() - start;
  EXPECT_GE(took, 300000000ull);
  EXPECT_LT(took, 2000000000ull) << "the deadline is fixed by the caller, not by traffic";
  EXPECT_EQ(f.foreign, 3u);
  for (int s : strangers) close(s);
}

TEST_F(Listener, TheAcceptedSocketIsBlockingAndCloseOnExec) {
  lg_peer_filter f;
  ASSERT_EQ(lg_peer_set(&f, nullptr), 0);
  const int peer = connect_from("127.0.0.2", at_);
  const int fd = lg_accept_peer(lfd_, &f, lg_now_ns() + 2000000000ull);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
  EXPECT_NE(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
  close(fd);
  close(peer);
}

}  // namespace
