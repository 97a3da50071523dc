// Tests of kinds/command.cc through the layers that read it: the profile's
// spelling, keys, checks and statistics, the probe, the case expansion, the
// suite and label, and the "measuring" line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kinds/kind_profile_test_util.h"
#include "labgate/measure/probe_command.h"

namespace labgate::kinds {
namespace {

TEST(CommandKind, IsSpelledCommandRunByTheCmdrunProbeAndReportsWallTimesAndFailures) {
  EXPECT_EQ(profile::parse_test_kind("command"), TestKind::kCommand);
  EXPECT_STREQ(profile::to_string(TestKind::kCommand), "command");
  EXPECT_STREQ(measure::probe_for(TestKind::kCommand), "cmdrun");
  EXPECT_TRUE(profile::tool_runs(Tool::kBuiltin, TestKind::kCommand));
  EXPECT_FALSE(profile::tool_runs(Tool::kNetperf, TestKind::kCommand));
  EXPECT_TRUE(profile::produces(Tool::kBuiltin, TestKind::kCommand, Stat::kP99));
  EXPECT_TRUE(profile::produces(Tool::kBuiltin, TestKind::kCommand, Stat::kMaxFailures));
  EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kCommand, Stat::kDropped));
  EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kCommand, Stat::kMaxRetransmits));
  EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kCommand, Stat::kOneWayP50Forward));
}

TEST(CommandKind, ATestRunsOnOneHostOfOnAsOneCaseInTheCommandSuite) {
  const profile::LoadResult r = load_tests(R"([[test]]
name = "dig"
kind = "command"
on = "b"
argv = ["dig", "@ns1", "example.internal"]
count = 7
timeout = "2s"
budget = { p99 = "50ms", max_failures = 0 }
)");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  const auto cases = gate::expand_cases(*r.profile);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].name(), "dig/b");
  EXPECT_EQ(cases[0].client, "b");
  EXPECT_EQ(cases[0].suite, "Command");
  EXPECT_EQ(cases[0].label, "command");
  EXPECT_EQ(gate::measuring_description(*cases[0].spec), "running the command 7 times (each bounded by 2s)");
}

TEST(CommandKind, ItsKeysAreRefusedElsewhereAndOthersKeysHere) {
  EXPECT_THAT(errors_of(R"([[test]]
name = "rr"
kind = "tcp_rr"
from = "a"
to = "b"
argv = ["true"]
budget = { p99 = "1ms" }
)"),
              HasSubstr("does not apply to a tcp_rr test: `argv` is the command a command test runs"));
  expect_errors(R"([[test]]
name = "c"
kind = "command"
on = "a"
from = "a"
argv = ["true"]
budget = { p99 = "1ms" }
)",
                {"test[c].from: does not apply to a command test: it runs on the host(s) in `on`"});
}

TEST(CommandKind, ItsChecksNameTheKey) {
  expect_errors(R"([[test]]
name = "c"
kind = "command"
on = ["a", "b"]
count = 3
duration = "5s"
timeout = "0s"
budget = { p99 = "1ms", dropped = 0 }
)",
                {"test[c].argv: missing", "a command test runs on one host",
                 "runs `count` times or for `duration`, not both", "test[c].timeout: must be above 0",
                 "does not produce dropped"});
}

}  // namespace
}  // namespace labgate::kinds
