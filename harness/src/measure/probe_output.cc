// The built-in probes' JSON output -> Measurement (schema "labgate-probe-1",
// written by probes/pingpong, probes/stream and probes/jitter).
#include "labgate/measure/probe_output.h"

#include <nlohmann/json.hpp>

namespace labgate::measure {
namespace {

using nlohmann::json;

/// Reads members of one object, naming the full path of whatever is wrong.
class Reader {
 public:
  Reader(const json& j, std::string probe, std::string path = "")
      : j_(j), probe_(std::move(probe)), path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw ProbeOutputError(probe_ + " output: '" + path_ + key + "' " + what, false);
  }
  const json& at(const std::string& key) const {
    auto it = j_.find(key);
    if (it == j_.end()) fail(key, "is missing");
    return *it;
  }
  bool has(const std::string& key) const { return j_.contains(key); }
  Reader object(const std::string& key) const {
    if (!at(key).is_object()) fail(key, "is not an object");
    return Reader(at(key), probe_, path_ + key + ".");
  }
  const json& array(const std::string& key) const {
    if (!at(key).is_array()) fail(key, "is not an array");
    return at(key);
  }
  std::string str(const std::string& key) const {
    if (!at(key).is_string()) fail(key, "is not a string");
    return at(key).get<std::string>();
  }
  double num(const std::string& key) const {
    if (!at(key).is_number()) fail(key, "is not a number");
    return at(key).get<double>();
  }
  std::uint64_t count(const std::string& key) const {
    if (!at(key).is_number_unsigned()) fail(key, "is not an unsigned integer");
    return at(key).get<std::uint64_t>();
  }
  int integer(const std::string& key) const {
    if (!at(key).is_number_integer()) fail(key, "is not an integer");
    return at(key).get<int>();
  }
  const json& raw() const { return j_; }
  const std::string& probe() const { return probe_; }
  std::string path() const { return path_; }

