// Judging preconditions: a host's facts against a profile's rules. Pure: no
// I/O, no printing; the suite and the CLI report the results.
#pragma once

#include <string>
#include <vector>

#include "labgate/checks/check_result.h"
#include "labgate/facts/facts.h"
#include "labgate/profile/profile.h"

namespace labgate::checks {

/// A host's name with its snapshot (not owned).
struct HostFacts {
  std::string host;
  const facts::Facts* facts = nullptr;
};

/// Every per-host rule of `pre` on one host, in profile order: os_release,
/// kernel_release, kernel_cmdline, sysctl, modules, interfaces, services, cpu, clock.
std::vector<CheckResult> check_host(const std::string& host, const facts::Facts& f,
                                    const profile::Preconditions& pre);

/// The same_on_all_hosts rules across `hosts` (host = "pair").
std::vector<CheckResult> check_same(const std::vector<HostFacts>& hosts, const profile::Preconditions& pre);

/// check_host for each host `pre` applies to (all when pre.hosts is empty),
/// then check_same over those hosts.
std::vector<CheckResult> check_all(const std::vector<HostFacts>& hosts, const profile::Preconditions& pre);

/// How many results have each verdict.
struct Tally {
  int passed = 0, failed = 0, not_checkable = 0;
};
Tally tally(const std::vector<CheckResult>& results);

}  // namespace labgate::checks
