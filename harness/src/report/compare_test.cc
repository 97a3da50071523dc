// Tests of run-to-run comparison arithmetic and the regression rule.
#include "labgate/report/compare.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "labgate/measure/figures.h"
#include "labgate/report/figure_format.h"
#include "labgate/stats/histogram.h"

namespace labgate::report {
namespace {

using ::testing::HasSubstr;

// The record's figures as the one judge decides them for `m`.
void judged(results::TestRecord& t, const measure::Measurement& m) {
  t.figures = measure::judge_figures(m).figures;
  t.measurement = measure::to_json(m);
}

measure::Measurement of_values(const std::vector<std::uint64_t>& values) {
  measure::Measurement m;
  m.source = "builtin";
  m.kind = "tcp_rr";
  for (const auto v : values) m.histogram.record(v);
  return m;
}

// A test whose histogram holds exactly the given values (ns).
results::TestRecord rr(const std::string& name, std::initializer_list<std::uint64_t> values) {
  results::TestRecord t;
  t.name = name;
  t.suite = "Latency";
  t.kind = "tcp_rr";
  t.pair = "a->b";
  t.metric = "round-trip time";
  t.verdict = results::TestVerdict::kPass;
  judged(t, of_values(values));
  return t;
}

results::RunResult compared_run(const std::string& id, std::vector<results::TestRecord> tests) {
  results::RunResult r;
  r.run_id = id;
  r.tests = std::move(tests);
  return r;
}

const StatDelta& stat(const TestDelta& t, const std::string& name) {
  for (const auto& d : t.stats)
    if (d.stat == name) return d;
  throw std::runtime_error("no stat " + name);
}

TEST(Compare, ComputesAbsoluteAndRelativeDeltas) {
  // 100 samples: p50 is the 50th value, p99 the 99th; values below 2048 ns are exact.
  std::vector<std::uint64_t> a, b;
  for (std::uint64_t i = 1; i <= 100; ++i) a.push_back(1000 + i), b.push_back(1000 + 2 * i);
  results::TestRecord ta = rr("t", {}), tb = rr("t", {});
  judged(ta, of_values(a));
  judged(tb, of_values(b));
  CompareOptions o;
  const Comparison c = compare_runs(compared_run("A", {ta}), compared_run("B", {tb}), o);
  ASSERT_EQ(c.tests.size(), 1u);
  EXPECT_EQ(c.tests[0].key, "Latency.t/a->b");
  const StatDelta& p50 = stat(c.tests[0], "p50");
  EXPECT_DOUBLE_EQ(*p50.a, 1050);
  EXPECT_DOUBLE_EQ(*p50.b, 1100);
  EXPECT_NEAR(*p50.slowdown, 50.0 / 1050.0, 1e-12);
  const StatDelta& p99 = stat(c.tests[0], "p99");
  EXPECT_DOUBLE_EQ(*p99.a, 1099);
  EXPECT_DOUBLE_EQ(*p99.b, 1198);
  EXPECT_FALSE(c.regression()) << "no threshold: report only";
  EXPECT_EQ(c.tests[0].stats.size(), 4u) << "figures neither run has (throughput, loss, MTU...) are left out";
}

TEST(Compare, RegressionOnlyBeyondTheThresholdAndOnlyOnGatedStats) {
  const auto a = compared_run("A", {rr("t", {100'000, 100'000, 100'000})});
  const auto b10 = compared_run("B", {rr("t", {110'000, 110'000, 110'000})});
  const auto b12 = compared_run("B", {rr("t", {112'000, 112'000, 112'000})});
  CompareOptions o;
  o.fail_on_regression = 0.10;
  EXPECT_FALSE(compare_runs(a, b10, o).regression()) << "exactly 10% slower is not more than 10%";
  const Comparison c = compare_runs(a, b12, o);
  EXPECT_TRUE(c.regression());
  EXPECT_TRUE(stat(c.tests[0], "p99").regression);
  EXPECT_FALSE(stat(c.tests[0], "p50").regression) << "p50 is not gated by default";
  o.gated = {"max"};
  EXPECT_TRUE(compare_runs(a, b12, o).regression());
  o.gated = {"p99_99"};
  EXPECT_FALSE(compare_runs(a, b12, o).regression()) << "a stat not shown is never judged";
  // Faster is never a regression.
  o.gated = {"p99"};
  EXPECT_FALSE(compare_runs(b12, a, o).regression());
}

TEST(Compare, ThroughputRegressesWhenItDrops) {
  results::TestRecord ta = rr("s", {1000}), tb = rr("s", {1000});
  ta.kind = tb.kind = "tcp_stream";
  measure::Measurement ma = of_values({1000}), mb = of_values({1000});
  ma.throughput_bps = 940e6;
  mb.throughput_bps = 800e6;
  judged(ta, ma);
  judged(tb, mb);
  CompareOptions o;
  o.fail_on_regression = 0.10;
  o.gated = {"throughput"};
  const Comparison c = compare_runs(compared_run("A", {ta}), compared_run("B", {tb}), o);
  const StatDelta& d = stat(c.tests[0], "throughput");
  EXPECT_NEAR(*d.slowdown, 140.0 / 940.0, 1e-12);
  EXPECT_TRUE(c.regression());
  EXPECT_THAT(comparison_table(c, o), HasSubstr("-14.9%  REGRESSION"));
}

TEST(Compare, TestsInOnlyOneRunAreListedNotJudged) {
  CompareOptions o;
  o.fail_on_regression = 0.0;
  const Comparison c =
      compare_runs(compared_run("A", {rr("gone", {1000})}), compared_run("B", {rr("new", {5000})}), o);
  ASSERT_EQ(c.tests.size(), 2u);
  EXPECT_TRUE(c.tests[0].only_in_a);
  EXPECT_TRUE(c.tests[1].only_in_b);
  EXPECT_FALSE(c.regression());
  const std::string table = comparison_table(c, o);
  EXPECT_THAT(table, HasSubstr("Latency.gone/a->b (only in A)"));
  EXPECT_THAT(table, HasSubstr("Latency.new/a->b (only in B)"));
}

TEST(Compare, TailCausesThatAppearedOrVanishedAreListedWithoutTheirPids) {
  results::TestRecord a = rr("rr", {1000}), b = rr("rr", {5000});
  a.tail = nlohmann::json::parse(R"({"ranked":[
      {"cause":"cc1plus (pid 12) on CPU 1 of host a","kind":"preempted","count":5},
      {"cause":"IRQ 57 eth2-rx-0 on CPU 1 of host a","kind":"irq","count":2}]})");
  b.tail = nlohmann::json::parse(R"({"ranked":[
      {"cause":"cc1plus (pid 99) on CPU 1 of host a","kind":"preempted","count":3},
      {"cause":"cc1plus (pid 98) on CPU 1 of host a","kind":"preempted","count":1},
      {"cause":"tailhog (pid 4242) on CPU 1 of host a","kind":"preempted","count":14}]})");
  const CompareOptions o;
  const Comparison c = compare_runs(compared_run("A", {a}), compared_run("B", {b}), o);
  ASSERT_EQ(c.tests.size(), 1u);
  EXPECT_EQ(c.tests[0].causes_appeared, std::vector<std::string>{"tailhog on CPU 1 of host a (14 outliers)"});
  EXPECT_EQ(c.tests[0].causes_vanished, std::vector<std::string>{"IRQ 57 eth2-rx-0 on CPU 1 of host a (2 outliers)"});
  const std::string table = comparison_table(c, o);
  EXPECT_THAT(table, HasSubstr("tail cause appeared in B: tailhog on CPU 1 of host a (14 outliers)"));
  EXPECT_THAT(table, HasSubstr("tail cause vanished in B: IRQ 57 eth2-rx-0 on CPU 1 of host a (2 outliers)"));
  // A run that did not explain the test: nothing to compare.
  b.tail = nullptr;
  EXPECT_TRUE(
      compare_runs(compared_run("A", {a}), compared_run("B", {b}), o).tests[0].causes_vanished.empty());
}

TEST(Compare, AToolCasesRunLevelCausesAndAJitterCasesPerCpuOnesAreCompared) {
  results::TestRecord a = rr("sockperf", {1000}), b = rr("sockperf", {5000});
  a.tail = nlohmann::json::parse(R"({"causes":[],"over_run":{}})");
  b.tail = nlohmann::json::parse(R"({"over_run":{},"causes":[
      {"kind":"shared_cpu","key":"tailhog (pid 4242) on CPU 1 of host a","text":"tailhog (pid 4242) ran 600 ms"}],
      "worst_interval":{"evidence":[{"kind":"irq","key":"IRQ 57 eth2-rx-0 on CPU 1 of host a","text":"x"}]}})");
  const CompareOptions o;
  Comparison c = compare_runs(compared_run("A", {a}), compared_run("B", {b}), o);
  EXPECT_EQ(c.tests[0].causes_appeared,
            (std::vector<std::string>{"IRQ 57 eth2-rx-0 on CPU 1 of host a (over the run)",
                                      "tailhog on CPU 1 of host a (over the run)"}));
  EXPECT_TRUE(c.tests[0].causes_vanished.empty());
  results::TestRecord j1 = rr("jitter", {1000}), j2 = rr("jitter", {1000});
  j1.tail = nlohmann::json::parse(
      R"({"per_cpu":{"1":{"ranked":[{"cause":"cc1plus (pid 5) on CPU 1 of host a","count":9}]}}})");
  j2.tail = nlohmann::json::parse(R"({"per_cpu":{"1":{"ranked":[]}}})");
  c = compare_runs(compared_run("A", {j1}), compared_run("B", {j2}), o);
  EXPECT_EQ(c.tests[0].causes_vanished, std::vector<std::string>{"cc1plus on CPU 1 of host a (9 outliers)"});
}

TEST(Compare, TableShowsValuesDeltasAndVerdict) {
  CompareOptions o;
  o.fail_on_regression = 0.10;
  const Comparison c =
      compare_runs(compared_run("A", {rr("t", {100'000})}), compared_run("B", {rr("t", {150'000})}), o);
  const std::string table = comparison_table(c, o);
  EXPECT_THAT(table, HasSubstr("A = A\nB = B\n"));
  EXPECT_THAT(table, HasSubstr("100 us"));
  EXPECT_THAT(table, HasSubstr("150 us"));
  EXPECT_THAT(table, HasSubstr("+50.0 us"));
  EXPECT_THAT(table, HasSubstr("+50.0%  REGRESSION"));
  EXPECT_THAT(table, HasSubstr("verdict: REGRESSION"));
}

TEST(Compare, ReadsNetperfsOwnP99NotItsDecadeWideBuckets) {
  // Both runs' histograms are netperf's coarse buckets, identical; netperf's own
  // P99 went 33 -> 39 us: that is a regression of 18%.
  auto netperf = [](double p99) {
    measure::Measurement m;
    m.source = "netperf";
    m.kind = "udp_rr";
    m.histogram.record_n(19'999, 100);
    m.reported = {{"p50", 18'000}, {"p99", p99}, {"max", 90'000}};
    return m;
  };
  results::TestRecord ta = rr("t", {}), tb = rr("t", {});
  judged(ta, netperf(33'000));
  judged(tb, netperf(39'000));
  CompareOptions o;
  o.fail_on_regression = 0.10;
  const Comparison c = compare_runs(compared_run("A", {ta}), compared_run("B", {tb}), o);
  EXPECT_DOUBLE_EQ(*stat(c.tests[0], "p99").a, 33'000);
  EXPECT_DOUBLE_EQ(*stat(c.tests[0], "p99").b, 39'000);
  EXPECT_TRUE(c.regression());
  EXPECT_THROW(stat(c.tests[0], "p99_9"), std::runtime_error) << "netperf gives no p99.9: absent, not a bucket";
  // And the table says which figure it compared.
  EXPECT_EQ(stat(c.tests[0], "p99").source_a, "netperf's own p99 (tool)");
  EXPECT_EQ(stat(c.tests[0], "p99").source_b, "netperf's own p99 (tool)");
  EXPECT_THAT(comparison_table(c, o), HasSubstr("+18.2%  REGRESSION  netperf's own p99 (tool)\n"));
}

TEST(Compare, SaysWhenTheTwoSidesFigureComesFromDifferentSources) {
  measure::Measurement m = of_values({1000, 2000});
  m.source = "netperf";
  m.reported = {{"p99", 2500}};
  results::TestRecord ta = rr("t", {1000, 2000}), tb = rr("t", {});
  judged(tb, m);
  const Comparison c = compare_runs(compared_run("A", {ta}), compared_run("B", {tb}), CompareOptions{});
  const std::string table = comparison_table(c, CompareOptions{});
  EXPECT_THAT(table, HasSubstr("A: " + stat(c.tests[0], "p99").source_a + "; B: netperf's own p99 (tool)\n"));
  EXPECT_THAT(stat(c.tests[0], "p99").source_a, HasSubstr("(histogram)"));
}

TEST(Compare, EveryKindsOwnFigureAndWhichWayIsWorse) {
  results::TestRecord ta = rr("mtu", {}), tb = rr("mtu", {});
  ta.kind = tb.kind = "path_mtu";
  ta.figures.put({"mtu_forward", 1500, "bytes", stats::FigureSource::kProbe, ""});
  tb.figures.put({"mtu_forward", 1400, "bytes", stats::FigureSource::kProbe, ""});
  ta.figures.put({"loss", 0.001, "fraction", stats::FigureSource::kTool, ""});
  tb.figures.put({"loss", 0.002, "fraction", stats::FigureSource::kTool, ""});
  CompareOptions o;
  o.fail_on_regression = 0.05;
  o.gated = {"mtu_forward"};
  Comparison c = compare_runs(compared_run("A", {ta}), compared_run("B", {tb}), o);
  EXPECT_TRUE(stat(c.tests[0], "mtu_forward").regression) << "a smaller MTU is worse";
  EXPECT_THAT(comparison_table(c, o), HasSubstr("500 bytes"));
  o.gated = {"loss"};
  c = compare_runs(compared_run("A", {ta}), compared_run("B", {tb}), o);
  EXPECT_TRUE(stat(c.tests[0], "loss").regression) << "more loss is worse";
}

TEST(Compare, WarnsWhenASideIsNotKnownToConform) {
  const auto a = compared_run("A", {rr("t", {1000})});
  const Comparison c = compare_runs(a, a, CompareOptions{});
  ASSERT_EQ(c.warnings.size(), 2u) << "neither run checked any precondition";
  EXPECT_THAT(c.warnings[0], HasSubstr("not_checked"));
  EXPECT_THAT(comparison_table(c, CompareOptions{}), HasSubstr("warning: A (A) was measured"));
}

TEST(FigureNameOf, AcceptsFigureAndJunitNames) {
  EXPECT_EQ(figure_name_of("loss_pct"), "loss");
  EXPECT_EQ(figure_name_of("loss"), "loss");
  EXPECT_EQ(figure_name_of("p99_us"), "p99");
  EXPECT_EQ(figure_name_of("mtu_forward_bytes"), "mtu_forward");
  EXPECT_FALSE(figure_name_of("p42"));
}

TEST(ParsePercent, AcceptsPercentagesOnly) {
  EXPECT_DOUBLE_EQ(parse_percent("10%"), 0.10);
  EXPECT_DOUBLE_EQ(parse_percent("2.5%"), 0.025);
  EXPECT_DOUBLE_EQ(parse_percent("10"), 0.10);
  EXPECT_THROW(parse_percent("ten"), std::invalid_argument);
  EXPECT_THROW(parse_percent("10 %"), std::invalid_argument);
  EXPECT_THROW(parse_percent("-5%"), std::invalid_argument);
  EXPECT_THROW(parse_percent("%"), std::invalid_argument);
}

}  // namespace
}  // namespace labgate::report
