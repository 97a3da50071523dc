// The figure set: one figure per statistic, and a JSON form that names bad paths.
#include "labgate/stats/figure.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace labgate::stats {
namespace {

TEST(FigureSet, OneFigurePerStatistic) {
  FigureSet s;
  s.put({"p99", 18000, "ns", FigureSource::kTool, "netperf P99_LATENCY"});
  s.put({"p99", 19000, "ns", FigureSource::kHistogram, "histogram"});
  ASSERT_EQ(s.list().size(), 1u);
  EXPECT_EQ(s.value("p99"), 19000);
  EXPECT_EQ(s.find("p99_9"), nullptr);
  EXPECT_FALSE(s.value("dropped").has_value());
}

TEST(FigureSet, RoundTripsThroughJson) {
  FigureSet s;
  s.put({"p99", 18000, "ns", FigureSource::kTool, "netperf P99_LATENCY"});
  s.put({"samples", 43435, "count", FigureSource::kTool, "netperf HIST_TOTAL"});
  const FigureSet back = figure_set_from_json(to_json(s));
  ASSERT_EQ(back.list().size(), 2u);
  EXPECT_EQ(back.find("p99")->detail, "netperf P99_LATENCY");
  EXPECT_EQ(back.find("samples")->source, FigureSource::kTool);
}

TEST(FigureSet, BadJsonNamesThePath) {
  const auto j =
      nlohmann::json::parse(R"([{"stat": "p99", "value": "x", "unit": "ns", "source": "tool", "detail": ""}])");
  try {
    figure_set_from_json(j, "tests[0].figures");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "tests[0].figures.p99.value: expected a finite number, got \"x\"");
  }
  const auto s =
      nlohmann::json::parse(R"([{"stat": "p99", "value": 1, "unit": "ns", "source": "guess", "detail": ""}])");
  EXPECT_THROW(figure_set_from_json(s), std::invalid_argument);
}

}  // namespace
}  // namespace labgate::stats
