// What report.html draws from a test's measurement: the histogram's shape, the
// interval series, the events and the parameters, read by the one Measurement
// reader (measure::measurement_from_json). It holds no figure: every number the
// report prints comes from the test's judged figures (TestRecord::figures).
// A measurement that cannot be read costs only its own charts, with the reason.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "labgate/measure/measurement.h"
#include "labgate/stats/histogram.h"

namespace labgate::report {

using SeriesPoint = measure::Interval;
using EventPoint = measure::Event;

struct ChartData {
  std::optional<stats::Histogram> histogram;  ///< only when it holds samples
  /// Who made the histogram: "builtin" (every sample), or a tool whose buckets it
  /// was rebuilt from (netperf's are a decade wide: drawn, never read for figures).
  std::string histogram_source;
  std::vector<SeriesPoint> series;
  std::optional<std::uint64_t> series_origin_ns;  ///< see measure::Measurement
  std::vector<EventPoint> events;
  std::map<std::string, std::string> parameters;
  std::optional<double> warmup_s, duration_s;
  double cooldown_s = 0;                       ///< a tool's own cool-down, 0 when none
  std::optional<measure::ToolTime> tool_time;  ///< an external tool's own start-up and wrap-up
  std::optional<int> cpu;  ///< jitter: the CPU measured
  std::vector<std::string> warnings;
  std::vector<std::string> problems;  ///< why the measurement could not be read
};

/// Reads a test's measurement JSON (null gives empty chart data).
ChartData chart_data(const nlohmann::json& m);

/// The percentile rank of a budget statistic name ("p99_9" -> 99.9, "max" -> 100),
/// nullopt for names that are not percentiles.
std::optional<double> percentile_of(const std::string& stat);

}  // namespace labgate::report
