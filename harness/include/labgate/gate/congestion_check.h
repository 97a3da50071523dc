// Whether both hosts of a case offer the TCP congestion control its test asks
// for (congestion = "bbr"), checked before the probes or tools start.
#pragma once

#include <string>
#include <vector>

#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"

namespace labgate::gate {

/// The command that prints a host's algorithms: the available list, or on
/// 2.6.18 the current one and the tcp_*.ko modules (netpath::parse_congestion_list reads both).
std::vector<std::string> congestion_list_command();

/// Nothing when the case sets no congestion or both hosts offer it; else throws
/// Failure(kCouldNotRun): "host b has no TCP congestion control "htcp"; it has: reno cubic bbr".
void check_congestion(GateSession& session, const TestCase& c);

}  // namespace labgate::gate
