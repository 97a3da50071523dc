// What an external tool spends in its own process outside its run window, timed
// by labgate from the tool's output lines as they arrive (measure::ToolTime).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "labgate/measure/measurement.h"
#include "labgate/profile/test_spec.h"

namespace labgate::tools {

/// One line of a tool's stdout and when labgate received it (any fixed origin).
struct TimedLine {
  std::chrono::nanoseconds at{0};
  std::string text;
};

/// Sets m.tool_time (and a readable "tool_time" parameter for the report) from
/// the tool's timed lines. sockperf prints a line as it starts, "Starting test..."
/// when its run (warm-up included) begins, "Test end" when it ends, and its
/// statistics last: start-up is first line to "Starting test...", wrap-up "Test
/// end" to the last line. Lines from one stream over one channel arrive with the
/// same delay, so the differences are the tool's own. iperf3 (-J) and netperf
/// print only when they end, so nothing can be timed: m is left as it is, as it
/// is when an expected line is missing.
void account_tool_time(profile::Tool tool, const std::vector<TimedLine>& lines, measure::Measurement& m);

}  // namespace labgate::tools
