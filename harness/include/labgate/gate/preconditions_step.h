// The preconditions pipeline, once: one facts-probe run per host (in parallel),
// every rule of the profile judged on those facts, and the [preconditions.bios]
// rules through conrep. `labgate check`, `labgate run` and the CTest suite all
// call this; none has its own copy.
#pragma once

#include <string>
#include <vector>

#include "labgate/checks/check_result.h"
#include "labgate/gate/facts_collector.h"
#include "labgate/gate/session.h"
#include "labgate/profile/profile.h"

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

}  // namespace labgate::gate
