// The probe servers' peer filter (probes/common/lg_net_peer.c) on loopback,
// where 127.0.0.2 plays the harness's client and 127.0.0.3 a stranger; over
// IPv6 ::1 is the client and an IPv4 source on a dual-stack listener a stranger.
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

lg_sockaddr addr(const char* ip, int port) {
  lg_sockaddr a{};
  EXPECT_EQ(lg_addr(ip, port, &a), 0) << ip;
  return a;
}

// A TCP socket bound to `src`, connected to `dst` (the kernel completes the
// handshake from the listen queue before anyone calls accept()).
int connect_from(const char* src, const lg_sockaddr& dst) {
  const lg_sockaddr s = addr(src, 0);
  const int fd = socket(s.sa.sa_family, SOCK_STREAM, 0);
  EXPECT_EQ(bind(fd, &s.sa, lg_addr_len(&s)), 0) << strerror(errno);
  EXPECT_EQ(connect(fd, &dst.sa, lg_addr_len(&dst)), 0) << strerror(errno);
  return fd;
}

class Listener : public ::testing::Test {
 protected:
  void SetUp() override { listen_on("127.0.0.1"); }
  void listen_on(const char* ip) {
    char err[256];
    if (lfd_ >= 0) close(lfd_);
    lg_sockaddr a = addr(ip, 0);
    lfd_ = lg_listen_tcp(&a, &port_, err, sizeof err);
    ASSERT_GE(lfd_, 0) << err;
    at_ = addr(ip, port_);
  }
  void TearDown() override { close(lfd_); }
  int lfd_ = -1, port_ = 0;
  lg_sockaddr at_{};
};

TEST(PeerFilter, OffServesAnyoneOnServesOnlyThePeer) {
  lg_peer_filter f;
  ASSERT_EQ(lg_peer_set(&f, nullptr), 0);
  const lg_sockaddr stranger = addr("127.0.0.3", 4000), peer = addr("127.0.0.2", 5000);
  EXPECT_EQ(lg_peer_allows(&f, &stranger), 1);
  ASSERT_EQ(lg_peer_set(&f, "127.0.0.2"), 0);
  EXPECT_EQ(lg_peer_allows(&f, &peer), 1) << "any port of the peer's address";
  EXPECT_EQ(lg_peer_allows(&f, &stranger), 0);
  EXPECT_EQ(lg_peer_allows(&f, &stranger), 0);
  EXPECT_EQ(f.foreign, 2u);
}

TEST(PeerFilter, AnIpv6PeerIsMatchedByAddressAndFamily) {
  lg_peer_filter f;
  ASSERT_EQ(lg_peer_set(&f, "fd4c:6762:0:200::1"), 0);
  const lg_sockaddr peer = addr("fd4c:6762:0:200::1", 5000), stranger = addr("fd4c:6762:0:200::3", 5000),
                    other_family = addr("0.0.0.0", 5000);
  EXPECT_EQ(lg_peer_allows(&f, &peer), 1);
  EXPECT_EQ(lg_peer_allows(&f, &stranger), 0);
  EXPECT_EQ(lg_peer_allows(&f, &other_family), 0) << "an IPv4 source never matches an IPv6 peer";
  EXPECT_EQ(f.foreign, 2u);
}

TEST(PeerFilter, AddressesOfEitherFamilyAreFormattedAndSized) {
  char buf[80];
  const lg_sockaddr v6 = addr("fd4c:6762::1", 7000), v4 = addr("198.19.1.2", 7001);
  EXPECT_STREQ(lg_addr_str(&v6, buf, sizeof buf), "[fd4c:6762::1]:7000");
  EXPECT_STREQ(lg_addr_str(&v4, buf, sizeof buf), "198.19.1.2:7001");
  EXPECT_EQ(lg_addr_len(&v6), sizeof(sockaddr_in6));
  EXPECT_EQ(lg_addr_len(&v4), sizeof(sockaddr_in));
  lg_sockaddr moved = v6;
  lg_addr_set_port(&moved, 9);
  EXPECT_EQ(lg_addr_port(&moved), 9);
  EXPECT_EQ(lg_addr_same_host(&moved, &v6), 1);
}

TEST(PeerFilter, SomethingThatIsNotAnAddressIsRefused) {
  lg_peer_filter f;
  for (const char* bad : {"", "1.2.3", "host.example", "127.0.0.1; rm -rf /", "fe80::1%eth0", "[::1]", "::g"})
    EXPECT_EQ(lg_peer_set(&f, bad), -1) << bad;
  EXPECT_EQ(f.on, 0);
}

// Queues a stranger's connection from `stranger_ip`, then the peer's from
// `peer_ip`; the filter (set to the peer) must reset the first and serve the second.
void expect_stranger_reset_and_peer_served(int lfd, const char* peer_ip, const lg_sockaddr& peer_at,
                                           const char* stranger_ip, const lg_sockaddr& stranger_at) {
  lg_peer_filter f;
  ASSERT_EQ(lg_peer_set(&f, peer_ip), 0);
  const int stranger = connect_from(stranger_ip, stranger_at);
  const int peer = connect_from(peer_ip, peer_at);
  const int fd = lg_accept_peer(lfd, &f, lg_now_ns() + 2000000000ull);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(f.foreign, 1u);
  // The one served is the peer: what it sends arrives on fd (a wrongly accepted
  // stranger sends nothing: the timeout fails the test instead of hanging it).
  timeval tv{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ASSERT_EQ(send(peer, "x", 1, 0), 1);
  char c = 0;
  EXPECT_EQ(recv(fd, &c, 1, 0), 1);
  EXPECT_EQ(c, 'x');
  // The stranger was reset without a byte: its read fails with ECONNRESET.
  setsockopt(stranger, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  EXPECT_EQ(recv(stranger, &c, 1, 0), -1);
  EXPECT_EQ(errno, ECONNRESET);
  close(fd);
  close(peer);
  close(stranger);
}

TEST_F(Listener, AStrangerQueuedFirstIsResetAndThePeerIsServed) {
  expect_stranger_reset_and_peer_served(lfd_, "127.0.0.2", at_, "127.0.0.3", at_);
}

// An IPv6 listener: the peer on ::1 is served; an IPv4 client reaching the
// dual-stack wildcard (as ::ffff:127.0.0.3) is a stranger and reset.
TEST_F(Listener, OverIpv6ThePeerIsServedAndAnIpv4SourceIsAStranger) {
  listen_on("::");
  expect_stranger_reset_and_peer_served(lfd_, "::1", addr("::1", port_), "127.0.0.3",
                                        addr("127.0.0.1", port_));
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
