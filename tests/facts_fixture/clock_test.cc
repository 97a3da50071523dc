// [preconditions.clock] end to end on the recorded RHEL 5.8 roots: the real
// probe reads each root's recorded adjtimex answer (ntpd off before the tuning,
// synchronised after) through the profile's own argument list, and the checks
// judge it; a root without a recording is not checkable, never passed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/checks/checks.h"
#include "probe_runner.h"

namespace labgate::facts_fixture {
namespace {

using checks::Verdict;
using ::testing::HasSubstr;

const std::string kAllFixtures = LABGATE_SOURCE_DIR "/tests/fixtures/";

profile::Preconditions clock_rule() {
  profile::Preconditions p;
  p.clock = profile::ClockRule{};
  p.clock->synchronized = true;
  p.clock->max_error = std::chrono::microseconds(500);
  return p;
}

TEST(ClockRoots, TheProbeIsAskedForTheClockAndTheProcesses) {
  const auto args = facts::probe_arguments(clock_rule());
  ASSERT_EQ(args.size(), 2u);
  EXPECT_THAT(args[1], HasSubstr("clock"));
  EXPECT_THAT(args[1], HasSubstr("processes"));
}

TEST(ClockRoots, UnsynchronisedBeforeTheTuningSynchronisedAfter) {
  const auto before =
      checks::check_host("a", facts_of_root(kAllFixtures + "rhel58/before", clock_rule()), clock_rule());
  ASSERT_EQ(before.size(), 2u);
  EXPECT_EQ(before[0].verdict, Verdict::kFail);
  EXPECT_THAT(before[0].message, HasSubstr("status 0x40 (UNSYNC), adjtimex returned 5 (TIME_ERROR)"));
  EXPECT_EQ(before[0].fix.substr(before[0].fix.rfind('\n') + 1), "chkconfig ntpd on; service ntpd start");
  EXPECT_EQ(before[1].verdict, Verdict::kFail);  // maxerror 16 s
  const auto after =
      checks::check_host("a", facts_of_root(kAllFixtures + "rhel58/after", clock_rule()), clock_rule());
  for (const auto& r : after) EXPECT_EQ(r.verdict, Verdict::kPass) << r.message;
  EXPECT_EQ(after[1].found, "284us");
}

TEST(ClockRoots, NoRecordingIsNotCheckable) {
  const auto rs =
      checks::check_host("s", facts_of_root(kAllFixtures + "systemd/root", clock_rule()), clock_rule());
  ASSERT_EQ(rs.size(), 2u);
  for (const auto& r : rs) {
    EXPECT_EQ(r.verdict, Verdict::kNotCheckable);
    EXPECT_THAT(r.reason, HasSubstr("adjtimex.conf: No such file or directory"));
  }
}

}  // namespace
}  // namespace labgate::facts_fixture
