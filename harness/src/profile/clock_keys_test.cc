// [preconditions.clock] (issue 24, item 3): synchronized, max_error and source
// load typed, and every bad value is an error naming file:line:column and key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using ::testing::HasSubstr;

LoadResult with_clock(const std::string& clock) {
  return load_from_string(
      "[lab]\nname = \"x\"\n[hosts.a]\naddress = \"10.0.0.1\"\n"
      "[preconditions.clock]\n" +
          clock,
      "/tmp/clock.toml");
}

TEST(ClockKeys, LoadTheThreeRules) {
  const LoadResult r = with_clock("synchronized = true\nmax_error = \"100us\"\nsource = \"chrony\"\n");
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  const auto& c = r.profile->preconditions.clock;
  ASSERT_TRUE(c);
  EXPECT_EQ(c->synchronized, true);
  EXPECT_EQ(c->max_error, std::chrono::microseconds(100));
  EXPECT_EQ(c->source, "chrony");
  EXPECT_EQ(c->max_error_pos.line, 7);
  EXPECT_EQ(r.profile->preconditions.rule_count(), 3);
}

TEST(ClockKeys, BadValuesNameFileLineAndKey) {
  const LoadResult r =
      with_clock("synchronized = \"yes\"\nmax_error = \"soon\"\nsource = \"gps\"\nmaxerror = 1\n");
  ASSERT_FALSE(r.profile);
  const std::string e = test_util::error_lines(r);
  EXPECT_THAT(e, HasSubstr("/tmp/clock.toml:6:"));
  EXPECT_THAT(e, HasSubstr("preconditions.clock.synchronized"));
  EXPECT_THAT(e, HasSubstr("/tmp/clock.toml:7:"));
  EXPECT_THAT(e, HasSubstr("preconditions.clock.max_error"));
  EXPECT_THAT(e, HasSubstr("/tmp/clock.toml:8:"));
  EXPECT_THAT(e, HasSubstr("\"chrony\", \"ntpd\", \"ptp4l\" or \"any\", found \"gps\""));
  EXPECT_THAT(e, HasSubstr("maxerror"));  // an unknown key, with a suggestion
}

TEST(ClockKeys, AZeroBoundAndAnEmptyTableAreRefused) {
  EXPECT_THAT(test_util::error_lines(with_clock("max_error = \"0us\"\n")), HasSubstr("above zero"));
  EXPECT_THAT(test_util::error_lines(with_clock("")), HasSubstr("checks nothing"));
}

}  // namespace
}  // namespace labgate::profile
