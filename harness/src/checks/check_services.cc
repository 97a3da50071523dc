// services disabled: on SysV, off in runlevels 2-5 (S links in /etc/rc.d/rcN.d)
// and not running; xinetd services `disable = yes`; on systemd, not enabled and
// not active. A service that is not installed passes.
#include "rules.h"

namespace labgate::checks::internal {
namespace {

// "2 3 4 5" for the runlevels 2-5 with an S link.
std::string on_levels(const facts::ServiceFacts& s, std::string& link) {
  std::string out;
  for (std::size_t rl = 2; rl <= 5 && s.runlevels.value && rl < s.runlevels.value->size(); ++rl)
    if ((*s.runlevels.value)[rl] == "on") {
      out += (out.empty() ? "" : " ") + std::to_string(rl);
      if (link.empty() && rl < s.links.size() && s.links[rl]) link = *s.links[rl];
    }
  return out;
}

std::string stop_fix(const facts::Facts& f, const std::string& name, bool disable, bool stop) {
  const std::string n = sh_quote(name);
  if (style_of(f) == Style::kSystemd) {
    return disable && stop ? "systemctl disable --now " + n
           : disable       ? "systemctl disable " + n
                           : "systemctl stop " + n;
  }
  std::string out;
  if (disable) out += "chkconfig " + n + " off";
  if (stop) out += (out.empty() ? "" : "; ") + std::string("service ") + n + " stop";
  return out;
}

void sysv(Ctx& c, CheckResult& r, const std::string& name, const facts::ServiceFacts& s) {
  std::string link;
  const std::string levels = on_levels(s, link);
  const bool running = s.running.value.value_or(false);
  if (!s.runlevels.value) {
    not_checkable(r, why_unreadable(s.runlevels), s.runlevels.source);
    return;
  }
  if (levels.empty() && !s.running.value) {
    not_checkable(r, "off in runlevels 2-5, but whether it runs is unknown: " + why_unreadable(s.running),
                  s.running.source);
    return;
  }
  if (levels.empty() && !running) {
    r.verdict = Verdict::kPass;
    r.found = "off in 2-5, not running";
    r.source = s.runlevels.source;
    r.message =
        on_host(c.host, name + " is off in runlevels 2-5 (" + s.runlevels.source + ") and not running");
    return;
  }
  std::string what, found;
  if (!levels.empty()) {
    what = name + " is on in runlevels " + levels + " (" + link + ")";
    found = "on in " + levels;
  }
  if (running) {
    what += (what.empty() ? name + " is" : " and") + std::string(" running (") + s.running.source + ")";
    found += (found.empty() ? "" : ", ") + std::string("running");
  }
  fail_with(r, what + ", profile wants it off and stopped", found, levels.empty() ? s.running.source : link,
            stop_fix(c.f, name, !levels.empty(), running));
}

void systemd(Ctx& c, CheckResult& r, const facts::ServiceFacts& s) {
  const std::string state = s.enabled.value.value_or("");
  const bool enabled = state == "enabled";
  const bool running = s.running.value.value_or(false);
  if (!s.enabled.value) {
    not_checkable(r, why_unreadable(s.enabled), s.enabled.source);
    return;
  }
  if (!s.running.value) {
    not_checkable(r, why_unreadable(s.running), s.running.source);
    return;
  }
  if (!enabled && !running) {
    r.verdict = Verdict::kPass;
    r.found = state + ", inactive";
    r.source = s.enabled.source;
    r.message = on_host(c.host, s.unit + " is " + state + " (" + s.enabled.source + ") and not active");
    return;
  }
  std::string what = s.unit + " is", found;
  if (enabled) what += " enabled (" + s.enabled.source + ")", found = "enabled";
  if (running) {
    what += std::string(enabled ? " and" : "") + " active (" + s.running.source + ")";
    found += (found.empty() ? "" : ", ") + std::string("active");
  }
  // A vendor .wants link cannot be removed by `systemctl disable`; masking is the way.
  const bool vendor = s.enabled.source.rfind("/usr/lib/", 0) == 0 || s.enabled.source.rfind("/lib/", 0) == 0;
  fail_with(r, what + ", profile wants it disabled and inactive", found,
            enabled ? s.enabled.source : s.running.source,
            vendor ? "systemctl mask --now " + sh_quote(s.unit) : stop_fix(c.f, s.unit, enabled, running));
}

}  // namespace

void check_services(Ctx& c) {
  for (const std::string& name : c.pre.services_disabled) {
    CheckResult& r = start(c, "service/" + name, "disabled, not running");
    const facts::ServiceFacts* found = reported_service(c, r, name);
    if (!found) continue;
    const facts::ServiceFacts& s = *found;
    if (s.kind == "absent") {
      r.verdict = Verdict::kPass;
      r.found = "not installed";
      r.source = s.enabled.source;
      r.message = on_host(c.host, name + " is not installed (" + s.enabled.note + ")");
    } else if (s.kind == "xinetd") {
      if (!s.enabled.value)
        not_checkable(r, why_unreadable(s.enabled), s.enabled.source);
      else if (*s.enabled.value == "off")
        pass(r, name + " (xinetd, " + s.enabled.source + ")", "off", s.enabled.source);
      else
        fail(r, name + " (xinetd, " + s.enabled.source + ")", "on", s.enabled.source,
             style_of(c.f) == Style::kRhelSysv
                 ? "chkconfig " + sh_quote(name) + " off"
                 : note("set `disable = yes` in " + s.enabled.source + ", then reload xinetd"));
    } else if (s.kind == "systemd") {
      systemd(c, r, s);
    } else {
      sysv(c, r, name, s);
    }
  }
}

}  // namespace labgate::checks::internal
