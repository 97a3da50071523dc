// Tests of the merged JUnit XML: names, suites, counts, properties, escaping.
// (Schema validity is checked with xmllint in tests/report.)
#include "labgate/report/junit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/report/junit_strict.h"
#include "labgate/report/markup.h"
#include "report/synthetic_run.h"

namespace labgate::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The XML of one <testcase> element, found by its escaped name.
std::string testcase(const std::string& xml, const std::string& escaped_name) {
  const auto at = xml.find("<testcase name=\"" + escaped_name + "\"");
  if (at == std::string::npos) return "";
  return xml.substr(at, xml.find("</testcase>", at) - at);
}

TEST(Junit, OneTestcasePerRuleAndTestNamedForJenkins) {
  const std::string xml = junit_xml(testing::synthetic_run());
  const std::string sack = testcase(xml, "b/sysctl/net.ipv4.tcp_sack");
  EXPECT_THAT(sack, HasSubstr("classname=\"lab.Preconditions\""));
  EXPECT_THAT(sack,
              HasSubstr("<failure message=\"host b: /proc/sys/net/ipv4/tcp_sack is 1, profile wants 0\" "
                        "type=\"precondition\">"));
  EXPECT_THAT(sack, HasSubstr("sysctl -w net.ipv4.tcp_sack=0\n"));
  EXPECT_THAT(testcase(xml, "a/sysctl/net.ipv4.tcp_sack"), Not(HasSubstr("<failure")));

  const std::string rr = testcase(xml, "tcp_rr_64/a-&gt;b");
  EXPECT_THAT(rr, HasSubstr("classname=\"lab.Latency\""));
  EXPECT_THAT(rr, HasSubstr("<property name=\"p99_us\" value=\""));
  EXPECT_THAT(rr, HasSubstr("<property name=\"metric\" value=\"round-trip time\"/>"));
  EXPECT_THAT(rr, HasSubstr("<property name=\"conforming\" value=\"no\"/>"));
  EXPECT_THAT(testcase(xml, "tcp_stream_64/a-&gt;b"), HasSubstr("classname=\"lab.Throughput\""));
  EXPECT_THAT(testcase(xml, "timer_jitter/a/cpu2"), HasSubstr("classname=\"lab.Jitter\""));
}

TEST(Junit, WhyTheTailIsInTheFailureBesideTheMaxAndInAPassingCasesOutput) {
  results::RunResult run = testing::synthetic_run();
  const nlohmann::json tail = {{"top", "3 of 4 outliers: tailhog (pid 9) on CPU 1 of host a"}};
  for (auto& t : run.tests) {
    t.tail = tail;
    if (t.verdict == results::TestVerdict::kFail)
      t.failure = "max = 412 us exceeds the budget of 200 us by 212 us; why: 3 of 4 outliers: tailhog (pid 9) on CPU 1 of host a";
  }
  const std::string xml = junit_xml(run);
  const std::string rr = testcase(xml, "tcp_rr_64/a-&gt;b");
  EXPECT_THAT(rr, HasSubstr("why the tail: 3 of 4 outliers: tailhog (pid 9) on CPU 1 of host a"));
  bool failing = false, passing = false;
  for (const auto& t : run.tests) {
    const std::string k = testcase(xml, report::xml_escape(t.test_name()));
    if (t.verdict == results::TestVerdict::kFail) {
      failing = true;
      EXPECT_THAT(k, HasSubstr("<failure message=\"max = 412 us exceeds the budget of 200 us by 212 us; why: 3 of 4"));
    }
    if (t.verdict == results::TestVerdict::kPass) {
      passing = true;
      EXPECT_THAT(k, HasSubstr("<system-out>"));
      EXPECT_THAT(k, HasSubstr("why the tail: 3 of 4 outliers"));
    }
  }
  EXPECT_TRUE(failing && passing) << "the synthetic run has both";
}

TEST(Junit, NotCheckableIsSkippedAndBrokenTestsAreErrors) {
  const std::string xml = junit_xml(testing::synthetic_run());
  EXPECT_THAT(testcase(xml, "a/bios/Intel_Hyperthreading"),
              HasSubstr("<skipped message=\"conrep is not installed on host a\"/>"));
  const std::string broken = testcase(xml, "udp_stream_64/b-&gt;a");
  EXPECT_THAT(broken,
              HasSubstr("<error message=\"iperf3 client on host b exited with signal 11 after 3.2 s"));
  EXPECT_THAT(broken, HasSubstr("type=\"gate\""));
}

