// The mcast probe's batched datagram I/O (probes/mcast/mc_io.c) on real UDP
// sockets over loopback: what one mc_send_all sends, one mc_rx_read reads, each
// datagram with its own kernel receive stamp within the time it was in flight
// (a batch read does not give every message the read's time); a datagram
// longer than a slot is truncated, never split; the control message's stamp
// is read in ns and in us.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

extern "C" {
#include "lg_measure_util.h"
#include "live_stamps.h"
#include "mc_io.h"
}

namespace {

uint64_t realtime_ns() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

struct LoopPair {
  int rx = -1, tx = -1;
  lg_sockaddr to{};
  LoopPair() {
    rx = socket(AF_INET, SOCK_DGRAM, 0);
    tx = socket(AF_INET, SOCK_DGRAM, 0);
    to.in4.sin_family = AF_INET;
    to.in4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(bind(rx, &to.sa, sizeof(to.in4)), 0);
    socklen_t len = sizeof(to.in4);
    EXPECT_EQ(getsockname(rx, &to.sa, &len), 0);
  }
  ~LoopPair() {
    close(rx);
    close(tx);
  }
};

lg_anchor anchor_now() {
  lg_anchor a{};
  lg_anchor_take(&a);
  return a;
}

// Every datagram read, in as few reads as they arrived for (loopback delivers
// in the sender's context, or a moment later under load): each read's
// datagrams appended to `out` as (length, first byte, stamp).
struct Got {
  unsigned len;
  unsigned char first;
  uint64_t stamp;
};
int read_until(mc_rx* r, const lg_anchor* a, std::size_t want, std::vector<Got>& out) {
  int reads = 0;
  for (int tries = 0; out.size() < want && tries < 200; ++tries) {
    const int n = mc_rx_read(r, a);
    EXPECT_GE(n, 0);
    if (n <= 0) {
      usleep(10000);
      continue;
    }
    ++reads;
    for (int i = 0; i < n; ++i) out.push_back({r->msg[i].msg_len, r->buf[i][0], r->real_ns[i]});
  }
  return reads;
}

TEST(McIo, ManySentAtOnceAreReadInBatchesEachWithItsOwnKernelStamp) {
  LoopPair p;
  const labgate::probes_test::LiveRxStamps live;
  ASSERT_TRUE(live.live()) << "arrivals not stamped by the kernel within 1 s";
  static mc_rx r;  // large: not on the stack
  mc_rx_init(&r, p.rx);
  ASSERT_EQ(r.stamps, MC_STAMP_NS);  // any kernel since 2.6.22
  EXPECT_STREQ(mc_stamp_name(r.stamps), "kernel_ns");
  const lg_anchor a = anchor_now();
  constexpr int kN = 40;
  constexpr size_t kLen = 48;
  std::vector<unsigned char> bufs(kN * kLen);
  for (int i = 0; i < kN; ++i) std::memset(&bufs[i * kLen], 'a' + i % 26, kLen);
  int batched = 1;
  const uint64_t before = realtime_ns();
  ASSERT_EQ(mc_send_all(p.tx, &p.to, bufs.data(), kN, kLen, &batched), 0);
  EXPECT_EQ(batched, 1);
  // The reads come well after the arrivals: 20 ms, and at least until the
  // first datagram is queued (on a loaded machine delivery can lag the send).
  usleep(20000);
  int queued = 0;
  for (int i = 0; i < 2000 && ioctl(p.rx, FIONREAD, &queued) == 0 && queued == 0; ++i) usleep(1000);
  ASSERT_GT(queued, 0) << "nothing arrived in 2 s";
  const uint64_t read_at = realtime_ns();
  std::vector<Got> got;
  const int reads = read_until(&r, &a, kN, got);
  ASSERT_EQ(got.size(), static_cast<std::size_t>(kN));
  EXPECT_LT(reads, kN) << "not one read per datagram";
  for (int i = 0; i < kN; ++i) {
    EXPECT_EQ(got[i].len, kLen);
    EXPECT_EQ(got[i].first, 'a' + i % 26);
    // Stamped on arrival: after the send began, and (for those already there) not at the read.
    EXPECT_GE(got[i].stamp, before) << i;
    if (i > 0) {
      EXPECT_GE(got[i].stamp, got[i - 1].stamp) << i;
    }
  }
  EXPECT_LT(got[0].stamp, read_at);
  EXPECT_EQ(mc_rx_read(&r, &a), 0);  // nothing more: 0, not an error
}

TEST(McIo, ADatagramLongerThanASlotIsTruncatedNotSplit) {
  LoopPair p;
  static mc_rx r;
  mc_rx_init(&r, p.rx);
  const lg_anchor a = anchor_now();
  std::vector<unsigned char> big(1000, 'x');
  int batched = 1;
  ASSERT_EQ(mc_send_all(p.tx, &p.to, big.data(), 1, big.size(), &batched), 0);
  ASSERT_EQ(mc_send_all(p.tx, &p.to, big.data(), 1, 10, &batched), 0);
  std::vector<Got> got;
  read_until(&r, &a, 2, got);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].len, static_cast<unsigned>(MC_SLOT));
  EXPECT_EQ(got[1].len, 10u);
}

TEST(McIo, WithoutKernelStampsEachReadIsStampedAfterIt) {
  LoopPair p;
  static mc_rx r;
  mc_rx_init(&r, p.rx);
  r.stamps = MC_STAMP_USER;  // as where neither SO_TIMESTAMPNS nor SO_TIMESTAMP is taken
  r.batched = 0;             // and recvmmsg is missing
  EXPECT_STREQ(mc_stamp_name(r.stamps), "user");
  const lg_anchor a = anchor_now();
  unsigned char m[32] = {1};
  int batched = 0;  // sendmmsg missing: one sendto each
  ASSERT_EQ(mc_send_all(p.tx, &p.to, m, 1, sizeof(m), &batched), 0);
  ASSERT_EQ(mc_send_all(p.tx, &p.to, m, 1, sizeof(m), &batched), 0);
  usleep(20000);
  const uint64_t before_read = realtime_ns();
  std::vector<Got> got;
  read_until(&r, &a, 2, got);
  ASSERT_EQ(got.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_GE(got[i].stamp + a.error_ns + 1000, before_read) << i;
  }
}

// lg_net.h's parse, which mc_rx_read uses: both stamp kinds.
TEST(McIo, TheControlMessagesStampInNsAndUs) {
  union {
    char c[CMSG_SPACE(sizeof(timespec))];
    cmsghdr align;
  } ctl{};
  msghdr m{};
  m.msg_control = ctl.c;
  m.msg_controllen = sizeof(ctl.c);
  EXPECT_EQ(lg_cmsg_rx_stamp(&m), 0u) << "no control message: no stamp";
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_TIMESTAMPNS;
  c->cmsg_len = CMSG_LEN(sizeof(timespec));
  const timespec ts{1700000000, 123456789};
  std::memcpy(CMSG_DATA(c), &ts, sizeof(ts));
  EXPECT_EQ(lg_cmsg_rx_stamp(&m), 1700000000123456789ull);
  c->cmsg_type = SCM_TIMESTAMP;
  c->cmsg_len = CMSG_LEN(sizeof(timeval));
  const timeval tv{1700000000, 654321};
  std::memcpy(CMSG_DATA(c), &tv, sizeof(tv));
  EXPECT_EQ(lg_cmsg_rx_stamp(&m), 1700000000654321000ull);
}

}  // namespace
