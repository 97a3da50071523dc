// Sweep charts: finding a swept test's cases in a run, and the chart drawn from them.
#include "labgate/report/sweep_chart.h"

#include <gtest/gtest.h>

#include "labgate/report/svg_chart.h"

namespace labgate::report {
namespace {

results::TestRecord rec(const std::string& name, const std::string& pair, double mbit,
                        results::TestVerdict v = results::TestVerdict::kPass) {
  results::TestRecord t;
  t.name = name;
  t.pair = pair;
  t.kind = "tcp_stream";
  t.verdict = v;
  if (mbit >= 0) t.figures.put({"throughput", mbit * 1e6, "bit/s", stats::FigureSource::kProbe, ""});
  t.figures.put({"p99", 12'500, "ns", stats::FigureSource::kHistogram, ""});
  return t;
}

TEST(SweepChart, ParsesOneSweptParameterOnly) {
  std::string test, param, value;
  ASSERT_TRUE(parse_sweep_name("tcp_stream_cc/congestion=bbr", test, param, value));
  EXPECT_EQ(test, "tcp_stream_cc");
  EXPECT_EQ(param, "congestion");
  EXPECT_EQ(value, "bbr");
  EXPECT_FALSE(parse_sweep_name("tcp_rr_64", test, param, value)) << "not swept";
  EXPECT_FALSE(parse_sweep_name("t/socket_buffer=16KiB,congestion=reno", test, param, value))
      << "two parameters at once: no single x axis";
  EXPECT_FALSE(parse_sweep_name("t/=3", test, param, value));
  EXPECT_FALSE(parse_sweep_name("t/size=", test, param, value));
}

TEST(SweepChart, GroupsCasesByTestAndPairInRunOrder) {
  results::RunResult run;
  run.tests = {rec("s/message_size=64", "a->b", 90),     rec("tcp_rr_64", "a->b", -1),
               rec("s/message_size=1024", "a->b", 900),  rec("s/message_size=64", "b->a", 80),
               rec("s/message_size=4096", "a->b", 2500), rec("lonely/size=1", "a->b", 1)};
  const auto groups = find_sweeps(run);
  ASSERT_EQ(groups.size(), 1u) << "b->a has one case, lonely one: no chart for either";
  EXPECT_EQ(groups[0].test, "s");
  EXPECT_EQ(groups[0].parameter, "message_size");
  EXPECT_EQ(groups[0].values, (std::vector<std::string>{"64", "1024", "4096"}));
  ASSERT_EQ(groups[0].cases.size(), 3u);
  EXPECT_EQ(groups[0].cases[2]->figures.value("throughput"), 2500e6);
}

TEST(SweepChart, ThroughputWhenEveryCaseHasItElseP99) {
  results::RunResult run;
  run.tests = {rec("cc/congestion=reno", "a->b", 1200), rec("cc/congestion=cubic", "a->b", 1400),
               rec("cc/congestion=bbr", "a->b", 700, results::TestVerdict::kFail)};
  auto groups = find_sweeps(run);
  ASSERT_EQ(groups.size(), 1u);
  const std::string svg = sweep_chart(groups[0]);
  ASSERT_FALSE(svg.empty());
  EXPECT_NE(svg.find("cc a-&gt;b by congestion"), std::string::npos)
      << "the title names test, pair, parameter";
  EXPECT_NE(svg.find("throughput (Mbit/s)"), std::string::npos);
  for (const char* v : {">reno<", ">cubic<", ">bbr<"}) EXPECT_NE(svg.find(v), std::string::npos) << v;
  EXPECT_NE(svg.find("congestion = bbr: 700 (fail)"), std::string::npos) << "the failed case says so";
  EXPECT_NE(svg.find(palette::kFail), std::string::npos);

  run.tests[1].figures.erase("throughput");
  groups = find_sweeps(run);
  EXPECT_NE(sweep_chart(groups[0]).find("p99 (\u00b5s)"), std::string::npos);
  for (auto& t : run.tests) t.figures.clear();
  groups = find_sweeps(run);
  EXPECT_EQ(sweep_chart(groups[0]), "") << "nothing common to draw";
}

TEST(SweepChart, SectionCountsItsCharts) {
  results::RunResult run;
  int charts = 0;
  EXPECT_EQ(sweep_section(run, charts), "");
  run.tests = {rec("s/size=1", "a->b", 1), rec("s/size=2", "a->b", 2)};
  const std::string html = sweep_section(run, charts);
  EXPECT_EQ(charts, 1);
  EXPECT_NE(html.find("<h2>Sweeps</h2>"), std::string::npos);
}

}  // namespace
}  // namespace labgate::report
