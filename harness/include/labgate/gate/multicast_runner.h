// Runs a udp_multicast case with the mcast probe: every subscriber joins first,
// then the publisher sends the feed, then each subscriber's own counts are read.
#pragma once

#include <string>
#include <vector>

#include "labgate/gate/case_runner.h"

namespace labgate::gate {

/// The argv of each end (exposed for tests): a subscriber on `address`, and the
/// publisher on `address` with the subscribers' addresses.
std::vector<std::string> mcast_subscriber_argv(const profile::TestSpec& t, const std::string& probe_dir,
                                               const std::string& address);
std::vector<std::string> mcast_publisher_argv(const profile::TestSpec& t, const std::string& probe_dir,
                                              const std::string& address,
                                              const std::vector<std::string>& subscriber_addresses);

/// One measurement per subscriber and one for the worst (measure/multicast_output.h).
/// A subscriber that joined and received nothing is diagnosed on its host
/// (multicast_diagnosis.h). Throws Failure(kCouldNotRun) naming host and step.
CaseRun& run_multicast(GateSession& session, const TestCase& c, CaseRun& run);

}  // namespace labgate::gate
