// Tests of the units parser: every unit, exactness, and every refusal's message.
#include "labgate/util/units.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

namespace labgate::units {
namespace {

using std::chrono::nanoseconds;
using ::testing::HasSubstr;

nanoseconds dur(std::string_view s) {
  auto r = parse_duration(s);
  EXPECT_TRUE(r) << s << ": " << r.error;
  return r.value.value_or(nanoseconds(-1));
}

std::string dur_error(std::string_view s) {
  auto r = parse_duration(s);
  EXPECT_FALSE(r) << s << " parsed as " << r.value.value_or(nanoseconds(0)).count();
  return r.error;
}

TEST(ParseDuration, EveryUnit) {
  EXPECT_EQ(dur("250ns"), nanoseconds(250));
  EXPECT_EQ(dur("85us"), nanoseconds(85'000));
  EXPECT_EQ(dur("1.2ms"), nanoseconds(1'200'000));
  EXPECT_EQ(dur("2s"), nanoseconds(2'000'000'000));
  EXPECT_EQ(dur("5m"), nanoseconds(300'000'000'000));
  EXPECT_EQ(dur("1h"), nanoseconds(3'600'000'000'000));
}

TEST(ParseDuration, DecimalsAreExact) {
  EXPECT_EQ(dur("0.1s"), nanoseconds(100'000'000));
  EXPECT_EQ(dur("1.3ms"), nanoseconds(1'300'000));
  EXPECT_EQ(dur("0.001us"), nanoseconds(1));
  EXPECT_EQ(dur("1.000000000000000000000000s"), nanoseconds(1'000'000'000));
  EXPECT_EQ(dur("0000085us"), nanoseconds(85'000));
  EXPECT_EQ(dur("0s"), nanoseconds(0));
  EXPECT_EQ(dur("0.0ms"), nanoseconds(0));
  EXPECT_EQ(dur("1.5h"), nanoseconds(5'400'000'000'000));
  EXPECT_EQ(dur("0.123456789s"), nanoseconds(123'456'789));
}

TEST(ParseDuration, LargestAndOverflow) {
  EXPECT_EQ(dur("9223372036854775807ns"), nanoseconds(std::numeric_limits<std::int64_t>::max()));
  EXPECT_THAT(dur_error("9223372036854775808ns"), HasSubstr("too large"));
  EXPECT_THAT(dur_error("2562048h"), HasSubstr("too large"));  // just above 2^63 ns
  EXPECT_EQ(dur("2562047h"), nanoseconds(2'562'047LL * 3'600'000'000'000LL));
  EXPECT_THAT(dur_error("999999999999999999999h"), HasSubstr("too large"));
  EXPECT_THAT(dur_error("0.123456789012345678901s"), HasSubstr("too many digits"));
  EXPECT_THAT(dur_error("18446744073709551616ns"), HasSubstr("too large"));
  EXPECT_THAT(parse_size("18446744073709551616").error, HasSubstr("too large"));
}

TEST(ParseDuration, RefusesSpaceWithTheFix) {
  const std::string e = dur_error("140 us");
  EXPECT_THAT(e, HasSubstr("space between number and unit"));
  EXPECT_THAT(e, HasSubstr("write \"140us\""));
  EXPECT_THAT(e, HasSubstr("expected a duration like \"85us\""));
  EXPECT_THAT(dur_error(" 140us"), HasSubstr("leading or trailing space"));
  EXPECT_THAT(dur_error("140us "), HasSubstr("leading or trailing space"));
}

TEST(ParseDuration, RefusesNegativeSignedAndEmpty) {
  EXPECT_THAT(dur_error("-5us"), HasSubstr("negative"));
  EXPECT_THAT(dur_error("+5us"), HasSubstr("sign"));
  EXPECT_THAT(dur_error(""), HasSubstr("empty value; expected a duration like \"85us\""));
}

TEST(ParseDuration, RefusesMissingAndUnknownUnits) {
  const std::string e = dur_error("140");
  EXPECT_THAT(e, HasSubstr("has no unit"));
  EXPECT_THAT(e, HasSubstr("units: ns, us, ms, s, m, h"));
  EXPECT_THAT(dur_error("140usec"), HasSubstr("unknown unit \"usec\""));
  EXPECT_THAT(dur_error("3d"), HasSubstr("unknown unit \"d\""));
  EXPECT_THAT(dur_error("1e3us"), HasSubstr("unknown unit \"e3us\""));
  EXPECT_THAT(dur_error("5MS"), HasSubstr("did you mean \"5ms\"?"));
  EXPECT_THAT(dur_error("us"), HasSubstr("does not start with a number"));
}

TEST(ParseDuration, MicroSignIsRefusedWithTheSpellingToUse) {
  const std::string micro = dur_error("140\xC2\xB5s");
  EXPECT_THAT(micro, HasSubstr("write \"us\" for microseconds (\"140us\")"));
  EXPECT_THAT(dur_error("140\xCE\xBCs"), HasSubstr("write \"us\""));
}

TEST(ParseDuration, RefusesMalformedNumbersAndSubNanosecond) {
  EXPECT_THAT(dur_error(".5s"), HasSubstr("malformed number"));
  EXPECT_THAT(dur_error("5.s"), HasSubstr("malformed number"));
  EXPECT_THAT(dur_error("1.2.3s"), HasSubstr("malformed number"));
  EXPECT_THAT(dur_error("0.5ns"), HasSubstr("finer than 1 ns"));
  EXPECT_THAT(dur_error("1.0001us"), HasSubstr("finer than 1 ns"));
  EXPECT_THAT(dur_error("0.0000000000000000000000000000000001h"), HasSubstr("finer than 1 ns"));
}

TEST(ParseSize, PlainBinaryAndDecimal) {
  EXPECT_EQ(parse_size("64").value, 64u);
  EXPECT_EQ(parse_size("64B").value, 64u);
  EXPECT_EQ(parse_size("16KiB").value, 16384u);
  EXPECT_EQ(parse_size("1MiB").value, 1048576u);
  EXPECT_EQ(parse_size("1GiB").value, 1073741824u);
  EXPECT_EQ(parse_size("2TiB").value, 2199023255552u);
  EXPECT_EQ(parse_size("16KB").value, 16000u);
  EXPECT_EQ(parse_size("16kB").value, 16000u);
  EXPECT_EQ(parse_size("1MB").value, 1000000u);
  EXPECT_EQ(parse_size("1GB").value, 1000000000u);
  EXPECT_EQ(parse_size("1.5KiB").value, 1536u);
  EXPECT_EQ(parse_size("18446744073709551615").value, std::numeric_limits<std::uint64_t>::max());
}

TEST(ParseSize, Refusals) {
  EXPECT_THAT(parse_size("1.1B").error, HasSubstr("not a whole number of bytes"));
  EXPECT_THAT(parse_size("16 KiB").error, HasSubstr("write \"16KiB\""));
  EXPECT_THAT(parse_size("16kib").error, HasSubstr("did you mean \"16KiB\"?"));
  EXPECT_THAT(parse_size("16K").error, HasSubstr("unknown unit \"K\""));
  EXPECT_THAT(parse_size("-1").error, HasSubstr("negative"));
  EXPECT_THAT(parse_size("17179869184GiB").error, HasSubstr("too large"));
  EXPECT_THAT(parse_size("16K").error, HasSubstr("expected a size like \"16KiB\""));
}

TEST(ParseBitRate, Units) {
  EXPECT_DOUBLE_EQ(*parse_bit_rate("940Mbit/s").value, 940e6);
  EXPECT_DOUBLE_EQ(*parse_bit_rate("1Gbit/s").value, 1e9);
  EXPECT_DOUBLE_EQ(*parse_bit_rate("1.25Gbit/s").value, 1.25e9);
  EXPECT_DOUBLE_EQ(*parse_bit_rate("100kbit/s").value, 1e5);
  EXPECT_DOUBLE_EQ(*parse_bit_rate("100Kbit/s").value, 1e5);
  EXPECT_DOUBLE_EQ(*parse_bit_rate("9600bit/s").value, 9600.0);
  EXPECT_DOUBLE_EQ(*parse_bit_rate("10Tbit/s").value, 1e13);
  EXPECT_DOUBLE_EQ(*parse_bit_rate("0bit/s").value, 0.0);
}

TEST(ParseBitRate, Refusals) {
  EXPECT_THAT(parse_bit_rate("940Mbps").error, HasSubstr("write \"940Mbit/s\""));
  EXPECT_THAT(parse_bit_rate("940MB/s").error, HasSubstr("unknown unit \"MB/s\""));
  EXPECT_THAT(parse_bit_rate("940").error, HasSubstr("has no unit; expected a bit rate like \"940Mbit/s\""));
  EXPECT_THAT(parse_bit_rate("940 Mbit/s").error, HasSubstr("space"));
  EXPECT_THAT(parse_bit_rate("-1Gbit/s").error, HasSubstr("negative"));
  EXPECT_THAT(parse_bit_rate("1gbit/s").error, HasSubstr("did you mean \"1Gbit/s\"?"));
}

TEST(ParseEventRate, PerSecond) {
  EXPECT_DOUBLE_EQ(*parse_event_rate("20000/s").value, 20000.0);
  EXPECT_DOUBLE_EQ(*parse_event_rate("0.5/s").value, 0.5);
  EXPECT_THAT(parse_event_rate("0/s").error, HasSubstr("above 0"));
  EXPECT_THAT(parse_event_rate("20000").error,
              HasSubstr("has no unit; expected an event rate like \"20000/s\""));
  EXPECT_THAT(parse_event_rate("20000/ms").error, HasSubstr("unknown unit \"/ms\""));
  EXPECT_THAT(parse_event_rate("20000 /s").error, HasSubstr("write \"20000/s\""));
}

TEST(ParsePercentage, Fraction) {
  EXPECT_DOUBLE_EQ(*parse_percentage("0.1%").value, 0.001);
  EXPECT_DOUBLE_EQ(*parse_percentage("5%").value, 0.05);
  EXPECT_DOUBLE_EQ(*parse_percentage("0%").value, 0.0);
  EXPECT_DOUBLE_EQ(*parse_percentage("100%").value, 1.0);
  EXPECT_THAT(parse_percentage("100.1%").error, HasSubstr("above 100%"));
  EXPECT_THAT(parse_percentage("0.1").error, HasSubstr("has no unit; expected a percentage like \"0.1%\""));
  EXPECT_THAT(parse_percentage("0.1 %").error, HasSubstr("write \"0.1%\""));
  EXPECT_THAT(parse_percentage("-1%").error, HasSubstr("negative"));
}

TEST(Format, DurationsRoundTrip) {
  for (const char* s :
       {"250ns", "85us", "1.2ms", "2s", "140us", "1.3ms", "0ns", "999ns", "1.001us", "300s"}) {
    const nanoseconds d = dur(s);
    EXPECT_EQ(dur(format_duration(d)), d) << s << " -> " << format_duration(d);
  }
  EXPECT_EQ(format_duration(nanoseconds(85'000)), "85us");
  EXPECT_EQ(format_duration(nanoseconds(1'200'000)), "1.2ms");
  EXPECT_EQ(format_duration(nanoseconds(1'234'567)), "1.235ms");  // display rounds to 3 decimals
  EXPECT_EQ(format_duration(nanoseconds(-1500)), "-1.5us");
}

TEST(Format, RatesAndSizes) {
  EXPECT_EQ(format_bit_rate(940e6), "940Mbit/s");
  EXPECT_EQ(format_bit_rate(1.25e9), "1.25Gbit/s");
  EXPECT_EQ(format_bit_rate(512), "512bit/s");
  EXPECT_EQ(format_size(16384), "16KiB");
  EXPECT_EQ(format_size(1 << 20), "1MiB");
  EXPECT_EQ(format_size(1000), "1000");
  EXPECT_EQ(format_size(0), "0");
  for (std::uint64_t b : {64ull, 16384ull, 1ull << 30, 12345ull})
    EXPECT_EQ(parse_size(format_size(b)).value, b);
}

// Whatever the bytes, the parser answers with a value or a message, never a crash.
TEST(ParseAll, ArbitraryBytesNeverCrash) {
  std::string s;
  unsigned seed = 12345;
  for (int i = 0; i < 20000; ++i) {
    seed = seed * 1103515245 + 12345;
    s.assign(seed % 24, '\0');
    for (char& c : s) {
      seed = seed * 1103515245 + 12345;
      const char alphabet[] = "0123456789.-+ usmhnKiBMGbit/%\xC2\xB5";
      c = (seed >> 16) % 3 == 0 ? static_cast<char>(seed >> 8)
                                : alphabet[(seed >> 16) % (sizeof alphabet - 1)];
    }
    auto d = parse_duration(s);
    EXPECT_NE(d.value.has_value(), !d.error.empty()) << s;
    auto z = parse_size(s);
    EXPECT_NE(z.value.has_value(), !z.error.empty()) << s;
    auto r = parse_bit_rate(s);
    EXPECT_NE(r.value.has_value(), !r.error.empty()) << s;
    auto e = parse_event_rate(s);
    EXPECT_NE(e.value.has_value(), !e.error.empty()) << s;
    auto p = parse_percentage(s);
    EXPECT_NE(p.value.has_value(), !p.error.empty()) << s;
  }
}

}  // namespace
}  // namespace labgate::units
