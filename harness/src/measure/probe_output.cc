// The built-in probes' JSON output -> Measurement (schema "labgate-probe-1",
// written by probes/pingpong, probes/stream and probes/jitter).
#include "labgate/measure/probe_output.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>

#include "labgate/util/json_reader.h"

namespace labgate::measure {
namespace {

using nlohmann::json;
using util::JsonReader;

std::string flat(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string thousands(double v) {
  std::string digits = std::to_string(static_cast<unsigned long long>(std::llround(std::max(0.0, v))));
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<std::size_t>(at), ",");
  return digits;
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

/// parameters, clock and memory: what the run was and where.
void read_environment(const JsonReader& r, const std::string& probe, Measurement& m) {
  const JsonReader params = r.object("parameters");
  for (const auto& [k, v] : params.json().items()) m.parameters[k] = flat(v);
  const JsonReader clock = r.object("clock");
  m.parameters["clock_source"] = clock.str("source");
  m.parameters["timer_cost_ns"] = flat(clock.any("timer_cost_ns"));
  const JsonReader memory = r.object("memory");
  m.parameters["max_rss_kb"] = flat(memory.any("max_rss_kb"));
  m.parameters["max_rss_source"] = memory.str("source");
  m.parameters["probe"] = probe;
  m.warmup_s = r.num("warmup_excluded_s");
}

/// Warns when the CPU placement asked for is not what the run got.
void check_cpu(const JsonReader& params, Measurement& m) {
  const int asked = params.integer("cpu_asked");
  const int actual = params.integer("cpu_actual");
  const int end = params.integer("cpu_actual_end");
  if (asked >= 0 && (actual != asked || end != asked))
    m.warnings.push_back("asked for CPU " + std::to_string(asked) + " but ran on CPU " +
                         std::to_string(actual) + (end != actual ? " then " + std::to_string(end) : ""));
}

/// An open loop (parameters.mode "open_loop", pingpong's requests or stream's
/// messages) must also have kept its schedule: rate x measured time are due,
/// however many the client managed to send.
void expect_schedule_kept(const JsonReader& params, double duration_s, SampleExpectation& e) {
  if (params.str_or("mode", "closed_loop") != "open_loop") return;
  const double planned = params.num("rate_per_s") * duration_s;
  if (planned <= e.expected) return;
  e.expected = planned;
  e.basis = "an open loop of " + thousands(params.num("rate_per_s")) + "/s for " + seconds(duration_s);
  e.shortfall_means = "the client could not keep its send schedule (it stalled)";
}

stats::Histogram read_histogram(const JsonReader& r) {
  r.object("histogram");  // names the path when it is not an object
  return stats::Histogram::from_json(r.any("histogram"), r.path_of("histogram"));
}

std::vector<Interval> read_series(const JsonReader& r, Measurement& m) {
  const JsonReader s = r.object("series");
  std::vector<Interval> out;
  const json& items = s.array("intervals");
  for (std::size_t n = 0; n < items.size(); ++n) {
    const JsonReader i = s.element("intervals", n);
    out.push_back({i.num("start_s"), i.num("length_s"), i.count("count"), i.count("p50_ns"), i.count("p99_ns"),
                   i.count("max_ns")});
  }
  m.series_origin_ns = s.opt_count("origin_ns");
  if (s.count("not_kept") > 0)
    m.warnings.push_back("the run outlasted its planned series: " + std::to_string(s.count("not_kept")) +
                         " intervals were not kept");
  return out;
}

/// What pingpong and stream clients share: kind (one of two), environment, CPU,
/// histogram, series and the measured phase's counters (`lost_key` names the
/// counter of messages that never arrived).
Measurement client_base(const JsonReader& r, const std::string& probe, Metric metric, const char* tcp_kind,
                        const char* udp_kind, const char* lost_key) {
  Measurement m;
  m.source = "builtin";
  m.metric = metric;
  m.kind = r.str("kind");
  if (m.kind != tcp_kind && m.kind != udp_kind)
    r.fail("kind", "is '" + m.kind + "', expected " + tcp_kind + " or " + udp_kind);
  read_environment(r, probe, m);
  check_cpu(r.object("parameters"), m);
  m.duration_s = r.num("duration_s");
  m.histogram = read_histogram(r);
  m.series = read_series(r, m);
  const JsonReader c = r.object("counters").object("measured");
  m.sent = c.count("sent");
  m.received = c.count("received");
  m.dropped = c.count(lost_key);
  m.out_of_order = c.count("out_of_order");
  // UDP is where a datagram can vanish, and the probes count each one that did.
  m.counts_drops = m.kind == udp_kind;
  return m;
}

Measurement read_pingpong(const JsonReader& r) {
  Measurement m = client_base(r, "pingpong", Metric::kRoundTrip, "tcp_rr", "udp_rr", "dropped");
  const JsonReader c = r.object("counters").object("measured");
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
  // Every request sent is a round trip in the histogram or a counted drop (one may
  // be in flight at the end); an open loop must also have kept its schedule.
  const JsonReader params = r.object("parameters");
  SampleExpectation e;
  e.held = static_cast<double>(m.histogram.count() + m.dropped);
  e.expected = static_cast<double>(m.sent);
  e.basis = thousands(e.expected) + " requests sent in " + seconds(m.duration_s);
  e.shortfall_means = "requests neither came back nor were counted as dropped";
  expect_schedule_kept(params, m.duration_s, e);
  e.basis += ", " + thousands(static_cast<double>(m.histogram.count())) + " round trips + " +
             thousands(static_cast<double>(m.dropped)) + " counted drops";
  if (e.expected <= 0) e.expected = 1;  // a measured phase without one request holds nothing: never a pass
  m.expectation = e;
  return m;
}

Measurement read_stream(const JsonReader& r) {
  Measurement m = client_base(r, "stream", Metric::kSendTime, "tcp_stream", "udp_stream", "lost");
  const JsonReader c = r.object("counters").object("measured");
  m.reported["send_errors"] = static_cast<double>(c.count("send_errors"));
  m.throughput_bps = r.num("throughput_bps");
  m.reported["send_throughput_bps"] = r.num("send_throughput_bps");
  if (m.kind == "udp_stream") {
    m.loss_fraction = r.num("loss_fraction");
    // After its measured window the client waits --drain for datagrams in flight
    // to land before it asks the receiver: the probe's own cool-down.
    m.cooldown_s = r.object("parameters").num("drain_s");
  }
  if (m.histogram.count() != m.sent)
    r.fail("histogram", "holds " + std::to_string(m.histogram.count()) + " sends but counters.measured says " +
                            std::to_string(m.sent));
  // A paced sender that fell behind caught up in a burst: the rate offered held
  // on average, but not datagram by datagram, which is worth saying beside a loss.
  const std::optional<long long> late = c.opt_int("late_sends");
  if (late && *late > 0) {
    m.reported["late_sends"] = static_cast<double>(*late);
    char lag[48];
    std::snprintf(lag, sizeof lag, "%.1f ms", static_cast<double>(c.opt_int("max_lag_ns").value_or(0)) / 1e6);
    m.warnings.push_back(thousands(static_cast<double>(*late)) + " of " + thousands(static_cast<double>(m.sent)) +
                         " sends left a period or more behind their schedule (up to " + lag +
                         " late): the sender was held up and caught up in bursts");
  }
  SampleExpectation e;
  e.held = static_cast<double>(m.histogram.count());
  e.expected = std::max<double>(1, static_cast<double>(m.sent));
  e.basis = thousands(static_cast<double>(m.sent)) + " sends counted in " + seconds(m.duration_s);
  e.shortfall_means = "send times were not recorded";
  expect_schedule_kept(r.object("parameters"), m.duration_s, e);
  m.expectation = e;
  return m;
}

std::vector<Measurement> read_jitter(const JsonReader& r) {
  Measurement base;
  base.source = "builtin";
  base.metric = Metric::kClockGap;
  base.kind = "jitter";
  read_environment(r, "jitter", base);
  std::vector<Measurement> out;
  const json& cpus = r.array("per_cpu");
  if (cpus.empty()) r.fail("per_cpu", "is empty");
  for (std::size_t n = 0; n < cpus.size(); ++n) {
    const JsonReader c = r.element("per_cpu", n);
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
      const JsonReader ev = c.element("events", e);
      m.events.push_back({ev.num("at_s"), ev.count("gap_ns"), m.cpu});
    }
    m.reported["over_threshold"] = static_cast<double>(c.count("over_threshold"));
    m.reported["events_not_listed"] = static_cast<double>(c.count("events_not_listed"));
    if (m.histogram.count() != c.count("samples"))
      c.fail("histogram", "holds " + std::to_string(m.histogram.count()) + " gaps but samples says " +
                              std::to_string(c.count("samples")));
    // Every clock read counted is a gap in the histogram. (The gaps do not add up
    // to the run: the probe's own recording between reads is not in them, ~14 %
    // of a 0.3 s run here, so covered time is shown, not judged.)
    SampleExpectation e;
    e.held = static_cast<double>(m.histogram.count());
    e.expected = std::max<double>(1, static_cast<double>(c.count("samples")));
    const double covered_s = static_cast<double>(m.histogram.sum()) / 1e9;
    char buf[96];
    std::snprintf(buf, sizeof buf, "; its gaps add up to %.3f s of the %.3f s measured", covered_s, m.duration_s);
    e.basis = thousands(e.expected) + " clock reads counted" + buf;
    e.shortfall_means = "clock reads the probe counted are missing from its histogram";
    m.expectation = e;
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
        std::string(what) + " is not one JSON document (" + e.what() + "); it begins: \"" + start + "\"", false);
  } catch (const json::out_of_range& e) {  // a number no double holds, e.g. 1E400 (found by fuzzing)
    throw ProbeOutputError(std::string(what) + " is not usable JSON (" + e.what() + ")", false);
  }
}

}  // namespace

