// Why the tail of an external tool's case (issue 25 point 5): netperf, sockperf,
// iperf3 and sfnt-pingpong keep no per-sample outliers, so what they do print
// (figures of the whole run; iperf3's per-second intervals) is joined with the
// noise watch of both hosts as far as that goes, and the record says how far.
// A pure function of parsed outputs (the gate runs the watch: gate/tool_tail.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "labgate/profile/test_spec.h"
#include "labgate/tail/tail_records.h"

namespace labgate::tail {

/// One host's watch over the tool's run.
struct RunHost {
  std::string host;                    ///< "a"
  std::string role;                    ///< "client" or "server"
  const WatchOutput* watch = nullptr;  ///< nullptr: not available, `why_not` says why
  std::string why_not;
  /// The tool client's run on this host's CLOCK_MONOTONIC (the watch's clock),
  /// placed within +-align_ns (gate/tool_tail.h says how).
  std::uint64_t from_ns = 0, to_ns = 0, align_ns = 0;
  std::optional<int> pinned;  ///< the CPU the profile pins this side of the tool to
  /// This side's programs (netperf's client is netperf, its server netserver):
  /// where the watch saw them run are its CPUs when not pinned. Empty: any of
  /// RunNoiseInput::tool_comms. (Lab hosts that share one kernel see each other's.)
  std::vector<std::string> programs{};
};

/// One interval a tool printed, in the order printed (for iperf3: its bit rate).
struct ToolInterval {
  double seconds = 0;
  double value = 0;  ///< lower is worse
};

struct RunNoiseInput {
  profile::Tool tool = profile::Tool::kNetperf;
  std::vector<RunHost> hosts;           ///< the client's first
  std::vector<std::string> tool_comms;  ///< the tool's own programs, either side's: never a cause
  /// A latency tool's max - p50: how long one stall must have lasted to make
  /// its max. nullopt for a throughput tool (iperf3).
  std::optional<std::uint64_t> excess_ns;
  /// The intervals the tool printed after its warm-up (omitted ones left out),
  /// and how much longer its process ran than they cover (its start-up and
  /// wrap-up): they end within that of its exit.
  std::vector<ToolInterval> intervals;
  std::uint64_t slack_ns = 0;
};

/// run.json's "tail" of a tool case: {"top","join","over_run":{host:{...}},
/// "causes":[{"kind","host","key","text","cpu"[,"pid","comm"]}],"worst_interval":{...}
/// (iperf3 only),"limits":[..]}. "top" names a cause only with its evidence,
/// else "nothing on the hosts ..." (both watched) or "unexplained: ...".
nlohmann::json explain_run(const RunNoiseInput& in);

/// How far `tool`'s output, as labgate runs it, can be joined with the watch:
/// "whole run only: ..." or "per interval: ...".
std::string join_depth(profile::Tool tool, bool has_intervals);

}  // namespace labgate::tail
