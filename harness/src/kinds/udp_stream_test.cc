// Tests of kinds/udp_stream.cc through the layers that read it: loss beside
// throughput (the builtin, iperf3 and netperf count it), no TCP keys, a paced
// stream's "measuring" line, a mesh's cases, netperf's UDP_STREAM and iperf3 -u.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kinds/kind_profile_test_util.h"
#include "labgate/measure/probe_command.h"

namespace labgate::kinds {
namespace {

TEST(UdpStreamKind, ReportsLossBesideThroughputAndIsNotTcp) {
  EXPECT_EQ(profile::parse_test_kind("udp_stream"), TestKind::kUdpStream);
  EXPECT_TRUE(profile::is_stream(TestKind::kUdpStream));
  EXPECT_FALSE(profile::is_tcp(TestKind::kUdpStream));
  EXPECT_STREQ(measure::probe_for(TestKind::kUdpStream), "stream");
  for (Tool t : {Tool::kBuiltin, Tool::kIperf3, Tool::kNetperf}) {
    EXPECT_TRUE(profile::produces(t, TestKind::kUdpStream, Stat::kMaxLoss)) << profile::to_string(t);
    EXPECT_TRUE(profile::produces(t, TestKind::kUdpStream, Stat::kMinThroughput)) << profile::to_string(t);
  }
  EXPECT_FALSE(profile::produces(Tool::kNetperf, TestKind::kUdpStream, Stat::kP50));
  EXPECT_FALSE(profile::tool_runs(Tool::kSfntPingpong, TestKind::kUdpStream));
}

TEST(UdpStreamKind, AMeshIsACasePerPairInTheThroughputSuitePacedByRate) {
  const profile::LoadResult r = load_tests(R"([[test]]
name = "feed"
kind = "udp_stream"
pairs = "mesh"
directions = "one"
rate = "2000/s"
duration = "4s"
warmup = "1s"
budget = { max_loss = "0.1%" }
)");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  const auto cases = gate::expand_cases(*r.profile);
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[0].name(), "feed/a->b");
  EXPECT_EQ(cases[2].name(), "feed/b->c");
  EXPECT_EQ(cases[2].suite, "Throughput");
  EXPECT_EQ(gate::measuring_description(*cases[0].spec),
            "measuring for 4s after a 1s warm-up (excluded), open loop at 2000/s");
  profile::TestSpec by_tool = *cases[0].spec;
  by_tool.rate_per_sec.reset();
  by_tool.tool = Tool::kNetperf;
  EXPECT_THAT(tool_client_line(by_tool), HasSubstr("-t UDP_STREAM"));
  by_tool.tool = Tool::kIperf3;
  EXPECT_THAT(tool_client_line(by_tool), HasSubstr(" -u"));
}

TEST(UdpStreamKind, TcpAndRoundTripKeysAreRefused) {
  expect_errors(R"([[test]]
name = "feed"
kind = "udp_stream"
from = "a"
to = "b"
congestion = "bbr"
one_way_max_error = "5us"
budget = { max_loss = "0%" }
)",
                {"test[feed].congestion: does not apply to a udp_stream test: it sets TCP_CONGESTION",
                 "test[feed].one_way_max_error: does not apply to a udp_stream test: one-way delay is"});
}

}  // namespace
}  // namespace labgate::kinds
