// cpu, the kernel's isolation and latency knobs: isolated and nohz_full CPUs,
// the clocksource, transparent huge pages, tuned's profile, and the rules that
// tie the profile's tests to the machine: every CPU a test pins to is
// isolated, takes no IRQ of the test's NIC, and sits on that NIC's NUMA node.
#include "labgate/profile/cpu_list.h"
#include "rules.h"

namespace labgate::checks::internal {
namespace {

using profile::format_cpu_list;
using profile::parse_cpu_list;

std::string reason_of(const facts::Text& t) {
  return t.source + ": " + (t.note.empty() ? (t.error.empty() ? "not reported" : t.error) : t.note);
}

// isolated / nohz_full: the CPU sets must be equal.
void judge_cpu_set(Ctx& c, const std::string& key, const std::optional<std::string>& want, const facts::Text& have,
                   const std::string& boot_arg) {
  if (!want) return;
  CheckResult& r = start(c, "cpu/" + key, *want);
  const auto w = parse_cpu_list(*want);
  const auto h = have.value ? parse_cpu_list(*have.value) : std::nullopt;
  if (!have.value || !h) {
    not_checkable(r, have.value ? have.source + ": \"" + *have.value + "\" is not a CPU list" : reason_of(have),
                  have.source);
    return;
  }
  const std::string found = h->empty() ? "(none)" : format_cpu_list(*h);
  const std::string what = key + " CPUs (" + have.source + (have.note.empty() ? "" : ", " + have.note) + ")";
  if (*h == *w) {
    pass(r, what, found, have.source);
    return;
  }
  std::string fix = boot_args_fix(c.f, {boot_arg + "=" + *want}, {});
  if (style_of(c.f) == Style::kSystemd)
    fix += "\n" + note("or tuned's cpu-partitioning profile: isolated_cores=" + *want +
                       " in /etc/tuned/cpu-partitioning-variables.conf, then tuned-adm profile cpu-partitioning");
  fail(r, what, found, have.source, fix);
  r.needs_reboot = true;
}

void judge_clocksource(Ctx& c, const std::string& want) {
  const facts::Text& t = c.f.cpu.clocksource;
  CheckResult& r = start(c, "cpu/clocksource", want);
  if (!t.value) {
    not_checkable(r, reason_of(t), t.source);
  } else if (*t.value == want) {
    pass(r, "the clocksource (" + t.source + ")", want, t.source);
  } else {
    fail(r, "the clocksource (" + t.source + ")", *t.value, t.source,
         "echo " + sh_quote(want) + " > " + t.source + "\n# and for every boot:\n" +
             boot_args_fix(c.f, {"clocksource=" + want}, {}));
    r.needs_reboot = true;
  }
}

void judge_thp(Ctx& c, const std::string& want) {
  const facts::Text& t = c.f.cpu.transparent_hugepage;
  CheckResult& r = start(c, "cpu/transparent_hugepage", want);
  if (!t.value && t.missing && want == "never") {
    r.verdict = Verdict::kPass;
    r.found = "(none in this kernel)";
    r.source = t.source;
    r.message = on_host(c.host, "this kernel has no transparent huge pages (" + t.source + "), as never wants");
  } else if (!t.value) {
    not_checkable(r, reason_of(t), t.source);
  } else if (*t.value == want) {
    pass(r, "transparent huge pages (" + t.source + ")", want, t.source);
  } else {
    const bool rhel6 = t.source.find("redhat_transparent_hugepage") != std::string::npos;
    fail(r, "transparent huge pages (" + t.source + ")", *t.value, t.source,
         "echo " + want + " > " + t.source + "\n# and for every boot:\n" +
             (style_of(c.f) == Style::kSystemd
                  ? boot_args_fix(c.f, {"transparent_hugepage=" + want}, {}) + "\n" +
                        note("or [vm] transparent_hugepages=" + want + " in the tuned profile")
                  : rhel6 ? "# the echo above in /etc/rc.d/rc.local (RHEL 6 has no boot argument for it)"
                          : boot_args_fix(c.f, {"transparent_hugepage=" + want}, {})));
  }
}

void judge_tuned(Ctx& c, const std::string& want) {
  const facts::Text& t = c.f.cpu.tuned_profile;
  CheckResult& r = start(c, "cpu/tuned_profile", want);
  const std::string fix = "tuned-adm profile " + sh_quote(want) + "\n" +
                          note("then `tuned-adm verify` says whether every setting of the profile holds");
  if (!t.value && t.missing)
    fail_with(r, "tuned is not installed (" + t.source + "), profile wants profile " + want, "(not installed)",
              t.source, (style_of(c.f) == Style::kSystemd ? "dnf install -y tuned\nsystemctl enable --now tuned\n"
                                                          : "yum install -y tuned\nchkconfig tuned on; service tuned start\n") +
                            fix);
  else if (!t.value)
    not_checkable(r, reason_of(t), t.source);
  else if (*t.value == want)
    pass(r, "tuned's active profile (" + t.source + ")", want, t.source);
  else
    fail(r, "tuned's active profile (" + t.source + ")", *t.value, t.source, fix);
}

// The host's CPUs: /sys/devices/system/cpu/online, else 0..logical_cpus-1.
std::optional<std::set<int>> host_cpus(const facts::Facts& f) {
  if (f.cpu.online.value) return parse_cpu_list(*f.cpu.online.value);
  if (f.cpu.logical_cpus.value && *f.cpu.logical_cpus.value > 0) {
    std::set<int> all;
    for (long long i = 0; i < *f.cpu.logical_cpus.value; ++i) all.insert(static_cast<int>(i));
    return all;
  }
  return std::nullopt;
}

std::optional<int> node_of(const facts::Facts& f, int cpu) {
  for (const auto& [node, list] : f.cpu.nodes)
    if (list.value)
      if (auto cpus = parse_cpu_list(*list.value); cpus && cpus->count(cpu)) return to_int(node.substr(4));
  return std::nullopt;
}

void judge_test_cpus(Ctx& c, bool isolated_rule) {
  const std::string rule = isolated_rule ? "cpu/test_cpus_isolated" : "cpu/test_cpus_nic_local";
  CheckResult& r = start(c, rule, isolated_rule ? "isolated, no NIC IRQ" : "on the NIC's NUMA node");
  auto use = c.pre.host_use.find(c.host);
  if (use == c.pre.host_use.end() || use->second.pinned.empty()) {
    not_checkable(r, "no test pins a CPU on host " + c.host, "");
    return;
  }
  const auto all = host_cpus(c.f);
  if (!all) {
    not_checkable(r, "the host's CPU list is unknown (" + reason_of(c.f.cpu.online) + ")", c.f.cpu.online.source);
    return;
  }
  const auto isolated = c.f.cpu.isolated.value ? parse_cpu_list(*c.f.cpu.isolated.value) : std::nullopt;
  std::string bad, unknown, fix;
  for (const profile::PinnedCpu& p : use->second.pinned) {
    const std::string who = "test " + p.test + " CPU " + std::to_string(p.cpu);
    if (!all->count(p.cpu)) {
      bad += (bad.empty() ? "" : "; ") + who + " does not exist (the host has CPUs " + format_cpu_list(*all) + ")";
      continue;
    }
    const std::string nic = nic_of_network(c, p.network);
    const facts::InterfaceFacts* i = nic.empty() ? nullptr : &c.f.interfaces.at(nic);
    if (isolated_rule) {
      if (!isolated)
        unknown += (unknown.empty() ? "" : "; ") + who + ": " + reason_of(c.f.cpu.isolated);
      else if (!isolated->count(p.cpu))
        bad += (bad.empty() ? "" : "; ") + who + " is not isolated (isolated: " +
               (isolated->empty() ? std::string("none") : format_cpu_list(*isolated)) + ")";
      if (!i) {
        unknown += (unknown.empty() ? "" : "; ") + who + ": no interface holds its test address";
        continue;
      }
      for (const auto& [irq, a] : i->irq_affinity)
        if (auto cpus = a.value ? parse_cpu_list(*a.value) : std::nullopt; cpus && cpus->count(p.cpu))
          bad += (bad.empty() ? "" : "; ") + who + " receives IRQ " + irq + " of " + nic + " (" + a.source + ")";
    } else {
      if (!i) {
        unknown += (unknown.empty() ? "" : "; ") + who + ": no interface holds its test address";
        continue;
      }
      const auto cpu_node = node_of(c.f, p.cpu);
      if (!i->numa_node.value || *i->numa_node.value < 0 || !cpu_node) {
        unknown += (unknown.empty() ? "" : "; ") + who + ": the NUMA node of " + nic + " or of the CPU is unknown";
        continue;
      }
      if (*cpu_node != *i->numa_node.value)
        bad += (bad.empty() ? "" : "; ") + who + " is on node " + std::to_string(*cpu_node) + ", " + nic +
               " on node " + std::to_string(*i->numa_node.value);
    }
  }
  if (!bad.empty()) {
    fail_with(r, bad, bad, isolated_rule ? c.f.cpu.isolated.source : "/sys/devices/system/node",
              note(isolated_rule ? "Pin the tests to isolated CPUs without NIC IRQs, or isolate those CPUs "
                                   "(isolcpus=/tuned cpu-partitioning) and move the IRQs (irq_cpus)."
                                 : "Pin the tests to CPUs of the NIC's node (the profile's cpu = {...}), or "
                                   "move the card."));
  } else if (!unknown.empty()) {
    not_checkable(r, unknown, "");
  } else {
    pass(r, "every CPU the tests pin to on " + c.host, isolated_rule ? "isolated, no NIC IRQ" : "on the NIC's node",
         c.f.cpu.isolated.source);
  }
}

}  // namespace

std::string nic_of_network(const Ctx& c, const std::string& network) {
  auto use = c.pre.host_use.find(c.host);
  if (use == c.pre.host_use.end()) return "";
  auto net = use->second.networks.find(network);
  if (net == use->second.networks.end() && network.empty() && !use->second.networks.empty())
    net = use->second.networks.begin();
  if (net == use->second.networks.end()) return "";
  for (const auto& [name, i] : c.f.interfaces)
    if (address_on(i, net->second).holds.value_or(false)) return name;
  return "";
}

void check_isolation(Ctx& c) {
  if (!c.pre.cpu) return;
  const profile::CpuRule& rule = *c.pre.cpu;
  if (!c.f.has("cpu")) {
    for (const char* k : {"isolated", "nohz_full", "clocksource", "transparent_hugepage", "tuned_profile"}) {
      const bool set = (std::string(k) == "isolated" && rule.isolated) || (std::string(k) == "nohz_full" && rule.nohz_full) ||
                       (std::string(k) == "clocksource" && rule.clocksource) ||
                       (std::string(k) == "transparent_hugepage" && rule.transparent_hugepage) ||
                       (std::string(k) == "tuned_profile" && rule.tuned_profile);
      if (set) not_checkable(start(c, std::string("cpu/") + k, ""), "the snapshot has no cpu section", "");
    }
    return;
  }
  judge_cpu_set(c, "isolated", rule.isolated, c.f.cpu.isolated, "isolcpus");
  judge_cpu_set(c, "nohz_full", rule.nohz_full, c.f.cpu.nohz_full, "nohz_full");
  if (rule.clocksource) judge_clocksource(c, *rule.clocksource);
  if (rule.transparent_hugepage) judge_thp(c, *rule.transparent_hugepage);
  if (rule.tuned_profile) judge_tuned(c, *rule.tuned_profile);
  if (rule.test_cpus_isolated) judge_test_cpus(c, true);
  if (rule.test_cpus_nic_local) judge_test_cpus(c, false);
}

}  // namespace labgate::checks::internal
