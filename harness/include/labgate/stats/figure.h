// One figure of a measurement as it was judged: the statistic, its value in a base
// unit, and where it came from. The judge (measure::judge_figures) makes these once;
// run.json records them, and the verdict, JUnit, the report, compare, import and
// metrics all read them, so one statistic has one value everywhere.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace labgate::stats {

/// Where a figure came from. A tool's own figure wins over a histogram rebuilt
/// from its buckets; a figure nobody measured is absent, never 0.
enum class FigureSource {
  kHistogram,  ///< labgate's full histogram of every sample (built-in probes, sockperf --full-log)
  kTool,       ///< the figure the tool printed itself (netperf -k, sockperf, iperf3, ping, sysbench)
  kProbe,      ///< the built-in probe's own count or figure (MTU found, throughput, IOPS)
  kCounters,   ///< counted: the probe's sent/received counters, or /proc snapshots around the test
};
/// "histogram" | "tool" | "probe" | "counters".
const char* to_string(FigureSource s);
std::optional<FigureSource> parse_figure_source(std::string_view s);

struct Figure {
  std::string stat;  ///< "p99", "max", "samples", "dropped", "throughput", "loss", "iops", "mtu_forward"...
  double value = 0;  ///< in `unit`
  std::string unit;  ///< "ns", "count", "bit/s", "fraction", "bytes", "1/s"
  FigureSource source = FigureSource::kHistogram;
  std::string detail;  ///< the exact origin: "netperf P99_LATENCY", "histogram of 125215 round trips"
};

/// The samples a measurement holds against the samples its run must have
/// produced, as the judge found them.
struct SampleAccounting {
  bool checked = false;            ///< there was something to hold the samples against
  std::optional<double> expected;  ///< samples the run should hold
  double held = 0;                 ///< samples it holds
  double tolerance = 0.01;         ///< the share of `expected` that may be missing
  bool pass = true;                ///< false: samples lost, or none at all
  std::string message;             ///< one sentence with the figures, pass or fail
};

nlohmann::json to_json(const SampleAccounting& a);
SampleAccounting sample_accounting_from_json(const nlohmann::json& j, const std::string& path = "accounting");

/// The figures of one measurement, in the judge's order; at most one per statistic.
class FigureSet {
 public:
  FigureSet() = default;
  explicit FigureSet(std::vector<Figure> list) : list_(std::move(list)) {}
  const std::vector<Figure>& list() const { return list_; }
  bool empty() const { return list_.empty(); }
  /// The figure of `stat`, nullptr when it was not measured.
  const Figure* find(std::string_view stat) const;
  std::optional<double> value(std::string_view stat) const;
  /// Adds or replaces the figure of f.stat.
  void put(Figure f);
  /// Removes the figure of `stat`, if any.
  void erase(std::string_view stat);
  void clear() { list_.clear(); }

 private:
  std::vector<Figure> list_;
};

/// [{"stat": "p99", "value": 18000, "unit": "ns", "source": "tool", "detail": "..."}, ...]
nlohmann::json to_json(const FigureSet& f);
/// Throws std::invalid_argument naming the path of a bad member ("figures.p99.value: ...").
FigureSet figure_set_from_json(const nlohmann::json& j, const std::string& path = "figures");

}  // namespace labgate::stats
