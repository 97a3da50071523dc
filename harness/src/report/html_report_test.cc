// Tests of report.html's content: self-contained, the summary facts, hosts side
// by side, every test with its plots, and hostile text escaped.
#include "labgate/report/html_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "report/synthetic_run.h"

namespace labgate::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

int count(const std::string& s, const std::string& needle) {
  int n = 0;
  for (auto at = s.find(needle); at != std::string::npos; at = s.find(needle, at + 1)) ++n;
  return n;
}

TEST(HtmlReport, IsSelfContained) {
  std::string html = html_report(testing::synthetic_run());
  // The only URI allowed is SVG's namespace, which is a name, not a fetch.
  const std::string ns = "xmlns=\"http://www.w3.org/2000/svg\"";
  EXPECT_EQ(count(html, ns), count(html, "<svg"));
  for (auto at = html.find(ns); at != std::string::npos; at = html.find(ns)) html.erase(at, ns.size());
  EXPECT_THAT(html, Not(HasSubstr("http://")));
  EXPECT_THAT(html, Not(HasSubstr("https://")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
}

TEST(HtmlReport, SummaryCarriesTheRunsContext) {
  const std::string html = html_report(testing::synthetic_run());
  EXPECT_THAT(html, HasSubstr("<header class=\"banner failed\"><h1>FAILED</h1>"));
  EXPECT_THAT(html, HasSubstr("profiles/lab.toml"));
  EXPECT_THAT(html, HasSubstr("2024-05-01 12:00:00 UTC"));
  EXPECT_THAT(html, HasSubstr("6 min 42 s"));
  EXPECT_THAT(html, HasSubstr("no: 1 of 13 precondition rules failed (first: b/sysctl/net.ipv4.tcp_sack)"));
  EXPECT_THAT(html, HasSubstr("198.19.0.3"));
  EXPECT_THAT(html, HasSubstr("clocksource is tsc"));
}

TEST(HtmlReport, SaysWhichCommandLineOverridesWonOverTheProfile) {
  results::RunResult run = testing::synthetic_run();
  EXPECT_THAT(html_report(run), Not(HasSubstr("command-line overrides")));
  run.overrides = {{"message_size", "16KiB", {{"tcp_stream_sizes", "[64, 1024] (a sweep) at lab.toml:77:16"}}}};
  const std::string html = html_report(run);
  EXPECT_THAT(html, HasSubstr("Run with command-line overrides"));
  EXPECT_THAT(html, HasSubstr("<code>--message-size 16KiB</code></td><td>tcp_stream_sizes</td><td>[64, 1024] (a sweep)"));
}

TEST(HtmlReport, WhyTheTailShowsTheRankedCausesTheWorstOutliersAndWhatTheHostsCouldNotShow) {
  results::RunResult run = testing::synthetic_run();
  EXPECT_EQ(html_report(run).find("Why the tail"), std::string::npos) << "no tail, no section";
  run.tests[0].tail = {{"why_not", "not explained: the noise watch runs beside the built-in probes only"}};
  EXPECT_THAT(html_report(run), HasSubstr("<h4>Why the tail</h4><p class=\"meta\">not explained: the noise "
                                          "watch runs beside the built-in probes only</p></div>"));
  run.tests[0].tail = nlohmann::json::parse(R"({"top":"2 of 3 outliers: <hog> (pid 42) on CPU 1 of host a",
    "unexplained":1,"outliers_total":3,
    "ranked":[{"cause":"<hog> (pid 42) on CPU 1 of host a","kind":"preempted","count":2}],
    "outliers":[{"seq":7,"value_ns":412000,"split":"reply waited 400 us in host a's socket","cause":"x",
                 "evidence":[{"kind":"preempted","host":"a","text":"<hog> (pid 42) ran 380 us on CPU 1 of host a"}]},
                {"seq":9,"value_ns":300000,"split":"","cause":"unexplained","evidence":[]}],
    "limits":["host b: SMI: not available: no /dev/cpu/0/msr"]})");
  const std::string html = html_report(run);
  EXPECT_THAT(html, HasSubstr("Why the tail"));
  EXPECT_THAT(html, HasSubstr("2 of 3 outliers: &lt;hog&gt; (pid 42) on CPU 1 of host a"));
  EXPECT_THAT(html, HasSubstr("&lt;hog&gt; (pid 42) ran 380 us on CPU 1 of host a"));
  EXPECT_THAT(html, HasSubstr("reply waited 400 us in host a&#39;s socket"));
  EXPECT_THAT(html, HasSubstr("<td>unexplained</td>"));
  EXPECT_THAT(html, HasSubstr("host b: SMI: not available: no /dev/cpu/0/msr"));
  EXPECT_THAT(html, HasSubstr("1 unexplained"));
  EXPECT_THAT(html, HasSubstr("<th class=\"num\">Request</th>"));
  // A stream's: the receiver's gaps by datagram, not the sender's send times.
  run.tests[0].tail["seq_name"] = "Datagram";
  run.tests[0].tail["value_name"] = "receive gap";
  EXPECT_THAT(html_report(run), HasSubstr("<th class=\"num\">Datagram</th><th class=\"num\">receive gap</th>"));
}

TEST(HtmlReport, AToolCasesTailShowsHowFarItsOutputGoesEachHostsRunAndItsCauses) {
  results::RunResult run = testing::synthetic_run();
  run.tests[0].tail =
      nlohmann::json::parse(R"({"top":"over the whole run (sockperf gives no moment for its max): <hog>",
    "join":"whole run only: sockperf prints percentiles and the max of the whole run",
    "over_run":{"a":{"role":"client","watch":"ok","cpus":[{"cpu":1,"irq_ms":0,"softirq_ms":20,"steal_ms":0,
                       "tasks":[{"pid":42,"comm":"tailhog","ran_ns":600000000}]}]},
                "b":{"role":"server","watch":"not available: the watch could not be started: no space"}},
    "causes":[{"kind":"shared_cpu","host":"a","text":"tailhog (pid 42) ran 600.0 ms of the run's 3000.0 ms on CPU 1 of host a"}],
    "limits":["host b: noise watch: not available: the watch could not be started: no space"]})");
  const std::string html = html_report(run);
  EXPECT_THAT(html,
              HasSubstr("<h4>Why the tail</h4><p class=\"meta\">over the whole run (sockperf gives no moment "
                        "for its max): &lt;hog&gt;</p>"));
  EXPECT_THAT(html, HasSubstr("whole run only: sockperf prints percentiles"));
  EXPECT_THAT(
      html, HasSubstr("<td>a (client)</td><td class=\"num\">1</td><td>IRQ 0 ns, softirq 20.0 ms, steal 0 ns; "
                      "tailhog (pid 42) ran 600 ms</td>"));
  EXPECT_THAT(
      html, HasSubstr("<td>b</td><td></td><td>not available: the watch could not be started: no space</td>"));
  EXPECT_THAT(
      html,
      HasSubstr("<li>tailhog (pid 42) ran 600.0 ms of the run&#39;s 3000.0 ms on CPU 1 of host a</li>"));
  EXPECT_THAT(html, HasSubstr("<li>host b: noise watch: not available"));
  // With sockperf's full_log, its worst round trips are listed as the probes' are, the whole run beside them.
  run.tests[0].tail["join"] = "per round trip: the 1 worst of sockperf's 9000 logged round trips";
  run.tests[0].tail["top"] = "1 of 1 worst round trips: tailhog (pid 42) on CPU 1 of host a";
  run.tests[0].tail["ranked"] = nlohmann::json::parse(
      R"([{"cause":"tailhog (pid 42) on CPU 1 of host a","kind":"preempted","count":1}])");
  run.tests[0].tail["outliers"] = nlohmann::json::parse(
      R"([{"seq":4711,"value_ns":5000000,"split":"","cause":"x",
           "evidence":[{"kind":"preempted","host":"a","text":"tailhog (pid 42) ran 4.9 ms on CPU 1 of host a"}]}])");
  const std::string per_sample = html_report(run);
  EXPECT_THAT(per_sample, HasSubstr("<h4>Why the tail</h4><p class=\"meta\">1 of 1 worst round trips: tailhog"));
  EXPECT_THAT(per_sample, HasSubstr("tailhog (pid 42) ran 4.9 ms on CPU 1 of host a"));
  EXPECT_THAT(per_sample, HasSubstr("per round trip: the 1 worst of sockperf&#39;s 9000 logged round trips"));
  EXPECT_THAT(per_sample, HasSubstr("<td>a (client)</td><td class=\"num\">1</td>"));
}

