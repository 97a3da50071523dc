// Tolerant reading of a test's Measurement JSON for the reporters.
#include "labgate/report/measurement_view.h"

#include <cmath>
#include <stdexcept>

namespace labgate::report {

using nlohmann::json;

namespace {

std::optional<double> number_at(const json& m, const char* key, MeasurementView& v) {
  const auto it = m.find(key);
  if (it == m.end() || it->is_null()) return std::nullopt;
  if (!it->is_number() || !std::isfinite(it->get<double>())) {
    v.problems.push_back(std::string("'") + key + "' is not a number");
    return std::nullopt;
  }
  return it->get<double>();
}

std::uint64_t u64(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number() || it->get<double>() < 0)
    throw std::invalid_argument(std::string("'") + key + "' missing or not a non-negative number");
  return it->is_number_unsigned() ? it->get<std::uint64_t>() : static_cast<std::uint64_t>(it->get<double>());
}

void read_series(const json& s, MeasurementView& v) {
  const json* items = &s;
  if (s.is_object() && s.contains("intervals")) items = &s["intervals"];
  if (!items->is_array()) {
    v.problems.push_back("'series' is neither an array nor {\"intervals\": [...]}");
    return;
  }
  for (std::size_t i = 0; i < items->size(); ++i) {
    const json& it = (*items)[i];
    try {
      if (!it.is_object()) throw std::invalid_argument("not an object");
      SeriesPoint p;
      p.start_s = it.at("start_s").get<double>();
      p.length_s = it.at("length_s").get<double>();
      p.count = u64(it, "count");
      p.p50_ns = u64(it, "p50_ns");
      p.p99_ns = u64(it, "p99_ns");
      p.max_ns = u64(it, "max_ns");
      v.series.push_back(p);
    } catch (const std::exception& e) {
      v.problems.push_back("series[" + std::to_string(i) + "]: " + e.what());
      return;
    }
  }
}

void read_events(const json& e, MeasurementView& v) {
  if (!e.is_array()) {
    v.problems.push_back("'events' is not an array");
    return;
  }
  for (std::size_t i = 0; i < e.size(); ++i) {
    try {
      if (!e[i].is_object()) throw std::invalid_argument("not an object");
      EventPoint p;
      p.at_s = e[i].at("at_s").get<double>();
      p.value_ns = u64(e[i], "value_ns");
      p.cpu = e[i].value("cpu", -1);
      v.events.push_back(p);
    } catch (const std::exception& ex) {
      v.problems.push_back("events[" + std::to_string(i) + "]: " + ex.what());
      return;
    }
  }
}

void read_strings(const json& m, const char* key, std::vector<std::string>& out) {
  const auto it = m.find(key);
  if (it == m.end() || !it->is_array()) return;
  for (const auto& w : *it)
    if (w.is_string()) out.push_back(w.get<std::string>());
}

}  // namespace

MeasurementView view_measurement(const json& m) {
  MeasurementView v;
  if (m.is_null()) return v;
  if (!m.is_object()) {
    v.problems.push_back("the measurement is not a JSON object");
    return v;
  }
  if (const auto it = m.find("histogram"); it != m.end() && !it->is_null()) {
    try {
      auto h = stats::Histogram::from_json(*it);
      if (h.count() > 0) v.histogram = std::move(h);
    } catch (const std::invalid_argument& e) {
      v.problems.push_back(e.what());
    }
  }
  if (const auto it = m.find("series"); it != m.end() && !it->is_null()) read_series(*it, v);
  if (const auto it = m.find("events"); it != m.end() && !it->is_null()) read_events(*it, v);
  if (const auto it = m.find("reported"); it != m.end() && it->is_object())
    for (const auto& [k, val] : it->items())
      if (val.is_number()) v.reported[k] = val.get<double>();
  if (const auto it = m.find("parameters"); it != m.end() && it->is_object())
    for (const auto& [k, val] : it->items())
      v.parameters[k] = val.is_string() ? val.get<std::string>() : val.dump();
  v.throughput_bps = number_at(m, "throughput_bps", v);
  v.loss_fraction = number_at(m, "loss_fraction", v);
  v.warmup_s = number_at(m, "warmup_s", v);
  if (!v.warmup_s) v.warmup_s = number_at(m, "warmup_excluded_s", v);
  v.duration_s = number_at(m, "duration_s", v);
  v.sent = number_at(m, "sent", v);
  v.received = number_at(m, "received", v);
  v.dropped = number_at(m, "dropped", v);
  v.duplicated = number_at(m, "duplicated", v);
  v.out_of_order = number_at(m, "out_of_order", v);
  if (const auto cpu = number_at(m, "cpu", v); cpu && *cpu >= 0) v.cpu = static_cast<int>(*cpu);
  read_strings(m, "warnings", v.warnings);
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

std::optional<double> latency_stat_ns(const results::TestRecord& t, const MeasurementView& v,
                                      const std::string& stat) {
  if (v.histogram) {
    const auto& h = *v.histogram;
    if (const auto p = percentile_of(stat)) return static_cast<double>(h.percentile(*p));
    if (stat == "mean") return h.mean();
    if (stat == "stddev") return h.stddev();
    if (stat == "min") return static_cast<double>(h.min());
  }
  if (const auto it = v.reported.find(stat); it != v.reported.end()) return it->second;
  if (const auto it = t.figures.find(stat + "_us"); it != t.figures.end()) return it->second * 1e3;
  return std::nullopt;
}

std::map<std::string, double> junit_figures(const results::TestRecord& t, const MeasurementView& v) {
  std::map<std::string, double> out = t.figures;
  for (const char* stat : {"p50", "p90", "p99", "p99_9", "p99_99", "max", "mean", "stddev"}) {
    const std::string key = std::string(stat) + "_us";
    if (out.count(key)) continue;
    if (const auto ns = latency_stat_ns(t, v, stat)) out[key] = *ns / 1e3;
  }
  if (!out.count("samples") && v.histogram) out["samples"] = static_cast<double>(v.histogram->count());
  if (!out.count("dropped") && v.dropped) out["dropped"] = *v.dropped;
  if (!out.count("throughput_mbit_s") && v.throughput_bps) out["throughput_mbit_s"] = *v.throughput_bps / 1e6;
  return out;
}

}  // namespace labgate::report
