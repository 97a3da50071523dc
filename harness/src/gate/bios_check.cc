// conrep on each host and [preconditions.bios] judged as precondition results.
#include "labgate/gate/bios_check.h"


#include <algorithm>

namespace labgate::gate {

using namespace std::chrono_literals;

checks::CheckResult to_check_result(const std::string& host, const bios::BiosVerdict& v) {
  checks::CheckResult r;
  r.host = host;
  r.rule = "bios/" + v.name;
  r.expected = v.expected;
  r.found = v.observed.value_or("(not read)");
  r.source = "conrep -s";
  switch (v.status) {
    case bios::BiosStatus::kPass:
      r.verdict = checks::Verdict::kPass;
      r.message = v.message;
      break;
    case bios::BiosStatus::kFail:
      r.verdict = checks::Verdict::kFail;
      r.message = v.message;
      // RBSU settings change at the console (F9) or by loading an edited conrep file.
      r.fix = "# " + host + ": set " + v.name + " to " + v.expected +
              " in RBSU (F9 at boot), or: conrep -s -f bios.dat; edit <Section name=\"" + v.name +
              "\">; conrep -l -f bios.dat";
      r.needs_reboot = true;
      break;
    case bios::BiosStatus::kNotCheckable:
      r.verdict = checks::Verdict::kNotCheckable;
      r.reason = v.message;
      break;
  }
  return r;
}

std::vector<checks::CheckResult> check_bios_rules(GateSession& session, const profile::Preconditions& pre,
                                                  const std::vector<std::string>& hosts) {
  std::vector<checks::CheckResult> out;
  if (pre.bios.empty()) return out;
  for (const std::string& host : hosts) {
    if (!pre.hosts.empty() && std::find(pre.hosts.begin(), pre.hosts.end(), host) == pre.hosts.end())
      continue;
    deploy::HostDeployment& d = session.deployment(host);
    const auto argv = bios::conrep_command(d.dir() + "/conrep.dat");
    transport::RunOptions o;
    o.timeout = 120s;  // conrep reads the ROM through the iLO/SMBIOS: seconds, not minutes
    const auto r = d.run_privileged(argv, o);  // conrep reads the ROM as root
    const int status = r.timed_out ? -1 : r.exit_status;
    const auto read =
        bios::read_conrep_run(host, status, r.out, r.timed_out ? "timed out after 120 s" : r.err);
    if (!read.settings) session.reporter().info("host " + host + ": BIOS rules not checkable: " + read.not_checkable);
    for (const auto& v : bios::check_bios(host, pre.bios, read)) out.push_back(to_check_result(host, v));
  }
  return out;
}

}  // namespace labgate::gate
