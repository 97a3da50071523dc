// Tests of kinds/udp_rr.cc through the layers that read it: what it has beyond
// tcp_rr (lost requests or replies, `dropped`), what it has not (TCP's keys),
// its message size within one datagram, netperf's UDP_RR and its stall wording.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kinds/kind_profile_test_util.h"
#include "labgate/measure/probe_command.h"

namespace labgate::kinds {
namespace {

TEST(UdpRrKind, CountsDroppedWhereItsToolCanAndIsNotTcp) {
  EXPECT_EQ(profile::parse_test_kind("udp_rr"), TestKind::kUdpRr);
  EXPECT_TRUE(profile::is_rr(TestKind::kUdpRr));
  EXPECT_FALSE(profile::is_tcp(TestKind::kUdpRr));
  EXPECT_STREQ(measure::probe_for(TestKind::kUdpRr), "pingpong");
  EXPECT_TRUE(profile::produces(Tool::kBuiltin, TestKind::kUdpRr, Stat::kDropped));
  EXPECT_TRUE(profile::produces(Tool::kSockperf, TestKind::kUdpRr, Stat::kDropped));
  // A lost UDP_RR reply or sfnt ping stalls the tool instead of being counted.
  EXPECT_FALSE(profile::produces(Tool::kNetperf, TestKind::kUdpRr, Stat::kDropped));
  EXPECT_FALSE(profile::produces(Tool::kSfntPingpong, TestKind::kUdpRr, Stat::kDropped));
  EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kUdpRr, Stat::kMaxLoss));
  EXPECT_TRUE(profile::produces(Tool::kSockperf, TestKind::kUdpRr, Stat::kMaxUdpRcvbufErrors));
}

TEST(UdpRrKind, TakesNoTcpKeysAndAMessageOfOneDatagram) {
  expect_errors(R"([[test]]
name = "rr"
kind = "udp_rr"
from = "a"
to = "b"
nodelay = true
congestion = "cubic"
message_size = 70000
budget = { p99 = "1ms", dropped = 0 }
)",
                {"test[rr].nodelay: does not apply to a udp_rr test: it sets TCP_NODELAY, for tcp_rr and "
                 "tcp_stream only",
                 "test[rr].congestion: does not apply to a udp_rr test: it sets TCP_CONGESTION",
                 "(one IPv4 datagram); found 70000"});
}

TEST(UdpRrKind, ACaseInTheLatencySuiteRunsNetperfsUdpRr) {
  const profile::LoadResult r = load_tests(R"([[test]]
name = "urr"
kind = "udp_rr"
tool = "netperf"
from = "b"
to = "c"
duration = "5s"
budget = { p99 = "1ms" }
)");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  const auto cases = gate::expand_cases(*r.profile);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].name(), "urr/b->c");
  EXPECT_EQ(cases[0].suite, "Latency");
  EXPECT_THAT(gate::measuring_description(*cases[0].spec), HasSubstr("netperf for 5s by netperf's own clock"));
  EXPECT_THAT(tool_client_line(*cases[0].spec), HasSubstr("-t UDP_RR"));
  EXPECT_THAT(tool_client_line(*cases[0].spec), Not(HasSubstr(" -D")));  // TCP_NODELAY is TCP's
}

}  // namespace
}  // namespace labgate::kinds
