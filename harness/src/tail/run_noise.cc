// Why the tail of a tool's case: the watch over its whole run on each host, and
// its worst interval where it prints intervals (see run_noise.h). The whole run
// has no moment to compare with, so its interrupts are figures, never a burst:
// only another task on the tool's CPU long enough to account for the tail,
// steal and SMIs are named there, each with its figure.
#include "labgate/tail/run_noise.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "labgate/tail/attribute.h"
#include "labgate/util/units.h"

namespace labgate::tail {
namespace {

using nlohmann::json;

bool meets(std::uint64_t a0, std::uint64_t a1, std::uint64_t from, std::uint64_t to) {
  return a1 >= from && a0 <= to;
}

/// The span of the run on `h`'s clock, widened by its alignment.
std::pair<std::uint64_t, std::uint64_t> run_span(const RunHost& h) {
  return {h.from_ns - std::min(h.from_ns, h.align_ns), h.to_ns + h.align_ns};
}

bool is_tool(const RunNoiseInput& in, const std::string& comm) {
  return std::find(in.tool_comms.begin(), in.tool_comms.end(), comm) != in.tool_comms.end();
}

/// The CPUs the tool's processes used on `h` and how that is known: the
/// profile's pinning, else where the watch saw them run; none if neither.
std::vector<int> tool_cpus(const RunNoiseInput& in, const RunHost& h, std::string& from) {
  if (h.pinned) {
    from = "the profile pins the " + h.role + " to CPU " + std::to_string(*h.pinned);
    return {*h.pinned};
  }
  const auto [t0, t1] = run_span(h);
  const std::vector<std::string>& mine = h.programs.empty() ? in.tool_comms : h.programs;
  std::set<int> cpus;
  std::set<std::string> seen;
  for (const WatchWindow& w : h.watch->windows)
    if (!w.tasks.empty() && meets(w.tasks_since, w.t1, t0, t1))
      for (const TaskRun& t : w.tasks)
        if (std::find(mine.begin(), mine.end(), t.comm) != mine.end() && t.ran_ns > 0) {
          cpus.insert(t.cpu);
          seen.insert(t.comm);
        }
  std::string names;
  for (const std::string& s : seen) names += (names.empty() ? "" : ", ") + s;
  from = cpus.empty() ? "not known: not pinned, and the watch saw no " +
                            std::string(profile::to_string(in.tool)) + " process run on the CPUs it watched"
                      : "not pinned: where the watch saw " + names + " run";
  return {cpus.begin(), cpus.end()};
}

std::string ms_of(std::uint64_t jiffies, int user_hz) {
  return format_ns(jiffies * 1000000000ull / static_cast<std::uint64_t>(user_hz > 0 ? user_hz : 100));
}

/// What the watch saw on one CPU over the run.
struct CpuRun {
  int cpu = 0;
  std::uint64_t irq_j = 0, soft_j = 0, steal_j = 0, smi = 0;
  bool smi_known = false;
  std::map<std::string, std::uint64_t> irq, softirq;
  std::map<std::pair<int, std::string>, std::uint64_t> tasks;  // (pid, comm) -> ns, the tool's own left out
};

CpuRun cpu_run(const RunNoiseInput& in, const RunHost& h, int cpu) {
  CpuRun r;
  r.cpu = cpu;
  const WatchOutput& w = *h.watch;
  const int ix = w.index_of(cpu);
  const auto [t0, t1] = run_span(h);
  for (const WatchWindow& win : w.windows) {
    const CpuTick* tick = ix >= 0 ? &win.cpu[static_cast<std::size_t>(ix)] : nullptr;
    if (meets(win.t0, win.t1, t0, t1)) {
      for (const NamedCount& c : win.softirq)
        if (c.cpu == cpu) r.softirq[c.name] += c.count;
      if (tick && tick->smi) {
        r.smi_known = true;
        r.smi += *tick->smi;
      }
    }
    if (win.irq_read && meets(win.irq_since, win.t1, t0, t1)) {
      for (const NamedCount& c : win.irq)
        if (c.cpu == cpu) r.irq[c.name] += c.count;
      if (tick) {
        r.irq_j += tick->irq_jiffies;
        r.soft_j += tick->softirq_jiffies;
        r.steal_j += tick->steal_jiffies;
      }
    }
    if (!win.tasks.empty() && meets(win.tasks_since, win.t1, t0, t1))
      for (const TaskRun& t : win.tasks)
        if (t.cpu == cpu && !is_tool(in, t.comm) && t.comm != "watch") r.tasks[{t.pid, t.comm}] += t.ran_ns;
  }
  return r;
}

/// The `n` largest counts, largest first, as [{"name","count"}].
json top_counts(const std::map<std::string, std::uint64_t>& m, std::size_t n) {
  std::vector<std::pair<std::uint64_t, std::string>> v;
  for (const auto& [name, c] : m)
    if (c > 0) v.emplace_back(c, name);
  std::sort(v.rbegin(), v.rend());
  json out = json::array();
  for (std::size_t i = 0; i < v.size() && i < n; ++i)
    out.push_back({{"name", v[i].second}, {"count", v[i].first}});
  return out;
}

std::vector<std::tuple<std::uint64_t, int, std::string>> by_run_time(const CpuRun& r) {
  std::vector<std::tuple<std::uint64_t, int, std::string>> v;
  for (const auto& [k, ns] : r.tasks) v.emplace_back(ns, k.first, k.second);
  std::sort(v.rbegin(), v.rend());
  return v;
}

json cpu_json(const CpuRun& r, int user_hz) {
  json tasks = json::array();
  for (const auto& [ns, pid, comm] : by_run_time(r)) {
    if (tasks.size() == 5) break;
    tasks.push_back({{"pid", pid}, {"comm", comm}, {"ran_ns", ns}});
  }
  const auto ms = [&](std::uint64_t j) {
    return static_cast<double>(j) * 1000.0 / (user_hz > 0 ? user_hz : 100);
  };
  return {{"cpu", r.cpu},
          {"irq_ms", ms(r.irq_j)},
          {"softirq_ms", ms(r.soft_j)},
          {"steal_ms", ms(r.steal_j)},
          {"smi", r.smi_known ? json(r.smi) : json(nullptr)},
          {"irq", top_counts(r.irq, 5)},
          {"softirq", top_counts(r.softirq, 5)},
          {"tasks", tasks}};
}

/// run.json's evidence, with the key causes are grouped by.
json evidence_json(const Evidence& e) {
  json j = to_json(e);
  j["key"] = e.key;
  return j;
}

/// Run-level causes on one CPU of one host: another task that ran at least
/// `least` there in the run, steal, SMIs. Tasks come first, longest first.
void run_causes(const CpuRun& r, const RunHost& h, int user_hz, std::uint64_t least, std::uint64_t span,
                const std::string& enough, std::vector<std::pair<std::uint64_t, Evidence>>& out) {
  const std::string where = "CPU " + std::to_string(r.cpu) + " of host " + h.host;
  for (const auto& [ns, pid, comm] : by_run_time(r)) {
    if (ns < least) break;
    out.push_back({ns,
                   {"shared_cpu", h.host, comm + " (pid " + std::to_string(pid) + ") on " + where,
                    comm + " (pid " + std::to_string(pid) + ") ran " + format_ns(ns) + " of the run's " +
                        format_ns(span) + " on " + where + ", the " + h.role + "'s CPU" + enough,
                    r.cpu, "", pid, comm}});
  }
  if (r.steal_j > 0)
    out.push_back({0,
                   {"steal", h.host, "steal on " + where,
                    "steal " + ms_of(r.steal_j, user_hz) + " (hypervisor) over the run on " + where, r.cpu}});
  if (r.smi > 0)
    out.push_back({0,
                   {"smi", h.host, "SMI on " + where,
                    "SMI +" + std::to_string(r.smi) + " over the run on " + where, r.cpu}});
}

/// What a host's watch could not show, as limits of that host, and whether
/// its ring still held the run's start.
void run_limits(const RunHost& h, std::vector<std::string>& limits) {
  const WatchOutput& w = *h.watch;
  watch_limits(&w, h.host, limits);
  if (!w.windows.empty() && w.windows.front().t0 > run_span(h).first)
    if (std::string l = kept_limit(w, "the run's start was not watched"); !l.empty()) limits.push_back(l);
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

/// The worst interval joined with each host's windows of the same span.
json worst_interval(const RunNoiseInput& in, const std::vector<std::vector<int>>& cpus,
                    std::vector<std::string>& limits) {
  const std::vector<ToolInterval>& iv = in.intervals;
  std::size_t worst = 0;
  for (std::size_t k = 1; k < iv.size(); ++k)
    if (iv[k].value < iv[worst].value) worst = k;
  std::vector<double> values;
  for (const ToolInterval& i : iv) values.push_back(i.value);
  std::nth_element(values.begin(), values.begin() + static_cast<long>(values.size() / 2), values.end());
  const double median = values[values.size() / 2];
  double before = 0, after = 0;
  for (std::size_t k = 0; k < iv.size(); ++k) (k < worst ? before : after) += k == worst ? 0 : iv[k].seconds;
  const ToolInterval& w = iv[worst];
  // The time the interval fell short of the median rate: what a cause must account for.
  const double short_s = median > 0 ? w.seconds * std::max(0.0, 1.0 - w.value / median) : 0;
  const auto excess = static_cast<std::uint64_t>(short_s * 1e9);
  json j = {{"index", worst},
            {"start_s", before},
            {"seconds", w.seconds},
            {"bits_per_second", w.value},
            {"median_bits_per_second", median},
            {"short_of_median_s", short_s}};
  json joined = json::object(), evidence = json::array();
  std::vector<std::string> own = in.tool_comms;
  own.push_back("watch");
  for (std::size_t i = 0; i < in.hosts.size(); ++i) {
    const RunHost& h = in.hosts[i];
    if (!h.watch) continue;
    // It ended `after` seconds before the last interval did, which ended at
    // most slack before the tool's exit (to_ns).
    const auto after_ns = static_cast<std::uint64_t>(after * 1e9),
               len = static_cast<std::uint64_t>(w.seconds * 1e9);
    const std::uint64_t back = after_ns + len + in.slack_ns + h.align_ns;
    const std::uint64_t from = h.to_ns - std::min(h.to_ns, back),
                        to = h.to_ns - std::min(h.to_ns, after_ns) + h.align_ns;
    joined[h.host] = {{"from_ns", from}, {"to_ns", to}};
    if (excess == 0) continue;  // as fast as the rest: nothing to account for
    for (int cpu : cpus[i])
      for (const Evidence& e : window_evidence(*h.watch, cpu, from, to, excess, h.host, own))
        evidence.push_back(evidence_json(e));
  }
  j["joined"] = joined;
  j["evidence"] = evidence;
  if (!evidence.empty())
    j["cause"] = evidence.front()["text"];
  else if (excess == 0)
    j["cause"] = "none: no slower than the median";
  else if (joined.size() == in.hosts.size())
    j["cause"] = "nothing on the hosts beyond their routine";
  else
    j["cause"] = "unexplained";
  if (excess == 0) limits.push_back("the worst interval is not below the median: no interval stands out");
  return j;
}

}  // namespace

std::string join_depth(profile::Tool tool, bool has_intervals) {
  switch (tool) {
    case profile::Tool::kIperf3:
      return has_intervals
                 ? "per interval: iperf3's intervals joined with the watch's windows of the same span "
                   "(no sample of its own: a stream has none); and the whole run"
                 : "whole run only: this iperf3 output has no intervals";
    case profile::Tool::kNetperf:
      return "whole run only: netperf prints one set of figures for the run (interim results need -D "
             "and a netperf built with --enable-demo; labgate asks for none), so its max has no moment";
    case profile::Tool::kSockperf:
      return "whole run only: sockperf prints percentiles and the max of the whole run (per-sample times "
             "need --full-log: full_log = true), so its max has no moment";
    case profile::Tool::kSfntPingpong:
      return "whole run only: sfnt-pingpong prints one row of figures for the run, so its max has no moment";
    default:
      return "whole run only: its output has no times within the run";
  }
}

json explain_run(const RunNoiseInput& in) {
  const std::string tool = profile::to_string(in.tool);
  std::vector<std::string> limits;
  json over = json::object();
  std::vector<std::pair<std::uint64_t, Evidence>> causes;
  std::vector<std::vector<int>> cpus(in.hosts.size());
  bool all_watched = !in.hosts.empty();
  for (std::size_t i = 0; i < in.hosts.size(); ++i) {
    const RunHost& h = in.hosts[i];
    if (!h.watch) {
      all_watched = false;
      over[h.host] = {{"role", h.role}, {"watch", "not available: " + h.why_not}};
      limits.push_back("host " + h.host + ": noise watch: not available: " + h.why_not);
      continue;
    }
    run_limits(h, limits);
    std::string from;
    cpus[i] = tool_cpus(in, h, from);
    const std::uint64_t span = h.to_ns - std::min(h.to_ns, h.from_ns);
    // A task must have run as long as the max's excess to account for it (a
    // latency tool), or 1 % of the run to take 1 % of a stream's CPU.
    const std::uint64_t least = std::max<std::uint64_t>(10000, in.excess_ns ? *in.excess_ns : span / 100);
    const std::string enough =
        in.excess_ns ? " (enough for the max's " + format_ns(*in.excess_ns) + " over the p50)" : "";
    json per_cpu = json::array();
    std::size_t windows = 0;
    const auto [t0, t1] = run_span(h);
    for (const WatchWindow& w : h.watch->windows) windows += meets(w.t0, w.t1, t0, t1) ? 1 : 0;
    // The tool's CPUs; where they are not known, every CPU watched, as figures only.
    const std::vector<int>& shown = cpus[i].empty() ? h.watch->cpus : cpus[i];
    for (int cpu : shown) {
      const CpuRun r = cpu_run(in, h, cpu);
      per_cpu.push_back(cpu_json(r, h.watch->user_hz));
      if (!cpus[i].empty()) run_causes(r, h, h.watch->user_hz, least, span, enough, causes);
    }
    if (cpus[i].empty()) limits.push_back("host " + h.host + ": the " + h.role + "'s CPUs: " + from);
    over[h.host] = {{"role", h.role},       {"watch", "ok"},          {"from_ns", h.from_ns},
                    {"to_ns", h.to_ns},     {"align_ns", h.align_ns}, {"windows", windows},
                    {"tool_cpus", cpus[i]}, {"tool_cpus_from", from}, {"cpus", per_cpu}};
  }
  // Longest-running task first, then steal and SMIs in host order.
  std::stable_sort(causes.begin(), causes.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  json cause_list = json::array();
  for (const auto& [ns, e] : causes) cause_list.push_back(evidence_json(e));
  json j = {{"join", join_depth(in.tool, !in.intervals.empty())}, {"over_run", over}, {"causes", cause_list}};
  std::string unknown;  // a host whose tool CPUs are not known: none of its tasks was judged
  for (std::size_t i = 0; i < in.hosts.size(); ++i)
    if (in.hosts[i].watch && cpus[i].empty()) unknown = in.hosts[i].host;
  if (!causes.empty()) {
    // What the run-level cause stands for: the tool's max has no moment; a
    // stream's worst interval did (when it had intervals) and showed nothing.
    const std::string why = !in.intervals.empty() ? "its worst interval showed nothing beyond the routine"
                            : in.excess_ns        ? tool + " gives no moment for its max"
                                                  : tool + " gives no moment for its figures";
    j["top"] = "over the whole run (" + why + "): " + causes.front().second.text;
  } else if (!all_watched || in.hosts.empty()) {
    j["top"] = "unexplained: the noise watch did not see every host of the run";
  } else if (!unknown.empty()) {
    j["top"] = "unexplained: where " + tool + " ran on host " + unknown + " is not known";
  } else {
    j["top"] = "nothing on the hosts over the run: no other task ran " +
               (in.excess_ns ? "as long as the max's " + format_ns(*in.excess_ns) + " over the p50"
                             : std::string("1 % of the run")) +
               " on " + tool + "'s CPUs, no steal, no SMI";
  }
  if (!in.intervals.empty()) {
    json w = worst_interval(in, cpus, limits);
    // The interval's own evidence is the closer join: it leads when it has some.
    if (!w["evidence"].empty())
      j["top"] = "worst interval (" + seconds_text(w["start_s"].get<double>()) + " to " +
                 seconds_text(w["start_s"].get<double>() + w["seconds"].get<double>()) + ": " +
                 units::format_bit_rate(w["bits_per_second"].get<double>()) + ", median " +
                 units::format_bit_rate(w["median_bits_per_second"].get<double>()) +
                 "): " + w["cause"].get<std::string>();
    j["worst_interval"] = w;
  }
  limits.push_back(
      "interrupts and softirqs over the whole run are figures only: with no moment to compare, "
      "a burst cannot be told from routine");
  j["limits"] = limits;
  return j;
}

}  // namespace labgate::tail
