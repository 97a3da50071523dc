// The "not measured" markers: every spelling tools print is one, real values are not.
#include "labgate/util/not_measured.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace labgate::util {
namespace {

TEST(NotMeasured, EveryMarkerSpelling) {
  for (const char* t : {"-2147483648", "-2147483648.000", "-1", "-1.0", "-1.000", " -1.00 ", "inf", "-inf",
                        "INF", "Infinity", "nan", "-nan", "NaN", "nan(0x8000000000000)",
                        "18446744071562067968", "18446744073709551615", "1e999"})
    EXPECT_TRUE(is_not_measured(std::string_view(t))) << t;
}

TEST(NotMeasured, RealValuesAreNot) {
  for (const char* t : {"0", "0.000", "1", "-2", "-0.5", "23.11", "69.069", "2147483647", "4294967295",
                        "18446744071562000000", "43435", "10^6bits/s", "Trans/s", "", "lots"})
    EXPECT_FALSE(is_not_measured(std::string_view(t))) << t;
  EXPECT_FALSE(is_not_measured(0.0));
  EXPECT_FALSE(is_not_measured(1e6));
  EXPECT_TRUE(is_not_measured(-1.0));
  EXPECT_TRUE(is_not_measured(-2147483648.0));
}

TEST(NotMeasured, WarningNamesWhereToolAndKey) {
  const std::string w = not_measured_warning("line 7", "netperf", "RT_LATENCY", "inf");
  EXPECT_THAT(w, ::testing::StartsWith("line 7: RT_LATENCY=inf is netperf's 'not measured' marker"));
  EXPECT_THAT(w, ::testing::HasSubstr("RT_LATENCY is left absent"));
}

}  // namespace
}  // namespace labgate::util
