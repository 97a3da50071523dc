// sockperf's and sfnt-pingpong's multicast ping-pong as labgate reads it (issue
// 24), on real output recorded between the namespaces of lab pair 26 by
// tests/fixtures/tools/record-multicast.sh: the run is told to be multicast from
// the tool's own output (sockperf's group in its "IP =" line, sfnt-pingpong's
// --mcast in its command line), its figures are round trips as printed, and a
// run where two subscribers answered (sockperf issue #220) says so.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/tools/parsers.h"
#include "parse_test_util.h"

namespace labgate::tools {
namespace {

using ::testing::HasSubstr;
using profile::TestKind;

measure::Measurement sockperf_file(const std::string& name, ParseOptions o = {}) {
  return parse_sockperf(read_tool_file(test_util::fixture("sockperf", name)), o);
}

TEST(ToolMulticast, SockperfGroupRunIsMulticastWithItsOwnRoundTrips) {
  // sockperf310-mc-rtt.txt: "percentile 50.000 = 12.588", "99.000 = 15.983", MAX 5352.742 (us, --full-rtt).
  const measure::Measurement m = sockperf_file("sockperf310-mc-rtt.txt", {TestKind::kUdpMulticast});
  EXPECT_EQ(m.kind, "udp_multicast");
  EXPECT_EQ(m.source, "sockperf");
  EXPECT_EQ(m.metric, measure::Metric::kRoundTrip);
  EXPECT_EQ(m.parameters.at("sockperf.group"), "239.1.2.3");
  EXPECT_EQ(m.parameters.at("latency_normalised"), "as printed: sockperf ran with --full-rtt");
  EXPECT_DOUBLE_EQ(m.reported.at("p50"), 12588);
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), 15983);
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 5352742);
  EXPECT_EQ(m.sent, 113788u);
  EXPECT_EQ(m.received, 113788u);
  EXPECT_EQ(m.dropped, 0u);
  EXPECT_TRUE(m.warnings.empty());
}

TEST(ToolMulticast, Sockperf37ReadsTheSame) {
  const measure::Measurement m = sockperf_file("sockperf37-mc-rtt.txt");
  EXPECT_EQ(m.kind, "udp_multicast");  // told by the output alone
  EXPECT_DOUBLE_EQ(m.reported.at("p50"), 12558);
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), 15953);
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 4288550);
}

TEST(ToolMulticast, AUnicastSockperfRunIsNotAMulticastOne) {
  const ParseError e = test_util::parse_error(
      parse_sockperf, "rtt.txt", test_util::fixture_text("sockperf", "sockperf310-udp-rtt.txt"),
      ParseOptions{TestKind::kUdpMulticast});
  EXPECT_THAT(e.what(), HasSubstr("this is a udp_rr run, not the udp_multicast that was asked for"));
  const ParseError back = test_util::parse_error(
      parse_sockperf, "mc.txt", test_util::fixture_text("sockperf", "sockperf310-mc-rtt.txt"),
      ParseOptions{TestKind::kUdpRr});
  EXPECT_THAT(back.what(), HasSubstr("this is a udp_multicast run, not the udp_rr"));
}

TEST(ToolMulticast, TwoAnsweringSubscribersAreSaidNotHidden) {
  // Two sockperf servers joined: "# duplicated messages = 18218" (sockperf issue #220).
  for (const char* f : {"sockperf310-mc-rtt-2servers.txt", "sockperf310-mc-rtt-2servers-unicast-reply.txt"}) {
    SCOPED_TRACE(f);
    const measure::Measurement m = sockperf_file(f, {TestKind::kUdpMulticast});
    ASSERT_GT(m.duplicated, 0u);
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_THAT(m.warnings[0], HasSubstr(std::to_string(m.duplicated) + " duplicated answers: more than one host"));
    EXPECT_THAT(m.warnings[0], HasSubstr("issue #220"));
  }
  EXPECT_EQ(sockperf_file("sockperf310-mc-rtt-2servers.txt").duplicated, 18218u);
}

TEST(ToolMulticast, SfntMcastRunIsMulticastWithItsRow) {
  // udp-mcast-rtt.txt: "64 13710 12198 12618 2416519 18847 16011 73000" (ns, --rtt).
  const measure::Measurement m =
      parse_sfnt_pingpong(read_tool_file(test_util::fixture("sfnt", "udp-mcast-rtt.txt")));
  EXPECT_EQ(m.kind, "udp_multicast");
  EXPECT_EQ(m.source, "sfnt-pingpong");
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), 13710);
  EXPECT_DOUBLE_EQ(m.reported.at("p50"), 12618);
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 2416519);
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), 18847);
  EXPECT_THAT(m.parameters.at("sfnt.cmdline"), HasSubstr("--mcast 239.1.2.3"));
  // A unicast sfnt run is refused as a multicast one.
  const ParseError e = test_util::parse_error(parse_sfnt_pingpong, "udp.txt",
                                              test_util::fixture_text("sfnt", "udp-rtt.txt"),
                                              ParseOptions{TestKind::kUdpMulticast});
  EXPECT_THAT(e.what(), HasSubstr("this is a udp_rr run, not the udp_multicast"));
}

}  // namespace
}  // namespace labgate::tools
