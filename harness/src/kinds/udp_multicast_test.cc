// Tests of kinds/udp_multicast.cc through the layers that read it: the profile's
// spelling, keys and statistics, the probe, the cases of the built-in feed and of
// a tool's ping-pong, the suite and label, and the "measuring" line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kinds/kind_profile_test_util.h"
#include "labgate/measure/probe_command.h"

namespace labgate::kinds {
namespace {

TEST(MulticastKind, IsSpelledUdpMulticastFedByTheMcastProbeOrPingedByATool) {
  EXPECT_EQ(profile::parse_test_kind("udp_multicast"), TestKind::kUdpMulticast);
  EXPECT_STREQ(measure::probe_for(TestKind::kUdpMulticast), "mcast");
  EXPECT_TRUE(profile::tool_runs(Tool::kSockperf, TestKind::kUdpMulticast));
  EXPECT_TRUE(profile::tool_runs(Tool::kSfntPingpong, TestKind::kUdpMulticast));
  EXPECT_FALSE(profile::tool_runs(Tool::kNetperf, TestKind::kUdpMulticast));
  EXPECT_FALSE(profile::tool_runs(Tool::kIperf3, TestKind::kUdpMulticast));
  // The feed: round trips, loss, gap, the forward one-way figures; no counters.
  for (Stat s : {Stat::kP99, Stat::kDropped, Stat::kMaxLoss, Stat::kMaxGap, Stat::kOneWayP99Forward})
    EXPECT_TRUE(profile::produces(Tool::kBuiltin, TestKind::kUdpMulticast, s)) << profile::to_string(s);
  for (Stat s : {Stat::kOneWayP99Reverse, Stat::kMaxRetransmits, Stat::kMinThroughput})
    EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kUdpMulticast, s)) << profile::to_string(s);
  // A tool's ping-pong: what its udp_rr reports, no gap, no one-way.
  EXPECT_TRUE(profile::produces(Tool::kSockperf, TestKind::kUdpMulticast, Stat::kP99_9));
  EXPECT_FALSE(profile::produces(Tool::kSockperf, TestKind::kUdpMulticast, Stat::kMaxGap));
  EXPECT_FALSE(profile::produces(Tool::kSfntPingpong, TestKind::kUdpMulticast, Stat::kP99_9));
}

TEST(MulticastKind, TheFeedIsOneCaseOnThePublisherAToolsPingPongAPair) {
  const profile::LoadResult r = load_tests(R"([[test]]
name = "feed"
kind = "udp_multicast"
from = "a"
to = ["b", "c"]
group = "239.1.1.1:5000"
rate = "2000/s"
reply_every = 10
duration = "3s"
warmup = "500ms"
budget = { p99 = "1ms", max_gap = 0 }
[[test]]
name = "ping"
kind = "udp_multicast"
tool = "sockperf"
from = "a"
to = ["c"]
group = "239.1.1.2:5001"
duration = "3s"
budget = { p99 = "1ms" }
)");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  const auto cases = gate::expand_cases(*r.profile);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].name(), "feed/a");
  EXPECT_EQ(cases[0].server, "");
  EXPECT_EQ(cases[0].suite, "Multicast");
  EXPECT_EQ(cases[0].label, "multicast");
  EXPECT_EQ(
      gate::measuring_description(*cases[0].spec),
      "publishing to 239.1.1.1:5000 for 3s after a 500ms warm-up (excluded) at 2000/s to 2 subscriber(s), "
      "each answering 1 in 10");
  EXPECT_EQ(cases[1].name(), "ping/a");
  EXPECT_EQ(cases[1].client, "a");
  EXPECT_EQ(cases[1].server, "c");
  EXPECT_THAT(gate::measuring_description(*cases[1].spec),
              HasSubstr("sockperf for 3s by sockperf's own clock"));
}

TEST(MulticastKind, ItsKeysAreRefusedElsewhereAndOthersKeysHere) {
  EXPECT_THAT(errors_of(R"([[test]]
name = "rr"
kind = "udp_rr"
from = "a"
to = "b"
ttl = 2
budget = { p99 = "1ms" }
)"),
              HasSubstr("test[rr].ttl: does not apply to a udp_rr test: `ttl` is a udp_multicast test's "
                        "IP_MULTICAST_TTL"));
  expect_errors(
      R"([[test]]
name = "feed"
kind = "udp_multicast"
from = "a"
to = ["b"]
group = "239.1.1.1:5000"
rate = "1000/s"
port = 5000
budget = { p99 = "1ms", min_throughput = "1Gbit/s" }
)",
      {"test[feed].port: does not apply to a udp_multicast test", "does not produce min_throughput"});
}

TEST(MulticastKind, ItsHostChecksReplaceFromAndTo) {
  expect_errors(R"([[test]]
name = "feed"
kind = "udp_multicast"
from = "a"
to = ["a", "zz"]
rate = "1000/s"
budget = { p99 = "1ms" }
)",
                {"test[feed].group: missing", "is the publisher (`from`); it cannot subscribe too", "zz"});
}

}  // namespace
}  // namespace labgate::kinds
