// sockperf and iperf3 readers: "not measured" markers stay absent, drops are
// counted only where the tool counts them, and each run's samples are accounted.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/tools/parsers.h"
#include "tools/parse_test_util.h"

namespace labgate::tools {
namespace {

using ::testing::HasSubstr;

TEST(ToolAccounting, SockperfCountsDropsAndAccountsForItsObservations) {
  const measure::Measurement m = parse_sockperf(
      text_from_string("s.txt", test_util::fixture_text("sockperf", "sockperf37-udp-rtt.txt")));
  EXPECT_TRUE(m.counts_drops);
  ASSERT_TRUE(m.expectation);
  EXPECT_NEAR(m.expectation->expected, 2.55 / 13.358e-6, 1);  // closed loop: time / mean round trip
  EXPECT_EQ(m.expectation->held, 190577);
  EXPECT_THAT(m.expectation->basis, HasSubstr("190577 observations"));
  // Paced (--mps): not a closed loop, so only its own count is expected.
  ParseOptions paced;
  paced.rate_per_s = 1000;
  const measure::Measurement p = parse_sockperf(
      text_from_string("s.txt", test_util::fixture_text("sockperf", "sockperf37-udp-rtt.txt")), paced);
  EXPECT_EQ(p.expectation->expected, 190577);
}

TEST(ToolAccounting, SockperfMarkersAreNotMeasured) {
  std::string text = test_util::fixture_text("sockperf", "sockperf37-udp-rtt.txt");
  text.replace(text.find("avg-rtt=13.358"), 14, "avg-rtt=-nan");
  text.replace(text.find("percentile 99.000 =   14.581"), 28, "percentile 99.000 = inf");
  const measure::Measurement m = parse_sockperf(text_from_string("s.txt", text));
  EXPECT_EQ(m.reported.count("mean"), 0u);
  EXPECT_EQ(m.reported.count("p99"), 0u);
  const std::string w = ::testing::PrintToString(m.warnings);
  EXPECT_THAT(w, HasSubstr("avg-rtt=-nan is sockperf's 'not measured' marker"));
  EXPECT_THAT(w, HasSubstr("percentile 99.000=inf is sockperf's 'not measured' marker"));
}

TEST(ToolAccounting, Iperf3UdpCountsDropsTcpDoesNotAndIntervalsCoverTheRun) {
  const measure::Measurement udp =
      parse_iperf3(text_from_string("u.json", test_util::fixture_text("iperf3", "iperf312-udp.json")));
  EXPECT_TRUE(udp.counts_drops);
  ASSERT_TRUE(udp.expectation);
  EXPECT_NEAR(udp.expectation->held / udp.expectation->expected, 1.0, 0.01);
  const measure::Measurement tcp =
      parse_iperf3(text_from_string("t.json", test_util::fixture_text("iperf3", "iperf312-tcp.json")));
  EXPECT_FALSE(tcp.counts_drops);
  ASSERT_TRUE(tcp.expectation);
  EXPECT_NEAR(tcp.expectation->held / tcp.expectation->expected, 1.0, 0.01);
}

TEST(ToolAccounting, Iperf3MarkerIsNotMeasured) {
  std::string text = test_util::fixture_text("iperf3", "iperf312-tcp.json");
  const std::size_t end = text.rfind("\"sum_received\":");
  const std::size_t bps = text.find("\"bits_per_second\":", end);
  const std::size_t comma = text.find_first_of(",\n}", bps + 18);
  text.replace(bps, comma - bps, "\"bits_per_second\": -1");
  const measure::Measurement m = parse_iperf3(text_from_string("t.json", text));
  EXPECT_FALSE(m.throughput_bps);
  EXPECT_THAT(::testing::PrintToString(m.warnings), HasSubstr("end.sum_received.bits_per_second=-1 is iperf3's"));
}

}  // namespace
}  // namespace labgate::tools
