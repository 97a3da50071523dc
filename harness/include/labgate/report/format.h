// How reports print numbers: latencies with a unit chosen for the value and
// three significant digits ("85.3 µs", "1.30 ms"), rates, fractions, margins.
#pragma once

#include <optional>
#include <string>

namespace labgate::report {

/// Whether to spell micro as "µs" (HTML) or "us" (console, JUnit, plain text).
enum class Units { kUnicode, kAscii };

/// A latency in ns with 3 significant digits: "850 ns", "85.3 µs", "1.30 ms", "2.50 s".
std::string format_ns(double ns, Units u = Units::kUnicode);
/// A rate in bit/s: "940 Mbit/s".
std::string format_bps(double bps);
/// A value in a budget unit ("ns", "count", "bit/s", "fraction").
std::string format_in_unit(double value, const std::string& unit, Units u = Units::kUnicode);
/// A signed percentage from a fraction: 0.125 -> "+12.5%", -0.08 -> "-8.0%".
std::string format_signed_percent(double fraction);
/// A count with thousands grouped by thin spaces: 1234567 -> "1 234 567".
std::string format_count(double n);
/// A plain number for machine readers (JUnit properties): no exponent, no
/// trailing zeros, at most 3 decimals ("151.234", "1000000").
std::string format_plain(double v);
/// A wall-clock duration in seconds: "12.5 s", "4 min 10 s", "2 h 03 min".
std::string format_duration(double seconds);
/// "n/a" when empty.
std::string or_na(const std::optional<std::string>& s);

}  // namespace labgate::report
