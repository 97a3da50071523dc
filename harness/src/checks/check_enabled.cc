// services enabled = [...]: a service the profile needs (tuned, chronyd) is
// enabled at boot and running. SysV: on in runlevels 3 and 5 and running;
// systemd: enabled and active; not installed fails.
#include "rules.h"

namespace labgate::checks::internal {
namespace {

std::string service_start_fix(const facts::Facts& f, const std::string& name) {
  if (style_of(f) == Style::kSystemd) return "systemctl enable --now " + sh_quote(name);
  return "chkconfig " + sh_quote(name) + " on; service " + sh_quote(name) + " start";
}

}  // namespace

void check_services_enabled(Ctx& c) {
  for (const std::string& name : c.pre.services_enabled) {
    CheckResult& r = start(c, "service_enabled/" + name, "enabled, running");
    const facts::ServiceFacts* unit = reported_service(c, r, name);
    if (!unit) continue;
    const facts::ServiceFacts& s = *unit;
    if (s.kind == "absent") {
      fail_with(r, name + " is not installed (" + s.enabled.note + "), profile wants it enabled and running",
                "not installed", s.enabled.source,
                style_of(c.f) == Style::kSystemd
                    ? "dnf install -y " + sh_quote(name) + "\n" + service_start_fix(c.f, name)
                    : "yum install -y " + sh_quote(name) + "\n" + service_start_fix(c.f, name));
      continue;
    }
    if (!s.running.value) {
      not_checkable(r, why_unreadable(s.running), s.running.source);
      continue;
    }
    bool enabled = false;
    std::string source;
    if (s.kind == "systemd" || s.kind == "xinetd") {
      if (!s.enabled.value) {
        not_checkable(r, why_unreadable(s.enabled), s.enabled.source);
        continue;
      }
      enabled = *s.enabled.value == "enabled" || *s.enabled.value == "on";
      source = s.enabled.source;
    } else {
      if (!s.runlevels.value) {
        not_checkable(r, why_unreadable(s.runlevels), s.runlevels.source);
        continue;
      }
      const auto& rl = *s.runlevels.value;
      enabled = rl.size() == 7 && rl[3] == "on" && rl[5] == "on";
      source = s.runlevels.source;
    }
    const bool running = *s.running.value;
    const std::string found = std::string(enabled ? "enabled" : "not enabled") + ", " + (running ? "running" : "not running");
    if (enabled && running)
      pass(r, name + " (" + source + ", " + s.running.source + ")", found, source);
    else
      fail(r, name + " (" + source + ", " + s.running.source + ")", found,
           enabled ? s.running.source : source, service_start_fix(c.f, s.kind == "systemd" ? s.unit : name));
  }
}

}  // namespace labgate::checks::internal
