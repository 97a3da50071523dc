// Why the tail of one built-in round-trip case: the watch's command and the
// attribution of the case's outliers (see tail_case.h).
#include "labgate/gate/tail_case.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <vector>

#include "labgate/measure/probe_command.h"
#include "labgate/tail/attribute.h"
#include "labgate/util/clock_anchor.h"

namespace labgate::gate {

using nlohmann::json;
using namespace std::chrono_literals;

std::optional<json> last_doc_with(const std::string& out, const char* member) {
  std::size_t end = out.size();
  while (end > 0) {
    const std::size_t start = out.rfind('\n', end - 1);
    const std::size_t from = start == std::string::npos ? 0 : start + 1;
    const std::string line = out.substr(from, end - from);
    if (line.find(member) != std::string::npos) {
      json doc = json::parse(line, nullptr, false);
      if (doc.is_object() && doc.contains(member)) return doc;
    }
    if (start == std::string::npos) break;
    end = start;
  }
  return std::nullopt;
}

namespace {

/// What a probe could not record about its outliers, as limits of its host.
void source_limits(const tail::OutlierSet& s, const std::string& host, std::vector<std::string>& limits) {
  const std::pair<const char*, const std::string*> sources[] = {{"CPU before/after", &s.cpu_source},
                                                                {"context switches", &s.switches_source},
                                                                {"socket wait", &s.sock_wait_source}};
  for (const auto& [what, src] : sources)
    if (src->rfind("not available", 0) == 0) limits.push_back("host " + host + ": " + what + ": " + *src);
}

/// A probe whose socket waits compare the kernel's arrival stamp (realtime as
/// it is) with its read time carried over with its clock anchor (the pingpong
/// server) has each off by a realtime step during the run: none is used then,
/// the time from arrival falls back to the turnaround from the read (two
/// monotonic stamps), and the source says why.
void forget_stepped_socket_waits(tail::OutlierSet& set, const json& anchor, const std::string& host) {
  const std::optional<std::int64_t> step = util::realtime_step(anchor, "anchor");
  if (!step) return;
  for (tail::OutlierRecord& r : set.items) {
    if (set.from_arrival && r.sock_wait_ns) r.value_ns -= std::min(*r.sock_wait_ns, r.value_ns);
    r.sock_wait_ns.reset();
  }
  set.from_arrival = false;
  set.sock_wait_source = "not available: " + util::realtime_step_said("host " + host + "'s", *step) +
                         ", and each wait compares the kernel's arrival stamp with a read time carried over "
                         "with the tie of before";
}

std::optional<tail::OutlierSet> read_outliers(const TailSide& s, const char* member, const std::string& who,
                                              std::vector<std::string>& limits) {
  const std::optional<json> doc = last_doc_with(s.probe_out, member);
  if (!doc) {
    limits.push_back("host " + s.host + ": " + who + " outliers: not available: the probe printed none");
    return std::nullopt;
  }
  try {
    tail::OutlierSet set = tail::parse_outliers(*doc, member, who);
    set.from_arrival = doc->value("turnaround_from", json()) == "arrival";
    if (doc->contains("anchor")) forget_stepped_socket_waits(set, (*doc)["anchor"], s.host);
    source_limits(set, s.host, limits);
    return set;
  } catch (const std::invalid_argument& e) {
    limits.push_back("host " + s.host + ": " + who + " outliers: not available: " + e.what());
    return std::nullopt;
  }
}

/// The watch's document (the line that opens as one; the rest is its stderr).
std::optional<tail::WatchOutput> read_watch(const TailSide& s, std::string& why) {
  if (!s.watch_missing.empty()) {
    why = s.watch_missing;
    return std::nullopt;
  }
  if (!s.watch) {
    why = "the command ended before the watch printed anything";
    return std::nullopt;
  }
  const std::string& text = *s.watch;
  const std::size_t at = text.rfind("{\"format\"");
  std::string rest = text;
  if (at != std::string::npos && (at == 0 || text[at - 1] == '\n')) {
    const std::size_t nl = text.find('\n', at);
    try {
      return tail::parse_watch(text.substr(at, nl == std::string::npos ? nl : nl - at), s.host);
    } catch (const std::invalid_argument& e) {
      why = e.what();
      return std::nullopt;
    }
  }
  while (!rest.empty() && rest.back() == '\n') rest.pop_back();
  why = "the watch exited " + std::to_string(s.watch_status) + " without its document" +
        (rest.empty() ? std::string() : ": " + rest.substr(0, 300));
  return std::nullopt;
}

/// One host's watch, read for the attribution: "hosts"[host] says whether it
/// saw the host, and a watch that did not, or kept only the run's end, is a limit.
std::optional<tail::WatchOutput> host_watch(const TailSide& side, json& hosts, std::vector<std::string>& limits) {
  std::string why;
  std::optional<tail::WatchOutput> w = read_watch(side, why);
  if (!w) {
    hosts[side.host] = {{"watch", "not available: " + why}};
    limits.push_back("host " + side.host + ": noise watch: not available: " + why);
    return w;
  }
  hosts[side.host] = {{"watch", "ok"}, {"cpus", w->cpus}, {"windows", w->windows.size()}};
  if (!w->placement.empty()) hosts[side.host]["placement"] = w->placement;
  // Every CPU measured (or none pinned): the watch woke up among them, every
  // interval, and its own runs are never named as a cause.
  if (w->placement.rfind("on the watched CPUs", 0) == 0)
    limits.push_back("host " + side.host + ": noise watch: it ran " + w->placement +
                     ": its own wake-ups (every 10 ms) are in the measured figures, never named as a cause");
  // Its ring keeps the last --keep windows (60 s at 10 ms): a longer test's
  // early outliers were not watched, and are unexplained for that reason.
  if (std::string l = tail::kept_limit(*w, "outliers before that are unexplained"); !l.empty())
    limits.push_back(l);
  return w;
}

/// run.json's "tail": the attribution with every limit (its own, but "no noise
/// watch output" of a host, whose reason host_watch put among `limits`), the
/// hosts' watches and the typical sample it was judged against.
json tail_document(const tail::Attribution& a, std::vector<std::string> limits, const json& hosts,
                   std::uint64_t typical_ns) {
  for (const std::string& l : a.limits)
    if (l.find("no noise watch output") == std::string::npos) limits.push_back(l);
  json j = tail::to_json(a);
  j["limits"] = limits;
  j["hosts"] = hosts;
  j["typical_ns"] = typical_ns;
  return j;
}

/// The one-way record's offset between the hosts' monotonic clocks, when it
/// found one (measure/one_way.h), whether or not its figures were reported:
/// a bound of microseconds places 10-ms watch windows either way.
std::optional<tail::ClockOffset> monotonic_offset(const json& one_way) {
  if (!one_way.is_object()) return std::nullopt;
  const auto ns = one_way.find("monotonic_offset_ns"), bound = one_way.find("bound_ns");
  if (ns == one_way.end() || bound == one_way.end() || !ns->is_number_integer() ||
      !bound->is_number_integer() || bound->get<std::int64_t>() < 0)
    return std::nullopt;
  std::string from = "the one-way estimator's exchange of the shortest round trip";
  if (const auto ex = one_way.find("from_exchange"); ex != one_way.end() && ex->is_object())
    from += " (request " + ex->value("seq", json(0)).dump() + ")";
  return tail::ClockOffset{ns->get<std::int64_t>(), bound->get<std::uint64_t>(), from};
}

/// Samples of one host (a jitter CPU's clock gaps, a stream receiver's gaps)
/// against that host's watch: no server, no wire, nothing said of another host.
tail::AttributionInput one_host_input(const tail::OutlierSet& set, const std::optional<tail::WatchOutput>& watch,
                                      const std::string& host, std::uint64_t typical,
                                      std::vector<std::string> own) {
  tail::AttributionInput in;
  in.client = &set;
  in.watch_client = watch ? &*watch : nullptr;
  in.client_host = host;
  in.one_host = true;
  in.samples = "gaps";
  in.typical_ns = typical;
  in.own_comms = std::move(own);
  return in;
}

}  // namespace

std::optional<NoiseWatch> noise_watch(GateSession& session, const TestCase& c, const std::string& host,
                                      std::optional<int> cpu, std::string& why) {
  try {
    // Its own deadline outlives the probe's (the server's idle wait included):
    // SIGTERM from the shell line ends it first.
    const auto backstop = measure::probe_client_timeout(*c.spec) + 40s;
    return NoiseWatch{session.probe(host, "watch"), cpu ? std::to_string(*cpu) : "",
                      measure::exact_duration(backstop)};
  } catch (const std::exception& e) {
    why = std::string("the watch probe could not be installed: ") + e.what();
    return std::nullopt;
  }
}

json explain_tail(const TailSide& client, const TailSide& server, std::uint64_t typical_ns,
                  std::optional<int> server_cpu, const json& one_way) {
  std::vector<std::string> limits;
  json hosts = json::object();
  std::optional<tail::WatchOutput> watches[2] = {host_watch(client, hosts, limits),
                                                 host_watch(server, hosts, limits)};
  const std::optional<tail::OutlierSet> cl = read_outliers(client, "outliers", "client", limits);
  const std::optional<tail::OutlierSet> sv = read_outliers(server, "turnaround_outliers", "server", limits);
  tail::Attribution a;
  if (cl) {
    tail::AttributionInput in;
    in.client = &*cl;
    in.server = sv ? &*sv : nullptr;
    in.watch_client = watches[0] ? &*watches[0] : nullptr;
    in.watch_server = watches[1] ? &*watches[1] : nullptr;
    in.client_host = client.host;
    in.server_host = server.host;
    in.server_cpu = server_cpu;
    in.typical_ns = typical_ns;
    in.own_comms = {"pingpong", "pingpong-dyn", "watch"};
    in.clock_offset = monotonic_offset(one_way);
    a = tail::attribute(in);
  }
  return tail_document(a, limits, hosts, typical_ns);
}

json explain_jitter_tail(const TailSide& side, const std::map<int, std::uint64_t>& typical_by_cpu) {
  std::vector<std::string> host_limits;
  json hosts = json::object();
  const std::optional<tail::WatchOutput> watch = host_watch(side, hosts, host_limits);
  json per_cpu = json::object();
  const std::optional<json> doc = last_doc_with(side.probe_out, "per_cpu");
  if (!doc || !(*doc)["per_cpu"].is_array()) return {{"why_not", "the jitter probe printed no per-CPU results"}};
  for (const json& one : (*doc)["per_cpu"]) {
    if (!one.is_object() || !one.value("cpu_asked", json()).is_number_integer()) continue;
    const int cpu = one["cpu_asked"].get<int>();
    const std::string who = cpu < 0 ? std::string("jitter") : "jitter CPU " + std::to_string(cpu);
    std::vector<std::string> limits = host_limits;
    const std::uint64_t typical = typical_by_cpu.count(cpu) ? typical_by_cpu.at(cpu) : 0;
    std::optional<tail::OutlierSet> set;
    if (!one.contains("outliers")) {
      limits.push_back("host " + side.host + ": " + who + " outliers: not available: the probe printed none");
    } else {
      try {
        set = tail::parse_outliers(one, "outliers", who);
        source_limits(*set, side.host, limits);
      } catch (const std::invalid_argument& e) {
        limits.push_back("host " + side.host + ": " + who + " outliers: not available: " + e.what());
      }
    }
    tail::Attribution a;
    if (set) a = tail::attribute(one_host_input(*set, watch, side.host, typical, {"jitter", "jitter-dyn", "watch"}));
    json j = tail_document(a, limits, hosts, typical);
    j["sample"] = "gap";
    per_cpu[std::to_string(cpu)] = std::move(j);
  }
  return {{"per_cpu", per_cpu}};
}

namespace {

std::uint64_t count_in(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
}

/// The receiver's CPU: where it was pinned, else where its gaps ended.
std::optional<int> receiver_cpu_of(std::optional<int> pinned, const std::optional<tail::OutlierSet>& set) {
  if (pinned || !set) return pinned;
  for (const tail::OutlierRecord& r : set->items)
    if (r.cpu_after) return r.cpu_after;
  return std::nullopt;
}

/// Each of the largest sequence gaps put down to what the watch saw on the
/// receiver's CPU during the longest receive pause before it (a buffer
/// overflows while nobody reads); "loss_top" says after which cause (a burst's
/// first evidence) the most lost datagrams came.
void explain_loss(json& j, const json& gaps, const tail::WatchOutput* watch, std::optional<int> cpu,
                  const std::string& host, std::uint64_t typical, const std::vector<std::string>& own) {
  std::vector<json> bursts;
  if (gaps.contains("largest_seq_gaps") && gaps["largest_seq_gaps"].is_array())
    for (const json& b : gaps["largest_seq_gaps"])
      if (b.is_object()) bursts.push_back(b);
  std::stable_sort(bursts.begin(), bursts.end(),
                   [](const json& x, const json& y) { return count_in(x, "lost") > count_in(y, "lost"); });
  std::map<std::string, std::uint64_t> lost_by_key;
  json out = json::array();
  for (const json& b : bursts) {
    const std::uint64_t pause = count_in(b, "pause_ns"), end = count_in(b, "pause_end_ns"),
                        lost = count_in(b, "lost");
    json rec = {{"seq", count_in(b, "seq")}, {"lost", lost}, {"at_ns", count_in(b, "at_ns")}, {"pause_ns", pause}};
    std::vector<tail::Evidence> ev;
    if (watch && cpu && pause > 0 && end >= pause)
      ev = tail::window_evidence(*watch, *cpu, end - pause, end, pause > typical ? pause - typical : 0, host, own);
    json list = json::array();
    for (const tail::Evidence& e : ev) list.push_back(tail::to_json(e));
    // Counted by its cause (the first evidence: what ran there, before the
    // interrupts beside it), so IPIs that come with any stall never outrank it.
    if (!ev.empty()) lost_by_key[ev.front().key] += lost;
    rec["cause"] = ev.empty() ? "unexplained" : ev.front().text;
    rec["evidence"] = list;
    out.push_back(rec);
  }
  j["loss_bursts"] = out;
  const std::uint64_t total = count_in(gaps, "lost");
  if (total == 0) return;
  const auto top = std::max_element(lost_by_key.begin(), lost_by_key.end(),
                                    [](const auto& x, const auto& y) { return x.second < y.second; });
  j["loss_top"] = top == lost_by_key.end()
                      ? std::to_string(total) + " lost datagrams: no evidence on host " + host +
                            " in the receive pauses before them (unexplained)"
                      : std::to_string(top->second) + " of " + std::to_string(total) +
                            " lost datagrams came after a receive pause with " + top->first;
}

/// A stream's top line: the cause (an outlier's first evidence) with the most
/// receive-gap time among the worst gaps, since throughput is lost to time not
/// read, not to how many gaps there were ("600 ms of the 690 ms in the 64
/// worst receive gaps: tailhog (pid 1381) on CPU 0 of host b"); the count's
/// line (attribute's) when no gap has a cause.
std::string gap_time_top(const tail::Attribution& a) {
  std::map<std::string, std::uint64_t> time_by_cause;
  std::uint64_t total = 0;
  for (const tail::OutlierCause& o : a.outliers) {
    total += o.value_ns;
    if (!o.evidence.empty()) time_by_cause[o.evidence.front().key] += o.value_ns;
  }
  const auto top = std::max_element(time_by_cause.begin(), time_by_cause.end(),
                                    [](const auto& x, const auto& y) { return x.second < y.second; });
  if (top == time_by_cause.end()) return a.top;
  return tail::format_ns(top->second) + " of the " + tail::format_ns(total) + " in the " +
         std::to_string(a.outliers.size()) + " worst receive gaps: " + top->first;
}

}  // namespace

json explain_stream_tail(const TailSide& receiver, std::optional<int> receiver_cpu) {
  std::vector<std::string> limits;
  json hosts = json::object();
  const std::optional<tail::WatchOutput> watch = host_watch(receiver, hosts, limits);
  const std::optional<tail::OutlierSet> set = read_outliers(receiver, "gap_outliers", "receiver", limits);
  const std::optional<json> doc = last_doc_with(receiver.probe_out, "gap_outliers");
  json gaps = doc && (*doc)["receive_gaps"].is_object() ? (*doc)["receive_gaps"] : json::object();
  const bool udp = gaps.value("proto", json()) == "udp";
  const std::uint64_t typical = count_in(gaps, "p50_ns");
  const std::vector<std::string> own = {"stream", "stream-dyn", "watch"};
  tail::Attribution a;
  if (set) {
    tail::AttributionInput in = one_host_input(*set, watch, receiver.host, typical, own);
    in.samples = udp ? "datagrams" : "bytes";
    in.outliers_name = "receive gaps";
    in.reader = "receiver";
    in.packet = "datagram";
    a = tail::attribute(in);
  }
  json j = tail_document(a, limits, hosts, typical);
  j["top"] = gap_time_top(a);
  // A gap's seq: a datagram's sequence number, or the stream offset of the
  // last byte the read that ended it returned (a read is not a packet).
  j["sample"] = udp ? "receive gap ending at datagram" : "receive gap ending at byte";
  j["applies_to"] = {"min_throughput", "max_loss"};
  // The report's table and chart: what the columns are, and that the gaps are
  // stamped on the receiver's clock, not the sender's series (no marks there).
  j["seq_name"] = udp ? "Datagram" : "Byte offset";
  j["value_name"] = "receive gap";
  j["on_series_clock"] = false;
  if (udp)
    explain_loss(j, gaps, watch ? &*watch : nullptr, receiver_cpu_of(receiver_cpu, set), receiver.host, typical,
                 own);
  gaps.erase("largest_seq_gaps");  // in loss_bursts, explained
  j["receive_gaps"] = gaps;
  return j;
}

std::string why_line(const json& tail, const std::string& stat) {
  if (!tail.is_object()) return "";
  if (const auto it = tail.find("applies_to"); it != tail.end()) {
    if (!it->is_array() || std::find(it->begin(), it->end(), json(stat)) == it->end()) return "";
    const auto loss = tail.find("loss_top");
    if (stat == "max_loss" && loss != tail.end() && loss->is_string()) return "why: " + loss->get<std::string>();
    return tail_line(tail);
  }
  if (stat == "max") return worst_line(tail);
  return stat.rfind("p99", 0) == 0 ? tail_line(tail) : "";
}

const json& tail_of_cpu(const json& tail, int cpu) {
  static const json kNone;
  if (!tail.is_object() || !tail.contains("per_cpu")) return tail;
  const json& per = tail["per_cpu"];
  const auto it = per.find(std::to_string(cpu));
  return it == per.end() ? kNone : *it;
}

std::string tail_line(const json& tail) {
  if (!tail.is_object()) return "";
  const auto it = tail.find("top");
  if (it == tail.end() || !it->is_string() || it->get<std::string>().empty()) return "";
  return "why: " + it->get<std::string>();
}

std::string worst_line(const json& tail) {
  if (!tail.is_object()) return "";
  const auto it = tail.find("outliers");
  if (it == tail.end()) return tail.contains("over_run") ? tail_line(tail) : "";
  if (!it->is_array() || it->empty()) return "";
  const json& o = it->front();  // worst first
  if (!o.is_object() || !o.value("value_ns", json()).is_number()) return "";
  // A round trip's seq is its request; a jitter case's, its clock gap.
  return "why: the worst (" + tail::format_ns(o["value_ns"].get<std::uint64_t>()) + ", " +
         tail.value("sample", std::string("request")) + " " +
         o.value("seq", json(0)).dump() + "): " + o.value("cause", std::string("unexplained"));
}

}  // namespace labgate::gate