ProbeDocument read_probe_document(std::string_view text, std::initializer_list<std::string_view> probes,
                                  const std::function<std::string(const std::string&)>& failed,
                                  std::size_t max_bytes) {
  std::string names;
  for (std::string_view p : probes) names += (names.empty() ? "" : " or ") + std::string(p);
  ProbeDocument d;
  d.json = parse_document(text, max_bytes, (names + " output").c_str());
  if (!d.json.is_object()) throw ProbeOutputError(names + " output: the document is not a JSON object", false);
  d.probe = read_probe_members(names, [&] {
    const JsonReader r(d.json, "");
    if (r.str("format") != "labgate-probe-1") r.fail("format", "is not \"labgate-probe-1\"");
    const std::string probe = r.str("probe");
    bool known = false;
    for (std::string_view p : probes) known = known || probe == p;
    if (!known) r.fail("probe", "is '" + probe + "', not " + names);
    if (r.has("event"))
      throw ProbeOutputError(
          probe + " output: this is the server's '" + flat(r.any("event")) + "' line, not a client result", false);
    // mcast's results are a publisher's and each subscriber's (multicast_output.cc).
    if (r.has("role") && r.str("role") != "client" && probe != "mcast")
      throw ProbeOutputError(probe + " output: this is the " + r.str("role") + "'s summary, not the client's result",
                             false);
    const std::string status = r.str("status");
    if (status == "error") throw ProbeOutputError(failed(probe) + ": " + r.str_or("error", "(no reason given)"), true);
    if (status != "ok") r.fail("status", "is neither \"ok\" nor \"error\"");
    return probe;
  });
  return d;
}

