// Why the tail of one built-in round-trip case (issue 25): the noise watch runs
// on both hosts from the probes' own shell lines, and afterwards the client's
// outliers are joined with the server's records and both watches
// (labgate/tail/attribute.h) into run.json's "tail".
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "labgate/gate/counter_bracket.h"
#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"

namespace labgate::gate {

/// The watch for `host`'s side of `c`: its probe installed there, watching the
/// CPU the side is pinned to (every CPU when it is not). nullopt with `why` set
/// when the watch cannot be installed: the case measures all the same.
std::optional<NoiseWatch> noise_watch(GateSession& session, const TestCase& c, const std::string& host,
                                      std::optional<int> cpu, std::string& why);

/// The last line of `out` that is a JSON object holding `member` (a probe's
/// summary follows its listening line and progress), nullopt if none.
std::optional<nlohmann::json> last_doc_with(const std::string& out, const char* member);

/// One host's part: the probe's stdout and its bracketed command's output (the watch's).
struct TailSide {
  std::string host;
  std::string probe_out;
  std::optional<std::string> watch;  ///< the watch's output, nullopt if it printed none
  int watch_status = -1;
  std::string watch_missing;  ///< why there is no watch at all (not installed), else empty
};

/// run.json's "tail" (tail::to_json's document plus "hosts": per host whether
/// the watch saw it and why not). Pure; unusable outputs are limits, never throws.
/// `typical_ns` is the case's p50; `server_cpu` where the server was pinned;
/// `one_way` the case's one-way record, whose monotonic clock offset places
/// host a's moments on host b's clock (null: the outliers' own join only).
nlohmann::json explain_tail(const TailSide& client, const TailSide& server, std::uint64_t typical_ns,
                            std::optional<int> server_cpu, const nlohmann::json& one_way = nullptr);

/// run.json's "tail" of a jitter case: {"per_cpu": {"<cpu_asked>": tail}}, each
/// CPU's worst clock gaps (the probe's "outliers") joined with the watch on the
/// same host, as explain_tail's (one host: no server, no wire; "sample": "gap").
/// `typical_by_cpu`: each CPU's p50 gap. Pure; never throws on probe output.
nlohmann::json explain_jitter_tail(const TailSide& side, const std::map<int, std::uint64_t>& typical_by_cpu);

/// run.json's "tail" of a stream case (tcp_stream, udp_stream): the receiver's
/// (the server's) worst receive gaps (its "gap_outliers") joined with the watch
/// on the receiver's host, one host as explain_jitter_tail's ("sample": what
/// a gap's seq is; "top" the cause with the most gap time among them, as
/// throughput is lost to time not read; "ranked" by count as ever), its
/// "receive_gaps" summary, and for udp "loss_bursts": the largest sequence gaps,
/// each put down to what the watch saw on the receiver's CPU during the
/// longest receive pause before it, with "loss_top" their one line.
/// "applies_to": the failing budgets it explains (min_throughput, max_loss),
/// never the sender's send-time max; "seq_name"/"value_name" the report's
/// columns, "on_series_clock": false (the receiver's clock: no chart marks). `receiver_cpu`: where the server was
/// pinned. Pure; never throws on probe output.
nlohmann::json explain_stream_tail(const TailSide& receiver, std::optional<int> receiver_cpu);

/// The "why:" line a failing `stat` ("max", "p99", "min_throughput", ...)
/// carries: the tail's "applies_to" when it has one (a stream's: its
/// "loss_top" for max_loss, else tail_line), else worst_line for max and
/// tail_line for p99*; "" when the tail says nothing about that stat.
std::string why_line(const nlohmann::json& tail, const std::string& stat);

/// The tail one record carries: its CPU's of a jitter case, else the case's own.
const nlohmann::json& tail_of_cpu(const nlohmann::json& tail, int cpu);

/// The one line the console and JUnit show: "why: <top cause>" ("" without one).
std::string tail_line(const nlohmann::json& tail);

/// What a failing max carries: the worst outlier's own cause, "why: the worst
/// (204 ms, request 812): <its first evidence>" or "...: unexplained"; a tool's
/// case, which keeps no outliers, its run's top line (tail_line: it says how
/// far the tool's output goes); "" without either.
std::string worst_line(const nlohmann::json& tail);

}  // namespace labgate::gate
