// kind = "ping_flood": the `ping -f` command line and its summary parsed into a
// Measurement (seed 001: "1000 packets transmitted, 1000 received, 0% packet
// loss ... rtt min/avg/max/mdev = 0.849/17.959/93.454/23.936 ms").
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "labgate/measure/measurement.h"
#include "labgate/profile/test_spec.h"

namespace labgate::netpath {

/// Why ping gave no summary worth judging.
enum class PingFailure { kMalformed, kNotPermitted, kToolFailed };

/// "ping on a: cannot flood: raw ICMP needs root on the target ...".
class PingError : public std::runtime_error {
 public:
  PingError(PingFailure kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  PingFailure kind() const { return kind_; }

 private:
  PingFailure kind_;
};

/// What to run on the `from` host, and how long to wait for it at most.
struct PingInvocation {
  std::vector<std::string> argv;
  std::chrono::nanoseconds timeout;
};

/// `ping -f -q -n -c COUNT -s SIZE [-i SECONDS] -w DEADLINE ADDRESS`, iputils as
/// RHEL 5 ships it (-w, the test's duration, ends a flood that lost its peer).
PingInvocation ping_flood_command(const profile::TestSpec& spec, const std::string& to_address);

/// Parses ping's output (stdout and stderr joined, lines wrapped or not). Sets
/// sent/received/dropped, loss_fraction (from the counts, not ping's rounded %),
/// reported min/mean/max/mdev in ns, and ping's pipe, ipg/ewma and time as
/// parameters. `origin` names the output in errors. Throws PingError:
/// kNotPermitted when ping refuses to flood (not root), kToolFailed for other
/// ping errors, kMalformed when there is no summary.
measure::Measurement parse_ping_summary(const std::string& output, const std::string& origin);

/// With -w, iputils ping stops when COUNT replies have come, not when COUNT
/// requests have gone, so a flood whose last reply is still in flight sends past
/// -c. The loss stays as ping counted it (a request without a reply is never a
/// pass), but what ping sent beyond `count` is said, and how many of the
/// unanswered could be those last requests, cut off only by ping's exit.
void note_sends_beyond_count(measure::Measurement& m, std::uint64_t count);

}  // namespace labgate::netpath
