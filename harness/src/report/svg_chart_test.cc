// Tests of chart axes (tick choice per scale) and of the plots built from a run.
#include "labgate/report/svg_chart.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "labgate/report/latency_charts.h"
#include "report/synthetic_run.h"

namespace labgate::report {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(AxisTicks, LinearUsesOneTwoFiveSteps) {
  EXPECT_THAT(axis_ticks({Scale::kLinear, 0, 120, "", nullptr}), ElementsAre(0, 20, 40, 60, 80, 100, 120));
  EXPECT_THAT(axis_ticks({Scale::kLinear, 0, 7, "", nullptr}), ElementsAre(0, 2, 4, 6));
}

TEST(AxisTicks, LogUsesDecadesAndAddsMultiplesOnShortRanges) {
  EXPECT_THAT(axis_ticks({Scale::kLog, 1e3, 1e7, "", nullptr}), ElementsAre(1e3, 1e4, 1e5, 1e6, 1e7));
  EXPECT_THAT(axis_ticks({Scale::kLog, 40e3, 2e6, "", nullptr}),
              ElementsAre(50e3, 100e3, 200e3, 500e3, 1e6, 2e6));
}

TEST(AxisTicks, NinesAreThePercentilesPeopleQuote) {
  EXPECT_THAT(axis_ticks({Scale::kNines, std::log10(2.0), 5, "", nullptr}),
              ElementsAre(DoubleNear(std::log10(2.0), 1e-12), 1, 2, 3, 4, 5));
  Chart c("t", {Scale::kNines, std::log10(2.0), 5, "percentile", nullptr},
          {Scale::kLinear, 0, 1, "y", nullptr});
  const std::string svg = c.svg();
  for (const char* label : {">50%<", ">90%<", ">99%<", ">99.9%<", ">99.99%<", ">99.999%<"})
    EXPECT_THAT(svg, HasSubstr(label));
}

TEST(Chart, EscapesTextAndScalesToItsBox) {
  Chart c("a <b> & c", {Scale::kLinear, 0, 10, "x \"s\"", nullptr}, {Scale::kLog, 1, 1000, "y", nullptr});
  c.line({{0, 1}, {10, 1000}}, palette::kP50, "p50 <line>");
  const std::string svg = c.svg(460, 300);
  EXPECT_THAT(svg, HasSubstr("viewBox=\"0 0 460 300\""));
  EXPECT_THAT(svg, HasSubstr("a &lt;b&gt; &amp; c"));
  EXPECT_THAT(svg, HasSubstr("p50 &lt;line&gt;"));
  EXPECT_THAT(svg, HasSubstr("x &quot;s&quot;"));
  // The line runs from the bottom-left to the top-right corner of the plot area.
  EXPECT_THAT(svg, HasSubstr("points=\"72.0,254.0 434.0,46.0 \""));
}

TEST(LatencyCharts, DrawEveryPlotOfALatencyTest) {
  const results::RunResult run = testing::synthetic_run();
  const results::TestRecord& t = run.tests[0];
  const ChartData v = chart_data(t.measurement);
  const std::string hist = histogram_chart(t, v), pct = percentile_chart(t, v), series = series_chart(t, v);
  EXPECT_THAT(hist, HasSubstr("Histogram of round-trip time"));
  EXPECT_THAT(hist, HasSubstr("<rect"));
  EXPECT_THAT(pct, HasSubstr("Percentile curve of round-trip time"));
  EXPECT_THAT(pct, HasSubstr("p99 \xE2\x89\xA4 140 \xC2\xB5s"));  // the budget drawn on the curve
  EXPECT_THAT(series, HasSubstr("p50 / p99 / max per 1 s interval"));
  EXPECT_THAT(series, HasSubstr("max 1.21 ms at 41 s"));  // the spike placed in time
  EXPECT_THAT(series, HasSubstr("max budget 1.30 ms"));
}

TEST(LatencyCharts, TheWorstOutliersAreMarkedWhereTheyHappenedWithTheirCause) {
  const results::RunResult run = testing::synthetic_run();
  results::TestRecord t = run.tests[0];
  t.tail = {
      {"outliers",
       {{{"seq", 7}, {"value_ns", 1210000}, {"at_ns", 46500000000ull}, {"cause", "tailhog (pid 4242) ran"}},
        {{"seq", 9}, {"value_ns", 900000}, {"at_ns", 15000000000ull}, {"cause", "unexplained"}},
        {{"seq", 1}, {"value_ns", 800000}, {"at_ns", 4900000000ull}, {"cause", "a warm-up one"}}}}};
  const std::string unplaced = series_chart(t, chart_data(t.measurement));
  EXPECT_THAT(unplaced, Not(HasSubstr("request 7")));  // no origin: nothing placed by guess
  t.measurement["series_origin_ns"] = 5000000000ull;
  const std::string svg = series_chart(t, chart_data(t.measurement));
  EXPECT_THAT(svg, HasSubstr("<title>request 7: 1.21 ms at 41.5 s: tailhog (pid 4242) ran</title>"));
  EXPECT_THAT(svg, HasSubstr("<title>request 9: 900 \xC2\xB5s at 10 s: unexplained</title>"));
  EXPECT_THAT(svg, Not(HasSubstr("a warm-up one")));
  // A stream's tail: the receiver's gaps, on its host's clock, never on the sender's series.
  t.tail["on_series_clock"] = false;
  EXPECT_THAT(series_chart(t, chart_data(t.measurement)), Not(HasSubstr("request 7")));
}

TEST(LatencyCharts, NothingToDrawWithoutData) {
  const results::RunResult run = testing::synthetic_run();
  const results::TestRecord& broken = run.tests.back();
  const ChartData v = chart_data(broken.measurement);
  EXPECT_EQ(histogram_chart(broken, v), "");
  EXPECT_EQ(percentile_chart(broken, v), "");
  EXPECT_EQ(series_chart(broken, v), "");
}

}  // namespace
}  // namespace labgate::report
