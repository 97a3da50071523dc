// A run as Prometheus metrics: results/<run>/metrics.prom in the text
// exposition format, as node_exporter's textfile collector reads it (labgate_
// prefix, Prometheus base units: seconds, bytes, bytes per second (promtool
// refuses bits), ratios; HELP and TYPE
// lines; labels lab, test, pair, network, statistic), and its push to a
// Pushgateway.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "labgate/results/run_result.h"

namespace labgate::report {

/// One figure of a test in a base unit, as the metrics see it.
struct MetricFigure {
  std::string family;     ///< metric name without the prefix: "latency_seconds", "test_counts"
  std::string statistic;  ///< "p99", "max", "samples", "mean", "forward"
  double value = 0;       ///< in the family's base unit
};

/// THE one place the metrics read a test's judged figures (TestRecord::figures),
/// converted to Prometheus base units. Nothing else in the metrics looks at them.
std::vector<MetricFigure> metric_figures(const results::TestRecord& t);

/// The whole exposition text of a run (every family with HELP and TYPE).
std::string metrics_text(const results::RunResult& run);

/// The Pushgateway URL for a run: "<base>/metrics/job/labgate/lab@base64/<lab>",
/// so one run replaces that lab's previous group and two labs never mix.
/// Throws labgate::Failure (exit 2) for a base that is not http(s)://host[:port][/path].
std::string pushgateway_url(const std::string& base, const results::RunResult& run);

/// Reads RUN_DIR/metrics.prom (written by publish(); regenerated from run.json
/// when missing) and PUTs it to the Pushgateway at `url`. Throws labgate::Failure:
/// exit 2 for a bad URL or folder, exit 3 when the gateway cannot be reached or
/// refuses the push (its answer is in the message).
void push_metrics(const std::filesystem::path& run_dir, const std::string& url);

}  // namespace labgate::report

namespace labgate::report {
class HttpClient;
/// push_metrics() through a given client (the tests pass a fake).
void push_metrics(const std::filesystem::path& run_dir, const std::string& url, HttpClient& http);
}  // namespace labgate::report
