// sockperf's per-sample log (--full-log FILE, issue 25 point 5): every valid
// round trip's send and receive time, written after the run, so the worst ones
// can be joined with the noise watch like the built-in probe's outliers.
//
// sockperf times with the TSC from its own start unless --no-rdtsc, which
// makes it read CLOCK_MONOTONIC: the watch's clock on that host, so a sample
// and a watch window join exactly. Its log holds one line per round trip
// (~45 B: 430 MB for 2 minutes at 80k/s), so the host keeps only the worst
// (an awk pass, one bounded table in memory) and removes the file; what comes
// back is a few KiB whatever the duration.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace labgate::tools {

/// How many of the worst round trips the host keeps: the built-in probes' K.
constexpr std::size_t kFullLogKept = 64;

/// One round trip of the log: its index among the valid samples (sockperf's
/// "packet" column, warm-up excluded) and its send and receive times in ns of
/// the client host's CLOCK_MONOTONIC.
struct FullLogSample {
  std::uint64_t index = 0;
  std::uint64_t tx_ns = 0, rx_ns = 0;
  std::uint64_t rtt_ns() const { return rx_ns > tx_ns ? rx_ns - tx_ns : 0; }
};

/// What the host's pass over the log found: how many samples it read, the
/// first send and the last receive (the measured span), and the `keep` worst.
struct FullLogWorst {
  std::uint64_t samples = 0;
  std::uint64_t first_tx_ns = 0, last_rx_ns = 0;
  std::vector<FullLogSample> worst;  ///< worst first
};

/// The command that reads `path` on the client host, prints the pass's result
/// (see parse_full_log_worst) and removes the file, whatever the pass did: a
/// POSIX sh and awk (RHEL 5's gawk, mawk, busybox) are all it needs.
std::vector<std::string> full_log_worst_argv(const std::string& path, std::size_t keep);

/// Reads the pass's output: "samples N FIRST_TX LAST_RX" then one
/// "INDEX, TX, RX, RTT_US" line per kept sample (sockperf's own lines, so the
/// times are read exactly from their decimal seconds). Throws
/// std::invalid_argument "sockperf full log: <what is wrong>".
FullLogWorst parse_full_log_worst(const std::string& text);

/// "12345.678901234" (seconds, up to 9 decimals) as ns, exactly; throws
/// std::invalid_argument naming the text.
std::uint64_t decimal_seconds_to_ns(const std::string& s);

}  // namespace labgate::tools
