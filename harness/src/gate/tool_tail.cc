// The noise watch beside an external tool's case, and the join of what the tool
// printed with it (see tool_tail.h).
#include "labgate/gate/tool_tail.h"

#include <stdexcept>

#include "labgate/gate/counter_bracket.h"
#include "labgate/gate/tool_samples.h"
#include "labgate/measure/figures.h"
#include "labgate/measure/probe_command.h"
#include "labgate/tail/run_noise.h"
#include "labgate/tools/parsers.h"
#include "labgate/tools/tool_commands.h"
#include "labgate/transport/connect_all.h"

namespace labgate::gate {

using nlohmann::json;
using namespace std::chrono_literals;

namespace {

std::uint64_t ns_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return b > a
             ? static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count())
             : 0;
}

/// The names the tool's processes run under (a task's comm: at most 15 bytes):
/// where the tool ran, never a cause of its own tail.
std::vector<std::string> tool_comms(const profile::TestSpec& spec) {
  std::vector<std::string> names;
  switch (spec.tool) {
    case profile::Tool::kNetperf:
      names = {"netperf", "netserver"};
      break;
    case profile::Tool::kSockperf:
      names = {"sockperf"};
      break;
    case profile::Tool::kIperf3:
      names = {"iperf3"};
      break;
    case profile::Tool::kSfntPingpong:
      names = {"sfnt-pingpong"};
      break;
    default:
      break;
  }
  if (spec.tool_path) names.push_back(spec.tool_path->substr(spec.tool_path->rfind('/') + 1));
  for (std::string& n : names) n = n.substr(0, 15);
  return names;
}

/// A latency tool's max over its p50, as the one judge reads its figures.
std::optional<std::uint64_t> excess_of(const profile::TestSpec& spec, const measure::Measurement& m) {
  if (!profile::is_rr(spec.kind)) return std::nullopt;
  const measure::JudgedFigures judged = measure::judge_figures(m);
  const stats::Figure* p50 = judged.figures.find("p50");
  const stats::Figure* max = judged.figures.find("max");
  if (!p50 || !max) return std::nullopt;
  return max->value > p50->value ? static_cast<std::uint64_t>(max->value - p50->value) : 0;
}

/// One side's watch read and placed on its host's clock; `why_not` set when it cannot be.
tail::RunHost run_host(const profile::TestSpec& spec, const ToolWatchSide& s, const tools::ToolRun& t,
                       std::optional<tail::WatchOutput>& w) {
  tail::RunHost h;
  h.host = s.host;
  h.role = s.role;
  h.pinned = s.pinned;
  // netperf's two sides are two programs; the other tools run one on both.
  if (spec.tool == profile::Tool::kNetperf)
    for (const std::string& n : tool_comms(spec))
      if ((n == "netserver") == (s.role == "server")) h.programs.push_back(n);
  if (!s.why_not.empty()) {
    h.why_not = s.why_not;
    return h;
  }
  if (!s.result) {
    h.why_not = "it was not stopped";
    return h;
  }
  try {
    w = tail::parse_watch(s.result->out, s.host);
  } catch (const std::invalid_argument& e) {
    std::string err = s.result->err.substr(0, 300);
    while (!err.empty() && err.back() == '\n') err.pop_back();
    h.why_not =
        std::string(e.what()) + " (it " + s.result->describe() + (err.empty() ? "" : ": " + err) + ")";
    return h;
  }
  if (w->windows.empty()) {
    h.why_not = "it printed no window";
    w.reset();
    return h;
  }
  const std::uint64_t end = w->windows.back().t1;
  h.to_ns = end - std::min(end, ns_between(t.client_ended, s.stop_sent));
  h.from_ns = h.to_ns - std::min(h.to_ns, ns_between(t.client_started, t.client_ended));
  h.align_ns = ns_between(s.stop_sent, s.stop_done);
  h.watch = &*w;
  return h;
}

}  // namespace

std::string watch_interval(std::chrono::nanoseconds run) {
  // The watch keeps its last 6000 windows (probes/watch/SCHEMA.md): 10 ms
  // windows hold a minute; a longer run (and 10 s for the tool's start-up and
  // wrap-up) gets windows of whole 10 ms, as few as hold all of it.
  constexpr std::int64_t kKept = 6000, kStepMs = 10;
  const std::int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(run + 10s).count();
  const std::int64_t per = (ms + kKept - 1) / kKept;
  return std::to_string(std::max<std::int64_t>(1, (per + kStepMs - 1) / kStepMs) * kStepMs) + "ms";
}

