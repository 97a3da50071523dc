// The network-path kinds in a gate run: kind = "path_mtu" (a DF probe search in
// both directions of the pair, judged against the profile's mtu) and
// kind = "ping_flood" (ping -f from the client host to the server's test address).
#pragma once

#include "labgate/gate/case_runner.h"
#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"

namespace labgate::gate {

/// Searches the largest DF packet client->server (ping on the client host) and
/// server->client (ping on the server host); one measurement with both MTUs in
/// `reported` ("mtu_forward", "mtu_reverse") and a RuleVerdict per direction
/// against spec.mtu. A ping that cannot run throws Failure(kCouldNotRun).
CaseRun run_path_mtu(GateSession& session, const TestCase& c, CaseRun& run);

/// Runs the flood from the client host to the server's test address and parses
/// its summary (loss, rtt min/avg/max/mdev). A refused raw socket throws
/// Failure(kCouldNotRun) saying that ping -f needs root on that host.
CaseRun run_ping_flood(GateSession& session, const TestCase& c, CaseRun& run);

}  // namespace labgate::gate