TEST(Junit, CountsPerSuiteAndOverall) {
  const results::RunResult run = testing::synthetic_run();
  const std::string xml = junit_xml(run);
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"lab.Preconditions\" tests=\"13\" failures=\"1\" errors=\"0\" "
                             "skipped=\"2\""));
  int latency_failures = 0;
  for (const auto& t : run.tests)
    if (t.suite_name() == "Latency" && t.verdict == results::TestVerdict::kFail) ++latency_failures;
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"lab.Latency\" tests=\"2\" failures=\"" +
                             std::to_string(latency_failures) + "\" errors=\"0\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"lab.Throughput\" tests=\"2\" failures=\"0\" errors=\"1\""));
  EXPECT_THAT(xml,
              HasSubstr("<testsuites name=\"labgate lab 20240501-120000-nightly\" tests=\"18\" failures=\"" +
                        std::to_string(1 + latency_failures) + "\" errors=\"1\""));
  EXPECT_THAT(xml, HasSubstr("<property name=\"labgate.conforming\" value=\"no\"/>"));
}

TEST(Junit, EscapesHostileNamesAndMessages) {
  results::RunResult run = testing::synthetic_run();
  run.checks[0].rule =
      "sysctl/\"quoted\" <tag> & \x01"
      "ctl";
  run.checks[0].message = "line1\nline2 <b>&amp;</b> \x1b[31m";
  run.tests[0].name = "rr 'x' <&>\x07";
  const std::string xml = junit_xml(run);
  EXPECT_THAT(xml, HasSubstr("name=\"a/sysctl/&quot;quoted&quot; &lt;tag&gt; &amp; ctl\""));
  EXPECT_THAT(xml, HasSubstr("name=\"rr &#39;x&#39; &lt;&amp;&gt;/a-&gt;b\""));
  EXPECT_THAT(xml, Not(HasSubstr("\x01")));
  EXPECT_THAT(xml, Not(HasSubstr("\x07")));
  EXPECT_THAT(xml, Not(HasSubstr("\x1b")));
}

TEST(Junit, FailureMessageKeepsTheWholeMessageIncludingNewlines) {
  results::RunResult run = testing::synthetic_run();
  run.checks[1].verdict = results::CheckVerdict::kFail;
  run.checks[1].message = "host a: first line\nsecond line";
  const std::string xml = junit_xml(run);
  EXPECT_THAT(xml, HasSubstr("message=\"host a: first line&#10;second line\""));
}

TEST(Junit, AGateThatCouldNotRunLeavesAnErrorTestcase) {
  results::RunResult run;
  run.run_id = "r";
  run.exit_code = 3;
  run.error = "host b unreachable: connect to 198.18.0.6:22 timed out after 10 s";
  const std::string xml = junit_xml(run);
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"labgate.Gate\" tests=\"1\" failures=\"0\" errors=\"1\""));
  EXPECT_THAT(
      xml, HasSubstr("<error message=\"host b unreachable: connect to 198.18.0.6:22 timed out after 10 s\""));
}

TEST(Junit, PublishesTheJudgedFiguresWithTheirSourcesAndNothingElse) {
  results::RunResult run = testing::synthetic_run();
  const std::string rr = testcase(junit_xml(run), "tcp_rr_64/a-&gt;b");
  for (const char* p :
       {"p50_us", "p90_us", "p99_us", "p99_9_us", "p99_99_us", "max_us", "mean_us", "stddev_us", "samples"}) {
    EXPECT_THAT(rr, HasSubstr(std::string("<property name=\"") + p + "\" value=\"")) << p;
    EXPECT_THAT(rr, HasSubstr(std::string("<property name=\"") + p + ".source\" value=\"")) << p;
  }
  EXPECT_THAT(rr, Not(HasSubstr("name=\"dropped\""))) << "TCP counts no drops: none published";
  // A figure the judge did not give is never published, not even derived.
  run.tests[0].figures.clear();
  const std::string bare = testcase(junit_xml(run), "tcp_rr_64/a-&gt;b");
  EXPECT_THAT(bare, Not(HasSubstr("name=\"p99_us\"")));
}

TEST(Junit, AMeshCaseSaysItsScheduleAndRound) {
  results::RunResult run = testing::synthetic_run();
  EXPECT_THAT(testcase(junit_xml(run), "tcp_rr_64/a-&gt;b"), Not(HasSubstr("labgate.mesh_schedule")));
  run.tests[0].mesh_schedule = "disjoint";
  run.tests[0].round = 3;
  const std::string rr = testcase(junit_xml(run), "tcp_rr_64/a-&gt;b");
  EXPECT_THAT(rr, HasSubstr("<property name=\"labgate.mesh_schedule\" value=\"disjoint\""));
  EXPECT_THAT(rr, HasSubstr("<property name=\"labgate.round\" value=\"3\""));
}

