// Tests of kinds/tcp_stream.cc through the layers that read it: the stream
// probe or a bulk tool, throughput, no round-trip keys, the Throughput suite,
// the unpaced "measuring" line, buffers_cover_bdp and the probe's drain backstop.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kinds/kind_profile_test_util.h"
#include "labgate/gate/bdp_rule.h"
#include "labgate/measure/probe_command.h"

namespace labgate::kinds {
namespace {

TEST(TcpStreamKind, IsTcpBulkSendsMeasuredByTheStreamProbeOrABulkTool) {
  EXPECT_EQ(profile::parse_test_kind("tcp_stream"), TestKind::kTcpStream);
  EXPECT_TRUE(profile::is_stream(TestKind::kTcpStream));
  EXPECT_TRUE(profile::is_tcp(TestKind::kTcpStream));
  EXPECT_FALSE(profile::is_rr(TestKind::kTcpStream));
  EXPECT_STREQ(measure::probe_for(TestKind::kTcpStream), "stream");
  EXPECT_TRUE(profile::tool_runs(Tool::kIperf3, TestKind::kTcpStream));
  EXPECT_FALSE(profile::tool_runs(Tool::kSockperf, TestKind::kTcpStream));
  EXPECT_TRUE(profile::produces(Tool::kIperf3, TestKind::kTcpStream, Stat::kMinThroughput));
  EXPECT_FALSE(profile::produces(Tool::kIperf3, TestKind::kTcpStream, Stat::kP99));
  EXPECT_TRUE(profile::produces(Tool::kBuiltin, TestKind::kTcpStream, Stat::kP99));  // each send's time
  EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kTcpStream, Stat::kMaxLoss));
  EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kTcpStream, Stat::kOneWayP50Forward));
}

TEST(TcpStreamKind, ACaseIsThroughputUnpacedWithBdpJudgedAndTheDrainAllowed) {
  const profile::LoadResult r = load_tests(R"([preconditions]
buffers_cover_bdp = true
[[test]]
name = "bulk"
kind = "tcp_stream"
from = "a"
to = "c"
duration = "10s"
warmup = "0s"
budget = { min_throughput = "1Gbit/s" }
)");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  const auto cases = gate::expand_cases(*r.profile);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].name(), "bulk/a->c");
  EXPECT_EQ(cases[0].suite, "Throughput");
  EXPECT_EQ(cases[0].label, "throughput");
  EXPECT_EQ(gate::measuring_description(*cases[0].spec),
            "measuring for 10s (no warm-up), unpaced (as fast as the socket takes)");
  EXPECT_TRUE(gate::judges_bdp(*r.profile, cases[0]));
  profile::TestSpec udp = *cases[0].spec;
  udp.kind = TestKind::kUdpStream;
  // The stream probe's TCP client may wait 30 s more for its send buffer to drain.
  EXPECT_EQ(measure::probe_client_timeout(*cases[0].spec) - measure::probe_client_timeout(udp),
            std::chrono::seconds(30));
  EXPECT_FALSE(gate::judges_bdp(*r.profile, gate::TestCase{&udp, "a->c", "a", "c", "", ""}));
}

TEST(TcpStreamKind, RoundTripKeysAreRefused) {
  expect_errors(R"([[test]]
name = "bulk"
kind = "tcp_stream"
from = "a"
to = "b"
outlier = "100us"
full_log = true
budget = { min_throughput = "1Gbit/s", dropped = 0 }
)",
                {"test[bulk].outlier: does not apply to a tcp_stream test: `outlier` is the round-trip",
                 "test[bulk].full_log: does not apply to a tcp_stream test",
                 "a tcp_stream test run by builtin does not produce dropped"});
}

}  // namespace
}  // namespace labgate::kinds
