// Chart inputs come from the one Measurement reader; an unreadable measurement
// costs only its charts, with the reason; no figure is read here.
#include "labgate/report/chart_data.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace labgate::report {
namespace {

using ::testing::HasSubstr;

TEST(ChartData, ReadsHistogramSeriesAndParametersThroughTheMeasurementReader) {
  measure::Measurement m;
  m.source = "netperf";
  for (std::uint64_t v = 1; v <= 1000; ++v) m.histogram.record(v * 100);
  m.series.push_back({0, 1, 10, 5, 9, 12});
  m.warmup_s = 2.0;
  m.duration_s = 10.0;
  m.parameters["client_cpu"] = "2";
  m.warnings.push_back("clock went backwards once");
  const ChartData v = chart_data(measure::to_json(m));
  ASSERT_TRUE(v.histogram);
  EXPECT_EQ(v.histogram->count(), 1000u);
  EXPECT_EQ(v.histogram_source, "netperf");
  ASSERT_EQ(v.series.size(), 1u);
  EXPECT_EQ(v.series[0].max_ns, 12u);
  EXPECT_DOUBLE_EQ(*v.warmup_s, 2.0);
  EXPECT_EQ(v.parameters.at("client_cpu"), "2");
  EXPECT_TRUE(v.problems.empty());
}

TEST(ChartData, AnUnreadableMeasurementIsAProblemNotAThrow) {
  const ChartData v = chart_data(nlohmann::json{{"format", "something else"}});
  EXPECT_FALSE(v.histogram);
  ASSERT_EQ(v.problems.size(), 1u);
  EXPECT_THAT(v.problems[0], HasSubstr("labgate-measurement-1"));
  EXPECT_TRUE(chart_data(nlohmann::json(nullptr)).problems.empty());
}

TEST(PercentileOf, MapsBudgetNames) {
  EXPECT_DOUBLE_EQ(*percentile_of("p50"), 50);
  EXPECT_DOUBLE_EQ(*percentile_of("p99_9"), 99.9);
  EXPECT_DOUBLE_EQ(*percentile_of("p99_99"), 99.99);
  EXPECT_DOUBLE_EQ(*percentile_of("max"), 100);
  EXPECT_FALSE(percentile_of("mean"));
  EXPECT_FALSE(percentile_of("p"));
  EXPECT_FALSE(percentile_of("pX"));
  EXPECT_FALSE(percentile_of("p100"));
}

}  // namespace
}  // namespace labgate::report
