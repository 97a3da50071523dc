// interfaces, the NIC's tuning: link speed and duplex (ETHTOOL_GSET), coalescing,
// rings, channels, offloads and pause (ETHTOOL_G*), the NUMA node, where its
// IRQs may fire (irq_cpus) and which test network it carries. What the kernel
// or driver cannot report is "not checkable" with the ioctl's answer.
#include <algorithm>
#include <cstdio>

#include "labgate/profile/cpu_list.h"
#include "rules.h"

namespace labgate::checks::internal {
namespace {

// Since when each ETHTOOL_G* exists, to tell "this kernel is too old" from "this driver does not say".
std::string why_not(const facts::Text& t, const std::string& group = "", const std::string& field = "") {
  std::string why = t.error.empty() ? (t.note.empty() ? "not reported" : t.note) : t.error;
  why = t.source + ": " + why;
  if (t.error == "Not supported" || t.error == "Operation not supported") {
    if (group == "channels")
      why += " (the kernel or driver cannot report it; ETHTOOL_GCHANNELS exists from 2.6.37)";
    else if (group == "offload" && field == "gro")
      why += " (the kernel or driver cannot report it; ETHTOOL_GGRO exists from 2.6.30)";
    else if (group == "offload" && field == "lro")
      why += " (the kernel or driver cannot report it; the LRO flag exists from 2.6.24)";
    else
      why += " (the driver does not report it)";
  }
  return why;
}

// `ethtool` words and NetworkManager's ethtool.* property for a field.
struct Knob {
  std::string ethtool_flag, ethtool_word, nm;
};
Knob knob_of(const std::string& group, const std::string& field) {
  std::string dashed = field;
  for (char& ch : dashed)
    if (ch == '_') ch = '-';
  if (group == "coalesce") return {"-C", dashed, "coalesce-" + dashed};
  if (group == "ring") return {"-G", field, "ring-" + field};
  if (group == "channels") return {"-L", field, "channels-" + field};
  if (group == "offload") return {"-K", field, "feature-" + field};
  return {"-A", field, "pause-" + field};
}

std::string settings_fix(const Ctx& c, const std::string& ifname, const std::string& group,
                         const std::string& field, const std::string& want) {
  const Knob k = knob_of(group, field);
  const std::string cmd = "ethtool " + k.ethtool_flag + " " + sh_quote(ifname) + " " + k.ethtool_word + " " + want;
  if (style_of(c.f) == Style::kRhelSysv)
    return cmd + "\n# and for every boot (RHEL 5 has no ETHTOOL_OPTS for this): the same line in /etc/rc.d/rc.local";
  const std::string nm_value = want == "on" ? "on" : want == "off" ? "off" : want;
  return cmd + "\n# and for every boot, on the connection of " + ifname + " (NetworkManager 1.26+):\nnmcli connection modify " +
         sh_quote(ifname) + " ethtool." + k.nm + " " + nm_value;
}

void judge_settings(Ctx& c, const profile::InterfaceRule& rule, const facts::InterfaceFacts& i) {
  for (const auto& [group, fields] : rule.settings) {
    const facts::Settings* have = i.settings(group);
    for (const auto& [field, want] : fields) {
      CheckResult& r = start(c, "interfaces/" + rule.name + "/" + group + "/" + field, want);
      auto it = have ? have->find(field) : facts::Settings::const_iterator();
      if (!have || it == have->end()) {
        not_checkable(r, "the snapshot does not report " + rule.name + " " + group + " " + field, "");
        continue;
      }
      const facts::Text& t = it->second;
      const std::string what = rule.name + " " + group + " " + field + " (" + t.source + ")";
      if (!t.value)
        not_checkable(r, why_not(t, group, field), t.source);
      else if (*t.value == want)
        pass(r, what, *t.value, t.source);
      else
        fail(r, what, *t.value, t.source, settings_fix(c, rule.name, group, field, want));
      if (group == "pause" && t.value) r.notes.push_back("pause is the configured setting (ETHTOOL_GPAUSEPARAM), not what the link partner agreed");
    }
  }
}

void judge_link_details(Ctx& c, const profile::InterfaceRule& rule, const facts::InterfaceFacts& i) {
  if (rule.speed_mbps) {
    CheckResult& r = start(c, "interfaces/" + rule.name + "/link/speed", std::to_string(*rule.speed_mbps) + " Mb/s");
    const std::string what = rule.name + " speed (" + i.speed_mbps.source + ")";
    if (!i.speed_mbps.value)
      not_checkable(r, i.speed_mbps.source + ": " + (i.speed_mbps.error.empty() ? i.speed_mbps.note : i.speed_mbps.error),
                    i.speed_mbps.source);
    else if (*i.speed_mbps.value == *rule.speed_mbps)
      pass(r, what, r.expected, i.speed_mbps.source);
    else
      fail(r, what, std::to_string(*i.speed_mbps.value) + " Mb/s", i.speed_mbps.source,
           note("The link negotiated " + std::to_string(*i.speed_mbps.value) +
                " Mb/s: check the cable/optics, the switch port and `ethtool " + rule.name + "`."));
  }
  if (rule.duplex) {
    CheckResult& r = start(c, "interfaces/" + rule.name + "/link/duplex", *rule.duplex);
    if (!i.duplex.value)
      not_checkable(r, why_not(i.duplex), i.duplex.source);
    else if (*i.duplex.value == *rule.duplex)
      pass(r, rule.name + " duplex (" + i.duplex.source + ")", *i.duplex.value, i.duplex.source);
    else
      fail(r, rule.name + " duplex (" + i.duplex.source + ")", *i.duplex.value, i.duplex.source,
           note("Half duplex on a server link is a negotiation fault: fix the switch port, do not force it here."));
  }
}

void judge_numa(Ctx& c, const profile::InterfaceRule& rule, const facts::InterfaceFacts& i) {
  if (!rule.numa_node) return;
  CheckResult& r = start(c, "interfaces/" + rule.name + "/numa_node", std::to_string(*rule.numa_node));
  const facts::Int& n = i.numa_node;
  if (!n.value)
    not_checkable(r, n.source + ": " + (n.error.empty() ? n.note : n.error) +
                         (n.missing ? " (no PCI device behind " + rule.name + ")" : ""),
                  n.source);
  else if (*n.value < 0)
    not_checkable(r, n.source + " is -1: the firmware gives no proximity information, so no node can be told", n.source);
  else if (*n.value == *rule.numa_node)
    pass(r, rule.name + " NUMA node (" + n.source + ")", r.expected, n.source);
  else
    fail(r, rule.name + " NUMA node (" + n.source + ")", std::to_string(*n.value), n.source,
         note("The NIC sits in a slot of node " + std::to_string(*n.value) +
              ": move the card to a slot of node " + r.expected + ", or change the profile's CPUs to node " +
              std::to_string(*n.value) + "."));
}

void judge_irqs(Ctx& c, const profile::InterfaceRule& rule, const facts::InterfaceFacts& i) {
  if (!rule.irq_cpus) return;
  CheckResult& r = start(c, "interfaces/" + rule.name + "/irq_cpus", *rule.irq_cpus);
  const std::set<int> allowed = profile::parse_cpu_list(*rule.irq_cpus).value_or(std::set<int>{});
  if (!i.irqs.value) {
    not_checkable(r, i.irqs.source + ": " + (i.irqs.error.empty() ? i.irqs.note : i.irqs.error), i.irqs.source);
    return;
  }
  if (i.irqs.value->empty()) {
    not_checkable(r, "no IRQ of " + rule.name + " found (" + i.irqs.source + ": " + i.irqs.note + ")", i.irqs.source);
    return;
  }
  std::string off, unknown, fix, source;
  for (const std::string& irq : *i.irqs.value) {
    auto a = i.irq_affinity.find(irq);
    const auto cpus = a != i.irq_affinity.end() && a->second.value ? profile::parse_cpu_list(*a->second.value)
                                                                    : std::nullopt;
    if (!cpus) {
      unknown += (unknown.empty() ? "" : ", ") + irq;
      continue;
    }
    if (std::includes(allowed.begin(), allowed.end(), cpus->begin(), cpus->end())) continue;
    off += (off.empty() ? "" : ", ") + std::string("IRQ ") + irq + " on " + *a->second.value;
    if (source.empty()) source = a->second.source;
    auto m = i.irq_managed.find(irq);
    if (m != i.irq_managed.end() && m->second.value == true) {
      fix += note("IRQ " + irq + " is managed by the kernel: its affinity cannot be written; keep it off "
                  "these CPUs with isolcpus=managed_irq,<isolated CPUs> on the kernel line") + "\n";
    } else if (style_of(c.f) == Style::kRhelSysv) {
      fix += "echo " + profile::format_cpu_mask(allowed) + " > /proc/irq/" + irq + "/smp_affinity\n";
    } else {
      fix += "echo " + *rule.irq_cpus + " > /proc/irq/" + irq + "/smp_affinity_list\n";
    }
  }
  if (!off.empty()) {
    fix += style_of(c.f) == Style::kRhelSysv
               ? note("and for every boot: the same lines in /etc/rc.d/rc.local, with irqbalance off")
               : note("and for every boot: irqbalance off (or IRQBALANCE_BANNED_CPULIST), or tuned's "
                      "cpu-partitioning / realtime profile with its isolated_cores");
    fail_with(r, rule.name + " IRQs fire outside " + *rule.irq_cpus + ": " + off + " (" + source + ")", off, source,
              fix);
  } else if (!unknown.empty()) {
    not_checkable(r, "the affinity of IRQ " + unknown + " of " + rule.name + " could not be read", i.irqs.source);
  } else {
    pass(r, "every IRQ of " + rule.name + " (" + std::to_string(i.irqs.value->size()) + ", " + i.irqs.source + ")",
         "within " + *rule.irq_cpus, i.irqs.source);
  }
}

void judge_network(Ctx& c, const profile::InterfaceRule& rule, const facts::InterfaceFacts& i) {
  if (!rule.network) return;
  CheckResult& r = start(c, "interfaces/" + rule.name + "/network", *rule.network);
  auto use = c.pre.host_use.find(c.host);
  if (use == c.pre.host_use.end() || !use->second.networks.count(*rule.network)) {
    not_checkable(r, "host " + c.host + " has no test network " + *rule.network, "");
    return;
  }
  const auto net = use->second.networks.find(*rule.network);
  r.expected = *rule.network + " (" + net->second + ")";
  const AddressOnNic a = address_on(i, net->second);
  if (!a.holds)
    not_checkable(r, "the " + a.family + " addresses of " + rule.name + " could not be read", a.source);
  else if (*a.holds)
    pass(r, rule.name + " address (" + a.source + ")", net->second, a.source);
  else if (a.found == "(none)")
    fail_with(r, rule.name + " has no " + a.family + " address (" + a.source + "), profile wants " + r.expected,
              "(none)", a.source,
              note("Give " + rule.name + " the " + *rule.network + " address " + net->second + ", or fix the profile."));
  else
    fail(r, rule.name + " address (" + a.source + ")", a.found, a.source,
         note("The " + *rule.network + " network's address " + net->second + " is not on " + rule.name +
              ": check the cabling and the interface configuration."));
}

}  // namespace

void check_nic(Ctx& c, const profile::InterfaceRule& rule, const facts::InterfaceFacts& i) {
  judge_link_details(c, rule, i);
  judge_settings(c, rule, i);
  judge_numa(c, rule, i);
  judge_irqs(c, rule, i);
  judge_network(c, rule, i);
}

}  // namespace labgate::checks::internal
