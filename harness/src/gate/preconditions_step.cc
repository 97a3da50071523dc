// The preconditions pipeline: facts, rules, BIOS.
#include "labgate/gate/preconditions_step.h"

#include <nlohmann/json.hpp>

#include "labgate/checks/checks.h"
#include "labgate/gate/bios_check.h"
#include "labgate/gate/records.h"

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
  // A test address given as a name is judged as the address it resolved to on
  // its host (the session's), not as the name: an interface holds addresses.
  profile::Preconditions pre = p.preconditions;
  for (auto& [host, use] : pre.host_use)
    for (auto& [network, address] : use.networks) address = session.host(host).test_address_of(network);
  out.results = checks::check_all(host_facts, pre);
  // [preconditions.bios]: conrep where installed, else each rule not checkable with the reason.
  for (auto& c : check_bios_rules(session, p.preconditions, hosts)) out.results.push_back(std::move(c));
  return out;
}

PreconditionsStep run_preconditions_in(GateRun& run, const std::vector<std::string>& hosts) {
  PreconditionsStep step;
  if (GateSession* session = run.session(hosts)) {
    try {
      const auto outcome = check_preconditions(*session, run.profile(), precondition_hosts(run.profile()));
      for (const auto& s : outcome.snapshots)
        run.book().dir().write_facts(s.host, nlohmann::json::parse(s.raw));
      for (const auto& c : outcome.results) step.records.push_back(to_record(c));
    } catch (const std::exception& e) {
      step.records.clear();
      step.could_not_run = std::string("preconditions: ") + e.what();
      run.stop(step.could_not_run);
    }
  } else {
    step.could_not_run = run.stopped().value_or("the hosts could not be reached");
  }
  if (!step.could_not_run.empty())
    run.book().set_not_checked(step.could_not_run);
  else
    run.book().set_checks(step.records);
  run.book().publish();
  return step;
}

}  // namespace labgate::gate
