// The per-sample join of a tool's round trips with the noise watch (see tool_samples.h).
#include "labgate/gate/tool_samples.h"

#include <algorithm>

#include "labgate/measure/figures.h"
#include "labgate/tail/attribute.h"
#include "labgate/tools/sockperf_full_log.h"

namespace labgate::gate {

using nlohmann::json;

namespace {

std::string first_line_of(const transport::RunResult& r) {
  const std::string& s = r.err.empty() ? r.out : r.err;
  return s.substr(0, std::min(s.find('\n'), std::size_t{200}));
}

// The log's span must lie within the client's run as placed on host a's
// clock: a sockperf that ignored --no-rdtsc logs seconds since its own start.
bool on_watch_clock(const tools::FullLogWorst& w, const tail::RunHost& a) {
  constexpr std::uint64_t kSlack = 1000000000;  // start-up, and the placement's own error
  const std::uint64_t from = a.from_ns - std::min(a.from_ns, a.align_ns + kSlack);
  return w.first_tx_ns >= from && w.last_rx_ns <= a.to_ns + a.align_ns + kSlack;
}

}  // namespace

std::optional<json> explain_samples(const profile::TestSpec& spec, const tools::ToolRun& t,
                                    const tail::RunHost& a, const tail::RunHost& b,
                                    const std::vector<std::string>& tool_comms, std::string& why) {
  if (!t.full_log) {
    why = "no pass over the log ran";
    return std::nullopt;
  }
  if (!t.full_log->ok()) {
    why = "the pass over it on host " + a.host + " " + t.full_log->describe() + ": " + first_line_of(*t.full_log);
    return std::nullopt;
  }
  tools::FullLogWorst w;
  try {
    w = tools::parse_full_log_worst(t.full_log->out);
  } catch (const std::invalid_argument& e) {
    why = e.what();
    return std::nullopt;
  }
  if (w.worst.empty()) {
    why = "the log held no round trip";
    return std::nullopt;
  }
  if (!a.watch) {
    why = "host " + a.host + "'s noise watch: not available: " + a.why_not;
    return std::nullopt;
  }
  if (!spec.cpu.client) {
    why = "the client is not pinned (cpu.client), so the CPU each round trip ran on is not known";
    return std::nullopt;
  }
  if (!on_watch_clock(w, a)) {
    why = "the log's times (" + tail::format_ns(w.first_tx_ns) + " to " + tail::format_ns(w.last_rx_ns) +
          ") are not on host " + a.host +
          "'s CLOCK_MONOTONIC, where the run was: this sockperf did not time with --no-rdtsc";
    return std::nullopt;
  }
  tail::OutlierSet set;
  const int cpu = *spec.cpu.client;
  for (const tools::FullLogSample& s : w.worst) {
    tail::OutlierRecord r;
    r.seq = s.index;
    r.at_ns = s.rx_ns;
    r.value_ns = s.rtt_ns();
    r.worst = true;
    r.cpu_before = r.cpu_after = cpu;  // taskset -c pins sockperf's one thread
    r.ctx_from_seq = s.index;
    set.items.push_back(r);
  }
  set.floor_ns = w.worst.back().rtt_ns();
  set.cpu_source = "pinned: taskset -c " + std::to_string(cpu) + " (cpu.client)";
  set.switches_source = "not available: sockperf's log has no context switches";
  set.sock_wait_source = "not available: sockperf's log has no receive stamps";

  tail::AttributionInput in;
  in.client = &set;
  in.watch_client = a.watch;
  in.client_host = a.host;
  in.server_host = b.host;
  // Host b only where the server's CPU is known (sockperf sr --cpu-affinity),
  // or nothing there would be searched and "wire" could be said unsearched.
  if (b.watch && spec.cpu.server) {
    in.watch_server = b.watch;
    in.server_cpu = *spec.cpu.server;
    // Both placements come from the same two harness instants (the client's
    // start and return), so their difference is the clocks' offset within
    // both stops' round trips.
    in.clock_offset = tail::ClockOffset{
        static_cast<std::int64_t>(b.from_ns) - static_cast<std::int64_t>(a.from_ns), a.align_ns + b.align_ns,
        "the tool run placed on both hosts' clocks (within each watch's stop round trip)"};
  }
  const measure::JudgedFigures judged = measure::judge_figures(t.measurement);
  if (const stats::Figure* p50 = judged.figures.find("p50"))
    in.typical_ns = static_cast<std::uint64_t>(std::max(0.0, p50->value));
  in.own_comms = tool_comms;
  in.own_comms.push_back("watch");
  in.samples = "round trips";
  in.outliers_name = "worst round trips";
  tail::Attribution att = tail::attribute(in);
  if (!b.watch)
    att.limits.push_back("host " + b.host + ": noise watch: not available: " + b.why_not);
  else if (!spec.cpu.server)
    att.limits.push_back("host " + b.host +
                         ": not searched per round trip: the server is not pinned (cpu.server), so its CPU "
                         "at each moment is not known");
  att.limits.push_back("host " + a.host + ": " + set.switches_source + " or receive stamps (" +
                       std::to_string(w.samples) + " round trips logged, the " + std::to_string(w.worst.size()) +
                       " worst joined)");
  json j = tail::to_json(att);
  j["samples_logged"] = w.samples;
  j["sample"] = "round trip";
  return j;
}

json with_samples(json run_level, const json& samples) {
  json limits = json::array();
  for (const json* list : {&samples, static_cast<const json*>(&run_level)})
    for (const json& l : list->value("limits", json::array()))
      if (std::find(limits.begin(), limits.end(), l) == limits.end()) limits.push_back(l);
  for (const char* key : {"top", "outliers_total", "unexplained", "ranked", "outliers", "clock_offset",
                          "samples_logged", "sample"})
    if (samples.contains(key)) run_level[key] = samples[key];
  run_level["limits"] = limits;
  return run_level;
}

}  // namespace labgate::gate