// Two pairs of a pool, same profile, same tests: Jenkins keys a suite by its
// name and a case by classname + name, so both must differ between the pairs.
TEST(Junit, TwoPairsOfAPoolNeverShareASuiteOrACaseIdentity) {
  results::RunResult one = testing::synthetic_run();
  results::RunResult two = testing::synthetic_run();
  one.lab_name = two.lab_name = "ctp";
  one.suffix = "pool-pair6";
  two.suffix = "pool-pair7";
  const std::string a = junit_xml(one), b = junit_xml(two);
  EXPECT_THAT(a, HasSubstr("<testsuite name=\"ctp.pair6.Latency\""));
  EXPECT_THAT(b, HasSubstr("<testsuite name=\"ctp.pair7.Latency\""));
  EXPECT_THAT(testcase(a, "tcp_rr_64/a-&gt;b"), HasSubstr("classname=\"ctp.pair6.Latency\""));
  EXPECT_THAT(testcase(b, "tcp_rr_64/a-&gt;b"), HasSubstr("classname=\"ctp.pair7.Latency\""));
  // A pool whose pairs already have their own lab names is not named twice.
  one.lab_name = "lab-pair6";
  EXPECT_THAT(junit_xml(one), HasSubstr("<testsuite name=\"lab-pair6.Latency\""));
}

TEST(Junit, EachSuiteCarriesWhenItsFirstRecordStartedAndMeasuredTimes) {
  results::RunResult run = testing::synthetic_run();
  const auto t0 = run.start_time;
  for (std::size_t i = 0; i < run.checks.size(); ++i) {
    run.checks[i].started = t0 + std::chrono::milliseconds(100 * i);
    run.checks[i].duration_s = 0.05;
  }
  // Latency: tcp_rr 12:01:00 for 7.25 s, udp_rr 12:01:10 for 4.5 s (the record's
  // measured time, not the profile's nominal 60 s + warm-up).
  run.tests[0].started = t0 + std::chrono::seconds(60);
  run.tests[0].duration_s = 7.25;
  run.tests[1].started = t0 + std::chrono::seconds(70);
  run.tests[1].duration_s = 4.5;
  const std::string xml = junit_xml(run);
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"lab.Preconditions\" tests=\"13\" failures=\"1\" errors=\"0\" "
                             "skipped=\"2\" time=\"1.250\" timestamp=\"2024-05-01T12:00:00.000Z\""));
  EXPECT_THAT(xml, HasSubstr("name=\"lab.Latency\" tests=\"2\""));
  EXPECT_THAT(xml, HasSubstr("time=\"14.500\" timestamp=\"2024-05-01T12:01:00.000Z\""));
  EXPECT_THAT(testcase(xml, "tcp_rr_64/a-&gt;b"), HasSubstr("time=\"7.250\""));
  EXPECT_THAT(testcase(xml, "b/sysctl/net.ipv4.tcp_sack"), HasSubstr("time=\"0.050\""));
  // Throughput has records without a start: its time is the sum of measured durations.
  EXPECT_THAT(xml, HasSubstr("name=\"lab.Throughput\" tests=\"2\" failures=\"0\" errors=\"1\" skipped=\"0\" "
                             "time=\"63.500\""));  // 60 s + 3.5 s of tcp_stream_64, 0 of the broken one
}

TEST(Junit, PairRulesAreNotNamedTwiceAndSkipReasonsNotRepeated) {
  results::RunResult run = testing::synthetic_run();
  run.checks.back().rule = "pair/same/kernel_release";  // as checks::check_same records it
  run.checks[5].message = "host a: bios/Intel_Hyperthreading not checkable: conrep is not installed "
                          "(conrep is not installed)";
  const std::string xml = junit_xml(run);
  EXPECT_THAT(xml, HasSubstr("<testcase name=\"pair/same/kernel_release\""));
  EXPECT_THAT(xml, Not(HasSubstr("pair/pair/")));
  EXPECT_THAT(testcase(xml, "a/bios/Intel_Hyperthreading"),
              HasSubstr("<skipped message=\"host a: bios/Intel_Hyperthreading not checkable: conrep is not "
                        "installed\"/>"));
  // A parenthesis that adds something is kept.
  run.checks[5].message = "host a: bios/X not checkable: conrep missing (see HP SmartStart)";
  EXPECT_THAT(junit_xml(run), HasSubstr("conrep missing (see HP SmartStart)\"/>"));
}

TEST(JunitStrict, FiguresAreSuitePropertiesAndCasesHaveNoChildrenButAVerdict) {
  const std::string xml = junit_strict_xml(testing::synthetic_run());
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"Latency\" package=\"lab\" id=\"1\" "
                             "timestamp=\"2024-05-01T12:00:05\" hostname=\"198.18.0.2,198.18.0.6\""));
  EXPECT_THAT(xml, HasSubstr("<property name=\"tcp_rr_64/a-&gt;b.p99_us\" value=\""));
  EXPECT_THAT(xml, Not(HasSubstr("<properties>\n        <property")));  // none inside a testcase
  EXPECT_THAT(xml, HasSubstr("<testcase name=\"a/sysctl/net.ipv4.tcp_timestamps\" "
                             "classname=\"lab.Preconditions\" time=\"0.000\"/>"));
  EXPECT_THAT(xml, HasSubstr("<skipped message=\"conrep is not installed on host a\"/>"));
  EXPECT_THAT(xml, HasSubstr("<system-err></system-err>"));
  EXPECT_THAT(xml, HasSubstr("--- tcp_stream_64/a-&gt;b\nmetric: per-send time"));
}

}  // namespace
}  // namespace labgate::report
