// iperf3 -J output -> Measurement: TCP and UDP throughput, UDP jitter and loss.
// iperf3 reports a failed run inside the JSON ("error": "..."), not by its shape.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

#include "labgate/tools/parsers.h"
#include "labgate/util/json_reader.h"
#include "labgate/util/not_measured.h"
#include "text_scan.h"

namespace labgate::tools {

namespace {

using nlohmann::json;
using profile::TestKind;

int line_of_byte(const std::string& raw, std::size_t byte) {
  const std::size_t end = std::min(byte, raw.size());
  int line = 1;
  for (std::size_t k = 0; k < end; ++k)
    if (raw[k] == '\n') ++line;
  return line;
}

/// The line where a JSON path is written, found textually (iperf3 pretty-prints
/// one member per line). The first member must open an object or array, which
/// tells the top-level "end" apart from the numeric "end" of every interval.
int line_of(const ToolText& t, std::initializer_list<std::string_view> path) {
  std::size_t from = 0;
  int found = 1;
  bool first = true;
  for (std::string_view seg : path) {
    const std::string key = "\"" + std::string(seg) + "\":";
    bool hit = false;
    // First pass for a top-level member: only a line that opens an object or array.
    for (int pass = first ? 0 : 1; pass < 2 && !hit; ++pass) {
      for (std::size_t i = from; i < t.lines.size() && !hit; ++i) {
        const std::size_t at = t.lines[i].find(key);
        if (at == std::string::npos) continue;
        const std::string_view rest = scan::trim(std::string_view(t.lines[i]).substr(at + key.size()));
        if (pass == 0 && (rest.empty() || (rest.front() != '{' && rest.front() != '['))) continue;
        found = static_cast<int>(i + 1);
        from = i + 1;
        hit = true;
      }
    }
    if (!hit) break;  // the closest enclosing member is the best place to point at
    first = false;
  }
  return found;
}

std::string dotted(std::initializer_list<std::string_view> path) {
  std::string s;
  for (auto seg : path) s += (s.empty() ? "" : ".") + std::string(seg);
  return s;
}

const json* at(const json& root, std::initializer_list<std::string_view> path) {
  const json* j = &root;
  for (auto seg : path) {
    if (!j->is_object()) return nullptr;
    auto it = j->find(std::string(seg));
    if (it == j->end()) return nullptr;
    j = &*it;
  }
  return j;
}

/// A required number, read through the one path-naming reader (util::JsonReader);
/// its error names the path, and the line iperf3 wrote it on.
double number(const ToolText& t, const json& root, std::initializer_list<std::string_view> path) {
  try {
    std::optional<util::JsonReader> r;
    r.emplace(root, "");
    const std::string_view* seg = path.begin();
    for (; seg + 1 < path.end(); ++seg) r.emplace(r->object(std::string(*seg).c_str()));
    return r->num(std::string(*seg).c_str());
  } catch (const std::invalid_argument& e) {
    t.fail(line_of(t, path), "iperf3 JSON: " + dotted(path) + " is missing or not a number (" + e.what() +
                                 "; not the output of a finished test?)");
  }
}

/// A required figure, or nullopt with a warning when iperf3 wrote a "not
/// measured" marker there (-1, INT_MIN, ...): it never becomes a number.
std::optional<double> figure(const ToolText& t, const json& root, std::initializer_list<std::string_view> path,
                             measure::Measurement& m) {
  const double v = number(t, root, path);
  if (util::is_not_measured(v)) {
    m.warnings.push_back(util::not_measured_warning("line " + std::to_string(line_of(t, path)), "iperf3",
                                                    dotted(path), at(root, path)->dump()));
    return std::nullopt;
  }
  return v;
}

/// Sample accounting for a stream: the intervals iperf3 reported must cover the
/// time it says it measured (a stalled or cut-short run reports fewer).
void interval_expectation(const json& root, measure::Measurement& m) {
  const json* intervals = at(root, {"intervals"});
  if (!intervals || !intervals->is_array() || m.duration_s <= 0) return;
  double covered = 0;
  for (const json& i : *intervals)
    if (const json* sec = at(i, {"sum", "seconds"}); sec && sec->is_number())
      if (const json* o = at(i, {"sum", "omitted"}); !o || !o->is_boolean() || !o->get<bool>())
        covered += std::max(0.0, sec->get<double>());
  measure::SampleExpectation e;
  e.expected = m.duration_s;
  e.held = std::min(covered, m.duration_s * 2);
  char buf[128];
  std::snprintf(buf, sizeof buf, "seconds of intervals: %.3f s measured, its %zu intervals cover %.3f s", m.duration_s,
                intervals->size(), covered);
  e.basis = buf;
  e.shortfall_means = "iperf3 reported no interval for part of the run (it stalled or was cut short)";
  m.expectation = e;
}

void tcp_results(const ToolText& t, const json& root, measure::Measurement& m) {
  m.throughput_bps = figure(t, root, {"end", "sum_received", "bits_per_second"}, m);
  m.duration_s = figure(t, root, {"end", "sum_received", "seconds"}, m).value_or(0);
  if (auto sender = figure(t, root, {"end", "sum_sent", "bits_per_second"}, m))
    m.parameters["iperf3.sender_bps"] = std::to_string(*sender);
  if (const json* r = at(root, {"end", "sum_sent", "retransmits"});
      r && r->is_number() && !util::is_not_measured(r->get<double>())) {
    m.reported["retransmits"] = r->get<double>();
    m.parameters["iperf3.retransmits"] = std::to_string(r->get<long long>());
  }
  if (const json* streams = at(root, {"end", "streams"});
      streams && streams->is_array() && !streams->empty()) {
    // The kernel's smoothed TCP RTT estimate, kept for context only: it is not a per-message round trip.
    if (const json* rtt = at((*streams)[0], {"sender", "mean_rtt"});
        rtt && rtt->is_number() && !util::is_not_measured(rtt->get<double>()))
      m.parameters["iperf3.tcp_srtt_mean_us"] = std::to_string(rtt->get<long long>());
  }
  interval_expectation(root, m);
}

void udp_results(const ToolText& t, const json& root, measure::Measurement& m) {
  const auto packets = figure(t, root, {"end", "sum", "packets"}, m);
  auto lost = figure(t, root, {"end", "sum", "lost_packets"}, m);
  const auto jitter_ms = figure(t, root, {"end", "sum", "jitter_ms"}, m);
  const auto lost_percent = figure(t, root, {"end", "sum", "lost_percent"}, m);
  m.duration_s = figure(t, root, {"end", "sum", "seconds"}, m).value_or(0);
  m.throughput_bps = at(root, {"end", "sum_received", "bits_per_second"})
                         ? figure(t, root, {"end", "sum_received", "bits_per_second"}, m)
                         : figure(t, root, {"end", "sum", "bits_per_second"}, m);
  if (packets && *packets < 0)
    t.fail(line_of(t, {"end", "sum", "packets"}), "iperf3 JSON: end.sum.packets is negative");
  if (lost && *lost < 0) {
    // iperf3 counts reordered datagrams against loss and can end below zero.
    m.warnings.push_back("iperf3 reported " + std::to_string(static_cast<long long>(*lost)) +
                         " lost packets (reordering); counted as 0");
    lost = 0;
  }
  if (packets && lost) {
    m.counts_drops = true;  // iperf3's receiver counts missing sequence numbers
    m.sent = static_cast<std::uint64_t>(*packets);
    m.dropped = static_cast<std::uint64_t>(*lost);
    m.received = m.sent > m.dropped ? m.sent - m.dropped : 0;
    if (*packets > 0)
      m.loss_fraction = *lost / *packets;
    else if (lost_percent)
      m.loss_fraction = *lost_percent / 100.0;
  }
  if (jitter_ms) m.reported["jitter"] = *jitter_ms * 1e6;
  m.parameters["iperf3.jitter"] = "RFC 3550 interarrival jitter at the receiver, in reported.jitter (ns)";
  if (const json* streams = at(root, {"end", "streams"}); streams && streams->is_array()) {
    std::uint64_t ooo = 0;
    for (const json& s : *streams)
      if (const json* o = at(s, {"udp", "out_of_order"}); o && o->is_number_unsigned())
        ooo += o->get<std::uint64_t>();
    m.out_of_order = ooo;
  }
  interval_expectation(root, m);
}

}  // namespace

measure::Measurement parse_iperf3(const ToolText& t, const ParseOptions& options) {
  if (t.raw.empty()) t.fail(0, "empty: no iperf3 output");
  json root;
  try {
    root = json::parse(t.raw);
  } catch (const json::parse_error& e) {
    const int ln = line_of_byte(t.raw, e.byte ? e.byte - 1 : 0);
    t.fail(ln, "not iperf3 -J output: invalid JSON near " + t.quote(ln) + " (truncated, or run without -J?)");
  } catch (const json::out_of_range& e) {  // a number no double holds, e.g. 1E400 (found by fuzzing)
    t.fail(1, std::string("not iperf3 -J output: ") + e.what());
  }
  if (!root.is_object() || !root.contains("start"))
    t.fail(1, "not iperf3 -J output: no top-level \"start\" object");
  if (const json* err = at(root, {"error"})) {
    const std::string msg = err->is_string() ? err->get<std::string>() : err->dump();
    const bool unreachable =
        scan::contains_nocase(msg, "unable to connect") || scan::contains_nocase(msg, "connection refused");
    t.fail(line_of(t, {"error"}), "iperf3 reported an error: " + msg,
           unreachable ? ParseFailure::kServerUnreachable : ParseFailure::kToolFailed);
  }
  const json* proto = at(root, {"start", "test_start", "protocol"});
  if (!proto || !proto->is_string())
    t.fail(line_of(t, {"start", "test_start"}), "iperf3 JSON: start.test_start.protocol is missing");
  const std::string p = proto->get<std::string>();
  if (p != "TCP" && p != "UDP")
    t.fail(line_of(t, {"start", "test_start", "protocol"}),
           "iperf3 protocol '" + p + "' has no labgate kind (TCP or UDP)");
  const TestKind kind = p == "TCP" ? TestKind::kTcpStream : TestKind::kUdpStream;
  if (options.kind && *options.kind != kind)
    t.fail(line_of(t, {"start", "test_start", "protocol"}),
           std::string("this is a ") + profile::to_string(kind) + " run (iperf3 measures streams), not the " +
               profile::to_string(*options.kind) + " that was asked for");

  measure::Measurement m;
  m.source = "iperf3";
  m.kind = profile::to_string(kind);
  m.metric = measure::Metric::kSendTime;
  m.parameters["tool"] = "iperf3";
  m.parameters["latency"] = "none: iperf3 measures throughput and loss, not per-message latency";
  if (const json* v = at(root, {"start", "version"}); v && v->is_string())
    m.parameters["iperf3.version"] = v->get<std::string>();
  // The run's own start (Unix seconds): the one tool output that dates itself,
  // so an imported run is placed at the time it was measured.
  if (const json* when = at(root, {"start", "timestamp", "timesecs"}); when && when->is_number_integer() &&
                                                                       when->get<long long>() > 0)
    m.parameters["iperf3.timesecs"] = when->dump();
  if (const json* ts = at(root, {"start", "test_start"}); ts && ts->is_object()) {
    for (const char* k : {"num_streams", "blksize", "duration", "reverse", "omit"})
      if (ts->contains(k) && (*ts)[k].is_number()) m.parameters[std::string("iperf3.") + k] = (*ts)[k].dump();
    if (ts->contains("blksize") && (*ts)["blksize"].is_number())
      m.parameters["message_size"] = (*ts)["blksize"].dump();
    if (ts->contains("omit") && (*ts)["omit"].is_number()) m.warmup_s = (*ts)["omit"].get<double>();
    if (ts->value("reverse", 0) == 1)
      m.parameters["direction"] = "reverse: the server sent, the client received";
  }
  if (kind == TestKind::kTcpStream)
    tcp_results(t, root, m);
  else
    udp_results(t, root, m);
  m.parameters["warmup"] = "iperf3 --omit: the first seconds are sent but not counted";
  return m;
}

}  // namespace labgate::tools
