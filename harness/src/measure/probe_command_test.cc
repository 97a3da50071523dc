// The built-in probes' command lines for profile tests.
#include "labgate/measure/probe_command.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

namespace labgate::measure {
namespace {

using namespace std::chrono_literals;
using profile::TestKind;
using Argv = std::vector<std::string>;

profile::TestSpec spec_of_kind(TestKind kind) {
  profile::TestSpec s;
  s.name = "t";
  s.kind = kind;
  s.duration = 120s;
  s.warmup = 2s;
  s.message_size = 64;
  return s;
}

TEST(ProbeCommand, TcpRrWithEverything) {
  auto s = spec_of_kind(TestKind::kTcpRr);
  s.cpu = {2, 3};
  s.busy_poll = true;
  s.rate_per_sec = 20000;
  s.port = 5001;
  s.interval = 500ms;
  EXPECT_EQ(probe_server_argv(s, "/tmp/lg.x", "198.18.1.2"),
            (Argv{"/tmp/lg.x/pingpong", "server", "--bind", "198.18.1.2", "--port", "5001", "--proto", "tcp",
                  "--idle-timeout", "30s", "--once", "--cpu", "3", "--size", "64", "--busy-poll"}));
  EXPECT_EQ(probe_client_argv(s, "/tmp/lg.x", "198.18.1.2", 5001), (Argv{"/tmp/lg.x/pingpong",
                                                                         "client",
                                                                         "--connect",
                                                                         "198.18.1.2",
                                                                         "--port",
                                                                         "5001",
                                                                         "--proto",
                                                                         "tcp",
                                                                         "--size",
                                                                         "64",
                                                                         "--duration",
                                                                         "120s",
                                                                         "--warmup",
                                                                         "2s",
                                                                         "--interval",
                                                                         "500ms",
                                                                         "--cpu",
                                                                         "2",
                                                                         "--nodelay",
                                                                         "--busy-poll",
                                                                         "--rate",
                                                                         "20000/s"}));
}

TEST(ProbeCommand, UdpRrPlainAndAnyPort) {
  auto s = spec_of_kind(TestKind::kUdpRr);
  s.nodelay = false;  // meaningless for UDP: no flag either way
  EXPECT_EQ(probe_server_argv(s, "", "198.18.1.2"),
            (Argv{"pingpong", "server", "--bind", "198.18.1.2", "--port", "0", "--proto", "udp",
                  "--idle-timeout", "30s", "--once", "--size", "64"}));
  EXPECT_EQ(probe_client_argv(s, "", "198.18.1.2", 40000),
            (Argv{"pingpong", "client", "--connect", "198.18.1.2", "--port", "40000", "--proto", "udp",
                  "--size", "64", "--duration", "120s", "--warmup", "2s", "--interval", "1s"}));
}

TEST(ProbeCommand, OutlierThresholdFromTheKeyElseTheProbeP99Budget) {
  auto s = spec_of_kind(TestKind::kUdpRr);
  const auto outlier_of = [](const Argv& a) {
    auto it = std::find(a.begin(), a.end(), "--outlier");
    return it == a.end() || it + 1 == a.end() ? std::string("(none)") : *(it + 1);
  };
  EXPECT_EQ(outlier_of(probe_client_argv(s, "", "198.18.1.2", 1)), "(none)") << "the probe's 10x p50";
  profile::Bound p99;
  p99.stat = profile::Stat::kP99;
  p99.limit = 140000;
  p99.as_written = "140us";
  s.budget.push_back(p99);
  EXPECT_EQ(outlier_of(probe_client_argv(s, "", "198.18.1.2", 1)), "140us");
  s.outlier = 250us;
  EXPECT_EQ(outlier_of(probe_client_argv(s, "", "198.18.1.2", 1)), "250us");
  s.kind = TestKind::kUdpStream;
  EXPECT_EQ(outlier_of(probe_client_argv(s, "", "198.18.1.2", 1)), "(none)") << "streams have no round trips";
}

TEST(ProbeCommand, TcpRrWithoutNodelaySaysSo) {
  auto s = spec_of_kind(TestKind::kTcpRr);
  s.nodelay = false;
  const Argv c = probe_client_argv(s, "", "198.18.1.2", 1);
  EXPECT_NE(std::find(c.begin(), c.end(), "--no-nodelay"), c.end());
  EXPECT_EQ(std::find(c.begin(), c.end(), "--nodelay"), c.end());
}

TEST(ProbeCommand, Streams) {
  auto s = spec_of_kind(TestKind::kUdpStream);
  s.message_size = 1472;
  s.busy_poll = true;  // rr only
  EXPECT_EQ(probe_server_argv(s, "/p", "198.18.1.2"),
            (Argv{"/p/stream", "server", "--bind", "198.18.1.2", "--port", "0", "--proto", "udp",
                  "--idle-timeout", "30s", "--once"}));
  EXPECT_EQ(probe_client_argv(s, "/p", "198.18.1.2", 7),
            (Argv{"/p/stream", "client", "--connect", "198.18.1.2", "--port", "7", "--proto", "udp", "--size",
                  "1472", "--duration", "120s", "--warmup", "2s", "--interval", "1s"}));
  auto t = spec_of_kind(TestKind::kTcpStream);
  const Argv c = probe_client_argv(t, "/p", "198.18.1.2", 7);
  EXPECT_EQ(c.back(), "--nodelay") << "the profile's nodelay applies to every tcp kind";
}

TEST(ProbeCommand, AStreamsRateReachesTheProbeNotOnlyTheProfile) {
  // A udp_stream's `rate` was once dropped here: the probe blasted unpaced and the
  // loss it reported depended on how busy the machine was, not on the rate asked.
  auto s = spec_of_kind(TestKind::kUdpStream);
  s.rate_per_sec = 2000;
  const Argv c = probe_client_argv(s, "/p", "198.18.1.2", 7);
  EXPECT_EQ(Argv(c.end() - 2, c.end()), (Argv{"--rate", "2000/s"}));
  const Argv server = probe_server_argv(s, "/p", "198.18.1.2");
  EXPECT_EQ(std::count(server.begin(), server.end(), "--rate"), 0) << "the server does not pace";
}

TEST(ProbeCommand, SweptSocketBufferAndCongestionGoToBothEnds) {
  auto s = spec_of_kind(TestKind::kTcpStream);
  s.socket_buffer = 16384;
  s.congestion = "bbr";
  const Argv tail{"--socket-buffer", "16384", "--congestion", "bbr"};
  for (const Argv& a :
       {probe_server_argv(s, "/p", "198.18.1.2"), probe_client_argv(s, "/p", "198.18.1.2", 7)})
    EXPECT_TRUE(std::equal(tail.begin(), tail.end(), a.end() - 4)) << a.back();
  auto u = spec_of_kind(TestKind::kUdpRr);
  u.socket_buffer = 262144;
  u.congestion = "bbr";  // TCP only: never passed for UDP
  const Argv c = probe_client_argv(u, "/p", "198.18.1.2", 7);
  EXPECT_EQ(std::count(c.begin(), c.end(), "--congestion"), 0);
  EXPECT_EQ(*(c.end() - 2), "--socket-buffer");
}

TEST(ProbeCommand, Jitter) {
  auto s = spec_of_kind(TestKind::kJitter);
  s.duration = 60s;
  s.warmup = 0s;
  s.threshold = 10us;
  s.cpus = {2, 3};
  EXPECT_EQ(probe_jitter_argv(s, "/p"), (Argv{"/p/jitter", "--duration", "60s", "--warmup", "0ns",
                                              "--interval", "1s", "--threshold", "10us", "--cpus", "2,3"}));
  s.cpus.clear();
  EXPECT_EQ(probe_jitter_argv(s, "/p").size(), 9u) << "no --cpus: one unpinned child";
  EXPECT_THROW(probe_server_argv(s, "/p", "198.18.1.2"), std::invalid_argument);
  EXPECT_THROW(probe_client_argv(s, "/p", "198.18.1.2", 1), std::invalid_argument);
  EXPECT_THROW(probe_jitter_argv(spec_of_kind(TestKind::kTcpRr), "/p"), std::invalid_argument);
}

TEST(ProbeCommand, ExactDurations) {
  EXPECT_EQ(exact_duration(2s), "2s");
  EXPECT_EQ(exact_duration(1500ms), "1500ms");
  EXPECT_EQ(exact_duration(250us), "250us");
  EXPECT_EQ(exact_duration(1234567ns), "1234567ns");
  EXPECT_EQ(exact_duration(0ns), "0ns");
}

TEST(ProbeCommand, HarnessWaitsLongerThanTheProbesOwnDeadline) {
  auto s = spec_of_kind(TestKind::kTcpRr);
  // The client's own backstop: connect 3 s + warm-up + duration + 2 x 3 s + 5 s.
  EXPECT_GT(probe_client_timeout(s), s.warmup + s.duration + 14s);
  EXPECT_LT(probe_client_timeout(s), s.warmup + s.duration + 60s);
  // A TCP stream's backstop adds the send buffer's drain over a lossy link (30 s).
  auto t = spec_of_kind(TestKind::kTcpStream);
  EXPECT_GT(probe_client_timeout(t), t.warmup + t.duration + 14s + 30s);
}

TEST(ProbeCommand, ProbeForEachKindItServesAndAClearRefusalOtherwise) {
  EXPECT_STREQ(probe_for(TestKind::kUdpRr), "pingpong");
  EXPECT_STREQ(probe_for(TestKind::kTcpStream), "stream");
  EXPECT_STREQ(probe_for(TestKind::kJitter), "jitter");
  EXPECT_STREQ(probe_for(TestKind::kDiskRandomRw), "disk");
  EXPECT_STREQ(probe_for(TestKind::kCommand), "cmdrun");
  for (TestKind k : {TestKind::kPathMtu, TestKind::kPingFlood}) {
    try {
      probe_for(k);
      ADD_FAILURE() << "no refusal for " << profile::to_string(k);
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(profile::to_string(k)), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace labgate::measure