 private:
  const json& j_;
  std::string probe_;
  std::string path_;
};

std::string flat(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

/// parameters, clock and memory: what the run was and where.
void read_environment(const Reader& r, Measurement& m) {
  const Reader params = r.object("parameters");
  for (const auto& [k, v] : params.raw().items()) m.parameters[k] = flat(v);
  const Reader clock = r.object("clock");
  m.parameters["clock_source"] = clock.str("source");
  m.parameters["timer_cost_ns"] = flat(clock.at("timer_cost_ns"));
  const Reader memory = r.object("memory");
  m.parameters["max_rss_kb"] = flat(memory.at("max_rss_kb"));
  m.parameters["max_rss_source"] = memory.str("source");
  m.parameters["probe"] = r.probe();
  m.warmup_s = r.num("warmup_excluded_s");
}

/// Warns when the CPU placement asked for is not what the run got.
void check_cpu(const Reader& params, Measurement& m) {
  const int asked = params.integer("cpu_asked");
  const int actual = params.integer("cpu_actual");
  const int end = params.integer("cpu_actual_end");
  if (asked >= 0 && (actual != asked || end != asked))
    m.warnings.push_back("asked for CPU " + std::to_string(asked) + " but ran on CPU " +
                         std::to_string(actual) + (end != actual ? " then " + std::to_string(end) : ""));
}

stats::Histogram read_histogram(const Reader& r) {
  try {
    return stats::Histogram::from_json(r.at("histogram"));
  } catch (const std::invalid_argument& e) {
    throw ProbeOutputError(r.probe() + " output: '" + r.path() + "histogram': " + e.what(), false);
  } catch (const nlohmann::json::exception& e) {
    // A member of the wrong type (found by fuzzing): the same clear error.
    throw ProbeOutputError(r.probe() + " output: '" + r.path() + "histogram': " + e.what(), false);
  }
}

std::vector<Interval> read_series(const Reader& r, Measurement& m) {
  const Reader s = r.object("series");
  std::vector<Interval> out;
  const json& items = s.array("intervals");
  for (std::size_t n = 0; n < items.size(); ++n) {
    if (!items[n].is_object()) s.fail("intervals[" + std::to_string(n) + "]", "is not an object");
    const Reader i(items[n], r.probe(), s.path() + "intervals[" + std::to_string(n) + "].");
    out.push_back({i.num("start_s"), i.num("length_s"), i.count("count"), i.count("p50_ns"),
                   i.count("p99_ns"), i.count("max_ns")});
  }
  if (s.count("not_kept") > 0)
    m.warnings.push_back("the run outlasted its planned series: " + std::to_string(s.count("not_kept")) +
                         " intervals were not kept");
  return out;
}

/// The checks every client output shares: schema, role, and the probe's verdict.
std::string read_header(const Reader& r) {
  if (r.str("format") != "labgate-probe-1") r.fail("format", "is not \"labgate-probe-1\"");
  const std::string probe = r.str("probe");
  if (probe != "pingpong" && probe != "stream" && probe != "jitter")
    r.fail("probe", "is '" + probe + "', not pingpong, stream or jitter");
  if (r.has("event"))
    throw ProbeOutputError(
        probe + " output: this is the server's '" + r.str("event") + "' line, not a client result", false);
  if (probe != "jitter" && r.str("role") != "client")
    throw ProbeOutputError(
        probe + " output: this is the " + r.str("role") + "'s summary, not the client's result", false);
  if (r.str("status") == "error")
    throw ProbeOutputError(
        probe + (probe == "jitter" ? "" : " client") + " could not measure: " + r.str("error"), true);
  if (r.str("status") != "ok") r.fail("status", "is neither \"ok\" nor \"error\"");
  return probe;
}

/// What pingpong and stream clients share: kind (one of two), environment, CPU,
/// histogram, series and the measured phase's counters (`lost_key` names the
/// counter of messages that never arrived).
Measurement client_base(const Reader& r, Metric metric, const char* tcp_kind, const char* udp_kind,
                        const char* lost_key) {
  Measurement m;
  m.source = "builtin";
  m.metric = metric;
  m.kind = r.str("kind");
  if (m.kind != tcp_kind && m.kind != udp_kind)
    r.fail("kind", "is '" + m.kind + "', expected " + tcp_kind + " or " + udp_kind);
  read_environment(r, m);
  check_cpu(r.object("parameters"), m);
  m.duration_s = r.num("duration_s");
  m.histogram = read_histogram(r);
  m.series = read_series(r, m);
  const Reader c = r.object("counters").object("measured");
  m.sent = c.count("sent");
  m.received = c.count("received");
  m.dropped = c.count(lost_key);
  m.out_of_order = c.count("out_of_order");
  m.counts_drops = m.kind == udp_kind;  // TCP cannot lose a message, it retransmits
  return m;
}

Measurement read_pingpong(const Reader& r) {
  Measurement m = client_base(r, Metric::kRoundTrip, "tcp_rr", "udp_rr", "dropped");
  const Reader c = r.object("counters").object("measured");
  m.duplicated = c.count("duplicated");
  m.reported["late"] = static_cast<double>(c.count("late"));
  m.reported["invalid"] = static_cast<double>(c.count("invalid"));
  if (m.histogram.count() != m.received)
    r.fail("histogram", "holds " + std::to_string(m.histogram.count()) +
                            " round trips but counters.measured says " + std::to_string(m.received) +
                            " were received");
  if (m.kind == "udp_rr" && m.sent > 0)
    m.loss_fraction = static_cast<double>(m.dropped) / static_cast<double>(m.sent);
  if (c.count("late") > 0)
    m.warnings.push_back(std::to_string(c.count("late")) +
                         " replies came after the receive timeout (counted dropped)");
  if (c.count("invalid") > 0)
    m.warnings.push_back(std::to_string(c.count("invalid")) + " datagrams were not replies to this run");
  return m;
}

Measurement read_stream(const Reader& r) {
  Measurement m = client_base(r, Metric::kSendTime, "tcp_stream", "udp_stream", "lost");
  const Reader c = r.object("counters").object("measured");
  m.reported["send_errors"] = static_cast<double>(c.count("send_errors"));
  m.throughput_bps = r.num("throughput_bps");
  m.reported["send_throughput_bps"] = r.num("send_throughput_bps");
  if (m.kind == "udp_stream") m.loss_fraction = r.num("loss_fraction");
  if (m.histogram.count() != m.sent)
    r.fail("histogram", "holds " + std::to_string(m.histogram.count()) +
                            " sends but counters.measured says " + std::to_string(m.sent));
  return m;
}

std::vector<Measurement> read_jitter(const Reader& r) {
  Measurement base;
  base.source = "builtin";
  base.metric = Metric::kClockGap;
  base.kind = "jitter";
  read_environment(r, base);
  std::vector<Measurement> out;
  const json& cpus = r.array("per_cpu");
  if (cpus.empty()) r.fail("per_cpu", "is empty");
  for (std::size_t n = 0; n < cpus.size(); ++n) {
    if (!cpus[n].is_object()) r.fail("per_cpu[" + std::to_string(n) + "]", "is not an object");
    const Reader c(cpus[n], r.probe(), "per_cpu[" + std::to_string(n) + "].");
    Measurement m = base;
    m.cpu = c.integer("cpu_asked");
    m.parameters["cpu_asked"] = std::to_string(m.cpu);
    m.parameters["cpu_actual"] = std::to_string(c.integer("cpu_actual"));
    m.parameters["cpu_actual_end"] = std::to_string(c.integer("cpu_actual_end"));
    m.parameters["cpu_actual_source"] = c.str("cpu_actual_source");
    check_cpu(c, m);
    m.duration_s = c.num("duration_s");
    m.histogram = read_histogram(c);
    m.series = read_series(c, m);
    const json& events = c.array("events");
    for (std::size_t e = 0; e < events.size(); ++e) {
      const Reader ev(events[e], r.probe(), c.path() + "events[" + std::to_string(e) + "].");
      m.events.push_back({ev.num("at_s"), ev.count("gap_ns"), m.cpu});
    }
    m.reported["over_threshold"] = static_cast<double>(c.count("over_threshold"));
    m.reported["events_not_listed"] = static_cast<double>(c.count("events_not_listed"));
    if (m.histogram.count() != c.count("samples"))
      c.fail("histogram", "holds " + std::to_string(m.histogram.count()) + " gaps but samples says " +
                              std::to_string(c.count("samples")));
    out.push_back(std::move(m));
  }
  return out;
}

json parse_document(std::string_view text, std::size_t max_bytes, const char* what) {
  if (text.size() > max_bytes)
    throw ProbeOutputError(std::string(what) + " is " + std::to_string(text.size()) +
                               " bytes, over the limit of " + std::to_string(max_bytes),
                           false);
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    std::string start(text.substr(0, 80));
    throw ProbeOutputError(
        std::string(what) + " is not one JSON document (" + e.what() + "); it begins: \"" + start + "\"",
        false);
  } catch (const json::out_of_range& e) {  // a number no double holds, e.g. 1E400 (found by fuzzing)
    throw ProbeOutputError(std::string(what) + " is not usable JSON (" + e.what() + ")", false);
  }
}

}  // namespace

