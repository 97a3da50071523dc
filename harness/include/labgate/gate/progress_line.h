// The line a person watches while a long test runs: a probe's per-interval
// progress JSON (stderr, --progress) turned into elapsed/total, p99 and max so far.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace labgate::gate {

/// "Latency.tcp_rr_64/a->b: 3.0/120.0 s, p99 so far 45.1 us, max so far 120 us
/// (last interval: 9 812 samples, p99 44.0 us, max 98.2 us)" from one probe
/// progress line; nullopt for any other stderr line (a warning, a partial line).
std::optional<std::string> format_progress(std::string_view case_name, std::string_view line);

}  // namespace labgate::gate
