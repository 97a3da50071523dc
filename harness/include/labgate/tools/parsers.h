// Turning netperf, sockperf, iperf3 and sfnt-pingpong output into labgate's
// Measurement, so a tool's numbers are judged by the same budgets as the built-in
// probes'. Every latency becomes nanoseconds of ROUND TRIP for rr kinds (sockperf's
// and sfnt-pingpong's half-RTT figures are doubled) and per-send time for netperf's stream histograms.
#pragma once

#include <optional>
#include <vector>

#include "labgate/measure/measurement.h"
#include "labgate/profile/test_spec.h"
#include "labgate/tools/tool_text.h"

namespace labgate::tools {

struct ParseOptions {
  /// The test kind when the output does not say (netperf run with -P 0, or a
  /// fragment). When the output does say, a different kind is an error.
  std::optional<profile::TestKind> kind;
  /// The rate the client was paced at (sockperf --mps), when it was: a paced
  /// run is not a closed loop, so its samples are not expected from its mean.
  std::optional<double> rate_per_s = std::nullopt;
  /// sockperf ul's --reply-every, when the caller knows it (labgate import
  /// --reply-every): no sockperf version prints it, and told from its counts it
  /// reads low when late replies are counted as drops (a few percent short).
  std::optional<std::uint64_t> reply_every = std::nullopt;
};

/// netperf 2.4-2.7: `-k` KEY=VALUE output (-2147483648 = not measured, never a
/// number), the `-v 2` decade histogram, the banner, and the classic tables
/// (TCP_RR, TCP_STREAM, UDP_STREAM). Throws ParseError naming origin:line.
measure::Measurement parse_netperf(const ToolText& text, const ParseOptions& options = {});

/// sockperf 2.5 and 3.x ping-pong: summary, percentile block, observations,
/// dropped/duplicated/out-of-order. Half-RTT "latency" is doubled to a round trip.
measure::Measurement parse_sockperf(const ToolText& text, const ParseOptions& options = {});

/// sfnt-pingpong (sfnettest) udp/tcp: one message size's row of its table
/// (mean, min, median, max, its percentile, stddev, iter). It reports 1/2 RTT
/// (each sample halved) unless run with --rtt, as its "# reporting:" line says:
/// halves are doubled to round trips. Several sizes in one output are a
/// ParseError naming them (labgate judges one size per test), as are pipe and
/// unix-socket runs and output that does not say RTT or 1/2 RTT.
measure::Measurement parse_sfnt_pingpong(const ToolText& text, const ParseOptions& options = {});

/// Which way the data of a stream measurement went, in parameters["direction"]:
/// a stream's pair is sender -> receiver, so an iperf3 -R run (and --bidir's
/// return flow) is the server's send to the client, never filed as a->b.
inline constexpr const char* kDirectionKey = "direction";
inline constexpr const char* kSentByClient = "forward: the client sent, the server received";
inline constexpr const char* kSentByServer = "reverse: the server sent, the client received";
/// Whether `m` says its data went from the server to the client.
bool sent_by_server(const measure::Measurement& m);

/// iperf3 3.0-3.21, -J or its text log: one Measurement per direction data
/// flowed (two for --bidir, each with its own "direction"), TCP and UDP
/// throughput, UDP jitter and loss, -P N summed; an "error" member or line is a
/// tool failure. Throws ParseError naming origin:line.
std::vector<measure::Measurement> parse_iperf3_runs(const ToolText& text, const ParseOptions& options = {});
/// The same for a run of one direction; a --bidir run is a ParseError saying so.
measure::Measurement parse_iperf3(const ToolText& text, const ParseOptions& options = {});

/// One interval of an iperf3 -J run (all streams summed), in the order printed.
struct RateInterval {
  double seconds = 0;
  double bits_per_second = 0;
  bool omitted = false;  ///< inside -O, the warm-up
};
/// The intervals of iperf3 -J output `json_text` ("intervals[].sum"); empty when
/// it has none or is not such output (the run's own parse says why).
std::vector<RateInterval> iperf3_intervals(const std::string& json_text);

/// Which tool wrote `text`, from what only that tool prints: iperf3 -J's JSON
/// object with "start", sockperf's "sockperf:" lines, netperf's banner, -k keys,
/// histogram or result table. nullopt when none of them is there.
std::optional<profile::Tool> detect_tool(const ToolText& text);

/// Dispatches on `tool` (kBuiltin is refused: its probes write labgate JSON).
measure::Measurement parse_tool_output(profile::Tool tool, const ToolText& text,
                                       const ParseOptions& options = {});
/// Every measurement `text` holds: one for netperf and sockperf, one per
/// direction for iperf3 (--bidir: two). Nothing a tool printed is dropped.
std::vector<measure::Measurement> parse_tool_runs(profile::Tool tool, const ToolText& text,
                                                  const ParseOptions& options = {});

}  // namespace labgate::tools
