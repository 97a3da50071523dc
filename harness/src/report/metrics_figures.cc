// The adapter from a test's recorded figures to base-unit metric figures: the
// only reader of TestRecord::figures on the metrics side (see metrics.h).
#include "labgate/report/metrics.h"

namespace labgate::report {

std::vector<MetricFigure> metric_figures(const results::TestRecord& t) {
  std::vector<MetricFigure> out;
  for (const stats::Figure& f : t.figures.list()) {
    if (f.unit == "ns") {  // p50, p99_9, max, mean, stddev, mdev, jitter
      out.push_back({"latency_seconds", f.stat, f.value * 1e-9});
    } else if (f.stat == "throughput") {
      // Prometheus' base unit is the byte (promtool refuses bits): 1 Mbit/s = 125,000 B/s.
      out.push_back({"throughput_bytes_per_second", "mean", f.value / 8});
    } else if (f.stat == "loss") {
      out.push_back({"loss_ratio", "loss", f.value});
    } else if (f.stat == "iops") {
      out.push_back({"io_operations_per_second", "mean", f.value});
    } else if (f.stat == "mtu_forward" || f.stat == "mtu_reverse") {
      out.push_back({"path_mtu_bytes", f.stat.substr(4), f.value});
    } else if (f.unit == "1/s") {
      out.push_back({"rate_per_second", f.stat, f.value});
    } else {  // samples, dropped, duplicated, out_of_order, failures, retransmits, rx_drops...
      out.push_back({"test_counts", f.stat, f.value});
    }
  }
  if (t.duration_s > 0) out.push_back({"test_duration_seconds", "measured", t.duration_s});
  if (t.measurement.is_object())
    if (const auto it = t.measurement.find("warmup_s"); it != t.measurement.end() && it->is_number())
      out.push_back({"test_duration_seconds", "warmup", it->get<double>()});
  return out;
}

}  // namespace labgate::report
