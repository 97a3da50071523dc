// The tail's fix script (see tail_fixes.h): causes grouped over a run's
// outliers, each with the rule that would remove it and that rule's command.
#include "labgate/tail/tail_fixes.h"

#include <cctype>
#include <set>
#include <sstream>

#include "labgate/profile/cpu_list.h"
#include "labgate/profile/profile.h"

namespace labgate::tail {
namespace {

using nlohmann::json;

/// One cause over the run: how many outliers of which tests showed it, and
/// the tool cases that showed it over their whole run (no outliers of their own).
struct Group {
  std::string kind, host, irq, comm;
  int cpu = -1, pid = 0;
  std::size_t count = 0;
  std::string example{};                         ///< one evidence text, as run.json has it
  std::map<std::string, std::size_t> of_test{};  ///< test -> outliers it has
  std::map<std::string, std::string> over_run{};  ///< tool test -> where in it ("over the whole run")
};

/// One place a tail document keeps evidence: a sample's (`outliers` > 0: of
/// how many kept) or a tool run's, over the run or its worst interval (`where`).
struct EvidenceList {
  const json* evidence;
  std::size_t outliers;
  std::string where;
};

/// Every evidence list of one test's tail: a round-trip or stream case's
/// outliers, each CPU's of a jitter case ("per_cpu"), a tool case's run-level
/// causes and its worst interval's evidence.
void evidence_lists(const json& tail, std::vector<EvidenceList>& out) {
  if (!tail.is_object()) return;
  if (const auto per = tail.find("per_cpu"); per != tail.end() && per->is_object())
    for (const auto& [cpu, one] : per->items()) evidence_lists(one, out);
  if (const auto o = tail.find("outliers"); o != tail.end() && o->is_array())
    for (const json& x : *o)
      if (x.is_object() && x.contains("evidence") && x["evidence"].is_array())
        out.push_back({&x["evidence"], o->size(), ""});
  if (const auto c = tail.find("causes"); c != tail.end() && c->is_array())
    out.push_back({&*c, 0, "over the whole run"});
  if (const auto w = tail.find("worst_interval"); w != tail.end() && w->is_object())
    if (const auto e = w->find("evidence"); e != w->end() && e->is_array())
      out.push_back({&*e, 0, "in its worst interval"});
}

std::string one_line(std::string s) {
  for (char& ch : s)
    if (ch == '\n' || ch == '\r') ch = ' ';
  return s;
}

/// "57 eth2-rx-0" -> ("57", "eth2-rx-0"); a named one ("LOC") has no number.
std::pair<std::string, std::string> irq_parts(const std::string& irq) {
  const std::size_t sp = irq.find(' ');
  const std::string num = irq.substr(0, sp);
  for (char c : num)
    if (!std::isdigit(static_cast<unsigned char>(c))) return {"", irq};
  return {num, sp == std::string::npos ? "" : irq.substr(sp + 1)};
}

/// The profile's interface whose IRQs these are: its name opens the device's
/// ("eth2" of "eth2-TxRx-3"), longest first.
const std::pair<const std::string, std::string>* rule_for(const HostTuning& t, const std::string& device) {
  const std::pair<const std::string, std::string>* best = nullptr;
  for (const auto& kv : t.irq_cpus)
    if (device.rfind(kv.first, 0) == 0 && (best == nullptr || kv.first.size() > best->first.size()))
      best = &kv;
  return best;
}

/// A per-CPU kernel thread ("kworker/1:2", "ksoftirqd/1", "migration/1"): bound
/// to its CPU, it cannot be moved away.
bool per_cpu_kthread(const std::string& comm) {
  const std::size_t slash = comm.find('/');
  return slash != std::string::npos && slash + 1 < comm.size() &&
         std::isdigit(static_cast<unsigned char>(comm[slash + 1]));
}

std::string evidence_comment(const Group& g) {
  std::string tests, runs;
  for (const auto& [t, total] : g.of_test)
    tests += (tests.empty() ? "" : ", ") + t + " (" + std::to_string(total) + " outliers)";
  for (const auto& [t, where] : g.over_run) runs += (runs.empty() ? "" : ", ") + t + " " + where;
  std::string s = "# " + one_line(g.example) + "\n";
  if (!tests.empty()) s += "# seen in " + std::to_string(g.count) + " outliers of " + one_line(tests) + "\n";
  if (!runs.empty()) s += "# seen in the tool case " + one_line(runs) + " (a tool keeps no samples of its own)\n";
  return s;
}

void irq_fix(std::ostringstream& s, const Group& g, const HostTuning* t) {
  const auto [num, device] = irq_parts(g.irq);
  if (num.empty()) {
    s << "# (no fix line: " << g.irq
      << " is a per-CPU interrupt, not a device's; isolated CPUs with nohz_full take fewer)\n";
    return;
  }
  const auto* rule = t ? rule_for(*t, device) : nullptr;
  const auto allowed = rule ? profile::parse_cpu_list(rule->second) : std::nullopt;
  if (rule && allowed && !allowed->count(g.cpu) && !allowed->empty()) {
    s << "# the profile's irq_cpus of " << rule->first << " is " << rule->second << ": what its rule writes\n"
      << "echo " << profile::format_cpu_mask(*allowed) << " > /proc/irq/" << num << "/smp_affinity\n";
    return;
  }
  if (rule)
    s << "# the profile's irq_cpus of " << rule->first << " (" << rule->second << ") allows CPU " << g.cpu
      << ": change it in [preconditions.interfaces." << rule->first << "] to CPUs without " << g.cpu << "\n";
  else
    s << "# the profile has no irq_cpus for this device: add irq_cpus = \"<CPUs without " << g.cpu
      << ">\" to the [preconditions.interfaces.<its interface>] of host " << g.host
      << " so that labgate check keeps it so\n";
  // Until then: CPU g.cpu out of the IRQ's current mask (sh arithmetic: masks of up to 63 CPUs).
  if (g.cpu < 63)
    s << "m=$(tr -d , < /proc/irq/" << num << "/smp_affinity); printf '%x\\n' $((0x$m & ~(1 << " << g.cpu
      << "))) > /proc/irq/" << num << "/smp_affinity\n";
}

void task_fix(std::ostringstream& s, const Group& g, const HostTuning* t) {
  const auto isolated = t && t->isolated ? profile::parse_cpu_list(*t->isolated) : std::nullopt;
  if (per_cpu_kthread(g.comm)) {
    s << "# (no fix line: " << g.comm << " is a per-CPU kernel thread of CPU " << g.cpu
      << "; nohz_full and rcu_nocbs on the isolated CPUs take its work away)\n";
  } else {
    // Out of the test CPU now; the rule below keeps the scheduler from putting it back.
    if (g.cpu < 63)
      s << "m=$(taskset -p " << g.pid << " | sed 's/.*: //'); taskset -p $(printf '%x' $((0x$m & ~(1 << "
        << g.cpu << ")))) " << g.pid << " || echo 'pid " << g.pid << " (" << one_line(g.comm)
        << ") is gone'\n";
  }
  if (isolated && isolated->count(g.cpu)) {
    if (per_cpu_kthread(g.comm)) {
      s << "# CPU " << g.cpu << " is in the profile's isolated (" << *t->isolated << ") already\n";
      return;
    }
    s << "# CPU " << g.cpu << " is in the profile's isolated (" << *t->isolated << "): " << one_line(g.comm)
      << " was placed there (taskset, cgroup or a per-CPU thread)\n";
    return;
  }
  std::set<int> want = isolated.value_or(std::set<int>{});
  want.insert(g.cpu);
  s << "# the profile, so that labgate check fails a host where CPU " << g.cpu << " is shared:\n"
    << "#   [preconditions.cpu] isolated = \"" << profile::format_cpu_list(want) << "\"\n";
}

/// khugepaged exists to collapse huge pages; kcompactd compacts for any
/// high-order allocation, so it is THP's only where the host has it always on.
bool thp_task(const std::string& comm, const HostTuning* t) {
  return comm == "khugepaged" ||
         (comm.rfind("kcompactd", 0) == 0 && t != nullptr && t->thp_mode && *t->thp_mode == "always");
}

/// The transparent_hugepage rule for one host: a THP task among its causes
/// (`g`, count > 0), or its facts saying always while the run had outliers.
void thp_fix(std::ostringstream& s, const Group& g, const HostTuning* t) {
  const std::string want = t && t->transparent_hugepage ? *t->transparent_hugepage : "never";
  const bool always = t && t->thp_mode && *t->thp_mode == "always";
  s << "\n# --- host " << one_line(g.host) << ": transparent huge pages\n";
  const bool evidence = g.count > 0 || !g.over_run.empty();
  if (evidence) s << evidence_comment(g);
  if (t && t->thp_mode)
    s << (evidence ? "# " : "# seen in ") << "the facts of host " << one_line(g.host)
      << ": transparent huge pages " << one_line(*t->thp_mode) << " (" << one_line(t->thp_source) << ")\n";
  if (always && !evidence)
    s << "# no outlier was put down to khugepaged or compaction, but with always a page fault in the test's\n"
         "# own thread can stall in direct compaction, which the watch cannot tell from the thread running\n";
  if (t && t->thp_mode && *t->thp_mode == want) {
    s << "# (no fix line: the profile's transparent_hugepage is " << want
      << " already, as the host has it)\n";
    return;
  }
  const std::string file =
      t && !t->thp_source.empty() ? t->thp_source : "/sys/kernel/mm/transparent_hugepage/enabled";
  s << "echo " << want << " > " << one_line(file) << "\n";
  if (t && t->transparent_hugepage)
    s << "# the profile's [preconditions.cpu] transparent_hugepage is " << want
      << ": labgate check fails the host until it holds, and its fix gives the boot argument\n";
  else
    s << "# the profile, so that labgate check fails a host where it is not (its fix gives the boot "
         "argument):\n"
      << "#   [preconditions.cpu] transparent_hugepage = \"" << want << "\"\n";
}

}  // namespace

std::map<std::string, HostTuning> host_tuning(const profile::Profile& p) {
  std::map<std::string, HostTuning> out;
  const profile::Preconditions& pre = p.preconditions;
  for (const profile::Host& h : p.hosts) {
    if (!pre.hosts.empty() && std::find(pre.hosts.begin(), pre.hosts.end(), h.name) == pre.hosts.end())
      continue;
    HostTuning& t = out[h.name];
    if (pre.cpu) {
      t.isolated = pre.cpu->isolated;
      t.transparent_hugepage = pre.cpu->transparent_hugepage;
    }
    for (const profile::InterfaceRule& i : pre.interfaces)
      if (i.irq_cpus) t.irq_cpus[i.name] = *i.irq_cpus;
  }
  return out;
}

std::string tail_fix_script(const std::vector<std::pair<std::string, json>>& tails,
                            const std::map<std::string, HostTuning>& hosts, const std::string& origin) {
  std::map<std::string, Group> groups;  // by the cause's key
  std::vector<std::string> order;
  std::map<std::string, Group> thp;  // by host: outliers with a THP task among their causes
  bool outliers = false;
  // Where one evidence was seen: an outlier of `test` (of `total` kept), or a tool run.
  const auto seen = [](Group& g, const std::string& test, const EvidenceList& l) {
    if (l.outliers > 0) {
      ++g.count;
      g.of_test[test] = l.outliers;
    } else {
      g.over_run.emplace(test, l.where);
    }
  };
  for (const auto& [test, tail] : tails) {
    std::vector<EvidenceList> lists;
    evidence_lists(tail, lists);
    for (const EvidenceList& l : lists) {
      outliers = outliers || l.outliers > 0 || !l.evidence->empty();
      for (const json& e : *l.evidence) {
        if (!e.is_object()) continue;
        // A task that ran on a tool's CPU over its run is the same fix as a preemption.
        std::string kind = e.value("kind", "");
        if (kind == "shared_cpu") kind = "preempted";
        if ((kind != "irq" && kind != "preempted") || !e.value("cpu", json()).is_number_integer()) continue;
        if (kind == "irq" && e.value("irq", "").empty()) continue;
        if (kind == "preempted" && e.value("pid", 0) <= 0) continue;
        const std::string host = e.value("host", "");
        const auto th = hosts.find(host);
        if (kind == "preempted" && thp_task(e.value("comm", ""), th == hosts.end() ? nullptr : &th->second)) {
          Group& t = thp.emplace(host, Group{"thp", host, "", "", -1, 0}).first->second;
          if (t.example.empty()) t.example = e.value("text", "");
          seen(t, test, l);  // once per evidence: a THP task is one per outlier and host
        }
        Group g{kind,
                e.value("host", ""),
                e.value("irq", ""),
                e.value("comm", ""),
                e["cpu"].get<int>(),
                e.value("pid", 0)};
        const std::string key = kind + "|" + g.host + "|" + std::to_string(g.cpu) + "|" + g.irq + "|" +
                                std::to_string(g.pid) + "|" + g.comm;
        auto [it, fresh] = groups.emplace(key, g);
        if (fresh) {
          order.push_back(key);
          it->second.example = e.value("text", "");
        }
        seen(it->second, test, l);
      }
    }
  }
  // Hosts whose facts say always, with outliers in the run: the rule too.
  if (outliers)
    for (const auto& [host, t] : hosts)
      if (t.thp_mode && *t.thp_mode == "always") thp.emplace(host, Group{"thp", host, "", "", -1, 0});
  if (order.empty() && thp.empty()) return "";
  std::ostringstream s;
  s << "#!/bin/sh\n# labgate fix script for the tail: causes of this run's outliers that a precondition "
       "covers\n"
    << "# From: " << one_line(origin) << "\n"
    << "# Review every line before running it as root on the host it names. labgate never runs it.\n";
  for (const std::string& key : order) {
    const Group& g = groups.at(key);
    const auto h = hosts.find(g.host);
    s << "\n# --- host " << one_line(g.host) << ", CPU " << g.cpu << ": "
      << (g.kind == "irq" ? "IRQ " + one_line(g.irq)
                          : one_line(g.comm) + " (pid " + std::to_string(g.pid) + ")")
      << "\n"
      << evidence_comment(g);
    if (g.kind == "irq")
      irq_fix(s, g, h == hosts.end() ? nullptr : &h->second);
    else
      task_fix(s, g, h == hosts.end() ? nullptr : &h->second);
  }
  for (const auto& [host, g] : thp) {
    const auto h = hosts.find(host);
    thp_fix(s, g, h == hosts.end() ? nullptr : &h->second);
  }
  return s.str();
}

}  // namespace labgate::tail