std::vector<Measurement> parse_probe_output(std::string_view text, const ParseContext& ctx) {
  const json j = parse_document(text, ctx.max_bytes, "probe output");
  if (!j.is_object()) throw ProbeOutputError("probe output: the document is not a JSON object", false);
  const std::string probe = read_header(Reader(j, "probe"));
  const Reader r(j, probe);
  std::vector<Measurement> out;
  if (probe == "jitter")
    out = read_jitter(r);
  else
    out.push_back(probe == "pingpong" ? read_pingpong(r) : read_stream(r));
  for (Measurement& m : out) {
    m.host = ctx.host;
    m.peer = ctx.peer;
  }
  return out;
}

ListeningLine parse_listening_line(std::string_view line) {
  const json j = parse_document(line, 4096, "probe server's first line");
  // Not j.value(): an "event" that is not a string would throw json's type_error.
  const bool listening = j.is_object() && j.contains("event") && j["event"].is_string() &&
                         j["event"].get<std::string>() == "listening";
  if (!listening)
    throw ProbeOutputError(
        "probe server's first line is not a 'listening' event: " + std::string(line.substr(0, 200)), false);
  const Reader r(j, "probe server");
  ListeningLine l;
  l.probe = r.str("probe");
  l.proto = r.str("proto");
  l.address = r.str("address");
  l.port = r.integer("port");
  if (r.has("udp_port")) l.udp_port = r.integer("udp_port");
  if (l.port <= 0 || l.port > 65535) r.fail("port", "is not a port number");
  return l;
}

}  // namespace labgate::measure
