// Gathers one facts snapshot per host: one probe run per host, all hosts in
// parallel, asking exactly for what the profile's rules need.
#pragma once

#include <string>
#include <vector>

#include "labgate/facts/facts.h"
#include "labgate/gate/session.h"

namespace labgate::gate {

struct HostSnapshot {
  std::string host;
  std::string raw;     ///< the probe's JSON as printed (kept with the results)
  facts::Facts facts;
};

/// Runs the facts probe once on each of `hosts`, in parallel. Throws
/// Failure(kCouldNotRun) naming the host and what went wrong.
std::vector<HostSnapshot> collect_facts(GateSession& session, const profile::Profile& profile,
                                        const std::vector<std::string>& hosts);

}  // namespace labgate::gate
