// clock: the system clock follows UTC. synchronized rests on the kernel's own
// answer (adjtimex) and on each time daemon that reported; max_error on the
// error bound of the daemon that disciplines the clock, else the kernel's
// maxerror; source on which daemon runs and reports synchronised. What cannot
// be read is "not checkable" with the reason, never a pass.
#include <cmath>

#include "labgate/util/units.h"
#include "rules.h"

namespace labgate::checks::internal {
namespace {

constexpr const char* kDaemons[] = {"chrony", "ntpd", "ptp4l"};

// The process that runs each daemon, as the facts' process list names it.
std::string process_of(const std::string& daemon) { return daemon == "chrony" ? "chronyd" : daemon; }

bool runs(const Ctx& c, const std::string& daemon) {
  for (const facts::ProcessFacts& p : c.f.processes)
    if (p.comm == process_of(daemon)) return true;
  return false;
}

const facts::ClockDaemonReport* report_of(const Ctx& c, const std::string& daemon) {
  for (const facts::ClockDaemonReport& d : c.f.clock.daemons)
    if (d.daemon == daemon) return &d;
  return nullptr;
}

// The reports that were read and say the clock is synchronised.
std::vector<const facts::ClockDaemonReport*> synced_reports(const Ctx& c) {
  std::vector<const facts::ClockDaemonReport*> out;
  for (const facts::ClockDaemonReport& d : c.f.clock.daemons)
    if (d.read && d.synchronized.value_or(false)) out.push_back(&d);
  return out;
}

// Starting the daemon, in the host's generation of init. RHEL 5 has ntpd only.
std::string clock_daemon_start_fix(const Ctx& c, const std::string& daemon) {
  const bool systemd = style_of(c.f) == Style::kSystemd;
  const std::string d = daemon == "any" ? (systemd ? "chrony" : "ntpd") : daemon;
  if (d == "ptp4l")
    return systemd ? "systemctl enable --now ptp4l phc2sys  # interface and options in /etc/sysconfig/ptp4l"
                   : "chkconfig ptp4l on; chkconfig phc2sys on; service ptp4l start; service phc2sys start";
  const std::string unit = d == "chrony" ? "chronyd" : "ntpd";
  return systemd ? "systemctl enable --now " + unit : "chkconfig " + unit + " on; service " + unit + " start";
}

// What to look at when a daemon runs but has no good source: read-only commands.
std::string diagnose_fix(const Ctx& c) {
  std::string out =
      note("the clock is not synchronised: see which sources are reachable and why none is chosen");
  if (runs(c, "chrony")) out += "\nchronyc sources -v";
  if (runs(c, "ntpd")) out += "\nntpq -p";
  if (runs(c, "ptp4l")) out += "\npmc -u -b 0 'GET PORT_DATA_SET'";
  if (!runs(c, "chrony") && !runs(c, "ntpd") && !runs(c, "ptp4l"))
    out += "\n" + clock_daemon_start_fix(c, "any");
  return out;
}

void judge_synchronized(Ctx& c, bool want) {
  const facts::Bool& k = c.f.clock.synchronized;
  CheckResult& r = start(c, "clock/synchronized", want ? "true" : "false");
  if (!k.value) {
    not_checkable(r, k.error.empty() ? "the snapshot has no clock section" : why_unreadable(k), k.source);
    return;
  }
  std::string found = *k.value ? "true" : "false";
  std::string what = "the kernel's clock synchronisation (adjtimex: " + k.note + ")";
  bool synced = *k.value;
  // A daemon that reports can only confirm: a kernel marked synchronised by a
  // daemon that has since lost its sources is what this catches.
  for (const facts::ClockDaemonReport& d : c.f.clock.daemons)
    if (d.read && runs(c, d.daemon)) r.notes.push_back(d.command + ": " + d.state);
  const auto synced_daemons = synced_reports(c);
  bool any_read = false;
  for (const facts::ClockDaemonReport& d : c.f.clock.daemons)
    any_read = any_read || (d.read && runs(c, d.daemon));
  if (synced && any_read && synced_daemons.empty()) {
    synced = false;
    found = "false";
    what = "the clock (the kernel says synchronised, but no running daemon does)";
  }
  if (synced == want)
    pass(r, what, found, k.source);
  else
    fail(r, what, found, k.source,
         want ? diagnose_fix(c) : note("stop the time daemon to leave the clock free"));
}

void judge_max_error(Ctx& c, std::chrono::nanoseconds limit, const std::optional<std::string>& source) {
  const std::string limit_text = units::format_duration(limit);
  CheckResult& r = start(c, "clock/max_error", limit_text);
  const facts::ClockDaemonReport* best = nullptr;
  for (const facts::ClockDaemonReport* d : synced_reports(c)) {
    if (source && *source != "any" && d->daemon != *source) continue;
    if (!runs(c, d->daemon)) continue;
    if (!best || *d->error_bound_us < *best->error_bound_us) best = d;
  }
  double bound_us = 0;
  std::string what, src;
  if (best) {
    bound_us = *best->error_bound_us;
    what = "the clock's error bound by " + best->command + " (" + best->bound + ")";
    src = best->command;
  } else {
    const facts::Int& m = c.f.clock.maxerror_us;
    if (!m.value) {
      not_checkable(r, m.error.empty() ? "the snapshot has no clock section" : why_unreadable(m), m.source);
      return;
    }
    bound_us = static_cast<double>(*m.value);
    what =
        "the kernel's maxerror (adjtimex; no running daemon reported a synchronised bound, and the kernel "
        "adds 500 us to it each second between daemon updates)";
    src = m.source;
  }
  const std::string found = units::format_duration(std::chrono::nanoseconds(std::llround(bound_us * 1e3)));
  if (bound_us * 1e3 <= static_cast<double>(limit.count())) {
    pass(r, what, found, src);
    return;
  }
  std::string fix = note("the clock may be " + found + " from UTC, more than " + limit_text +
                         ": a closer or better reference (a PTP grandmaster with hardware timestamping), "
                         "or shorter polling");
  if (best && best->daemon == "chrony")
    fix += "\n" + note("e.g. server HOST iburst minpoll 0 maxpoll 4 in /etc/chrony.conf");
  if (best && best->daemon == "ntpd")
    fix += "\n" + note("e.g. server HOST iburst minpoll 4 maxpoll 4 in /etc/ntp.conf");
  if (!best) fix += "\n" + diagnose_fix(c);
  fail(r, what, found, src, fix);
}

void judge_source(Ctx& c, const std::string& want) {
  CheckResult& r = start(c, "clock/source", want);
  if (!c.f.has("processes")) {
    not_checkable(r, "the snapshot does not list processes", "");
    return;
  }
  std::vector<std::string> candidates;
  if (want == "any")
    candidates.assign(std::begin(kDaemons), std::end(kDaemons));
  else
    candidates.push_back(want);
  std::string running, unread;
  for (const std::string& d : candidates) {
    if (!runs(c, d)) continue;
    running += (running.empty() ? "" : ", ") + process_of(d);
    const facts::ClockDaemonReport* rep = report_of(c, d);
    if (rep && rep->read && rep->synchronized.value_or(false)) {
      pass(r, process_of(d) + " (running, and " + rep->command + " says synchronised: " + rep->state + ")", d,
           rep->command);
      return;
    }
    if (!rep || !rep->read)
      unread +=
          (unread.empty() ? "" : "; ") + (rep ? rep->not_read : std::string("its report was not asked for"));
  }
  if (running.empty()) {
    fail_with(r,
              (want == "any" ? std::string("no time daemon (chronyd, ntpd, ptp4l)") : process_of(want)) +
                  " is running, profile wants " + want,
              "(none running)", "/proc", clock_daemon_start_fix(c, want));
    return;
  }
  if (!unread.empty()) {
    not_checkable(r, running + " runs, but whether it is synchronised cannot be read: " + unread, "/proc");
    return;
  }
  fail_with(r, running + " runs but does not report the clock synchronised", running, "/proc",
            diagnose_fix(c));
}

}  // namespace

void check_clock(Ctx& c) {
  if (!c.pre.clock) return;
  const profile::ClockRule& rule = *c.pre.clock;
  if (rule.synchronized) judge_synchronized(c, *rule.synchronized);
  if (rule.max_error) judge_max_error(c, *rule.max_error, rule.source);
  if (rule.source) judge_source(c, *rule.source);
}

}  // namespace labgate::checks::internal
