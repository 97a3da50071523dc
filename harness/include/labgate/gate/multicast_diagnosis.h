// Why a multicast subscriber that joined received nothing: one read-only shell
// step on its host (rp_filter of every interface, its addresses and links, the
// routes back to the publisher and of the group) and the reading of it, which
// names the likely precondition instead of leaving a bare "no samples".
#pragma once

#include <string>
#include <vector>

namespace labgate::gate {

/// The step (argv for /bin/sh; RHEL 5's bash 3.2 and iproute run it).
std::vector<std::string> silent_subscriber_command(const std::string& publisher_address,
                                                   const std::string& group);

/// Reads the step's output for a subscriber joined on `subscriber_address`: the
/// likely cause first (MULTICAST flag off, a strict rp_filter with the route back
/// to the publisher on another interface, a strict rp_filter alone), else what
/// to look at beyond the host.
std::string diagnose_silent_subscriber(const std::string& step_output, const std::string& subscriber,
                                       const std::string& subscriber_address,
                                       const std::string& publisher_address, const std::string& group);

}  // namespace labgate::gate
