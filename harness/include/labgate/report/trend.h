// One test's p50/p99/max over many runs against its budget: the model of
// `labgate trend` (trend_model.cc), its HTML page with one zoomable Chart.js
// chart per test (trend_html.cc) and its CSV (trend_csv.cc).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "labgate/results/run_result.h"

namespace labgate::report {

/// Whether a run's hosts met their preconditions: the run's own three values.
using Conforming = results::Conformance;
const char* conformance_words(Conforming c);  ///< for people: "yes" | "no" | "not checked"

/// The run's conformance (RunResult::conformance(): yes only when every rule was checked and held).
Conforming conforming_of(const results::RunResult& run);
/// THE one reader of "this run was imported from a saved tool output": run.json's
/// `imported` (labgate import --results), or a test whose measurement parameters
/// carry `imported_from`.
bool imported_of(const results::RunResult& run);

/// One run as the trend shows it.
struct TrendRun {
  std::string run_id;
  results::Clock::time_point start{};
  Conforming conforming = Conforming::kNotChecked;
  bool imported = false;
};

/// One test (suite, name and pair) in one run.
struct TrendPoint {
  std::size_t run = 0;  ///< index into TrendData::runs
  std::map<std::string, double> seconds;  ///< "p50", "p99", "max" in seconds, when measured
  std::map<std::string, double> budget_s;  ///< the same statistics' budget limits, in seconds
  std::string verdict;                     ///< "pass" | "fail" | "error"
};

struct TrendSeries {
  std::string key;  ///< "Latency.tcp_rr_64/a->b"
  std::string metric;
  std::vector<TrendPoint> points;  ///< in run order
};

struct TrendData {
  std::vector<TrendRun> runs;  ///< in time order (start, then run id)
  std::vector<TrendSeries> tests;  ///< in first-seen order
};

/// The statistics a trend draws, in order.
inline const std::vector<std::string>& trend_statistics() {
  static const std::vector<std::string> s = {"p50", "p99", "max"};
  return s;
}

/// Builds the trend of `runs` (any order).
TrendData trend_of(std::vector<results::RunResult> runs);
/// Loads each results folder's run.json (labgate::Failure exit 2 naming a bad folder).
TrendData load_trend(const std::vector<std::filesystem::path>& run_dirs);

/// The self-contained page; `chart_js` is Chart.js's source, inlined.
std::string trend_html(const TrendData& data, const std::string& chart_js);
/// One row per test and run: test,run_id,start,conforming,imported,verdict,p50_s,...
std::string trend_csv(const TrendData& data);

/// Where Debian's libjs-chart.js puts Chart.js 3.9.
inline constexpr const char* kChartJsPath = "/usr/share/javascript/chart.js/chart.min.js";

}  // namespace labgate::report
