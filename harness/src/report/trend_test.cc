// Tests of the trend model, its CSV and page: time order, the three values of
// "conforming", imported runs, budgets in seconds, one chart per test.
#include "labgate/report/trend.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report/synthetic_run.h"

namespace labgate::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::vector<results::RunResult> three_runs() {
  results::RunResult late = testing::synthetic_run(1), early = testing::synthetic_run(2),
                     imported = testing::synthetic_run(3);
  late.run_id = "late";
  late.start_time += std::chrono::hours(48);
  early.run_id = "early";
  for (auto& c : early.checks)  // b's tcp_sack fixed and conrep installed: every rule checked and held
    c.verdict = results::CheckVerdict::kPass;
  imported.run_id = "imported";
  imported.start_time -= std::chrono::hours(24 * 365);
  imported.checks.clear();  // a saved netperf run judged no precondition
  imported.tests[0].measurement["parameters"]["imported_from"] = "netperf-2019.txt";
  return {late, early, imported};
}

TEST(Trend, RunsInTimeOrderWithConformingAndImportedToldApart) {
  const TrendData d = trend_of(three_runs());
  ASSERT_EQ(d.runs.size(), 3u);
  EXPECT_EQ(d.runs[0].run_id, "imported");
  EXPECT_EQ(d.runs[1].run_id, "early");
  EXPECT_EQ(d.runs[2].run_id, "late");
  EXPECT_EQ(d.runs[0].conforming, Conforming::kNotChecked);
  EXPECT_EQ(d.runs[1].conforming, Conforming::kYes);
  EXPECT_EQ(d.runs[2].conforming, Conforming::kNo);
  EXPECT_TRUE(d.runs[0].imported);
  EXPECT_FALSE(d.runs[1].imported);
}

TEST(Trend, EachTestHasItsFiguresAndBudgetInSeconds) {
  const auto runs = three_runs();
  const TrendData d = trend_of(runs);
  ASSERT_EQ(d.tests.size(), 5u);
  EXPECT_EQ(d.tests[0].key, "Latency.tcp_rr_64/a->b");
  ASSERT_EQ(d.tests[0].points.size(), 3u);
  const TrendPoint& last = d.tests[0].points[2];
  EXPECT_EQ(last.run, 2u);
  EXPECT_DOUBLE_EQ(last.seconds.at("p99"), *runs[0].tests[0].figures.value("p99") * 1e-9);
  EXPECT_DOUBLE_EQ(last.budget_s.at("p99"), 140e-6);
  EXPECT_DOUBLE_EQ(last.budget_s.at("max"), 1.3e-3);
  EXPECT_EQ(d.tests[4].points[0].verdict, "error");
}

TEST(Trend, CsvHasOneRowPerTestAndRun) {
  const std::string csv = trend_csv(trend_of(three_runs()));
  EXPECT_THAT(csv, HasSubstr("test,run_id,start,conforming,imported,verdict,p50_s,p99_s,max_s,"
                             "budget_p50_s,budget_p99_s,budget_max_s\n"));
  EXPECT_THAT(csv, HasSubstr("Latency.tcp_rr_64/a->b,imported,2023-05-02T12:00:00.000Z,not checked,yes,"));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 5 * 3);
}

TEST(Trend, PageInlinesChartJsAndHasACanvasPerTest) {
  const std::string html = trend_html(trend_of(three_runs()), "/* chart.js </script> */");
  EXPECT_THAT(html, HasSubstr("/* chart.js <\\/script> */"));  // cannot close its <script> early
  for (int i = 0; i < 5; ++i) EXPECT_THAT(html, HasSubstr("id=\"lg-chart-" + std::to_string(i) + "\""));
  EXPECT_THAT(html, Not(HasSubstr("lg-chart-5")));
  EXPECT_THAT(html, HasSubstr("\"conforming\":\"not checked\""));
  EXPECT_THAT(html, Not(HasSubstr("http://")));
  EXPECT_THAT(html, Not(HasSubstr("https://")));
}

}  // namespace
}  // namespace labgate::report
