// The preconditions pipeline, once: one facts-probe run per host (in parallel),
// every rule of the profile judged on those facts, and the [preconditions.bios]
// rules through conrep. `labgate check`, `labgate run` and the CTest suite all
// call this; none has its own copy.
#pragma once

#include <string>
#include <vector>

#include "labgate/checks/check_result.h"
#include "labgate/gate/facts_collector.h"
#include "labgate/gate/gate_run.h"
#include "labgate/gate/session.h"
#include "labgate/profile/profile.h"
#include "labgate/results/run_result.h"

namespace labgate::gate {

struct PreconditionsOutcome {
  std::vector<HostSnapshot> snapshots;         ///< one per host, in `hosts` order
  std::vector<checks::CheckResult> results;    ///< every rule of every host, then the pair rules
};

/// The hosts the profile's preconditions apply to: [preconditions] hosts, else every host.
std::vector<std::string> precondition_hosts(const profile::Profile& p);

/// Gathers the facts and judges every rule. Throws Failure(kCouldNotRun) naming
/// the host when its facts cannot be had.
PreconditionsOutcome check_preconditions(GateSession& session, const profile::Profile& p,
                                         const std::vector<std::string>& hosts);

struct PreconditionsStep {
  std::vector<results::CheckRecord> records;  ///< every rule of every host, as recorded
  std::string could_not_run;                  ///< why they could not be checked; empty when they were
};

/// The preconditions step of a gate run, which comes first: opens the run's
/// session on `hosts`, checks every rule, keeps each host's facts and records
/// the checks (published). When they cannot be checked (hosts unreachable, a
/// facts probe that cannot run), records why they were not checked and stops
/// the run, so no measurement starts after it.
PreconditionsStep run_preconditions_in(GateRun& run, const std::vector<std::string>& hosts);

}  // namespace labgate::gate
