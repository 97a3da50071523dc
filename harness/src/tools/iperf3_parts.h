// One direction of data in an iperf3 run, as its -J output or its text log
// says it (private to src/tools): the one model both readers fill and the one
// place it becomes a Measurement.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "labgate/measure/measurement.h"
#include "labgate/profile/test_spec.h"
#include "labgate/tools/parsers.h"

namespace labgate::tools::iperf3 {

struct Flow {
  profile::TestKind kind = profile::TestKind::kTcpStream;
  /// The server sent and the client received: -R, or --bidir's return flow.
  bool sent_by_server = false;
  bool bidir = false;  ///< one of the two flows of a --bidir run
  int streams = 1;
  std::optional<double> seconds;       ///< measured time at the receiver
  std::optional<double> received_bps;  ///< payload bits per second at the receiver
  std::optional<double> sent_bps;      ///< at the sender
  std::optional<double> retransmits;   ///< TCP: the sender's count
  /// TCP: the kernel's smoothed RTT estimate (us) of the sending sockets the
  /// client owns; absent when the client only received (iperf3 prints 0 there).
  std::optional<double> srtt_us;
  // UDP, at the receiver.
  std::optional<double> packets, lost, lost_percent, jitter_ms;
  std::uint64_t out_of_order = 0;
  /// Sample accounting: the intervals iperf3 reported, and the time they cover
  /// outside --omit; nullopt when the output has none to count.
  std::optional<double> covered_s;
  std::size_t intervals = 0;
  /// The client's own measured time for this flow (client_time_is_senders says
  /// which of the summary's two times that is): the clock its intervals were
  /// timed on. The other `seconds` is the other host's and runs longer by the
  /// control exchange, ~1 % of a 2 s run and 3 % under load, so the intervals are
  /// checked against this one; nullopt when the output does not say it.
  std::optional<double> client_seconds;
  std::vector<std::string> warnings;
};

/// Whether the client's own time for a flow is the summary's "sender" seconds
/// (else its "receiver" seconds). iperf3 summarises each direction with the
/// times of the client's FIRST stream (iperf_print_results: sender_time and
/// receiver_time of SLIST_FIRST), its own end for the side that stream played
/// and the server's for the other. Its first stream sends, except under -R
/// where it only receives; under --bidir it creates its senders first, so both
/// directions' "sender" seconds are its own and the return flow's "receiver"
/// seconds are the server's (3.21's source; 3.12's output says the same: under
/// load its return flow read 2.036 s "received" for the client's own 2.000 s).
inline bool client_time_is_senders(bool sent_by_server, bool bidir) { return !sent_by_server || bidir; }

/// What both readers know of the run besides its flows.
struct Run {
  std::optional<std::string> version;   ///< "iperf 3.21" (-J only)
  std::optional<std::string> timesecs;  ///< its own start, Unix seconds (-J only)
  std::optional<std::string> blksize;
  double omit_s = 0;
  std::string read_from;                          ///< "-J" or "its text log (3 significant figures)"
  std::map<std::string, std::string> parameters;  ///< more of its own settings, for every flow
};

/// The Measurement of one flow (source iperf3, parameters "direction" and the
/// run's own), figures the output did not give left absent.
measure::Measurement to_measurement(const Run& run, const Flow& flow);

/// Whether labgate has read this version's output ("iperf 3.12" -> yes):
/// 3.0 to 3.21.
bool known_version(const std::string& printed);

/// iperf3's text log (a client run without -J): its final summary, per
/// direction. Throws ParseError naming origin:line.
std::vector<measure::Measurement> parse_text(const ToolText& text, const ParseOptions& options);
inline constexpr const char* kKnownVersions = "3.0 to 3.21";

}  // namespace labgate::tools::iperf3
