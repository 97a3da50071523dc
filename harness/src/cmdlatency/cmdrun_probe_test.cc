// Tests of the cmdrun probe's command line and of reading its output (recorded
// from the real probe) into a Measurement that budgets judge.
#include "labgate/cmdlatency/cmdrun_probe.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/measure/probe_output.h"
#include "util/source_file.h"

namespace labgate::cmdlatency {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

profile::TestSpec loadavg() {
  profile::TestSpec s;
  s.name = "loadavg";
  s.kind = profile::TestKind::kCommand;
  s.on = {"a"};
  s.command.argv = {"cat", "/proc/loadavg"};
  s.command.count = 100;
  s.command.timeout = seconds(2);
  return s;
}

TEST(CmdrunCommand, CountedRunsWaitForEveryRunToTimeOut) {
  const auto inv = cmdrun_command(loadavg(), "/tmp/d/cmdrun", "/tmp/d");
  EXPECT_THAT(inv.argv, ElementsAre("/tmp/d/cmdrun", "--timeout", "2s", "--scratch", "/tmp/d", "--count",
                                    "100", "--", "cat", "/proc/loadavg"));
  EXPECT_EQ(inv.timeout, seconds(100 * 2 + 60));
}

TEST(CmdrunCommand, DurationAndPause) {
  profile::TestSpec s = loadavg();
  s.command.count.reset();
  s.command.pause = milliseconds(250);
  s.duration = seconds(10);
  const auto inv = cmdrun_command(s, "p", "/d");
  EXPECT_THAT(inv.argv, ElementsAre("p", "--timeout", "2s", "--scratch", "/d", "--pause", "250ms",
                                    "--duration", "10s", "--", "cat", "/proc/loadavg"));
  EXPECT_EQ(inv.timeout, seconds(10) + seconds(2) + milliseconds(250) + seconds(60));
}

TEST(CmdrunCommand, ArgumentsThatLookLikeFlagsStayTheCommands) {
  profile::TestSpec s = loadavg();
  s.command.argv = {"dig", "--timeout", "1"};
  const auto inv = cmdrun_command(s, "p", "/d");
  EXPECT_THAT(std::vector<std::string>(inv.argv.end() - 4, inv.argv.end()),
              ElementsAre("--", "dig", "--timeout", "1"));
}

// Printed by `cmdrun --count 5 --scratch /tmp -- true` on the build machine.
constexpr char kFiveTrue[] =
    R"({"format":"labgate-probe-1","probe":"cmdrun","status":"ok","clock":"CLOCK_MONOTONIC","interrupted":false,)"
    R"("elapsed_ns":21110586,"exec_overhead_p50_ns":278824,"first_failure_stderr":"",)"
    R"("runs":[[702854,0,0],[716213,0,0],[9554542,0,0],[9300054,0,0],[723284,0,0]]})";

TEST(ParseCmdrun, RunsBecomeAHistogramWithTheFloorBeside) {
  const measure::Measurement m = parse_cmdrun(kFiveTrue, loadavg(), "a");
  EXPECT_EQ(m.kind, "command");
  EXPECT_EQ(m.host, "a");
  EXPECT_EQ(m.metric, measure::Metric::kWallTime);
  EXPECT_EQ(m.histogram.count(), 5u);
  EXPECT_NEAR(*m.stat("max"), 9554542, 9554542 * 0.01);
  EXPECT_EQ(m.stat("max_failures"), 0.0);
  EXPECT_EQ(m.parameters.at("exit_codes"), "0:5");
  EXPECT_EQ(m.parameters.at("exec_overhead_p50_ns"), "278824");
  EXPECT_EQ(m.parameters.at("clock"), "CLOCK_MONOTONIC");
  EXPECT_NEAR(m.duration_s, 0.0211, 1e-4);
}

// `cmdrun --count 3 -- sh -c 'echo oops >&2; exit 3'`, then two runs of `sleep 5` killed at 200ms.
TEST(ParseCmdrun, FailuresAndTimeoutsAreCountedWithTheFirstStderr) {
  const measure::Measurement m = parse_cmdrun(
      R"({"format":"labgate-probe-1","probe":"cmdrun","status":"ok","clock":"CLOCK_MONOTONIC","interrupted":false,)"
      R"("elapsed_ns":403000000,"exec_overhead_p50_ns":272405,"first_failure_stderr":"oops\u000a",)"
      R"("runs":[[830443,0,0],[724216,3,0],[201624604,137,1]]})",
      loadavg(), "b");
  EXPECT_EQ(m.stat("max_failures"), 2.0);
  EXPECT_EQ(m.parameters.at("exit_codes"), "0:1,3:1,timeout:1");
  EXPECT_THAT(m.parameters.at("first_failure"), HasSubstr("run 2: exit 3: oops"));
  EXPECT_GT(*m.stat("max"), 2e8);  // a slow failure is still a slow operation
}

TEST(ParseCmdrun, TheProbesOwnErrorIsAProbeFailure) {
  try {
    parse_cmdrun(
        R"({"format":"labgate-probe-1","probe":"cmdrun","status":"error","error":"cannot create /x"})",
        loadavg(), "a");
    FAIL() << "no throw";
  } catch (const measure::ProbeOutputError& e) {
    EXPECT_TRUE(e.probe_failed());
    EXPECT_THAT(e.what(), HasSubstr("cmdrun on a could not run the command: cannot create /x"));
  }
}

std::string testdata(const std::string& name) {
  return labgate::test_files::source_file("harness/src/cmdlatency/testdata/" + name);
}

TEST(ParseCmdrun, RealRunsAreAccountedByCountOrByTime) {
  // Recorded from probes/cmdrun: `--count 5 -- true` and `--duration 200ms -- true`.
  profile::TestSpec counted = loadavg();
  counted.command.count = 5;
  const measure::Measurement c = parse_cmdrun(testdata("cmdrun-count5-true.json"), counted, "a");
  ASSERT_TRUE(c.expectation);
  EXPECT_EQ(c.expectation->expected, 5);
  EXPECT_EQ(c.expectation->held, 5);
  counted.command.count = 9;  // asked for 9, the output holds 5: a shortfall
  EXPECT_EQ(parse_cmdrun(testdata("cmdrun-count5-true.json"), counted, "a").expectation->expected, 9);
  profile::TestSpec timed = loadavg();
  timed.command.count.reset();
  timed.duration = std::chrono::milliseconds(200);
  const measure::Measurement t = parse_cmdrun(testdata("cmdrun-200ms-true.json"), timed, "a");
  ASSERT_TRUE(t.expectation);
  EXPECT_EQ(t.expectation->held, 47);
  EXPECT_NEAR(t.expectation->held / t.expectation->expected, 1.0, 0.02);  // back-to-back runs fill the time
  EXPECT_FALSE(t.counts_drops);
}

TEST(ParseCmdrun, MalformedOutputIsAClearError) {
  for (const char* text : {"", "[]", R"({"format":1})",
                           R"({"format":"labgate-probe-1","probe":"cmdrun","status":"ok","runs":[[1,2]]})",
                           R"({"format":"labgate-probe-1","probe":"cmdrun","status":"ok","runs":[]})",
                           R"({"format":"labgate-probe-1","probe":"disk","status":"ok","runs":[]})"}) {
    try {
      parse_cmdrun(text, loadavg(), "a");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const measure::ProbeOutputError& e) {
      EXPECT_FALSE(e.probe_failed()) << text;
      EXPECT_THAT(e.what(), HasSubstr("cmdrun output")) << text;
    }
  }
}

}  // namespace
}  // namespace labgate::cmdlatency
