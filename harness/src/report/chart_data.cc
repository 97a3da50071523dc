// Chart inputs of a test, read by the one Measurement reader.
#include "labgate/report/chart_data.h"

#include <stdexcept>

namespace labgate::report {

ChartData chart_data(const nlohmann::json& j) {
  ChartData v;
  if (j.is_null()) return v;
  measure::Measurement m;
  try {
    m = measure::measurement_from_json(j);
  } catch (const std::exception& e) {
    v.problems.push_back(e.what());
    return v;
  }
  if (m.histogram.count() > 0) {
    v.histogram = std::move(m.histogram);
    v.histogram_source = m.source.empty() ? "builtin" : m.source;
  }
  v.series = std::move(m.series);
  v.series_origin_ns = m.series_origin_ns;
  v.events = std::move(m.events);
  v.parameters = std::move(m.parameters);
  v.warmup_s = m.warmup_s;
  v.duration_s = m.duration_s;
  v.cooldown_s = m.cooldown_s;
  v.tool_time = std::move(m.tool_time);
  if (m.cpu >= 0) v.cpu = m.cpu;
  v.warnings = std::move(m.warnings);
  return v;
}

std::optional<double> percentile_of(const std::string& stat) {
  if (stat == "max") return 100.0;
  if (stat.size() < 2 || stat[0] != 'p') return std::nullopt;
  std::string digits = stat.substr(1);
  for (char& c : digits) {
    if (c == '_')
      c = '.';
    else if (c < '0' || c > '9')
      return std::nullopt;
  }
  try {
    const double p = std::stod(digits);
    if (p > 0 && p < 100) return p;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace labgate::report
