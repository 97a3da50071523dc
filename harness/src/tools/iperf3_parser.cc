// iperf3 -J output -> one Measurement per direction data flowed: TCP and UDP
// throughput, UDP jitter and loss, -R filed as the server's send and --bidir as
// two flows. iperf3 reports a failed run inside the JSON ("error": "..."), not
// by its shape. Text logs (no -J) are read by iperf3_text.cc.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "iperf3_parts.h"
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

/// Seconds of the run's intervals outside --omit, for the flow whose interval
/// sum is `sum` ("sum", or "sum_bidir_reverse" for --bidir's return flow).
void count_intervals(const json& root, const char* sum, iperf3::Flow& f) {
  const json* intervals = at(root, {"intervals"});
  if (!intervals || !intervals->is_array()) return;
  double covered = 0;
  for (const json& i : *intervals)
    if (const json* sec = at(i, {sum, "seconds"}); sec && sec->is_number())
      if (const json* o = at(i, {sum, "omitted"}); !o || !o->is_boolean() || !o->get<bool>())
        covered += std::max(0.0, sec->get<double>());
  f.covered_s = covered;
  f.intervals = intervals->size();
}

/// A figure the JSON may lack or mark "not measured": nullopt then, never 0.
std::optional<double> optional_number(const json& root, std::initializer_list<std::string_view> path) {
  const json* v = at(root, path);
  if (!v || !v->is_number() || util::is_not_measured(v->get<double>())) return std::nullopt;
  return v->get<double>();
}

/// The keys of one flow's sums: "sum_sent" and "sum_received", with
/// "_bidir_reverse" for --bidir's return flow.
struct SumKeys {
  std::string sent, received, udp;
};

iperf3::Flow tcp_flow(const ToolText& t, const json& root, const SumKeys& k, bool by_server,
                      measure::Measurement& warn) {
  iperf3::Flow f;
  f.sent_by_server = by_server;
  f.received_bps = figure(t, root, {"end", k.received, "bits_per_second"}, warn);
  f.seconds = figure(t, root, {"end", k.received, "seconds"}, warn);
  f.sent_bps = figure(t, root, {"end", k.sent, "bits_per_second"}, warn);
  f.retransmits = optional_number(root, {"end", k.sent, "retransmits"});
  // The client's own TCP_INFO: meaningful only for the sockets it sent on
  // ("sender": true; before 3.7, every socket of a forward run). iperf3
  // prints 0 for a socket that only received: never a figure.
  if (const json* streams = at(root, {"end", "streams"}); streams && streams->is_array()) {
    double sum = 0;
    int n = 0, mine = 0;
    for (const json& s : *streams) {
      const json* own = at(s, {"sender", "sender"});
      const bool client_sent = own && own->is_boolean() ? own->get<bool>() : !by_server;
      if (client_sent == by_server) continue;  // a socket of the other flow (--bidir)
      ++mine;
      if (!client_sent) continue;
      if (auto rtt = optional_number(s, {"sender", "mean_rtt"}); rtt && *rtt > 0) {
        sum += *rtt;
        ++n;
      }
    }
    f.streams = std::max(1, mine);
    if (n > 0) f.srtt_us = sum / n;
  }
  return f;
}

iperf3::Flow udp_flow(const ToolText& t, const json& root, const SumKeys& k, bool by_server,
                      measure::Measurement& warn) {
  iperf3::Flow f;
  f.kind = TestKind::kUdpStream;
  f.sent_by_server = by_server;
  const std::string& sum = k.udp;
  f.packets = figure(t, root, {"end", sum, "packets"}, warn);
  f.lost = figure(t, root, {"end", sum, "lost_packets"}, warn);
  f.jitter_ms = figure(t, root, {"end", sum, "jitter_ms"}, warn);
  f.lost_percent = figure(t, root, {"end", sum, "lost_percent"}, warn);
  f.seconds = figure(t, root, {"end", sum, "seconds"}, warn);
  f.received_bps = at(root, {"end", k.received, "bits_per_second"})
                       ? figure(t, root, {"end", k.received, "bits_per_second"}, warn)
                       : figure(t, root, {"end", sum, "bits_per_second"}, warn);
  if (f.packets && *f.packets < 0)
    t.fail(line_of(t, {"end", sum, "packets"}), "iperf3 JSON: end." + sum + ".packets is negative");
  if (f.lost && *f.lost < 0) {
    // iperf3 counts reordered datagrams against loss and can end below zero.
    f.warnings.push_back("iperf3 reported " + std::to_string(static_cast<long long>(*f.lost)) +
                         " lost packets (reordering); counted as 0");
    f.lost = 0;
  }
  if (const json* streams = at(root, {"end", "streams"}); streams && streams->is_array()) {
    int mine = 0;
    for (const json& s : *streams) {
      const json* own = at(s, {"udp", "sender"});
      if (own && own->is_boolean() && own->get<bool>() == by_server) continue;  // the other flow's (--bidir)
      ++mine;
      if (const json* o = at(s, {"udp", "out_of_order"}); o && o->is_number_unsigned())
        f.out_of_order += o->get<std::uint64_t>();
    }
    f.streams = std::max(1, mine);
  }
  return f;
}

}  // namespace

