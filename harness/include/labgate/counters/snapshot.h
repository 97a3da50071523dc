// A host's network counters at one moment, parsed from /proc/net/snmp,
// /proc/net/netstat and /proc/net/dev (as one `cat` of the three prints them),
// so a test can report what the kernel counted while it ran (seed 004: "watch
// netstat -s for errors"). Pure parsing: the caller fetches the text.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace labgate::counters {

/// One line of /proc/net/dev: the receive and transmit columns by name.
struct InterfaceCounters {
  std::int64_t rx_bytes = 0, rx_packets = 0, rx_errors = 0, rx_dropped = 0, rx_fifo = 0, rx_frame = 0;
  std::int64_t tx_bytes = 0, tx_packets = 0, tx_errors = 0, tx_dropped = 0, tx_fifo = 0, tx_collisions = 0;
};

struct Snapshot {
  /// "Tcp" -> {"RetransSegs" -> 4, ...}, "Udp", "TcpExt", "IpExt", ... as the
  /// kernel names them (a field an old kernel lacks, e.g. Udp RcvbufErrors
  /// before 2.6.18, is simply absent).
  std::map<std::string, std::map<std::string, std::int64_t>> protocols;
  std::map<std::string, InterfaceCounters> interfaces;  ///< by interface name

  /// The value of `group`.`field`, or nullptr.
  const std::int64_t* find(const std::string& group, const std::string& field) const;
};

/// The text is not what the kernel prints: names the origin and the line.
class ParseError : public std::runtime_error {
 public:
  ParseError(const std::string& origin, int line, const std::string& reason);
};

/// The command that prints everything parse_snapshot() reads, in one round trip
/// (RHEL 5's coreutils cat is enough).
std::vector<std::string> snapshot_command();

/// Parses the output of snapshot_command(), or any of the three files alone or
/// concatenated: "Group: names" / "Group: values" line pairs, and the
/// /proc/net/dev table after its "Inter-|" header. `origin` names the text in
/// errors ("counters on a"). Throws ParseError.
Snapshot parse_snapshot(const std::string& text, const std::string& origin);

}  // namespace labgate::counters
