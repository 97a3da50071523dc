// What the reporters read from a test's opaque Measurement JSON: the histogram,
// the interval series, throughput and the parameters. Tolerant by design: a
// missing or malformed part is noted in `problems` and shown, never fatal,
// because one odd test must not cost the whole report.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "labgate/results/run_result.h"
#include "labgate/stats/histogram.h"

namespace labgate::report {

/// One interval of the per-interval series.
struct SeriesPoint {
  double start_s = 0, length_s = 0;
  std::uint64_t count = 0, p50_ns = 0, p99_ns = 0, max_ns = 0;
};

/// A single event placed in time (jitter: a clock gap over the threshold).
struct EventPoint {
  double at_s = 0;
  std::uint64_t value_ns = 0;
  int cpu = -1;
};

struct MeasurementView {
  std::optional<stats::Histogram> histogram;  ///< only when it holds samples
  std::vector<SeriesPoint> series;
  std::vector<EventPoint> events;
  std::map<std::string, double> reported;  ///< a tool's own summary stats (ns / counts)
  std::map<std::string, std::string> parameters;
  std::optional<double> throughput_bps, loss_fraction, warmup_s, duration_s;
  std::optional<double> sent, received, dropped, duplicated, out_of_order;
  std::optional<int> cpu;  ///< jitter: the CPU measured
  std::vector<std::string> warnings;
  std::vector<std::string> problems;  ///< parts of the JSON that could not be read
};

/// Reads what it can of a Measurement JSON (null gives an empty view). Accepts
/// "series" as an array of intervals or as {"intervals": [...]} (the probes' form),
/// and "warmup_s" or "warmup_excluded_s".
MeasurementView view_measurement(const nlohmann::json& m);

/// A statistic in its budget unit (ns for latencies) by budget name, "p50",
/// "p99_9", "max", "mean", "stddev", "min": from the histogram when it has
/// samples, else from the tool's reported figures, else from the recorded
/// `<stat>_us` figure of the test. nullopt when nothing says.
std::optional<double> latency_stat_ns(const results::TestRecord& t, const MeasurementView& v,
                                      const std::string& stat);

/// The percentile rank of a budget statistic name ("p99_9" -> 99.9, "max" -> 100),
/// nullopt for names that are not percentiles.
std::optional<double> percentile_of(const std::string& stat);

/// The figures a JUnit testcase carries: the recorded ones, completed with the
/// standard set (p50_us ... max_us, mean_us, stddev_us, samples, throughput_mbit_s)
/// derived from the measurement where the recorder did not give them.
std::map<std::string, double> junit_figures(const results::TestRecord& t, const MeasurementView& v);

}  // namespace labgate::report
