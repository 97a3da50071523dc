// Reading what the built-in probes (pingpong, stream, jitter) print: the client's
// one JSON document becomes Measurements; the server's first line gives its port.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/measure/measurement.h"

namespace labgate::measure {

/// A probe's output that cannot be used: not JSON, wrong shape, inconsistent, too
/// large, or the probe itself reporting that it could not measure (probe_failed).
class ProbeOutputError : public std::runtime_error {
 public:
  ProbeOutputError(const std::string& what, bool probe_failed)
      : std::runtime_error(what), probe_failed_(probe_failed) {}
  /// True when the probe ran but said it could not measure (its "error" member).
  bool probe_failed() const { return probe_failed_; }

 private:
  bool probe_failed_;
};

/// Where the output came from, copied into every Measurement, and the size limit.
struct ParseContext {
  std::string host;                   ///< where the client (or jitter) ran
  std::string peer;                   ///< the server's host; empty for jitter
  std::size_t max_bytes = 64u << 20;  ///< refuse larger outputs (a 6 h run is ~3 MB)
};

/// Turns the one JSON document a built-in probe client prints ("pingpong client",
/// "stream client", "jitter") into Measurements: exactly one for pingpong and
/// stream, one per CPU (in --cpus order) for jitter. Throws ProbeOutputError.
std::vector<Measurement> parse_probe_output(std::string_view json, const ParseContext& ctx = {});

/// The first line a probe server prints: {"event":"listening","port":P,...}.
struct ListeningLine {
  std::string probe;  ///< "pingpong" or "stream"
  std::string proto;  ///< "tcp" or "udp"
  std::string address;
  int port = 0;
  int udp_port = 0;  ///< stream udp: where the datagrams go (0 otherwise)
};
/// Parses that line; throws ProbeOutputError when it is anything else.
ListeningLine parse_listening_line(std::string_view line);

}  // namespace labgate::measure
