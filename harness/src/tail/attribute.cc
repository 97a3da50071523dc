// Attribution of round-trip outliers to what the watch saw (see attribute.h).
// Every rule names the figure it rests on; a burst is judged against the same
// counter's mean per window over the whole run, so routine ticks (LOC, TIMER,
// the test's own NET_RX) are never a cause.
#include "labgate/tail/attribute.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace labgate::tail {
namespace {

struct Span {
  std::uint64_t from = 0, to = 0;
};

bool overlaps(std::uint64_t a0, std::uint64_t a1, const Span& s) { return a1 >= s.from && a0 <= s.to; }

/// Count per window of each (kind, name) on one CPU over the whole run, in
/// thousandths: the mean, since a counter that ticks a few times a second (TIMER,
/// SCHED, RCU) has a median of 0 and would be a "burst" in any long span; the
/// busiest window is left out, so one burst is not its own routine. Kinds: 'i'
/// an IRQ, 's' a softirq's runs, 't' the CPU's softirq time in jiffies (per
/// interrupts read, as /proc/stat is read with them).
using Baseline = std::map<std::pair<char, std::string>, std::uint64_t>;

Baseline baseline(const WatchOutput& w, int cpu) {
  std::map<std::pair<char, std::string>, std::vector<std::uint64_t>> per;
  std::uint64_t irq_reads = 0;  // interrupts may be read every few windows only
  const int ix = w.index_of(cpu);
  for (const WatchWindow& win : w.windows) {
    if (win.irq_read) ++irq_reads;
    if (win.irq_read && ix >= 0)
      per[{'t', ""}].push_back(win.cpu[static_cast<std::size_t>(ix)].softirq_jiffies);
    for (const NamedCount& c : win.irq)
      if (c.cpu == cpu) per[{'i', c.name}].push_back(c.count);
    for (const NamedCount& c : win.softirq)
      if (c.cpu == cpu) per[{'s', c.name}].push_back(c.count);
  }
  Baseline b;
  for (auto& [k, v] : per) {
    const std::uint64_t reads = k.first == 's' ? w.windows.size() : irq_reads;
    if (reads < 2) continue;
    const std::uint64_t others = reads - 1;
    std::uint64_t sum = 0, most = 0;
    for (std::uint64_t n : v) {  // windows without the entry count 0
      sum += n;
      most = std::max(most, n);
    }
    b[k] = ((sum - most) * 1000 + others - 1) / others;
  }
  return b;
}

/// What one host's watch shows on `cpu` during `span`.
std::vector<Evidence> host_evidence(const WatchOutput& w, int cpu, const Span& span, std::uint64_t excess,
                                    const std::string& host, const std::vector<std::string>& own,
                                    const Baseline& base, const std::string& switches,
                                    bool tasks_count = true) {
  std::vector<Evidence> out;
  const int ix = w.index_of(cpu);
  if (ix < 0) return out;
  const std::string where = "CPU " + std::to_string(cpu) + " of host " + host;
  std::map<std::pair<char, std::string>, std::uint64_t> counts;
  std::map<std::pair<int, std::string>, std::uint64_t> ran;  // (pid, comm) -> ns
  std::uint64_t steal = 0, soft = 0, smi = 0, nwin = 0, nirq = 0, task_from = UINT64_MAX, task_to = 0;
  for (const WatchWindow& win : w.windows) {
    if (overlaps(win.t0, win.t1, span)) {
      ++nwin;
      for (const NamedCount& c : win.softirq)
        if (c.cpu == cpu) counts[{'s', c.name}] += c.count;
      smi += win.cpu[static_cast<std::size_t>(ix)].smi.value_or(0);
    }
    // Interrupts and steal: from the reads whose span [irq_since, t1] meets the outlier's.
    if (win.irq_read && overlaps(win.irq_since, win.t1, span)) {
      ++nirq;
      for (const NamedCount& c : win.irq)
        if (c.cpu == cpu) counts[{'i', c.name}] += c.count;
      steal += win.cpu[static_cast<std::size_t>(ix)].steal_jiffies;
      soft += win.cpu[static_cast<std::size_t>(ix)].softirq_jiffies;
    }
    if (!win.tasks.empty() && overlaps(win.tasks_since, win.t1, span)) {
      task_from = std::min(task_from, win.tasks_since);  // the scans counted: one span
      task_to = std::max(task_to, win.t1);
      for (const TaskRun& t : win.tasks)
        if (t.cpu == cpu && std::find(own.begin(), own.end(), t.comm) == own.end())
          ran[{t.pid, t.comm}] += t.ran_ns;
    }
  }
  // Another task that ran there for at least a quarter of the excess (and 10 us).
  std::vector<std::tuple<std::uint64_t, int, std::string>> tasks;
  for (const auto& [k, ns] : ran)
    if (ns >= std::max<std::uint64_t>(10000, excess / 4)) tasks.emplace_back(ns, k.first, k.second);
  std::sort(tasks.rbegin(), tasks.rend());
  const auto usual_of = [&](const std::pair<char, std::string>& k) {
    return base.count(k) ? (base.at(k) * (k.first == 's' ? nwin : nirq) + 999) / 1000 : 0;
  };
  // The softirq that ran most often there: /proc/softirqs counts runs, not time,
  // and a storm batches (its count per window can fall below its routine), so
  // the most frequent is named, with its figures, for the reader to judge.
  const std::pair<char, std::string>* most = nullptr;
  std::uint64_t most_n = 0;
  for (const auto& [k, n] : counts)
    if (k.first == 's' && (most == nullptr || n > most_n)) {
      most = &k;
      most_n = n;
    }
  const std::string softirq = most ? most->second : "softirqs";
  const std::string figures = most ? "; " + softirq + " x" + std::to_string(most_n) + " there (usually " +
                                         std::to_string(usual_of(*most)) + " in as long)"
                                   : "";
  const std::string ksoftirqd = "ksoftirqd/" + std::to_string(cpu);
  const auto ran_text = [&](std::uint64_t ns, int pid, const std::string& comm) {
    return comm + " (pid " + std::to_string(pid) + ") ran " + format_ns(ns) + " on " + where + " (in the " +
           format_ns(task_to - task_from) + " around it)";
  };
  std::string deferred;  // the softirq that ksoftirqd's run time or the softirq time is put down to
  for (const auto& [ns, pid, comm] : tasks) {
    if (comm != ksoftirqd) continue;
    // Softirqs the kernel deferred to this CPU's thread ran there, whatever the
    // client's record says (a request queued behind them waits before the
    // client sees anything).
    deferred = "softirq " + softirq + " on " + where;
    out.push_back({"softirq", host, deferred,
                   "softirq " + softirq + " in " + ran_text(ns, pid, comm) + figures, cpu, "", pid, comm});
  }
  // Softirq time (/proc/stat, inline at interrupt exit or in ksoftirqd) over
  // twice its routine and a jiffy: the CPU was busy in softirqs, whoever ran.
  const std::uint64_t soft_usual = usual_of({'t', ""});
  if (deferred.empty() && soft > 2 * soft_usual + 1) {
    deferred = "softirq " + softirq + " on " + where;
    const auto ms = [&](std::uint64_t j) {
      return format_ns(j * 1000000000ull / static_cast<std::uint64_t>(w.user_hz));
    };
    out.push_back({"softirq", host, deferred,
                   "softirq " + softirq + ": " + ms(soft) + " of softirq time on " + where + " (usually " +
                       ms(soft_usual) + " in as long)" + figures,
                   cpu});
  }
  for (const auto& [ns, pid, comm] : tasks) {
    if (comm == ksoftirqd || !tasks_count) continue;
    out.push_back({"preempted", host, comm + " (pid " + std::to_string(pid) + ") on " + where,
                   switches + ran_text(ns, pid, comm), cpu, "", pid, comm});
    break;
  }
  for (const auto& [k, n] : counts) {
    const std::uint64_t usual = usual_of(k);
    if (n <= 2 * usual + 3) continue;  // within the run's routine
    const bool irq = k.first == 'i';
    const std::string what = (irq ? "IRQ " : "softirq ") + k.second;
    if (what + " on " + where == deferred) continue;  // its figures are in that evidence
    out.push_back({irq ? "irq" : "softirq", host, what + " on " + where,
                   what + " x" + std::to_string(n) + " on " + where + " (usually " + std::to_string(usual) +
                       " in as long)",
                   cpu, irq ? k.second : ""});
  }
  if (steal > 0) {
    const std::string ms = format_ns(steal * 1000000000ull / static_cast<std::uint64_t>(w.user_hz));
    out.push_back({"steal", host, "steal on " + where, "steal " + ms + " (hypervisor) on " + where});
  }
  if (smi > 0)
    out.push_back({"smi", host, "SMI on " + where, "SMI +" + std::to_string(smi) + " on " + where});
  return out;
}

/// Host b's clock minus host a's, from the requests both kept: the server
/// read each somewhere inside the client's round trip, taken as its middle, so
/// the median's error is at most half that request's round trip.
std::optional<ClockOffset> clock_offset(const OutlierSet& client, const OutlierSet& server) {
  std::map<std::uint64_t, const OutlierRecord*> by_seq;
  for (const OutlierRecord& s : server.items) by_seq[s.seq] = &s;
  std::vector<std::pair<std::int64_t, std::uint64_t>> d;  // offset, its bound
  for (const OutlierRecord& c : client.items) {
    auto it = by_seq.find(c.seq);
    if (it != by_seq.end())
      d.emplace_back(static_cast<std::int64_t>(it->second->at_ns) -
                         static_cast<std::int64_t>(c.at_ns - c.value_ns / 2),
                     (c.value_ns + 1) / 2);
  }
  if (d.empty()) return std::nullopt;
  std::nth_element(d.begin(), d.begin() + static_cast<long>(d.size() / 2), d.end());
  const auto& [ns, bound] = d[d.size() / 2];
  return ClockOffset{ns, bound,
                     "the median over " + std::to_string(d.size()) + " requests both probes kept as outliers"};
}

bool covers(const WatchOutput* w, const Span& s) {
  if (w == nullptr) return false;
  for (const WatchWindow& win : w->windows)
    if (overlaps(win.t0, win.t1, s)) return true;
  return false;
}

}  // namespace

