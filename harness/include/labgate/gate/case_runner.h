// Runs one test case on the hosts of a gate session: the built-in probes (server
// on the far host bound to its test address, client on the near host) or an
// external tool, and keeps every raw output for the results folder.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"
#include "labgate/measure/measurement.h"

namespace labgate::gate {

/// A verdict a case reaches beyond its budget, judged by the runner that has the
/// figures: the path MTU against the profile's mtu, buffers_cover_bdp.
struct RuleVerdict {
  std::string rule;                ///< "path_mtu a->b", "buffers_cover_bdp b"
  std::optional<double> observed;  ///< the figure judged (bytes); nullopt: could not be measured
  double limit = 0;                ///< what it must be (mtu) or hold (BDP), bytes
  bool pass = false;
  std::string message;  ///< the figures and the arithmetic, pass or fail
  std::string unit = "bytes";  ///< of observed and limit ("ends" for preload)
};

struct CaseRun {
  /// One measurement for rr/stream cases, one per CPU for jitter.
  std::vector<measure::Measurement> measurements;
  /// Rules judged on this case's figures, on top of the budget (every measurement).
  std::vector<RuleVerdict> rules;
  /// File name -> content (commands, client/server stdout and stderr).
  std::vector<std::pair<std::string, std::string>> raw_files;
  /// Why the tail (run.json's "tail", labgate/gate/tail_case.h); null when not explained.
  nlohmann::json tail;
  /// One-way delay (run.json's "one_way", labgate/measure/one_way.h); null when not estimated.
  nlohmann::json one_way;
  /// One per measurement, in their order, when each has its own (udp_multicast:
  /// each subscriber's and the worst's, labgate/measure/multicast_one_way.h);
  /// empty: `one_way` is every measurement's.
  std::vector<nlohmann::json> one_way_each;
};

/// Runs `c`. Throws Failure(kCouldNotRun) naming host, command and what went
/// wrong; the raw outputs gathered so far are in `partial` either way.
CaseRun run_case(GateSession& session, const TestCase& c, CaseRun* partial = nullptr);

/// Runs the jitter probe on c.client (its CPUs or one unpinned thread) with the
/// noise watch beside it: one measurement per CPU, and why the tail (kinds/jitter.cc).
CaseRun run_jitter_case(GateSession& session, const TestCase& c, CaseRun& run);

/// Runs the built-in probes' server on c.server and client on c.client (the tcp/udp
/// kinds, kinds/socket_kind.cc): the counters and the noise watch on their own
/// command lines when the kind watches counters, one-way delay for a round trip,
/// why the tail, the preload verdict.
CaseRun run_builtin_pair(GateSession& session, const TestCase& c, CaseRun& run);

/// Runs `c` with its external tool (netperf, sockperf, iperf3, sfnt-pingpong)
/// between c.client and c.server, the noise watch on both hosts; the kinds whose
/// tool runs call it (kinds/udp_multicast.cc: a tool's multicast ping-pong).
CaseRun run_tool_case(GateSession& session, const TestCase& c, CaseRun& run);

}  // namespace labgate::gate
