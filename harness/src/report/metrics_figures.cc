// The adapter from a test's recorded figures to base-unit metric figures: the
// only reader of TestRecord::figures on the metrics side (see metrics.h).
#include "labgate/report/metrics.h"

namespace labgate::report {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::vector<MetricFigure> metric_figures(const results::TestRecord& t) {
  std::vector<MetricFigure> out;
  for (const auto& [name, value] : t.figures) {
    if (name == "duration_s" || name == "warmup_s") {
      out.push_back({"test_duration_seconds", name == "duration_s" ? "measured" : "warmup", value});
    } else if (ends_with(name, "_us")) {  // p50_us, p99_9_us, max_us, mean_us, stddev_us
      out.push_back({"latency_seconds", name.substr(0, name.size() - 3), value * 1e-6});
    } else if (name == "throughput_mbit_s") {
      // Prometheus' base unit is the byte (promtool refuses bits): 1 Mbit/s = 125,000 B/s.
      out.push_back({"throughput_bytes_per_second", "mean", value * 1e6 / 8});
    } else if (name == "mbyte_s") {
      // A disk's MB/s is the same throughput as its throughput_mbit_s, in other units.
      if (!t.figures.count("throughput_mbit_s")) out.push_back({"throughput_bytes_per_second", "mean", value * 1e6});
    } else if (name == "loss_pct") {
      out.push_back({"loss_ratio", "loss", value / 100.0});
    } else if (name == "iops") {
      out.push_back({"io_operations_per_second", "mean", value});
    } else if (name == "mtu_forward" || name == "mtu_reverse") {
      out.push_back({"path_mtu_bytes", name.substr(4), value});
    } else {  // samples, dropped, duplicated, out_of_order, failures, retransmits, rx_drops...
      out.push_back({"test_counts", name, value});
    }
  }
  return out;
}

}  // namespace labgate::report
