// Small, strict text helpers shared by the tool parsers (private to src/tools).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace labgate::tools::scan {

std::string_view trim(std::string_view s);
/// Splits on runs of spaces.
std::vector<std::string_view> words(std::string_view s);
/// The whole token as a finite number ("12", "-3.5", "1e3"); nullopt otherwise.
std::optional<double> number(std::string_view s);
/// The whole token as a non-negative integer; nullopt otherwise (or on overflow).
std::optional<std::uint64_t> count(std::string_view s);
/// Microseconds (as tools print them) to whole nanoseconds.
double us_to_ns(double us);
/// Whether `s` contains `needle`, ignoring ASCII case.
bool contains_nocase(std::string_view s, std::string_view needle);
/// A percentile as a tool prints it to the budget name: "99.990" -> "p99_99", "50.000" -> "p50", "99" ->
/// "p99".
std::string percentile_name(std::string_view pct);
/// Whether the whole token is a dotted IPv4 address within 224.0.0.0/4 (a group).
bool ipv4_multicast(std::string_view address);

}  // namespace labgate::tools::scan
