// Tests of reading Measurement JSON for reports: both series forms, stat
// lookup order, and malformed parts noted instead of thrown.
#include "labgate/report/measurement_view.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace labgate::report {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(MeasurementView, ReadsHistogramSeriesAndScalars) {
  stats::Histogram h;
  for (std::uint64_t v = 1; v <= 1000; ++v) h.record(v * 100);
  const nlohmann::json m = {
      {"histogram", h.to_json()},
      {"series",
       {{"interval_s", 1},
        {"intervals",
         {{{"start_s", 0}, {"length_s", 1}, {"count", 10}, {"p50_ns", 5}, {"p99_ns", 9}, {"max_ns", 12}}}}}},
      {"throughput_bps", 9.4e8},
      {"warmup_excluded_s", 2.0},
      {"parameters", {{"client_cpu", 2}, {"tool", "builtin"}}},
      {"warnings", {"clock went backwards once"}}};
  const MeasurementView v = view_measurement(m);
  ASSERT_TRUE(v.histogram);
  EXPECT_EQ(v.histogram->count(), 1000u);
  ASSERT_EQ(v.series.size(), 1u);
  EXPECT_EQ(v.series[0].max_ns, 12u);
  EXPECT_DOUBLE_EQ(*v.throughput_bps, 9.4e8);
  EXPECT_DOUBLE_EQ(*v.warmup_s, 2.0);
  EXPECT_EQ(v.parameters.at("client_cpu"), "2");
  EXPECT_THAT(v.warnings, ElementsAre("clock went backwards once"));
  EXPECT_TRUE(v.problems.empty());
}

TEST(MeasurementView, NotesMalformedPartsAndKeepsTheRest) {
  const nlohmann::json m = {{"histogram", {{"format", "other"}}},
                            {"series", {{{"start_s", 0}, {"length_s", 1}, {"count", -1}}}},
                            {"throughput_bps", "fast"},
                            {"dropped", 3}};
  const MeasurementView v = view_measurement(m);
  EXPECT_FALSE(v.histogram);
  EXPECT_TRUE(v.series.empty());
  EXPECT_DOUBLE_EQ(*v.dropped, 3);
  ASSERT_EQ(v.problems.size(), 3u);
  EXPECT_THAT(v.problems[0], HasSubstr("labgate-hist-1"));
  EXPECT_THAT(v.problems[1], HasSubstr("series[0]"));
  EXPECT_THAT(v.problems[2], HasSubstr("'throughput_bps' is not a number"));
  EXPECT_TRUE(view_measurement(nlohmann::json(nullptr)).problems.empty());
  EXPECT_THAT(view_measurement(nlohmann::json::array()).problems[0], HasSubstr("not a JSON object"));
}

TEST(MeasurementView, StatsComeFromHistogramThenReportedThenFigures) {
  results::TestRecord t;
  t.figures["p99_us"] = 200;
  stats::Histogram h;
  for (std::uint64_t v = 1; v <= 100; ++v) h.record(v);
  MeasurementView with_hist;
  with_hist.histogram = h;
  with_hist.reported["p99"] = 150'000;
  EXPECT_DOUBLE_EQ(*latency_stat_ns(t, with_hist, "p99"), 99);
  EXPECT_DOUBLE_EQ(*latency_stat_ns(t, with_hist, "max"), 100);
  MeasurementView reported;
  reported.reported["p99"] = 150'000;
  EXPECT_DOUBLE_EQ(*latency_stat_ns(t, reported, "p99"), 150'000);
  EXPECT_DOUBLE_EQ(*latency_stat_ns(t, MeasurementView{}, "p99"), 200'000);
  EXPECT_FALSE(latency_stat_ns(t, MeasurementView{}, "p50"));
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
