// Tests of kinds/tcp_rr.cc (and what it takes from kinds/socket_kind.cc) through
// the layers that read it: spelling, traits, tools and statistics, keys, a case
// per pair in the Latency suite, the "measuring" line, netperf's test name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kinds/kind_profile_test_util.h"
#include "labgate/gate/counter_watch.h"
#include "labgate/measure/probe_command.h"

namespace labgate::kinds {
namespace {

TEST(TcpRrKind, IsATcpRoundTripMeasuredByThePingpongProbeOrARoundTripTool) {
  EXPECT_EQ(profile::parse_test_kind("tcp_rr"), TestKind::kTcpRr);
  EXPECT_TRUE(profile::is_rr(TestKind::kTcpRr));
  EXPECT_TRUE(profile::is_tcp(TestKind::kTcpRr));
  EXPECT_FALSE(profile::is_stream(TestKind::kTcpRr));
  EXPECT_TRUE(profile::is_network(TestKind::kTcpRr));
  EXPECT_STREQ(measure::probe_for(TestKind::kTcpRr), "pingpong");
  for (Tool t : {Tool::kBuiltin, Tool::kNetperf, Tool::kSockperf, Tool::kSfntPingpong})
    EXPECT_TRUE(profile::tool_runs(t, TestKind::kTcpRr)) << profile::to_string(t);
  EXPECT_FALSE(profile::tool_runs(Tool::kIperf3, TestKind::kTcpRr));
  EXPECT_TRUE(gate::watches_counters(TestKind::kTcpRr));
}

TEST(TcpRrKind, ReportsLatenciesNoDropsAndOneWayDelayOnlyFromThePingpongProbe) {
  EXPECT_TRUE(profile::produces(Tool::kBuiltin, TestKind::kTcpRr, Stat::kP99_99));
  EXPECT_TRUE(profile::produces(Tool::kBuiltin, TestKind::kTcpRr, Stat::kOneWayP99Forward));
  EXPECT_FALSE(profile::produces(Tool::kSockperf, TestKind::kTcpRr, Stat::kOneWayP99Forward));
  EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kTcpRr, Stat::kDropped));
  EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kTcpRr, Stat::kMinThroughput));
  EXPECT_FALSE(profile::produces(Tool::kNetperf, TestKind::kTcpRr, Stat::kP99_9));  // netperf stops at p99
  EXPECT_TRUE(profile::produces(Tool::kNetperf, TestKind::kTcpRr, Stat::kMaxRetransmits));
  EXPECT_FALSE(profile::produces(Tool::kSfntPingpong, TestKind::kTcpRr, Stat::kP90));
}

TEST(TcpRrKind, ATestIsACasePerPairInTheLatencySuiteClosedLoopUnlessPaced) {
  const profile::LoadResult r = load_tests(R"([[test]]
name = "rr"
kind = "tcp_rr"
from = "a"
to = "b"
nodelay = false
congestion = "cubic"
outlier = "200us"
duration = "10s"
warmup = "1s"
budget = { p99 = "1ms", one_way_p99_forward = "500us" }
one_way_max_error = "5us"
)");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  const auto cases = gate::expand_cases(*r.profile);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].name(), "rr/a->b");
  EXPECT_EQ(cases[0].suite, "Latency");
  EXPECT_EQ(cases[0].label, "latency");
  EXPECT_EQ(gate::measuring_description(*cases[0].spec),
            "measuring for 10s after a 1s warm-up (excluded), closed loop");
  profile::TestSpec paced = *cases[0].spec;
  paced.rate_per_sec = 5000;
  EXPECT_THAT(gate::measuring_description(paced), HasSubstr(", open loop at 5000/s"));
  paced.tool = Tool::kNetperf;  // which cannot pace: refused before it runs
  EXPECT_THROW(tool_client_line(paced), std::exception);
  paced.rate_per_sec.reset();
  EXPECT_THAT(tool_client_line(paced), HasSubstr("-t TCP_RR"));
}

TEST(TcpRrKind, OtherKindsKeysAreRefusedWithTheirReason) {
  expect_errors(R"([[test]]
name = "rr"
kind = "tcp_rr"
from = "a"
to = "b"
on = "a"
group = "239.1.1.1:5000"
budget = { p99 = "1ms", max_loss = "0%" }
)",
                {"test[rr].on: does not apply to a tcp_rr test: it sends from `from` to `to`",
                 "test[rr].group: does not apply to a tcp_rr test: `group` is a udp_multicast",
                 "a tcp_rr test run by builtin does not produce max_loss"});
}

}  // namespace
}  // namespace labgate::kinds
