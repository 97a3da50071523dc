// Tests of the number formats reports print.
#include "labgate/report/format.h"

#include <gtest/gtest.h>

namespace labgate::report {
namespace {

TEST(FormatNs, PicksTheUnitAndThreeSignificantDigits) {
  EXPECT_EQ(format_ns(850), "850 ns");
  EXPECT_EQ(format_ns(85'300, Units::kAscii), "85.3 us");
  EXPECT_EQ(format_ns(140'000), "140 \xC2\xB5s");
  EXPECT_EQ(format_ns(1'300'000), "1.30 ms");
  EXPECT_EQ(format_ns(2.5e9), "2.50 s");
  EXPECT_EQ(format_ns(0), "0 ns");
  // Rounding that carries into the next unit prints in that unit.
  EXPECT_EQ(format_ns(999'960, Units::kAscii), "1.00 ms");
  EXPECT_EQ(format_ns(999.7), "1.00 \xC2\xB5s");
  EXPECT_EQ(format_ns(9'996), "10.0 \xC2\xB5s");
}

TEST(Format, RatesFractionsCountsAndMargins) {
  EXPECT_EQ(format_bps(940e6), "940 Mbit/s");
  EXPECT_EQ(format_bps(1.25e9), "1.25 Gbit/s");
  EXPECT_EQ(format_in_unit(0.001, "fraction"), "0.1%");
  EXPECT_EQ(format_in_unit(3, "count"), "3");
  EXPECT_EQ(format_count(1234567),
            "1\xE2\x80\x89"
            "234\xE2\x80\x89"
            "567");
  EXPECT_EQ(format_signed_percent(0.125), "+12.5%");
  EXPECT_EQ(format_signed_percent(-0.0786), "-7.9%");
}

TEST(Format, PlainNumbersForMachines) {
  EXPECT_EQ(format_plain(151.2346), "151.235");
  EXPECT_EQ(format_plain(1e6), "1000000");
  EXPECT_EQ(format_plain(-0.0001), "0");
  EXPECT_EQ(format_plain(0.5), "0.5");
}

TEST(Format, Durations) {
  EXPECT_EQ(format_duration(12.5), "12.5 s");
  EXPECT_EQ(format_duration(250), "4 min 10 s");
  EXPECT_EQ(format_duration(7380), "2 h 03 min");
}

}  // namespace
}  // namespace labgate::report
