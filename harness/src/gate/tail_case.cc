// Why the tail of one built-in round-trip case: the watch's command and the
// attribution of the case's outliers (see tail_case.h).
#include "labgate/gate/tail_case.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <vector>

#include "labgate/measure/probe_command.h"
#include "labgate/tail/attribute.h"

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
    if (set) {
      tail::AttributionInput in;
      in.client = &*set;
      in.watch_client = watch ? &*watch : nullptr;
      in.client_host = side.host;
      in.one_host = true;
      in.samples = "gaps";
      in.typical_ns = typical;
      in.own_comms = {"jitter", "jitter-dyn", "watch"};
      a = tail::attribute(in);
    }
    json j = tail_document(a, limits, hosts, typical);
    j["sample"] = "gap";
    per_cpu[std::to_string(cpu)] = std::move(j);
  }
  return {{"per_cpu", per_cpu}};
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