TEST(HtmlReport, SaysWhichMeshScheduleRanAndThatRoundsShareTheSwitch) {
  results::RunResult run = testing::synthetic_run();
  EXPECT_THAT(html_report(run), Not(HasSubstr("Mesh schedule")));
  run.tests[0].mesh_schedule = "disjoint";
  run.tests[0].round = 2;
  const std::string html = html_report(run);
  EXPECT_THAT(html, HasSubstr("Mesh schedule: disjoint, round 2."));
  EXPECT_THAT(html, HasSubstr("schedule disjoint (2 rounds; the pairs of a round were measured at the same time "
                              "and shared the switch)"));
  run.tests[0].mesh_schedule = "sequential";
  run.tests[0].round = 0;
  EXPECT_THAT(html_report(run), HasSubstr("Mesh schedule: sequential, one pair at a time."));
}

TEST(HtmlReport, PreconditionTableShowsHostsSideBySide) {
  const std::string html = html_report(testing::synthetic_run());
  EXPECT_THAT(html, HasSubstr("<th>Rule</th><th>host a: found</th><th>host b: found</th><th>Expected</th>"));
  // One row for tcp_sack with a's 0 (ok) next to b's 1 (bad).
  EXPECT_TRUE(std::regex_search(
      html, std::regex("net\\.ipv4\\.tcp_sack</td><td class=\"found ok\"[^>]*>0</td>"
                       "<td class=\"found bad\"[^>]*>1</td><td class=\"expected\">0</td>")));
  EXPECT_THAT(html, HasSubstr("colspan=\"2\""));  // the pair rule spans both hosts
  EXPECT_THAT(html, HasSubstr("echo &#39;net.ipv4.tcp_sack = 0&#39; &gt;&gt; /etc/sysctl.conf"));
}

