// buffers_cover_bdp = true (seed 003), judged on each tcp_stream case: its
// measured throughput times the pair's round trip (a short ping right after the
// stream) is the bandwidth-delay product, which both hosts' rmem_max/wmem_max
// and tcp_rmem/tcp_wmem maxima must hold. The arithmetic goes to the report.
#pragma once

#include <string>
#include <vector>

#include "labgate/gate/case_runner.h"
#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"
#include "labgate/netpath/bdp.h"

namespace labgate::gate {

/// Whether the rule is judged on case `c`: the profile asks for it and the case
/// measures TCP throughput.
bool judges_bdp(const profile::Profile& p, const TestCase& c);

/// The command printing rmem_max, wmem_max, tcp_rmem and tcp_wmem as "path:value" lines.
std::vector<std::string> buffer_sysctls_command();

/// Reads buffer_sysctls_command()'s output (lines missing: those stay unknown).
netpath::BufferSysctls parse_buffer_sysctls(const std::string& out);

/// One verdict per host from its check_buffers() result: observed = its smallest
/// limit, limit = the BDP, message = the arithmetic.
RuleVerdict bdp_verdict(const std::string& host, const netpath::BdpResult& r);

/// Measures the RTT, reads both hosts' sysctls and adds one RuleVerdict per
/// host to `run` (a figure that cannot be had fails the rule, saying why).
void judge_bdp(GateSession& session, const TestCase& c, CaseRun& run);

}  // namespace labgate::gate
