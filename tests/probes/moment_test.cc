// What the probes learn about an outlier's moment (probes/common/lg_moment.c),
// on a real loopback UDP socket: the time its datagram lay in the socket, the
// CPU, and the context-switch window that ends with it.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <string>

extern "C" {
#include "lg_measure_util.h"
#include "live_stamps.h"
#include "lg_moment.h"
#include "lg_net.h"
}

#include "printed.h"

namespace {

using UdpPair = labgate::probes_test::UdpLoopPair;

void sleep_ms(long ms) {
  timespec ts{0, ms * 1000000};
  nanosleep(&ts, nullptr);
}

// Leaves what was sent unread for `ms` after it is queued on `fd` (timed from
// its arrival, not its send: on a loaded machine delivery can lag the send).
void unread_for_ms(int fd, long ms) {
  int queued = 0;
  for (int i = 0; i < 2000 && ioctl(fd, FIONREAD, &queued) == 0 && queued == 0; ++i) sleep_ms(1);
  ASSERT_GT(queued, 0) << "nothing arrived in 2 s";
  sleep_ms(ms);
}

TEST(Moment, TheDatagramsTimeInTheSocketTheCpuAndTheSwitchWindow) {
  UdpPair p;
  lg_moment m;
  lg_moment_init(&m, 1);
  lg_moment_stamps(&m, p.rx, 1);
  ASSERT_EQ(m.stamp_kind, 1) << "SIOCGSTAMPNS on this kernel";
  // The kernel turns receive stamps on lazily (a deferred static key) when no
  // other socket wanted them: a datagram received before that is unstamped, and
  // SIOCGSTAMPNS then answers "now" (a wait of 0). The probes' warm-up covers
  // this; here, datagrams go through until one carries its receive stamp.
  char b[8];
  lg_outlier warm{};
  for (int i = 0; i < 400 && warm.sock_wait_ns < 4000000; ++i) {
    ASSERT_EQ(send(p.tx, "w", 1, 0), 1);
    sleep_ms(5);
    ASSERT_EQ(recv(p.rx, b, sizeof b, 0), 1);
    lg_moment_capture(&m, &warm, p.rx, lg_now_ns());
  }
  ASSERT_GE(warm.sock_wait_ns, 4000000) << "no datagram was stamped on receipt in 2 s";
  lg_moment_rebase(&m, 10);
  ASSERT_EQ(send(p.tx, "x", 1, 0), 1);
  unread_for_ms(p.rx, 20);  // the datagram waits unread
  ASSERT_EQ(recv(p.rx, b, sizeof b, 0), 1);
  const uint64_t read_at = lg_now_ns();
  lg_outlier r{};
  r.seq = 12;
  lg_moment_capture(&m, &r, p.rx, read_at);
  EXPECT_GE(r.sock_wait_ns, 20000000) << "slept 20 ms before reading";
  EXPECT_LT(r.sock_wait_ns, 2000000000);
  EXPECT_GE(r.cpu_after, 0);
  EXPECT_EQ(r.ctx_from_seq, 10u) << "the window started at request 10";
  EXPECT_GE(r.vcsw, 1) << "the sleep is a voluntary switch";
  EXPECT_GE(r.ivcsw, 0);
  EXPECT_EQ(m.from_seq, 13u) << "the next window starts after this outlier";
  EXPECT_EQ(m.cpu, r.cpu_after) << "from the capture's own readings, not read again";
  struct rusage ru {};
  ASSERT_EQ(getrusage(RUSAGE_THREAD, &ru), 0);
  EXPECT_GE(m.vcsw, 0);
  EXPECT_LE(m.vcsw, ru.ru_nvcsw);
  EXPECT_GE(m.vcsw + 1, ru.ru_nvcsw) << "the base is the capture's counters";
}

TEST(Moment, AnInlineStampComesWithTheReadAndTimesTheWaitInTheSocket) {
  UdpPair p;
  const labgate::probes_test::LiveRxStamps live;
  ASSERT_TRUE(live.live()) << "arrivals not stamped by the kernel within 1 s";
  ASSERT_EQ(lg_rx_stamps_inline(p.rx), 1);
  char b[8];
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec)) + CMSG_SPACE(sizeof(timeval))];
  const auto read_one = [&](uint64_t& read_real) {
    iovec iov{b, sizeof b};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    EXPECT_EQ(recvmsg(p.rx, &msg, 0), 1);
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    read_real = static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
    return lg_cmsg_rx_stamp(&msg);
  };
  ASSERT_EQ(send(p.tx, "x", 1, 0), 1);
  unread_for_ms(p.rx, 20);  // the datagram waits unread
  uint64_t read_real = 0;
  const uint64_t stamp = read_one(read_real);
  ASSERT_NE(stamp, 0u) << "no SCM_TIMESTAMPNS in the control data";
  EXPECT_LE(stamp, read_real);
  EXPECT_GE(read_real - stamp, 20000000u) << "slept 20 ms before reading";
  EXPECT_LT(read_real - stamp, 2000000000u);
  // Control data without a stamp: none found.
  msghdr empty{};
  EXPECT_EQ(lg_cmsg_rx_stamp(&empty), 0u);
}

