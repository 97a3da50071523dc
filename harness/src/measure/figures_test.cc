// The one judge: which value each figure has and its source, and the sample
// accounting that turns lost replies and empty runs into failures.
#include "labgate/measure/figures.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace labgate::measure {
namespace {

using ::testing::HasSubstr;
using stats::FigureSource;

Measurement builtin_udp_rr(std::uint64_t samples) {
  Measurement m;
  m.source = "builtin";
  m.kind = "udp_rr";
  for (std::uint64_t i = 1; i <= samples; ++i) m.histogram.record(10'000 + i);
  m.sent = samples + 3;
  m.received = samples;
  m.dropped = 3;
  m.counts_drops = true;
  return m;
}

/// netperf UDP_RR -k with a histogram rebuilt from its decade-wide buckets.
Measurement netperf_udp_rr() {
  Measurement m;
  m.source = "netperf";
  m.kind = "udp_rr";
  m.histogram.record_n(19'999, 100);  // the buckets: coarse
  m.histogram.record_n(64'270, 10);
  m.reported = {{"p50", 18'000}, {"p99", 33'000}, {"max", 90'000}, {"min", 14'000}, {"mean", 58'330}};
  return m;
}

TEST(JudgeFigures, TheHistogramGivesEveryFigureOfABuiltinProbe) {
  const JudgedFigures j = judge_figures(builtin_udp_rr(1000));
  ASSERT_NE(j.figures.find("p99_9"), nullptr);
  EXPECT_EQ(j.figures.find("p99")->source, FigureSource::kHistogram);
  EXPECT_THAT(j.figures.find("p99")->detail, HasSubstr("histogram of 1000 round trips"));
  EXPECT_EQ(j.figures.value("samples"), 1000);
  EXPECT_EQ(j.figures.value("dropped"), 3);
  EXPECT_EQ(j.figures.find("dropped")->source, FigureSource::kCounters);
}

TEST(JudgeFigures, AToolsOwnFigureWinsAndWhatItDidNotGiveIsAbsent) {
  const JudgedFigures j = judge_figures(netperf_udp_rr());
  EXPECT_EQ(j.figures.value("p99"), 33'000) << "netperf's -k P99, not the 20 us bucket";
  EXPECT_EQ(j.figures.value("min"), 14'000) << "netperf's MIN, not the histogram's 19.999 us";
  EXPECT_EQ(j.figures.value("mean"), 58'330);
  EXPECT_EQ(j.figures.find("p99")->source, FigureSource::kTool);
  EXPECT_FALSE(j.figures.value("p99_9")) << "never from the decade-wide buckets";
  EXPECT_FALSE(j.figures.value("p99_99"));
  EXPECT_FALSE(j.figures.value("dropped")) << "netperf RR cannot count drops: not 0, absent";
  EXPECT_EQ(j.figures.value("samples"), 110);
}

TEST(JudgeFigures, MarkersAndNonFiniteValuesAreNeverFigures) {
  Measurement m = netperf_udp_rr();
  m.reported["p99"] = -2147483648.0;
  m.reported["max"] = std::numeric_limits<double>::infinity();
  m.reported["mean"] = std::nan("");
  m.throughput_bps = -2.1e15;
  const JudgedFigures j = judge_figures(m);
  EXPECT_FALSE(j.figures.value("p99"));
  EXPECT_FALSE(j.figures.value("max"));
  EXPECT_FALSE(j.figures.value("mean"));
  EXPECT_FALSE(j.figures.value("throughput"));
  EXPECT_EQ(j.figures.value("p50"), 18'000);
}

TEST(JudgeFigures, AStalledNetperfLoopFailsTheAccountingAndSaysWhatWasLost) {
  Measurement m = netperf_udp_rr();
  // The real run: traffic dropped from 1 s into a 3 s test.
  m.expectation = SampleExpectation{129'800, 43'435, "3.00 s at a 23.1 us mean",
                                    "netperf UDP_RR has no retransmission: replies were lost"};
  const JudgedFigures j = judge_figures(m, 0.01);
  EXPECT_FALSE(j.accounting.pass);
  EXPECT_THAT(j.accounting.message, HasSubstr("43435 in 3.00 s at a 23.1 us mean"));
  EXPECT_THAT(j.accounting.message, HasSubstr("~129800 were expected (67% short)"));
  EXPECT_THAT(j.accounting.message, HasSubstr("replies were lost"));
  EXPECT_THAT(j.accounting.message, HasSubstr("tolerance 1%"));
}

TEST(JudgeFigures, AShortfallWithinTheToleranceHolds) {
  Measurement m = builtin_udp_rr(1000);
  m.expectation = SampleExpectation{1005, 1000, "1.00 s at a 995 us mean", "replies were lost"};
  EXPECT_TRUE(judge_figures(m, 0.01).accounting.pass);
  EXPECT_FALSE(judge_figures(m, 0.001).accounting.pass) << "the tolerance is the profile's";
}

TEST(JudgeFigures, ZeroSamplesIsNeverAPass) {
  Measurement all_dropped;
  all_dropped.source = "netperf";
  all_dropped.kind = "udp_rr";
  all_dropped.reported = {{"p50", 0}, {"p99", 0}, {"max", 0}};
  all_dropped.reported["samples"] = 0;
  const JudgedFigures j = judge_figures(all_dropped);
  EXPECT_FALSE(j.accounting.pass);
  EXPECT_THAT(j.accounting.message, HasSubstr("zero samples"));

  Measurement nothing;
  nothing.source = "sockperf";
  nothing.kind = "tcp_rr";
  EXPECT_FALSE(judge_figures(nothing).accounting.pass);

  Measurement expected_but_none = builtin_udp_rr(0);
  expected_but_none.expectation = SampleExpectation{1000, 0, "1.00 s", "replies were lost"};
  EXPECT_THAT(judge_figures(expected_but_none).accounting.message, HasSubstr("no samples at all"));
}

TEST(JudgeFigures, BudgetStatisticsMapToFigureNames) {
  EXPECT_EQ(figure_name(profile::Stat::kP99_9), "p99_9");
  EXPECT_EQ(figure_name(profile::Stat::kMinThroughput), "throughput");
  EXPECT_EQ(figure_name(profile::Stat::kMaxLoss), "loss");
  EXPECT_EQ(figure_name(profile::Stat::kMinIops), "iops");
  EXPECT_EQ(figure_name(profile::Stat::kMaxRetransmits), "retransmits");
}

}  // namespace
}  // namespace labgate::measure
