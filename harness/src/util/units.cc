// Parsing and formatting of durations, sizes, rates and percentages. Numbers are
// read as exact decimals (mantissa and scale) so "1.2ms" is 1200000 ns, not a
// binary fraction rounded; every refusal says what was expected, with an example.
#include "labgate/util/units.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>

namespace labgate::units {
namespace {

// GCC accepts unsigned __int128 under -Wpedantic only as an extension.
__extension__ typedef unsigned __int128 U128;

struct Unit {
  std::string_view name;
  std::uint64_t multiplier;  // base units per one of this unit
};

// One family of values: its units and the words used in messages.
struct Family {
  std::string_view what;       // "a duration"
  std::string_view example;    // "85us"
  std::string_view unit_list;  // "ns, us, ms, s, m, h"
  std::span<const Unit> units;
  bool unit_optional;  // sizes: a plain number is bytes
};

constexpr std::array<Unit, 6> kDurationUnits{{{"ns", 1},
                                              {"us", 1'000},
                                              {"ms", 1'000'000},
                                              {"s", 1'000'000'000},
                                              {"m", 60'000'000'000},
                                              {"h", 3'600'000'000'000}}};
constexpr std::array<Unit, 10> kSizeUnits{{{"B", 1},
                                           {"KiB", 1ull << 10},
                                           {"MiB", 1ull << 20},
                                           {"GiB", 1ull << 30},
                                           {"TiB", 1ull << 40},
                                           {"KB", 1'000},
                                           {"kB", 1'000},
                                           {"MB", 1'000'000},
                                           {"GB", 1'000'000'000},
                                           {"TB", 1'000'000'000'000}}};
constexpr std::array<Unit, 6> kBitRateUnits{{{"bit/s", 1},
                                             {"kbit/s", 1'000},
                                             {"Kbit/s", 1'000},
                                             {"Mbit/s", 1'000'000},
                                             {"Gbit/s", 1'000'000'000},
                                             {"Tbit/s", 1'000'000'000'000}}};
constexpr std::array<Unit, 1> kEventRateUnits{{{"/s", 1}}};
constexpr std::array<Unit, 1> kPercentUnits{{{"%", 1}}};

constexpr Family kDuration{"a duration", "85us", "ns, us, ms, s, m, h", kDurationUnits, false};
constexpr Family kSize{"a size", "16KiB", "B, KiB, MiB, GiB, TiB, KB, MB, GB, TB; a plain number is bytes",
                       kSizeUnits, true};
constexpr Family kBitRate{"a bit rate", "940Mbit/s", "bit/s, kbit/s, Mbit/s, Gbit/s, Tbit/s", kBitRateUnits,
                          false};
constexpr Family kEventRate{"an event rate", "20000/s", "/s (events per second)", kEventRateUnits, false};
constexpr Family kPercent{"a percentage", "0.1%", "%", kPercentUnits, false};

// The number as an exact decimal: value = mantissa / 10^scale, in `unit`s.
struct Decimal {
  std::uint64_t mantissa = 0;
  int scale = 0;
  std::string_view number;
  const Unit* unit = nullptr;
};

std::string expected(const Family& f) {
  return "expected " + std::string(f.what) + " like \"" + std::string(f.example) +
         "\" (units: " + std::string(f.unit_list) + ")";
}

std::string fail(std::string_view text, std::string_view problem, const Family& f) {
  return "\"" + std::string(text) + "\" " + std::string(problem) + "; " + expected(f);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

char lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool same_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower_ascii(a[i]) != lower_ascii(b[i])) return false;
  return true;
}

// Why a unit was not found, with the fix when it is a common slip.
std::string unknown_unit(std::string_view text, std::string_view number, std::string_view unit,
                         const Family& f) {
  if (unit == "\xC2\xB5s" || unit == "\xCE\xBCs")  // micro sign, Greek mu
    return fail(text,
                "uses \"\xC2\xB5s\"; write \"us\" for microseconds (\"" + std::string(number) +
                    "us\"), the only spelling accepted",
                f);
  if (f.units.data() == kBitRateUnits.data() && unit.size() >= 3 && unit.substr(unit.size() - 3) == "bps")
    return fail(text,
                "has unit \"" + std::string(unit) + "\"; write \"" + std::string(number) +
                    std::string(unit.substr(0, unit.size() - 3)) + "bit/s\"",
                f);
  for (const Unit& u : f.units)
    if (same_ignoring_case(u.name, unit))
      return fail(text,
                  "has unknown unit \"" + std::string(unit) + "\" (did you mean \"" + std::string(number) +
                      std::string(u.name) + "\"?)",
                  f);
  return fail(text, "has unknown unit \"" + std::string(unit) + "\"", f);
}

// Splits "1.2ms" into an exact decimal and a unit of the family, or says why not.
Parsed<Decimal> split(std::string_view text, const Family& f) {
  Parsed<Decimal> r;
  if (text.empty()) {
    r.error = "empty value; " + expected(f);
    return r;
  }
  if (is_space(text.front()) || is_space(text.back())) {
    r.error = fail(text, "has leading or trailing space", f);
    return r;
  }
  if (text.front() == '-') {
    r.error = fail(text, "is negative", f);
    return r;
  }
  if (text.front() == '+') {
    r.error = fail(text, "has a sign; write the number without '+'", f);
    return r;
  }
  size_t end = 0;
  while (end < text.size() && (is_digit(text[end]) || text[end] == '.')) ++end;
  Decimal d;
  d.number = text.substr(0, end);
  std::string_view unit = text.substr(end);
  if (d.number.empty()) {
    r.error = fail(text, "does not start with a number", f);
    return r;
  }
  const size_t dot = d.number.find('.');
  if (d.number.front() == '.' || d.number.back() == '.' ||
      (dot != std::string_view::npos && d.number.find('.', dot + 1) != std::string_view::npos)) {
    r.error = fail(text, "has a malformed number \"" + std::string(d.number) + "\"", f);
    return r;
  }
  if (!unit.empty() && is_space(unit.front())) {
    size_t u = 0;
    while (u < unit.size() && is_space(unit[u])) ++u;
    r.error = fail(text,
                   "has a space between number and unit; write \"" + std::string(d.number) +
                       std::string(unit.substr(u)) + "\"",
                   f);
    return r;
  }
  // Exact decimal: digits into the mantissa; leading zeros are free, and trailing
  // fraction zeros are dropped so "1.000000000000000000000s" still fits.
  std::string_view digits_int = d.number.substr(0, dot == std::string_view::npos ? d.number.size() : dot);
  std::string_view digits_frac =
      dot == std::string_view::npos ? std::string_view{} : d.number.substr(dot + 1);
  while (!digits_frac.empty() && digits_frac.back() == '0') digits_frac.remove_suffix(1);
  bool significant = false;
  for (bool fraction : {false, true}) {
    for (char c : fraction ? digits_frac : digits_int) {
      if (!significant && c == '0') {
        if (fraction) ++d.scale;
        continue;
      }
      significant = true;
      if (__builtin_mul_overflow(d.mantissa, 10u, &d.mantissa) ||
          __builtin_add_overflow(d.mantissa, static_cast<std::uint64_t>(c - '0'), &d.mantissa)) {
        r.error = fail(text, fraction ? "has too many digits (at most 19 significant)" : "is too large", f);
        return r;
      }
      if (fraction) ++d.scale;
    }
  }
  if (unit.empty() && f.unit_optional) {
    static constexpr Unit kPlain{"", 1};
    d.unit = &kPlain;
    r.value = d;
    return r;
  }
  if (unit.empty()) {
    r.error = fail(text, "has no unit", f);
    return r;
  }
  for (const Unit& u : f.units)
    if (u.name == unit) d.unit = &u;
  if (d.unit == nullptr) {
    r.error = unknown_unit(text, d.number, unit, f);
    return r;
  }
  r.value = d;
  return r;
}

U128 pow10(int n) {
  U128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

// mantissa * multiplier / 10^scale as a whole number, or why not. The product is
// below 2^64 * 2^42 < 10^32, so a scale above 30 can never divide it evenly
// (trailing fraction zeros were dropped) and is refused before pow10 is taken.
Parsed<std::uint64_t> whole(std::string_view text, const Decimal& d, std::uint64_t max,
                            std::string_view finer, std::string_view too_large, const Family& f) {
  Parsed<std::uint64_t> r;
  if (d.mantissa == 0) {
    r.value = 0;
    return r;
  }
  if (d.scale > 30) {  // a non-zero value below 1e-30 of a unit is never whole
    r.error = fail(text, finer, f);
    return r;
  }
  const U128 product = static_cast<U128>(d.mantissa) * d.unit->multiplier;  // < 2^64 * 2^42
  const U128 divisor = pow10(d.scale);
  if (product % divisor != 0) {
    r.error = fail(text, finer, f);
    return r;
  }
  const U128 value = product / divisor;
  if (value > max) {
    r.error = fail(text, too_large, f);
    return r;
  }
  r.value = static_cast<std::uint64_t>(value);
  return r;
}

// mantissa / 10^scale * multiplier as a double (rates and percentages).
double to_double(const Decimal& d) {
  return static_cast<double>(d.mantissa) * static_cast<double>(d.unit->multiplier) / std::pow(10.0, d.scale);
}

// Formats value / divisor with at most 3 decimals, trailing zeros dropped.
std::string three_decimals(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s(buf);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

Parsed<std::chrono::nanoseconds> parse_duration(std::string_view text) {
  Parsed<std::chrono::nanoseconds> r;
  Parsed<Decimal> d = split(text, kDuration);
  if (!d) {
    r.error = std::move(d.error);
    return r;
  }
  Parsed<std::uint64_t> ns = whole(text, *d.value, std::numeric_limits<std::int64_t>::max(),
                                   "is finer than 1 ns", "is too large (at most 292 years)", kDuration);
  if (!ns) {
    r.error = std::move(ns.error);
    return r;
  }
  r.value = std::chrono::nanoseconds(static_cast<std::int64_t>(*ns.value));
  return r;
}

Parsed<std::uint64_t> parse_size(std::string_view text) {
  Parsed<Decimal> d = split(text, kSize);
  if (!d) return {std::nullopt, std::move(d.error)};
  return whole(text, *d.value, std::numeric_limits<std::uint64_t>::max(), "is not a whole number of bytes",
               "is too large (at most 2^64-1 bytes)", kSize);
}

Parsed<double> parse_bit_rate(std::string_view text) {
  Parsed<Decimal> d = split(text, kBitRate);
  if (!d) return {std::nullopt, std::move(d.error)};
  return {to_double(*d.value), {}};
}

Parsed<double> parse_event_rate(std::string_view text) {
  Parsed<Decimal> d = split(text, kEventRate);
  if (!d) return {std::nullopt, std::move(d.error)};
  if (d.value->mantissa == 0)
    return {std::nullopt, fail(text, "is zero; a rate must be above 0", kEventRate)};
  return {to_double(*d.value), {}};
}

Parsed<double> parse_percentage(std::string_view text) {
  Parsed<Decimal> d = split(text, kPercent);
  if (!d) return {std::nullopt, std::move(d.error)};
  const double percent = to_double(*d.value);
  if (percent > 100.0) return {std::nullopt, fail(text, "is above 100%", kPercent)};
  return {percent / 100.0, {}};
}

std::string format_duration(std::chrono::nanoseconds d) {
  const std::int64_t ns = d.count();
  const std::int64_t mag = ns < 0 ? -ns : ns;
  if (mag < 1'000) return std::to_string(ns) + "ns";
  if (mag < 1'000'000) return three_decimals(static_cast<double>(ns) / 1e3) + "us";
  if (mag < 1'000'000'000) return three_decimals(static_cast<double>(ns) / 1e6) + "ms";
  return three_decimals(static_cast<double>(ns) / 1e9) + "s";
}

std::string format_bit_rate(double bps) {
  const double mag = std::fabs(bps);
  if (mag >= 1e12) return three_decimals(bps / 1e12) + "Tbit/s";
  if (mag >= 1e9) return three_decimals(bps / 1e9) + "Gbit/s";
  if (mag >= 1e6) return three_decimals(bps / 1e6) + "Mbit/s";
  if (mag >= 1e3) return three_decimals(bps / 1e3) + "kbit/s";
  return three_decimals(bps) + "bit/s";
}

std::string format_size(std::uint64_t bytes) {
  static constexpr std::array<Unit, 4> kBinary{
      {{"TiB", 1ull << 40}, {"GiB", 1ull << 30}, {"MiB", 1ull << 20}, {"KiB", 1ull << 10}}};
  for (const Unit& u : kBinary)
    if (bytes != 0 && bytes % u.multiplier == 0)
      return std::to_string(bytes / u.multiplier) + std::string(u.name);
  return std::to_string(bytes);
}

}  // namespace labgate::units
