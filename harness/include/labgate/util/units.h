// Parsing and formatting of the unit-bearing values a profile holds: durations,
// sizes, bit rates, event rates and percentages ("85us", "16KiB", "940Mbit/s").
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace labgate::units {

/// A parsed value, or a message saying what was wrong and what was expected
/// (with an example). The message does not name the profile key: callers add it.
template <typename T>
struct Parsed {
  std::optional<T> value;
  std::string error;  ///< empty when `value` is set
  explicit operator bool() const { return value.has_value(); }
};

/// "250ns" "85us" "1.2ms" "2s" "5m" "1h" -> nanoseconds (exact, no rounding).
/// Units: ns us ms s m h; "µs" is refused (write "us"). No space, no sign.
Parsed<std::chrono::nanoseconds> parse_duration(std::string_view text);

/// "64" "16KiB" "1MiB" "1GiB" (binary) or "64B" "16KB" "1MB" "1GB" (decimal) -> bytes.
/// A plain number is bytes. The result must be a whole number of bytes.
Parsed<std::uint64_t> parse_size(std::string_view text);

/// "940Mbit/s" "1Gbit/s" "100kbit/s" "9600bit/s" -> bit/s (SI prefixes, 1k = 1000).
Parsed<double> parse_bit_rate(std::string_view text);

/// "20000/s" -> events per second (an open-loop send rate); must be > 0.
Parsed<double> parse_event_rate(std::string_view text);

/// "0.1%" -> 0.001 (a fraction); must be between 0% and 100%.
Parsed<double> parse_percentage(std::string_view text);

/// For messages and reports: "850ns" "85us" "1.2ms" "2.5s" (at most 3 decimals,
/// trailing zeros dropped, so the text parses back to the value when it is exact).
std::string format_duration(std::chrono::nanoseconds d);

/// "940Mbit/s" "1.25Gbit/s" "512bit/s" (at most 3 decimals).
std::string format_bit_rate(double bits_per_second);

/// "16KiB" "1MiB" when exact in a binary unit, else the byte count ("1000").
std::string format_size(std::uint64_t bytes);

}  // namespace labgate::units