std::vector<measure::Measurement> parse_iperf3_runs(const ToolText& t, const ParseOptions& options) {
  if (t.raw.empty()) t.fail(0, "empty: no iperf3 output");
  const std::size_t first = t.raw.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && t.raw[first] != '{' && t.raw[first] != '[')
    return iperf3::parse_text(t, options);
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
  iperf3::Run run;
  run.read_from = "-J";
  if (const json* v = at(root, {"start", "version"}); v && v->is_string()) {
    run.version = v->get<std::string>();
    if (!iperf3::known_version(*run.version))
      t.fail(line_of(t, {"start", "version"}),
             "iperf3 '" + *run.version + "' is a version labgate has not read (it reads " +
                 iperf3::kKnownVersions + ")",
             ParseFailure::kToolFailed);
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
  // The run's own start (Unix seconds): the one tool output that dates itself,
  // so an imported run is placed at the time it was measured.
  if (const json* when = at(root, {"start", "timestamp", "timesecs"}); when && when->is_number_integer() &&
                                                                       when->get<long long>() > 0)
    run.timesecs = when->dump();
  bool reverse = false;
  if (const json* ts = at(root, {"start", "test_start"}); ts && ts->is_object()) {
    for (const char* k : {"num_streams", "blksize", "duration", "reverse", "omit"})
      if (ts->contains(k) && (*ts)[k].is_number())
        run.parameters[std::string("iperf3.") + k] = (*ts)[k].dump();
    if (ts->contains("blksize") && (*ts)["blksize"].is_number()) run.blksize = (*ts)["blksize"].dump();
    if (ts->contains("omit") && (*ts)["omit"].is_number()) run.omit_s = (*ts)["omit"].get<double>();
    reverse = ts->value("reverse", 0) == 1;
  }
  // --bidir: 3.12 says so only by the return flow's sums (its test_start has no "bidir").
  const bool bidir = at(root, {"end", "sum_sent_bidir_reverse"}) || at(root, {"end", "sum_bidir_reverse"});
  measure::Measurement warned;  // "not measured" warnings, given to every flow
  std::vector<iperf3::Flow> flows;
  const auto read_flow = [&](const std::string& suffix, bool by_server) {
    const SumKeys k{"sum_sent" + suffix, "sum_received" + suffix, "sum" + suffix};
    iperf3::Flow f = profile::is_tcp(kind) ? tcp_flow(t, root, k, by_server, warned)
                                                  : udp_flow(t, root, k, by_server, warned);
    f.bidir = bidir;
    count_intervals(root, k.udp.c_str(), f);
    f.client_seconds = optional_number(
        root, {"end", iperf3::client_time_is_senders(by_server, bidir) ? k.sent : k.received, "seconds"});
    flows.push_back(std::move(f));
  };
  read_flow("", reverse);
  if (bidir) read_flow("_bidir_reverse", true);
  std::vector<measure::Measurement> out;
  for (iperf3::Flow& f : flows) {
    f.warnings.insert(f.warnings.begin(), warned.warnings.begin(), warned.warnings.end());
    out.push_back(iperf3::to_measurement(run, f));
  }
  return out;
}

measure::Measurement parse_iperf3(const ToolText& t, const ParseOptions& options) {
  std::vector<measure::Measurement> flows = parse_iperf3_runs(t, options);
  if (flows.size() != 1)
    t.fail(1, "iperf3 --bidir output holds " + std::to_string(flows.size()) +
                  " directions, each its own measurement: import it with --results (one pair each)");
  return std::move(flows.front());
}

std::vector<RateInterval> iperf3_intervals(const std::string& json_text) {
  std::vector<RateInterval> out;
  const json root = json::parse(json_text, nullptr, false);
  const json* intervals = root.is_object() ? at(root, {"intervals"}) : nullptr;
  if (!intervals || !intervals->is_array()) return out;
  for (const json& i : *intervals) {
    const json* sec = at(i, {"sum", "seconds"});
    const json* bps = at(i, {"sum", "bits_per_second"});
    if (!sec || !bps || !sec->is_number() || !bps->is_number()) continue;
    const json* o = at(i, {"sum", "omitted"});
    out.push_back({sec->get<double>(), bps->get<double>(), o && o->is_boolean() && o->get<bool>()});
  }
  return out;
}

}  // namespace labgate::tools
