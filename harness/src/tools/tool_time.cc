// An external tool's start-up and wrap-up from its timed output lines (see tool_time.h).
#include "labgate/tools/tool_time.h"

#include <cstdio>
#include <optional>
#include <string_view>

namespace labgate::tools {

namespace {

double as_seconds(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

/// When the first line containing `needle` arrived.
std::optional<std::chrono::nanoseconds> arrival(const std::vector<TimedLine>& lines,
                                                std::string_view needle) {
  for (const auto& l : lines)
    if (l.text.find(needle) != std::string::npos) return l.at;
  return std::nullopt;
}

void sockperf_times(const std::vector<TimedLine>& lines, measure::Measurement& m) {
  // sockperf 3.x's client: prints its version, connects, sends its warm-up
  // messages (to multicast groups only), sleeps a fixed 2 s, then "Starting
  // test..." and its run timer; at the timer "Test end", then a 0.1-s wait for
  // the last replies, "Test ended" and the statistics.
  const auto start = arrival(lines, "Starting test...");
  const auto end = arrival(lines, "Test end (");
  if (lines.empty() || !start || !end || *end < *start) return;
  measure::ToolTime t;
  t.startup_s = as_seconds(*start - lines.front().at);
  t.wrapup_s = as_seconds(lines.back().at - *end);
  t.basis =
      "sockperf's own lines as labgate received them: start-up from its first line to 'Starting test...' "
      "(its set-up and the fixed 2-s pause sockperf sleeps before every run), wrap-up from 'Test end' to "
      "its last line (its 0.1-s wait for late replies and its statistics)";
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "%.3f s start-up before its run, %.3f s wrap-up after it (timed by labgate; "
                "not measuring, not labgate's)",
                t.startup_s, t.wrapup_s);
  m.parameters["tool_time"] = buf;
  m.tool_time = std::move(t);
}

}  // namespace

void account_tool_time(profile::Tool tool, const std::vector<TimedLine>& lines, measure::Measurement& m) {
  if (tool == profile::Tool::kSockperf) sockperf_times(lines, m);
}

}  // namespace labgate::tools