json explain_tool_run(const profile::TestSpec& spec, const tools::ToolRun& t, const ToolWatchSide& client,
                      const ToolWatchSide& server) {
  tail::RunNoiseInput in;
  in.tool = spec.tool;
  in.tool_comms = tool_comms(spec);
  in.excess_ns = excess_of(spec, t.measurement);
  std::optional<tail::WatchOutput> watches[2];
  in.hosts = {run_host(spec, client, t, watches[0]), run_host(spec, server, t, watches[1])};
  if (spec.tool == profile::Tool::kIperf3) {
    // They lie inside the client's run; its start-up and wrap-up are the rest.
    double total = 0;
    for (const tools::RateInterval& r : tools::iperf3_intervals(t.client.out)) {
      total += r.seconds;
      if (!r.omitted) in.intervals.push_back({r.seconds, r.bits_per_second});
    }
    const std::uint64_t ran = ns_between(t.client_started, t.client_ended);
    const auto covered = static_cast<std::uint64_t>(total * 1e9);
    in.slack_ns = ran > covered ? ran - covered : 0;
  }
  json run_level = tail::explain_run(in);
  if (!spec.full_log) return run_level;
  std::string why;
  const std::optional<json> samples = explain_samples(spec, t, in.hosts[0], in.hosts[1], in.tool_comms, why);
  if (!samples) {
    run_level["limits"].push_back("per round trip: not joined: " + why);
    return run_level;
  }
  run_level["join"] = "per round trip: the " + std::to_string((*samples)["outliers"].size()) +
                      " worst of sockperf's " + (*samples)["samples_logged"].dump() +
                      " logged round trips (full_log: timed on CLOCK_MONOTONIC, the watch's clock) joined "
                      "with the watch's windows around each; and the whole run";
  return with_samples(std::move(run_level), *samples);
}

ToolWatch::ToolWatch(GateSession& session, const TestCase& c) : case_(c), reporter_(session.reporter()) {
  client_.side.host = c.client;
  client_.side.role = "client";
  client_.side.pinned = c.spec->cpu.client;
  server_.side.host = c.server;
  server_.side.role = "server";
  server_.side.pinned = c.spec->cpu.server;
  try {
    session.install({c.server, c.client}, "watch");  // both hosts at once, the first time
  } catch (const std::exception& e) {
    reporter_.warning(c.name() + ": the noise watch will not run: " + e.what());
  }
  // Its own deadline outlives the tool's (the server's start included): the stop ends it first.
  const std::string backstop = measure::exact_duration(tools::tool_client_timeout(*c.spec) + 60s);
  std::optional<NoiseWatch> watches[2];
  Running* const sides[2] = {&server_, &client_};
  for (int i = 0; i < 2; ++i) {
    try {
      watches[i] = NoiseWatch{session.probe(sides[i]->side.host, "watch"),
                              sides[i]->side.pinned ? std::to_string(*sides[i]->side.pinned) : "", backstop,
                              watch_interval(c.spec->warmup + c.spec->duration)};
    } catch (const std::exception& e) {
      sides[i]->side.why_not = std::string("the watch could not be started: ") + e.what();
    }
  }
  // Both hosts at once: behind a far link each start is a round trip.
  both_sides([&](int i) {
    if (!watches[i]) return;
    try {
      sides[i]->process = session.deployment(sides[i]->side.host).start(watch_argv(*watches[i]));
    } catch (const std::exception& e) {
      sides[i]->side.why_not = std::string("the watch could not be started: ") + e.what();
    }
  });
}

void ToolWatch::both_sides(const std::function<void(int)>& step) const {
  // One host on both sides (a loopback case): one after the other on its one connection.
  if (client_.side.host == server_.side.host) {
    step(0);
    step(1);
    return;
  }
  transport::on_each_host(
      2, [&](std::size_t i) { step(static_cast<int>(i)); },
      [&](std::size_t i) { return i == 0 ? server_.side.host : client_.side.host; });
}

ToolWatch::~ToolWatch() {
  if (stopped_) return;
  for (Running* r : {&client_, &server_}) {
    try {
      if (r->process) r->process->stop();
    } catch (const std::exception& e) {
      reporter_.warning("stopping the noise watch on host " + r->side.host + ": " + e.what());
    }
  }
}

void ToolWatch::stop_one(Running& r) {
  if (!r.process) return;
  r.side.stop_sent = std::chrono::steady_clock::now();
  try {
    r.side.result = r.process->stop();
  } catch (const std::exception& e) {
    r.side.why_not = std::string("stopping it: ") + e.what();
  }
  r.side.stop_done = std::chrono::steady_clock::now();
}

void ToolWatch::stop(CaseRun& run) {
  if (stopped_) return;
  stopped_ = true;
  // One host on both sides (a loopback case): a file per side.
  const bool one_host = client_.side.host == server_.side.host;
  // Both hosts at once: behind a far link each stop is a round trip. Each side's
  // own stop_sent/stop_done still bound its alignment (see tool_tail.h).
  both_sides([&](int i) { stop_one(i == 0 ? server_ : client_); });
  for (Running* r : {&client_, &server_}) {
    if (r->side.result)
      run.raw_files.emplace_back(
          "watch-" + r->side.host + (one_host ? "-" + r->side.role : "") + ".out",
          r->side.result->out + (r->side.result->err.empty() ? "" : "\n" + r->side.result->err));
  }
}

json ToolWatch::finish(const tools::ToolRun& t, CaseRun& run) {
  stop(run);
  try {
    return explain_tool_run(*case_.spec, t, client_.side, server_.side);
  } catch (const std::exception& e) {  // costs the explanation, never the measurement
    reporter_.warning(case_.name() + ": explaining the tail: " + e.what());
    return nullptr;
  }
}

}  // namespace labgate::gate