std::vector<Measurement> parse_probe_output(std::string_view text, const ParseContext& ctx) {
  const auto failed = [](const std::string& probe) {
    return probe + (probe == "jitter" ? "" : " client") + " could not measure";
  };
  const ProbeDocument d = read_probe_document(text, {"pingpong", "stream", "jitter"}, failed, ctx.max_bytes);
  std::vector<Measurement> out = read_probe_members(d.probe, [&] {
    const JsonReader r(d.json, "");
    std::vector<Measurement> ms;
    if (d.probe == "jitter")
      ms = read_jitter(r);
    else
      ms.push_back(d.probe == "pingpong" ? read_pingpong(r) : read_stream(r));
    return ms;
  });
  for (Measurement& m : out) {
    m.host = ctx.host;
    m.peer = ctx.peer;
  }
  return out;
}

ListeningLine parse_listening_line(std::string_view line) {
  const json j = parse_document(line, 4096, "probe server's first line");
  const bool listening = j.is_object() && j.contains("event") && j["event"].is_string() &&
                         j["event"].get<std::string>() == "listening";
  if (!listening)
    throw ProbeOutputError(
        "probe server's first line is not a 'listening' event: " + std::string(line.substr(0, 200)), false);
  return read_probe_members("probe server", [&] {
    const JsonReader r(j, "");
    ListeningLine l;
    l.probe = r.str("probe");
    l.proto = r.str("proto");
    l.address = r.str("address");
    l.port = r.integer("port");
    if (r.has("udp_port")) l.udp_port = r.integer("udp_port");
    if (l.port <= 0 || l.port > 65535) r.fail("port", "is not a port number");
    return l;
  });
}

}  // namespace labgate::measure