std::string format_ns(std::uint64_t ns) {
  char buf[32];
  if (ns < 1000)
    std::snprintf(buf, sizeof buf, "%llu ns", static_cast<unsigned long long>(ns));
  else if (ns < 1000000)
    std::snprintf(buf, sizeof buf, "%llu us", static_cast<unsigned long long>((ns + 500) / 1000));
  else
    std::snprintf(buf, sizeof buf, "%.1f ms", static_cast<double>(ns) / 1e6);
  return buf;
}

std::string kept_limit(const WatchOutput& w, const std::string& then) {
  if (w.windows_not_kept == 0 || w.windows.empty()) return "";
  return "host " + w.host + ": noise watch: only its last " +
         format_ns(w.windows.back().t1 - w.windows.front().t0) + " were kept (" +
         std::to_string(w.windows_not_kept) + " earlier windows not kept): " + then;
}

void watch_limits(const WatchOutput* w, const std::string& host, std::vector<std::string>& limits) {
  if (w == nullptr) {
    limits.push_back("host " + host + ": no noise watch output");
    return;
  }
  const std::pair<const char*, const std::string*> sources[] = {
      {"SMI", &w->smi_source}, {"softirqs", &w->softirq_source}, {"tasks", &w->task_source}};
  for (const auto& [what, s] : sources)
    if (s->rfind("not available", 0) == 0) limits.push_back("host " + host + ": " + what + ": " + *s);
}

