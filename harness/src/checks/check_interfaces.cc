// interfaces: driver, driver/firmware version (ETHTOOL_GDRVINFO), MTU and link
// (SIOCGIFMTU, SIOCGIFFLAGS), each against the profile.
#include "rules.h"

namespace labgate::checks::internal {
namespace {

std::string mtu_fix(const Ctx& c, const std::string& ifname, int mtu) {
  const std::string n = std::to_string(mtu);
  if (style_of(c.f) == Style::kRhelSysv) {
    const std::string cfg = "/etc/sysconfig/network-scripts/ifcfg-" + ifname;
    return "ifconfig " + sh_quote(ifname) + " mtu " + n + "\n# and for the next boot:\nsed -i '/^MTU=/d' " +
           sh_quote(cfg) + "\necho MTU=" + n + " >> " + sh_quote(cfg);
  }
  return "ip link set dev " + sh_quote(ifname) + " mtu " + n + "\n# and for the next boot: MTU=" + n +
         " in the interface's NetworkManager/ifupdown configuration";
}

std::string link_fix(const Ctx& c, const std::string& ifname, const std::string& want,
                     const facts::InterfaceFacts& i) {
  if (want == "down")
    return style_of(c.f) == Style::kRhelSysv ? "ifdown " + sh_quote(ifname)
                                             : "ip link set dev " + sh_quote(ifname) + " down";
  if (i.admin.value == "up")
    return note(ifname + " is up but has no carrier: check the cable, the switch port and the peer.");
  return style_of(c.f) == Style::kRhelSysv ? "ifup " + sh_quote(ifname)
                                           : "ip link set dev " + sh_quote(ifname) + " up";
}

void judge_text(Ctx& c, const profile::InterfaceRule& rule, const std::string& field,
                const std::optional<std::string>& want, const facts::Text& have, const std::string& fix) {
  if (!want) return;
  CheckResult& r = start(c, "interfaces/" + rule.name + "/" + field, *want);
  if (unreadable(have))
    not_checkable(r, why_unreadable(have), have.source);
  else if (have.value == want)
    pass(r, rule.name + " " + field + " (" + have.source + ")", *have.value, have.source);
  else
    fail(r, rule.name + " " + field + " (" + have.source + ")", shown(have), have.source, fix);
}

}  // namespace

void check_interfaces(Ctx& c) {
  for (const profile::InterfaceRule& rule : c.pre.interfaces) {
    auto found = c.f.interfaces.find(rule.name);
    if (found == c.f.interfaces.end() || found->second.exists.value != true) {
      CheckResult& r = start(c, "interfaces/" + rule.name, "present");
      if (found == c.f.interfaces.end())
        not_checkable(r, "the snapshot does not report " + rule.name, "");
      else if (!found->second.exists.value)
        not_checkable(r, why_unreadable(found->second.exists), found->second.exists.source);
      else
        fail_with(r, rule.name + " does not exist (" + found->second.exists.source + ")", "(absent)",
                  found->second.exists.source,
                  note("No interface " + rule.name + ": check the profile's name and the hardware."));
      continue;
    }
    const facts::InterfaceFacts& i = found->second;
    const std::string driver_fix =
        note("Install the " + rule.driver.value_or("required") + " driver " +
             rule.driver_version.value_or("") + " for this NIC, then reload it from the console.");
    judge_text(c, rule, "driver", rule.driver, i.driver, driver_fix);
    judge_text(c, rule, "driver_version", rule.driver_version, i.driver_version, driver_fix);
    judge_text(c, rule, "firmware_version", rule.firmware_version, i.firmware_version,
               note("Flash NIC firmware " + rule.firmware_version.value_or("") +
                    " (the vendor's firmware package, e.g. HP's Smart Component), then power-cycle."));
    if (rule.mtu) {
      CheckResult& r = start(c, "interfaces/" + rule.name + "/mtu", std::to_string(*rule.mtu));
      if (!i.mtu.value)
        not_checkable(r, why_unreadable(i.mtu), i.mtu.source);
      else if (*i.mtu.value == *rule.mtu)
        pass(r, rule.name + " MTU (" + i.mtu.source + ")", r.expected, i.mtu.source);
      else
        fail(r, rule.name + " MTU (" + i.mtu.source + ")", std::to_string(*i.mtu.value), i.mtu.source,
             mtu_fix(c, rule.name, *rule.mtu));
    }
    if (rule.link) {
      CheckResult& r = start(c, "interfaces/" + rule.name + "/link", *rule.link);
      if (unreadable(i.link)) {
        not_checkable(r, why_unreadable(i.link), i.link.source);
      } else if (i.link.value == rule.link) {
        pass(r, rule.name + " link (" + i.link.source + ")", *i.link.value, i.link.source);
      } else {
        fail(r, rule.name + " link (" + i.link.source + ")", shown(i.link), i.link.source,
             link_fix(c, rule.name, *rule.link, i));
        if (!i.link.note.empty()) r.message += "; " + i.link.note;
      }
    }
    check_nic(c, rule, i);
    check_multicast(c, rule, i);
  }
}

}  // namespace labgate::checks::internal
