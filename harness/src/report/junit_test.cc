// Tests of the merged JUnit XML: names, suites, counts, properties, escaping.
// (Schema validity is checked with xmllint in tests/report.)
#include "labgate/report/junit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "testing/synthetic_run.h"

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
  EXPECT_THAT(sack, HasSubstr("classname=\"Preconditions\""));
  EXPECT_THAT(sack,
              HasSubstr("<failure message=\"host b: /proc/sys/net/ipv4/tcp_sack is 1, profile wants 0\" "
                        "type=\"precondition\">"));
  EXPECT_THAT(sack, HasSubstr("sysctl -w net.ipv4.tcp_sack=0\n"));
  EXPECT_THAT(testcase(xml, "a/sysctl/net.ipv4.tcp_sack"), Not(HasSubstr("<failure")));

  const std::string rr = testcase(xml, "tcp_rr_64/a-&gt;b");
  EXPECT_THAT(rr, HasSubstr("classname=\"Latency\""));
  EXPECT_THAT(rr, HasSubstr("<property name=\"p99_us\" value=\""));
  EXPECT_THAT(rr, HasSubstr("<property name=\"metric\" value=\"round-trip time\"/>"));
  EXPECT_THAT(rr, HasSubstr("<property name=\"conforming\" value=\"no\"/>"));
  EXPECT_THAT(testcase(xml, "tcp_stream_64/a-&gt;b"), HasSubstr("classname=\"Throughput\""));
  EXPECT_THAT(testcase(xml, "timer_jitter/a/cpu2"), HasSubstr("classname=\"Jitter\""));
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
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"Preconditions\" tests=\"13\" failures=\"1\" errors=\"0\" "
                             "skipped=\"2\""));
  int latency_failures = 0;
  for (const auto& t : run.tests)
    if (t.suite_name() == "Latency" && t.verdict == results::TestVerdict::kFail) ++latency_failures;
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"Latency\" tests=\"2\" failures=\"" +
                             std::to_string(latency_failures) + "\" errors=\"0\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"Throughput\" tests=\"2\" failures=\"0\" errors=\"1\""));
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
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"Gate\" tests=\"1\" failures=\"0\" errors=\"1\""));
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

}  // namespace
}  // namespace labgate::report