std::vector<Evidence> window_evidence(const WatchOutput& w, int cpu, std::uint64_t from_ns,
                                      std::uint64_t to_ns, std::uint64_t excess_ns, const std::string& host,
                                      const std::vector<std::string>& own_comms) {
  return host_evidence(w, cpu, Span{from_ns, to_ns}, excess_ns, host, own_comms, baseline(w, cpu), "");
}

Attribution attribute(const AttributionInput& in) {
  Attribution out;
  if (in.client == nullptr) return out;
  const std::string& a = in.client_host;
  const std::string& b = in.server_host;
  std::map<std::uint64_t, const OutlierRecord*> server_by_seq;
  if (in.server)
    for (const OutlierRecord& s : in.server->items) server_by_seq[s.seq] = &s;
  // Host b's watch is joined on host b's clock: the estimator's offset (its
  // best exchange's round trip, microseconds) before the outliers' (theirs, up
  // to the round trips that make them outliers).
  std::optional<ClockOffset> offset_found = in.clock_offset;
  if (!offset_found && in.server) offset_found = clock_offset(*in.client, *in.server);
  out.clock_offset = offset_found;
  const std::int64_t offset = offset_found ? offset_found->ns : 0;
  std::optional<int> server_cpu = in.server_cpu;
  if (!server_cpu && in.server)
    for (const OutlierRecord& s : in.server->items)
      if (s.cpu_after) server_cpu = s.cpu_after;
  std::map<int, Baseline> base_a, base_b;
  std::vector<OutlierRecord> items = in.client->items;
  std::sort(items.begin(), items.end(), [](const auto& x, const auto& y) { return x.value_ns > y.value_ns; });
  std::map<std::string, RankedCause> ranked;
  for (const OutlierRecord& o : items) {
    OutlierCause c{o.seq, o.value_ns, o.at_ns, {}, ""};
    const std::uint64_t excess = o.value_ns > in.typical_ns ? o.value_ns - in.typical_ns : 0;
    const Span on_a{o.at_ns - std::min(o.at_ns, o.value_ns), o.at_ns};
    std::vector<std::string> split;
    // Host a: the client.
    const std::optional<int> cpu_a = o.cpu_after ? o.cpu_after : o.cpu_before;
    // The client's own record can clear its CPU's tasks: not preempted across
    // this request and the reply read at once (it was waiting for it), so
    // whatever else ran there did not hold it up. Interrupts still count: they
    // can delay the reply before it is stamped.
    const bool client_ran = o.involuntary && *o.involuntary == 0 && o.ctx_from_seq == o.seq &&
                            o.sock_wait_ns && *o.sock_wait_ns < excess / 4;
    if (in.watch_client && cpu_a) {
      if (!base_a.count(*cpu_a)) base_a[*cpu_a] = baseline(*in.watch_client, *cpu_a);
      // The switch counts cover requests ctx_from_seq..seq: said so when that is more than this one.
      std::string switches;
      if (o.involuntary && *o.involuntary > 0)
        switches = "preempted: " + std::to_string(*o.involuntary) + " involuntary switches" +
                   (o.ctx_from_seq == o.seq
                        ? std::string()
                        : " in " + in.samples + " " + std::to_string(o.ctx_from_seq) + "-" +
                              std::to_string(o.seq)) +
                   "; ";
      for (Evidence& e : host_evidence(*in.watch_client, *cpu_a, on_a, excess, a, in.own_comms,
                                       base_a[*cpu_a], switches, !client_ran))
        c.evidence.push_back(std::move(e));
    }
    if (o.sock_wait_ns) {
      split.push_back(in.packet + " waited " + format_ns(*o.sock_wait_ns) + " in host " + a + "'s socket");
      if (client_ran) split.push_back("the " + in.reader + " was not held up (no involuntary switch)");
      if (*o.sock_wait_ns >= excess / 2 && excess > 0 && c.evidence.empty())
        c.evidence.push_back({"client_not_running", a,
                              in.reader + " not running (" + in.packet + " waited in the socket) on host " + a,
                              "the " + in.packet + " waited " + format_ns(*o.sock_wait_ns) + " in host " + a +
                                  "'s socket: the " + in.reader + " was not running"});
    }
    // Host b: the server's record of the same request, and its watch.
    auto rec = server_by_seq.find(o.seq);
    if (rec != server_by_seq.end()) {
      const OutlierRecord& s = *rec->second;
      // A stamped server's value opens with the request's wait in its socket:
      // the server not running then (held off its CPU) is told from its turnaround.
      const std::uint64_t waited =
          in.server->from_arrival && s.sock_wait_ns ? std::min<std::uint64_t>(*s.sock_wait_ns, s.value_ns) : 0;
      const std::uint64_t turnaround = s.value_ns - waited;
      if (in.server->from_arrival && s.sock_wait_ns)
        split.push_back("request waited " + format_ns(waited) + " in host " + b + "'s socket");
      split.push_back("server turnaround " + format_ns(turnaround) + " on host " + b);
      if (waited >= excess / 2 && excess > 0)
        c.evidence.push_back({"server_not_running", b,
                              "server not running (request waited in its socket) on host " + b,
                              "the request waited " + format_ns(waited) + " in host " + b +
                                  "'s socket: the server was not running"});
      if (turnaround >= excess / 2 && excess > 0)
        c.evidence.push_back({"server_turnaround", b, "server turnaround on host " + b,
                              "server turnaround " + format_ns(turnaround) + " on host " + b});
    } else if (in.server && in.server->floor_ns > 0) {
      split.push_back("server " + std::string(in.server->from_arrival ? "time from arrival" : "turnaround") +
                      " at most " + format_ns(in.server->floor_ns) + " on host " + b);
    }
    std::optional<Span> on_b;
    if (offset_found) {
      const std::int64_t from = static_cast<std::int64_t>(on_a.from) + offset;
      const std::int64_t to = static_cast<std::int64_t>(on_a.to) + offset;
      if (from > 0) on_b = Span{static_cast<std::uint64_t>(from), static_cast<std::uint64_t>(to)};
    }
    if (in.watch_server && server_cpu && on_b) {
      if (!base_b.count(*server_cpu)) base_b[*server_cpu] = baseline(*in.watch_server, *server_cpu);
      for (Evidence& e : host_evidence(*in.watch_server, *server_cpu, *on_b, excess, b, in.own_comms,
                                       base_b[*server_cpu], ""))
        c.evidence.push_back(std::move(e));
    }
    // Wire: both hosts watched at that moment, nothing on either, and (where
    // known) the reply did not wait in the client's socket.
    const bool quiet_socket = !o.sock_wait_ns || *o.sock_wait_ns < excess / 4;
    if (c.evidence.empty() && covers(in.watch_client, on_a) && on_b && covers(in.watch_server, *on_b) &&
        quiet_socket && excess > 0)
      c.evidence.push_back(
          {"wire", "", "nothing on either host: wire or NIC", "nothing on either host: wire or NIC"});
    for (std::size_t i = 0; i < split.size(); ++i) c.split += (i ? "; " : "") + split[i];
    std::set<std::string> keys;
    for (const Evidence& e : c.evidence) {
      if (!keys.insert(e.key).second) continue;
      RankedCause& r = ranked[e.key];
      r.key = e.key;
      r.kind = e.kind;
      ++r.count;
    }
    if (c.evidence.empty()) ++out.unexplained;
    out.outliers.push_back(std::move(c));
  }
  for (auto& [k, r] : ranked) out.ranked.push_back(r);
  std::stable_sort(out.ranked.begin(), out.ranked.end(),
                   [](const RankedCause& x, const RankedCause& y) { return x.count > y.count; });
  watch_limits(in.watch_client, a, out.limits);
  if (!in.one_host) watch_limits(in.watch_server, b, out.limits);
  if (!in.one_host && in.watch_server && !offset_found)
    out.limits.push_back("host " + b + ": its noise watch could not be placed on host " + a +
                         "'s clock (no one-way clock offset, no request both probes kept): not consulted");
  const std::string of = " of " + std::to_string(out.outliers.size()) + " " + in.outliers_name;
  if (out.outliers.empty())
    out.top = "";
  else if (out.ranked.empty())
    out.top = std::to_string(out.unexplained) + of + " unexplained (no evidence on " +
              (in.one_host ? "host " + a : std::string("either host")) + ")";
  else
    out.top = std::to_string(out.ranked.front().count) + of + ": " + out.ranked.front().key;
  return out;
}

}  // namespace labgate::tail
