// Reading what the built-in probes (pingpong, stream, jitter) print: the client's
// one JSON document becomes Measurements; the server's first line gives its port.
#pragma once

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
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

/// The wrapper every built-in probe's result shares (pingpong, stream, jitter,
/// disk, cmdrun): one JSON object, at most `max_bytes`, "format":"labgate-probe-1",
/// "probe" one of `probes`, not a server's line ("event", or a "role" other than
/// client), and "status" "ok"; "error" means the probe ran and said why it could
/// not measure. The one parser of it: every probe reader starts here.
struct ProbeDocument {
  nlohmann::json json;  ///< the whole document, an object
  std::string probe;    ///< which of `probes` it is
};

/// Throws ProbeOutputError: probe_failed() with "<failed(probe)>: <the probe's
/// error>" when its status is "error" (`failed` says who, e.g. "disk probe on a
/// could not measure"); otherwise naming what is wrong ("disk output: format: ...").
ProbeDocument read_probe_document(std::string_view text, std::initializer_list<std::string_view> probes,
                                  const std::function<std::string(const std::string&)>& failed,
                                  std::size_t max_bytes = 64u << 20);

/// Runs `read` (which reads members with util::JsonReader) and turns its
/// std::invalid_argument, naming the member's path, into a ProbeOutputError
/// "<probe> output: <path>: <what>".
template <typename Read>
auto read_probe_members(const std::string& probe, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const std::invalid_argument& e) {
    throw ProbeOutputError(probe + " output: " + e.what(), false);
  }
}

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
