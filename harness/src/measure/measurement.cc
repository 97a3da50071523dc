// The Measurement model: statistics by budget name, and its JSON form.
#include "labgate/measure/measurement.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "labgate/measure/figures.h"
#include "labgate/profile/test_spec.h"
#include "labgate/util/json_reader.h"

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
  if (m.cooldown_s > 0) j["cooldown_s"] = m.cooldown_s;
  if (m.series_origin_ns) j["series_origin_ns"] = *m.series_origin_ns;
  if (m.tool_time)
    j["tool_time"] = {{"startup_s", m.tool_time->startup_s},
                      {"wrapup_s", m.tool_time->wrapup_s},
                      {"basis", m.tool_time->basis}};
  if (m.expectation)
    j["expectation"] = {{"expected", m.expectation->expected},
                        {"held", m.expectation->held},
                        {"basis", m.expectation->basis},
                        {"shortfall_means", m.expectation->shortfall_means}};
  return j;
}

Measurement measurement_from_json(const nlohmann::json& j) {
  try {
    // Every member through the one path-naming reader (util::JsonReader).
    const util::JsonReader r(j, "");
    if (r.str("format") != "labgate-measurement-1") r.fail("format", "is not \"labgate-measurement-1\"");
    Measurement m;
    m.source = r.str("source");
    m.kind = r.str("kind");
    auto metric = parse_metric(r.str("metric"));
    if (!metric) r.fail("metric", "is not one of round_trip, send_time, clock_gap, io_time, wall_time");
    m.metric = *metric;
    m.host = r.str("host");
    m.peer = r.str("peer");
    m.cpu = r.integer("cpu");
    r.object("histogram");
    m.histogram = stats::Histogram::from_json(r.any("histogram"), "histogram");
    const util::JsonReader reported = r.object("reported");
    for (const auto& [k, v] : reported.json().items()) m.reported[k] = reported.num(k.c_str());
    const nlohmann::json& series = r.array("series");
    for (std::size_t n = 0; n < series.size(); ++n) {
      const util::JsonReader i = r.element("series", n);
      m.series.push_back({i.num("start_s"), i.num("length_s"), i.count("count"), i.count("p50_ns"),
                          i.count("p99_ns"), i.count("max_ns")});
    }
    const nlohmann::json& events = r.array("events");
    for (std::size_t n = 0; n < events.size(); ++n) {
      const util::JsonReader e = r.element("events", n);
      m.events.push_back({e.num("at_s"), e.count("value_ns"), e.integer("cpu")});
    }
    m.duration_s = r.num("duration_s");
    m.warmup_s = r.num("warmup_s");
    m.sent = r.count("sent");
    m.received = r.count("received");
    m.dropped = r.count("dropped");
    m.duplicated = r.count("duplicated");
    m.out_of_order = r.count("out_of_order");
    m.throughput_bps = r.opt_num("throughput_bps");
    m.loss_fraction = r.opt_num("loss_fraction");
    m.counts_drops = r.bool_or("counts_drops", false);
    m.cooldown_s = r.opt_num("cooldown_s").value_or(0);
    m.series_origin_ns = r.opt_count("series_origin_ns");
    if (r.has("tool_time")) {
      const util::JsonReader t = r.object("tool_time");
      m.tool_time = ToolTime{t.num("startup_s"), t.num("wrapup_s"), t.str("basis")};
    }
    if (r.has("expectation")) {
      const util::JsonReader e = r.object("expectation");
      m.expectation =
          SampleExpectation{e.num("expected"), e.num("held"), e.str("basis"), e.str("shortfall_means")};
    }
    const util::JsonReader parameters = r.object("parameters");
    for (const auto& [k, v] : parameters.json().items()) m.parameters[k] = parameters.str(k.c_str());
    const nlohmann::json& warnings = r.array("warnings");
    for (std::size_t n = 0; n < warnings.size(); ++n) {
      if (!warnings[n].is_string())
        r.fail(util::json_index_path("warnings", n).c_str(), "expected a string, got " + util::json_type_name(warnings[n]));
      m.warnings.push_back(warnings[n].get<std::string>());
    }
    return m;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("measurement JSON: ") + e.what());
  }
}

}  // namespace labgate::measure