TEST(HtmlReport, AToolsCoolDownAndItsOwnStartUpAreSaid) {
  auto run = testing::synthetic_run();
  auto& m = run.tests.at(0).measurement;
  ASSERT_FALSE(m.is_null());
  m["cooldown_s"] = 0.05;
  m["tool_time"] = {{"startup_s", 2.0}, {"wrapup_s", 0.25}, {"basis", "sockperf's own lines"}};
  const std::string html = html_report(run);
  EXPECT_THAT(html, HasSubstr("cool-down excluded: last 0.05 s"));
  EXPECT_THAT(
      html,
      HasSubstr(
          "the tool&#39;s own start-up 2 s before its run and wrap-up 0.25 s after it (not measuring)"));
  EXPECT_THAT(html_report(testing::synthetic_run()), Not(HasSubstr("cool-down excluded")));
}

TEST(HtmlReport, EveryMeasuredTestHasItsPlotsAndContext) {
  const std::string html = html_report(testing::synthetic_run());
  // 4 tests with histograms and series, 3 plots each; the broken test has none.
  EXPECT_EQ(count(html, "<svg class=\"lg-chart\""), 12);
  EXPECT_THAT(html, HasSubstr("data-lg-charts=\"12\""));
  EXPECT_THAT(html, HasSubstr("warm-up excluded: first 2 s"));
  EXPECT_THAT(html, HasSubstr("CPU placement: pinned to CPU 2, ran on CPU 2, server cpu asked 2"));
  EXPECT_THAT(html, HasSubstr("CPU placement: CPU 2, cpus [2]"));
  EXPECT_THAT(html, HasSubstr("<b>round-trip time</b>"));
  EXPECT_THAT(html, HasSubstr("<b>clock gap</b>"));
  EXPECT_THAT(html, HasSubstr("iperf3 client on host b exited with signal 11"));
  EXPECT_THAT(html, HasSubstr("941 Mbit/s"));
  EXPECT_THAT(html, HasSubstr("2 events over the threshold, placed in time"));
  EXPECT_THAT(html,
              HasSubstr("<td class=\"num\">17.42 s</td><td class=\"num\">14.0 \xC2\xB5s</td><td>2</td>"));
}

TEST(HtmlReport, EscapesHostileText) {
  results::RunResult run = testing::synthetic_run();
  run.tests[0].name = "<script>alert(1)</script>";
  run.checks[0].found = "\"><img onerror=x>";
  run.lab_name = "lab & co";
  const std::string html = html_report(run);
  EXPECT_THAT(html, Not(HasSubstr("<script>alert")));
  EXPECT_THAT(html, Not(HasSubstr("<img")));
  EXPECT_THAT(html, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_THAT(html, HasSubstr("lab &amp; co"));
}

TEST(HtmlReport, AnIncompleteRunSaysSo) {
  results::RunResult run = testing::synthetic_run();
  run.exit_code.reset();
  run.end_time.reset();
  const std::string html = html_report(run);
  EXPECT_THAT(html, HasSubstr("<header class=\"banner incomplete\"><h1>INCOMPLETE</h1>"));
  EXPECT_THAT(html, HasSubstr("not finished"));
}

}  // namespace
}  // namespace labgate::report
