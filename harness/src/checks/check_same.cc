// same_on_all_hosts: a fact path ("kernel_release", "sysctl",
// "modules.tg3.version", "interfaces.eth1.mtu", "cpu.max_cstate", ...) must
// read the same on every host; "sysctl" and "modules.<m>.parameters" expand to
// one rule per key, so a difference names the key.
#include <set>

#include "labgate/checks/checks.h"
#include "labgate/profile/cpu_list.h"
#include "rules.h"

namespace labgate::checks {
namespace {

using internal::cstate_in_force;
using internal::shown;

/// One host's value of a fact path.
struct Resolved {
  std::optional<std::string> value;  ///< "(absent)" when the thing does not exist
  std::string source;
  std::string unreadable;  ///< non-empty: why the host cannot show it
};

Resolved from_text(const facts::Text& t) {
  if (internal::unreadable(t) || (!t.value && t.error.empty() && !t.missing))
    return {std::nullopt, t.source, t.error.empty() ? "not reported" : internal::why_unreadable(t)};
  return {shown(t), t.source, ""};
}

Resolved from_int(const facts::Int& t) {
  if (!t.value) return {std::nullopt, t.source, internal::why_unreadable(t)};
  return {std::to_string(*t.value), t.source, ""};
}

// A settings group as "rx_usecs=0 tx_usecs=8"; one field the host cannot show makes it unknown.
Resolved from_settings(const facts::Settings& g, const std::string& path) {
  std::string joined;
  for (const auto& [field, t] : g) {
    if (!t.value)
      return {std::nullopt, t.source, field + ": " + (t.error.empty() ? t.note : t.error)};
    joined += (joined.empty() ? "" : " ") + field + "=" + *t.value;
  }
  if (g.empty()) return {std::nullopt, "", "the snapshot does not report " + path};
  return {joined, g.begin()->second.source, ""};
}

// Every CPU any IRQ of the NIC may fire on.
Resolved irq_cpus_of(const facts::InterfaceFacts& i) {
  if (!i.irqs.value) return {std::nullopt, i.irqs.source, i.irqs.error.empty() ? i.irqs.note : i.irqs.error};
  std::set<int> all;
  for (const auto& [irq, a] : i.irq_affinity) {
    const auto cpus = a.value ? profile::parse_cpu_list(*a.value) : std::nullopt;
    if (!cpus) return {std::nullopt, a.source, "the affinity of IRQ " + irq + " is unknown"};
    all.insert(cpus->begin(), cpus->end());
  }
  return {all.empty() ? "(no IRQ)" : profile::format_cpu_list(all), i.irqs.source, ""};
}

// "interfaces.eth0.100.mtu" -> {"eth0.100", "mtu"}: names may hold dots, fields do not.
std::pair<std::string, std::string> name_and_field(const std::string& path, const std::string& prefix) {
  const std::string rest = path.substr(prefix.size());
  const auto dot = rest.rfind('.');
  return dot == std::string::npos ? std::pair{rest, std::string()}
                                  : std::pair{rest.substr(0, dot), rest.substr(dot + 1)};
}

Resolved resolve(const facts::Facts& f, const std::string& path) {
  const Resolved none{std::nullopt, "", "the snapshot does not report " + path};
  if (path == "kernel_release") return f.has("kernel") ? from_text(f.kernel.release) : none;
  if (path == "kernel_cmdline") return f.has("kernel") ? from_text(f.kernel.cmdline) : none;
  if (path == "os_release") return f.has("os") ? from_text(f.os.release()) : none;
  if (path.rfind("sysctl.", 0) == 0) {
    auto it = f.sysctl.find(path.substr(7));
    return it == f.sysctl.end() ? none : from_text(it->second);
  }
  if (path.rfind("modules.", 0) == 0) {
    const auto params = path.find(".parameters.");
    const std::string m =
        params != std::string::npos ? path.substr(8, params - 8) : name_and_field(path, "modules.").first;
    auto it = f.modules.find(m);
    if (it == f.modules.end()) return none;
    if (params != std::string::npos) {
      auto p = it->second.parameters.find(path.substr(params + 12));
      return p == it->second.parameters.end() ? Resolved{"(absent)", "/sys/module/" + m + "/parameters", ""}
                                              : from_text(p->second);
    }
    return from_text(it->second.version);
  }
  if (path.rfind("interfaces.", 0) == 0) {
    const auto [name, field] = name_and_field(path, "interfaces.");
    auto it = f.interfaces.find(name);
    if (it == f.interfaces.end()) return none;
    const facts::InterfaceFacts& i = it->second;
    if (field == "mtu") return from_int(i.mtu);
    if (field == "driver") return from_text(i.driver);
    if (field == "numa_node") return from_int(i.numa_node);
    if (const facts::Settings* g = i.settings(field)) return from_settings(*g, path);
    if (field == "irq_cpus") return irq_cpus_of(i);
    if (field == "driver_version") return from_text(it->second.driver_version);
    if (field == "firmware_version") return from_text(it->second.firmware_version);
    return {std::nullopt, "", "unknown interface field " + field};
  }
  if (!f.has("cpu") && path.rfind("cpu.", 0) == 0) return none;
  if (path == "cpu.isolated") return from_text(f.cpu.isolated);
  if (path == "cpu.nohz_full") return from_text(f.cpu.nohz_full);
  if (path == "cpu.clocksource") return from_text(f.cpu.clocksource);
  if (path == "cpu.transparent_hugepage") return from_text(f.cpu.transparent_hugepage);
  if (path == "cpu.tuned_profile") return from_text(f.cpu.tuned_profile);
  if (path == "cpu.max_cstate") {
    const internal::CstateLimit l = cstate_in_force(f);
    if (!l.value) return {std::nullopt, l.source, l.explanation};
    return {std::to_string(*l.value), l.source, ""};
  }
  if (path == "cpu.hyperthreading") {
    const facts::Bool& ht = f.cpu.hyperthreading;
    if (!ht.value) return {std::nullopt, ht.source, ht.note.empty() ? internal::why_unreadable(ht) : ht.note};
    return {*ht.value ? "on" : "off", ht.source, ""};
  }
  if (path == "cpu.governor") {
    if (f.cpu.cpufreq.value != true) return {"(cpufreq inactive)", f.cpu.cpufreq.source, ""};
    std::set<std::string> gs;
    for (const auto& [cpu, g] : f.cpu.governors) gs.insert(shown(g));
    std::string joined;
    for (const std::string& g : gs) joined += (joined.empty() ? "" : ", ") + g;
    return {joined, "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor", ""};
  }
  return {std::nullopt, "", "\"" + path + "\" is not a fact labgate can compare"};
}

// The concrete paths a profile path stands for.
std::vector<std::string> expand(const std::string& path, const std::vector<HostFacts>& hosts,
                                const profile::Preconditions& pre) {
  std::set<std::string> keys;
  if (path == "sysctl") {
    for (const auto& e : pre.sysctl) keys.insert(e.key);
    for (const HostFacts& h : hosts)
      for (const auto& [k, v] : h.facts->sysctl) keys.insert(k);
    std::vector<std::string> out;
    for (const std::string& k : keys) out.push_back("sysctl." + k);
    return out;
  }
  if (path.rfind("modules.", 0) == 0 && path.size() > 19 && path.substr(path.size() - 11) == ".parameters") {
    const std::string m = path.substr(8, path.size() - 19);
    for (const auto& rule : pre.modules)
      if (rule.name == m)
        for (const auto& [p, v] : rule.parameters) keys.insert(p);
    for (const HostFacts& h : hosts)
      if (auto it = h.facts->modules.find(m); it != h.facts->modules.end())
        for (const auto& [p, v] : it->second.parameters) keys.insert(p);
    std::vector<std::string> out;
    for (const std::string& p : keys) out.push_back(path + "." + p);
    return out;
  }
  return {path};
}

CheckResult compare(const std::string& path, const std::vector<HostFacts>& hosts) {
  CheckResult r;
  r.host = "pair";
  r.rule = "pair/same/" + path;
  r.expected = "the same on every host";
  std::string unreadable;
  for (const HostFacts& h : hosts) {
    const Resolved v = resolve(*h.facts, path);
    r.values.push_back({h.host, v.value.value_or("(unknown)"), v.source});
    if (!v.unreadable.empty()) unreadable += (unreadable.empty() ? "" : "; ") + h.host + ": " + v.unreadable;
  }
  std::string side_by_side;
  for (const HostValue& v : r.values)
    side_by_side += (side_by_side.empty() ? "" : ", ") + v.host + " " + v.value + " (" + v.source + ")";
  r.found = side_by_side;
  r.source = r.values.empty() ? "" : r.values.front().source;
  if (hosts.size() < 2) {
    r.verdict = Verdict::kNotCheckable;
    r.reason = "only " + std::to_string(hosts.size()) + " host to compare";
  } else if (!unreadable.empty()) {
    r.verdict = Verdict::kNotCheckable;
    r.reason = unreadable;
  } else {
    bool same = true;
    for (const HostValue& v : r.values) same = same && v.value == r.values.front().value;
    r.verdict = same ? Verdict::kPass : Verdict::kFail;
  }
  if (r.verdict == Verdict::kNotCheckable)
    r.message = "pair: " + path + " not checkable: " + r.reason;
  else if (r.verdict == Verdict::kPass)
    r.message = "pair: " + path + " is " + r.values.front().value + " on every host";
  else {
    r.message = "pair: " + path + " differs: " + side_by_side;
    r.fix = internal::note("Make " + path +
                           " the same on every host; the per-host rules say which value the profile wants.");
  }
  return r;
}

}  // namespace

std::vector<CheckResult> check_same(const std::vector<HostFacts>& hosts, const profile::Preconditions& pre) {
  std::vector<CheckResult> out;
  for (const std::string& path : pre.same_on_all_hosts)
    for (const std::string& concrete : expand(path, hosts, pre)) out.push_back(compare(concrete, hosts));
  return out;
}

}  // namespace labgate::checks
