// Tests of kinds/jitter.cc through the layers that read it: the profile's
// spelling, keys, checks and statistics, the probe, a case per host of `on`,
// the suite and label, and the "measuring" line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kinds/kind_profile_test_util.h"
#include "labgate/measure/probe_command.h"

namespace labgate::kinds {
namespace {

TEST(JitterKind, IsSpelledJitterRunByTheJitterProbeAndReportsItsGapsHistogram) {
  EXPECT_EQ(profile::parse_test_kind("jitter"), TestKind::kJitter);
  EXPECT_STREQ(measure::probe_for(TestKind::kJitter), "jitter");
  EXPECT_FALSE(profile::tool_runs(Tool::kSockperf, TestKind::kJitter));
  EXPECT_TRUE(profile::produces(Tool::kBuiltin, TestKind::kJitter, Stat::kP99_99));
  EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kJitter, Stat::kDropped));
  EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kJitter, Stat::kMaxRxDrops));
}

TEST(JitterKind, ATestIsACasePerHostOfOnInTheJitterSuite) {
  const profile::LoadResult r = load_tests(R"([[test]]
name = "spin"
kind = "jitter"
on = ["a", "c"]
cpus = [1, 2]
threshold = "20us"
duration = "10s"
warmup = "1s"
budget = { max = "100us" }
)");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  EXPECT_EQ(r.profile->tests[0].cpus, (std::vector<int>{1, 2}));
  EXPECT_EQ(r.profile->tests[0].threshold, std::chrono::microseconds(20));
  const auto cases = gate::expand_cases(*r.profile);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].name(), "spin/a");
  EXPECT_EQ(cases[1].name(), "spin/c");
  EXPECT_EQ(cases[1].suite, "Jitter");
  EXPECT_EQ(cases[1].label, "jitter");
  EXPECT_EQ(gate::measuring_description(*cases[0].spec),
            "spinning on the clock for 10s after a 1s warm-up (excluded)");
}

TEST(JitterKind, KeysItDoesNotTakeAreRefusedItsOwnWay) {
  expect_errors(R"([[test]]
name = "spin"
kind = "jitter"
on = "a"
from = "a"
rate = "10/s"
cpu = { client = 1 }
threshold = "0s"
budget = { max = "100us" }
[[test]]
name = "rr"
kind = "tcp_rr"
from = "a"
to = "b"
cpus = [1]
budget = { p99 = "1ms" }
)",
                {"test[spin].from: does not apply to a jitter test: a jitter test runs on the hosts in `on`",
                 "test[spin].rate: does not apply to a jitter test: a jitter test sends no messages",
                 "test[spin].cpu: does not apply to a jitter test: a jitter test spins on the CPUs",
                 "test[spin].threshold: must be above 0",
                 "test[rr].cpus: does not apply to a tcp_rr test: `cpus` is for jitter tests"});
}

}  // namespace
}  // namespace labgate::kinds
