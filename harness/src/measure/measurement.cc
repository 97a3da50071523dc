// The Measurement model: statistics by budget name, and its JSON form.
#include "labgate/measure/measurement.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "labgate/measure/figures.h"
#include "labgate/profile/test_spec.h"

namespace labgate::measure {

const char* to_string(Metric m) {
  switch (m) {
    case Metric::kRoundTrip:
      return "round_trip";
    case Metric::kSendTime:
      return "send_time";
    case Metric::kClockGap:
      return "clock_gap";
    case Metric::kIoTime:
      return "io_time";
    case Metric::kWallTime:
      return "wall_time";
  }
  return "unknown";
}

std::optional<Metric> parse_metric(std::string_view s) {
  for (Metric m : {Metric::kRoundTrip, Metric::kSendTime, Metric::kClockGap, Metric::kIoTime, Metric::kWallTime})
    if (s == to_string(m)) return m;
  return std::nullopt;
}

std::optional<double> Measurement::stat(const std::string& name) const {
  // One judge decides every figure (measure/figures.cc); this is its lookup by
  // budget name ("min_throughput") or figure name ("throughput").
  const JudgedFigures j = judge_figures(*this);
  if (auto s = profile::parse_stat(name)) return j.figures.value(figure_name(*s));
  return j.figures.value(name);
}

std::optional<Interval> Measurement::interval_of_max() const {
  const Interval* worst = nullptr;
  for (const Interval& i : series)
    if (i.count > 0 && (worst == nullptr || i.max_ns > worst->max_ns)) worst = &i;
  if (worst == nullptr) return std::nullopt;
  return *worst;
}

nlohmann::json to_json(const Measurement& m) {
  nlohmann::json series = nlohmann::json::array();
  for (const Interval& i : m.series)
    series.push_back({{"start_s", i.start_s},
                      {"length_s", i.length_s},
                      {"count", i.count},
                      {"p50_ns", i.p50_ns},
                      {"p99_ns", i.p99_ns},
                      {"max_ns", i.max_ns}});
  nlohmann::json events = nlohmann::json::array();
  for (const Event& e : m.events)
    events.push_back({{"at_s", e.at_s}, {"value_ns", e.value_ns}, {"cpu", e.cpu}});
  nlohmann::json j = {{"format", "labgate-measurement-1"},
                      {"source", m.source},
                      {"kind", m.kind},
                      {"metric", to_string(m.metric)},
                      {"host", m.host},
                      {"peer", m.peer},
                      {"cpu", m.cpu},
                      {"histogram", m.histogram.to_json()},
                      {"reported", m.reported},
                      {"series", std::move(series)},
                      {"events", std::move(events)},
                      {"duration_s", m.duration_s},
                      {"warmup_s", m.warmup_s},
                      {"sent", m.sent},
                      {"received", m.received},
                      {"dropped", m.dropped},
                      {"duplicated", m.duplicated},
                      {"out_of_order", m.out_of_order},
                      {"parameters", m.parameters},
                      {"warnings", m.warnings}};
  if (m.throughput_bps) j["throughput_bps"] = *m.throughput_bps;
  if (m.loss_fraction) j["loss_fraction"] = *m.loss_fraction;
  j["counts_drops"] = m.counts_drops;
  if (m.expectation)
    j["expectation"] = {{"expected", m.expectation->expected},
                        {"held", m.expectation->held},
                        {"basis", m.expectation->basis},
                        {"shortfall_means", m.expectation->shortfall_means}};
  return j;
}

namespace {

[[noreturn]] void bad(const std::string& field, const char* expected) {
  throw std::invalid_argument("measurement JSON: '" + field + "' missing or not " + expected);
}

const nlohmann::json& member(const nlohmann::json& j, const std::string& path, const std::string& key) {
  auto it = j.find(key);
  if (it == j.end()) bad(path + key, "present");
  return *it;
}

std::string str(const nlohmann::json& j, const std::string& key, const std::string& path = "") {
  const auto& v = member(j, path, key);
  if (!v.is_string()) bad(path + key, "a string");
  return v.get<std::string>();
}

double num(const nlohmann::json& j, const std::string& key, const std::string& path = "") {
  const auto& v = member(j, path, key);
  if (!v.is_number()) bad(path + key, "a number");
  return v.get<double>();
}

std::uint64_t count(const nlohmann::json& j, const std::string& key, const std::string& path = "") {
  const auto& v = member(j, path, key);
  if (!v.is_number_unsigned()) bad(path + key, "an unsigned integer");
  return v.get<std::uint64_t>();
}

int integer(const nlohmann::json& j, const std::string& key, const std::string& path = "") {
  const auto& v = member(j, path, key);
  if (!v.is_number_integer()) bad(path + key, "an integer");
  return v.get<int>();
}

const nlohmann::json& array(const nlohmann::json& j, const std::string& key) {
  const auto& v = member(j, "", key);
  if (!v.is_array()) bad(key, "an array");
  return v;
}

template <typename V, typename Get>
std::map<std::string, V> object_map(const nlohmann::json& j, const std::string& key, Get get) {
  const auto& v = member(j, "", key);
  if (!v.is_object()) bad(key, "an object");
  std::map<std::string, V> out;
  for (const auto& [k, item] : v.items()) out[k] = get(v, k, key + ".");
  return out;
}

}  // namespace

Measurement measurement_from_json(const nlohmann::json& j) {
  if (!j.is_object() || str(j, "format") != "labgate-measurement-1")
    throw std::invalid_argument("measurement JSON: 'format' is not \"labgate-measurement-1\"");
  Measurement m;
  m.source = str(j, "source");
  m.kind = str(j, "kind");
  auto metric = parse_metric(str(j, "metric"));
  if (!metric) bad("metric", "one of round_trip, send_time, clock_gap");
  m.metric = *metric;
  m.host = str(j, "host");
  m.peer = str(j, "peer");
  m.cpu = integer(j, "cpu");
  m.histogram = stats::Histogram::from_json(member(j, "", "histogram"));
  m.reported = object_map<double>(j, "reported",
                                  [](const auto& o, const auto& k, const auto& p) { return num(o, k, p); });
  const auto& series = array(j, "series");
  for (std::size_t n = 0; n < series.size(); ++n) {
    const auto& i = series[n];
    const std::string at = "series[" + std::to_string(n) + "].";
    if (!i.is_object()) bad(at, "an object");
    m.series.push_back({num(i, "start_s", at), num(i, "length_s", at), count(i, "count", at),
                        count(i, "p50_ns", at), count(i, "p99_ns", at), count(i, "max_ns", at)});
  }
  const auto& events = array(j, "events");
  for (std::size_t n = 0; n < events.size(); ++n) {
    const auto& e = events[n];
    const std::string at = "events[" + std::to_string(n) + "].";
    if (!e.is_object()) bad(at, "an object");
    m.events.push_back({num(e, "at_s", at), count(e, "value_ns", at), integer(e, "cpu", at)});
  }
  m.duration_s = num(j, "duration_s");
  m.warmup_s = num(j, "warmup_s");
  m.sent = count(j, "sent");
  m.received = count(j, "received");
  m.dropped = count(j, "dropped");
  m.duplicated = count(j, "duplicated");
  m.out_of_order = count(j, "out_of_order");
  if (j.contains("throughput_bps")) m.throughput_bps = num(j, "throughput_bps");
  if (j.contains("loss_fraction")) m.loss_fraction = num(j, "loss_fraction");
  if (j.contains("counts_drops")) {
    if (!j["counts_drops"].is_boolean()) bad("counts_drops", "a boolean");
    m.counts_drops = j["counts_drops"].get<bool>();
  }
  if (j.contains("expectation")) {
    const auto& e = j["expectation"];
    if (!e.is_object()) bad("expectation", "an object");
    m.expectation = SampleExpectation{num(e, "expected", "expectation."), num(e, "held", "expectation."),
                                      str(e, "basis", "expectation."), str(e, "shortfall_means", "expectation.")};
  }
  m.parameters = object_map<std::string>(
      j, "parameters", [](const auto& o, const auto& k, const auto& p) { return str(o, k, p); });
  for (const auto& w : array(j, "warnings")) {
    if (!w.is_string()) bad("warnings[]", "a string");
    m.warnings.push_back(w.get<std::string>());
  }
  return m;
}

}  // namespace labgate::measure
