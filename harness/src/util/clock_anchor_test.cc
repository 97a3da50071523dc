// A probe's clock anchor: a tie that moved more than its two readings' errors
// is a realtime step, said with its size and direction; within them, or from a
// probe older than the end tie, it is none.
#include "labgate/util/clock_anchor.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace labgate::util {
namespace {

using nlohmann::json;

json anchor(long long start, long long end) {
  return {{"clock", "realtime"},
          {"delta_ns", start},
          {"error_ns", 10},
          {"end_delta_ns", end},
          {"end_error_ns", 15}};
}

TEST(ClockAnchor, ATieThatMovedMoreThanItsErrorsIsAStep) {
  EXPECT_EQ(realtime_step(anchor(1'000, 501'000), "a"), 500'000);
  EXPECT_EQ(realtime_step(anchor(1'000, -29'000), "a"), -30'000);
}

TEST(ClockAnchor, WithinBothReadingsErrorsIsNoStep) {
  EXPECT_FALSE(realtime_step(anchor(1'000, 1'025), "a"));
  EXPECT_FALSE(realtime_step(anchor(1'000, 975), "a"));
  EXPECT_EQ(realtime_step(anchor(1'000, 1'026), "a"), 26);
}

TEST(ClockAnchor, AnOlderProbesTieWithoutItsEndIsNoStep) {
  EXPECT_FALSE(realtime_step({{"clock", "realtime"}, {"delta_ns", 5}, {"error_ns", 1}}, "a"));
  EXPECT_FALSE(realtime_step(json(), "a"));
}

TEST(ClockAnchor, AMalformedTieIsRefusedNamingItsPath) {
  json broken = anchor(1, 2);
  broken["end_delta_ns"] = "soon";
  try {
    realtime_step(broken, "server.anchor");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("server.anchor.end_delta_ns"), std::string::npos) << e.what();
  }
}

TEST(ClockAnchor, TheStepIsSaidWithItsDirectionAndSize) {
  EXPECT_EQ(
      realtime_step_said("m1's", 500'000),
      "m1's realtime clock was stepped forward by 500us during the run (its monotonic->realtime tie moved "
      "between start and end)");
  EXPECT_EQ(realtime_step_said("host b's", -2'000'000).substr(0, 48),
            "host b's realtime clock was stepped back by 2ms ");
}

}  // namespace
}  // namespace labgate::util
