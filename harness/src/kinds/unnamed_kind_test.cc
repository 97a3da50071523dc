// A kind that neither the TestKind enum names nor any list holds: registered from
// its own file with a value of its own, it is a kind like the others to every
// layer that reads the registries (spelling, keys, statistics, cases, suite and
// label, "measuring" line, runner). What "a new kind is one file and its test"
// rests on, shown with a kind that exists in this test binary only.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "kinds/kind_profile_test_util.h"
#include "labgate/gate/kind_runner.h"
#include "labgate/profile/kind_traits.h"

namespace labgate::kinds {
namespace {

constexpr TestKind kEchoKind{1000};  // past every value the enum names

std::string echo_measuring(const profile::TestSpec& t) { return "echoing for " + std::to_string(t.on.size()) + " host(s)"; }
gate::CaseRun echo_run(gate::GateSession&, const gate::TestCase&, gate::CaseRun& run) { return run; }

const profile::KindRegistration kEchoTraits{{
    .kind = kEchoKind,
    .name = "test_echo",
    .takes = {"on", "duration"},
    .own = {},
    .refuses = {},
    .on_hosts = true,
    .on_many = true,
    .tool_runs = [](Tool tool) { return tool == Tool::kBuiltin; },
    .produces = [](Tool, Stat stat) { return stat == Stat::kMax; },
}};

const gate::RunnerRegistration kEchoRunner{{
    .kind = kEchoKind,
    .suite = "Echo",
    .label = "echo",
    .measuring = echo_measuring,
    .expand = gate::cases_on_hosts,
    .run = echo_run,
}};

TEST(UnnamedKind, IsAKindLikeTheOthersWithoutAnEnumNameOrAListEntry) {
  EXPECT_EQ(profile::parse_test_kind("test_echo"), kEchoKind);
  EXPECT_STREQ(profile::to_string(kEchoKind), "test_echo");
  const auto all = profile::all_test_kinds();
  EXPECT_EQ(std::count(all.begin(), all.end(), kEchoKind), 1);
  EXPECT_EQ(all.back(), kEchoKind);  // in the order of the values
  const auto& labels = gate::all_labels();
  EXPECT_NE(std::find(labels.begin(), labels.end(), "echo"), labels.end());

  const profile::LoadResult r = load_tests(R"([[test]]
name = "e"
kind = "test_echo"
on = ["a", "c"]
duration = "2s"
budget = { max = "1ms" }
)");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  const auto cases = gate::expand_cases(*r.profile);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[1].name(), "e/c");
  EXPECT_EQ(cases[1].suite, "Echo");
  EXPECT_EQ(cases[1].label, "echo");
  EXPECT_EQ(gate::measuring_description(*cases[0].spec), "echoing for 2 host(s)");
}

TEST(UnnamedKind, ItsKeysAndStatisticsAreCheckedFromItsTraits) {
  expect_errors(R"([[test]]
name = "e"
kind = "test_echo"
on = "a"
from = "a"
budget = { p99 = "1ms" }
)",
                {"test[e].from: does not apply to a test_echo test: it runs on the host(s) in `on`",
                 "a test_echo test run by builtin does not produce p99; it produces: max"});
}

}  // namespace
}  // namespace labgate::kinds
