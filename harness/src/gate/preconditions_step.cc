// The preconditions pipeline: facts, rules, BIOS.
#include "labgate/gate/preconditions_step.h"

#include "labgate/checks/checks.h"
#include "labgate/gate/bios_check.h"

namespace labgate::gate {

std::vector<std::string> precondition_hosts(const profile::Profile& p) {
  if (!p.preconditions.hosts.empty()) return p.preconditions.hosts;
  std::vector<std::string> all;
  for (const auto& h : p.hosts) all.push_back(h.name);
  return all;
}

PreconditionsOutcome check_preconditions(GateSession& session, const profile::Profile& p,
                                         const std::vector<std::string>& hosts) {
  PreconditionsOutcome out;
  out.snapshots = collect_facts(session, p, hosts);
  std::vector<checks::HostFacts> host_facts;
  for (const auto& s : out.snapshots) host_facts.push_back({s.host, &s.facts});
  out.results = checks::check_all(host_facts, p.preconditions);
  // [preconditions.bios]: conrep where installed, else each rule not checkable with the reason.
  for (auto& c : check_bios_rules(session, p.preconditions, hosts)) out.results.push_back(std::move(c));
  return out;
}

}  // namespace labgate::gate
