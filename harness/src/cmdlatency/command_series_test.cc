// Tests of a command test's bookkeeping: count vs duration, failures and
// timeouts, exit-code tally, and the Measurement's statistics for budgets.
#include "labgate/cmdlatency/command_series.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace labgate::cmdlatency {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::HasSubstr;

profile::TestSpec dig() {
  profile::TestSpec s;
  s.kind = profile::TestKind::kCommand;
  s.on = {"a"};
  s.command.argv = {"dig", "@ns1", "example.internal"};
  s.command.count = 4;
  s.command.pause = seconds(1);
  s.command.timeout = seconds(5);
  return s;
}

TEST(CommandSeries, CountedRunsAndTheirStatistics) {
  CommandSeries c(dig(), "a");
  EXPECT_EQ(c.pause(), seconds(1));
  EXPECT_EQ(c.run_timeout(), seconds(5));
  // Seed 002's answers: 151, 0, 0, 1 msec.
  for (int ms : {151, 0, 0, 1}) {
    ASSERT_TRUE(c.more(seconds(1000)));  // count decides, not time
    c.add({milliseconds(ms), 0, false, ""});
  }
  EXPECT_FALSE(c.more(seconds(0)));
  const measure::Measurement m = c.measurement(seconds(4));
  EXPECT_EQ(m.kind, "command");
  EXPECT_EQ(m.host, "a");
  EXPECT_EQ(m.histogram.count(), 4u);
  EXPECT_NEAR(*m.stat("max"), 151e6, 151e6 * 0.001);
  EXPECT_EQ(m.stat("p50"), 0);
  EXPECT_EQ(m.reported.at("failures"), 0);
  EXPECT_EQ(m.parameters.at("argv"), "dig @ns1 example.internal");
  EXPECT_EQ(m.parameters.at("exit_codes"), "0:4");
  EXPECT_TRUE(m.warnings.empty());
}

TEST(CommandSeries, DurationBoundRunsAndFailures) {
  profile::TestSpec s = dig();
  s.command.count.reset();
  s.duration = seconds(10);
  CommandSeries c(s, "b");
  EXPECT_TRUE(c.more(seconds(9)));
  EXPECT_FALSE(c.more(seconds(10)));
  c.add({milliseconds(3), 0, false, ""});
  c.add({milliseconds(4), 9, false, ";; connection timed out; no servers could be reached"});
  c.add({seconds(5), -1, true, ""});
  c.set_exec_overhead(milliseconds(2));
  const measure::Measurement m = c.measurement(seconds(10));
  EXPECT_EQ(c.failures(), 2u);
  EXPECT_EQ(m.reported.at("failures"), 2);
  EXPECT_EQ(m.parameters.at("exit_codes"), "0:1,9:1,timeout:1");
  EXPECT_EQ(m.parameters.at("first_failure"),
            "run 2: exit 9: ;; connection timed out; no servers could be reached");
  EXPECT_NEAR(*m.stat("max"), 5e9, 5e9 * 0.001);  // the timed-out run still counts as slow
  EXPECT_EQ(m.parameters.at("exec_overhead_p50_ns"), "2000000");
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_THAT(m.warnings[0], HasSubstr("include the cost to start and reap a program"));
}

TEST(CommandSeries, NothingRanOrAllFailedIsSaid) {
  CommandSeries none(dig(), "a");
  EXPECT_THAT(none.measurement(seconds(0)).warnings, ::testing::Contains(HasSubstr("never ran")));
  EXPECT_EQ(none.measurement(seconds(0)).stat("p99"), std::nullopt);
  CommandSeries bad(dig(), "a");
  bad.add({milliseconds(1), 127, false, "sh: dig: command not found"});
  EXPECT_THAT(
      bad.measurement(seconds(1)).warnings,
      ::testing::Contains(HasSubstr("every run failed (run 1: exit 127: sh: dig: command not found)")));
}

}  // namespace
}  // namespace labgate::cmdlatency
