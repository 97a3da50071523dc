// The markers tools print in place of a figure they could not measure: netperf's
// INT_MIN (-2147483648) and its -1 / -1.000 defaults, the same values as a
// 64-bit unsigned counter prints them, and inf / nan from a division by zero
// transactions. Every tool reader asks this one function, so a marker is "not
// measured" for every key of every tool and never becomes a number.
#pragma once

#include <string>
#include <string_view>

namespace labgate::util {

/// Whether `token` (a printed value, trimmed) is a "not measured" marker:
/// -2147483648, -1, -1.0..., 18446744071562067968 and 18446744073709551615
/// (INT_MIN and -1 printed as unsigned 64-bit), inf, -inf, infinity, nan, -nan
/// (any case, with or without a fraction).
bool is_not_measured(std::string_view token);

/// The same test on a value already read as a number (a JSON member).
bool is_not_measured(double value);

/// The warning every reader writes for a marker, naming where and the key:
/// "line 7: RT_LATENCY=inf is netperf's 'not measured' marker; RT_LATENCY is left absent".
std::string not_measured_warning(std::string_view where, std::string_view tool, std::string_view key,
                                 std::string_view token);

}  // namespace labgate::util