uint64_t real_now() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

TEST(Moment, AStampedReadOfATcpMessageTimesItsWaitSinceItsLastSegmentArrived) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  const int l = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_EQ(bind(l, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(listen(l, 1), 0);
  getsockname(l, reinterpret_cast<sockaddr*>(&a), &len);
  ASSERT_EQ(connect(c, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  const int s = accept(l, nullptr, nullptr);
  ASSERT_GE(s, 0);
  // TCP stamps come with recvmsg from Linux 4.13: this machine's kernel is newer.
  const labgate::probes_test::LiveRxStamps live;
  ASSERT_TRUE(live.live()) << "arrivals not stamped by the kernel within 1 s";
  ASSERT_EQ(lg_rx_stamps_inline(s), 1);
  char msg[64] = {0}, got[64];
  ASSERT_EQ(send(c, msg, sizeof msg, 0), static_cast<ssize_t>(sizeof msg));
  unread_for_ms(s, 20);  // the message waits unread
  uint64_t stamp = 0;
  ASSERT_EQ(lg_read_full_stamped(s, got, sizeof got, lg_now_ns() + 1000000000ull, 0, &stamp),
            static_cast<ssize_t>(sizeof got));
  const uint64_t read_real = real_now();
  ASSERT_NE(stamp, 0u) << "no receive stamp with the TCP read";
  EXPECT_GE(read_real - stamp, 20000000u) << "slept 20 ms before reading";
  EXPECT_LT(read_real - stamp, 2000000000u);
  close(s);
  close(c);
  close(l);
}

TEST(Moment, TcpHasNoStampAndSaysWhy) {
  lg_moment m;
  lg_moment_init(&m, 1);
  lg_moment_stamps(&m, -1, 0);
  EXPECT_EQ(m.stamp_kind, 0);
  EXPECT_STREQ(m.stamp_why, "not available: the kernel keeps no per-socket receive stamp for TCP");
  lg_outlier r{};
  r.seq = 1;
  lg_moment_capture(&m, &r, -1, lg_now_ns());
  EXPECT_EQ(r.sock_wait_ns, LG_UNKNOWN);
}

// A sample the store would only count is counted without its circumstances
// (no system call): not stored, the window goes on as for any sample.
TEST(Moment, ASampleOnlyCountedIsNotCapturedAndTheWindowGoesOn) {
  lg_moment m;
  lg_moment_init(&m, 1);
  lg_outliers o;
  ASSERT_EQ(lg_outliers_init(&o, 1, 1, 100), 0);
  lg_moment_keep(&m, &o, -1, 5, 900, 1000, 1000);  // stored: worst and over
  EXPECT_EQ(m.from_seq, 6u) << "a capture starts the next window";
  const unsigned left = m.countdown;
  lg_moment_keep(&m, &o, -1, 6, 200, 2000, 2000);  // over 100, log full, milder than 900
  EXPECT_EQ(o.over_seen, 2u);
  EXPECT_EQ(o.over_len, 1u);
  EXPECT_EQ(o.worst[0].seq, 5u);
  EXPECT_EQ(m.from_seq, 6u) << "no capture: the window is not restarted";
  EXPECT_EQ(m.countdown, left - 1) << "but ticks like any sample";
  lg_outliers_free(&o);
}

// Forensics off: every source says why, and no window ever reads anything.
TEST(Moment, OffSaysWhyAndNeverRebases) {
  lg_moment m;
  lg_moment_off(&m, "not available: --forensics off");
  for (int i = 0; i < 100000; ++i) lg_moment_tick(&m, static_cast<uint64_t>(i) + 1);
  EXPECT_EQ(m.from_seq, 0u);
  const std::string json = labgate::probes_test::printed([&m](FILE* f) { lg_moment_write_json(&m, f); });
  EXPECT_NE(json.find("\"context_switches\":\"not available: --forensics off\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"sock_wait\":\"not available: --forensics off\""), std::string::npos) << json;
}

TEST(Moment, TheWindowRebasesEveryEverySamples) {
  lg_moment m;
  lg_moment_init(&m, 1);
  const unsigned every = m.every;
  ASSERT_GE(every, 2u);
  for (unsigned i = 1; i < every; ++i) lg_moment_tick(&m, 100 + i);
  EXPECT_EQ(m.from_seq, 0u) << "not yet";
  lg_moment_tick(&m, 100 + every);
  EXPECT_EQ(m.from_seq, 100u + every);
}

}  // namespace
