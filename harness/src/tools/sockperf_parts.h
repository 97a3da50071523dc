// The parts of reading sockperf output beyond its lines: which versions are
// known, which client mode (pp, ul) a run was, and what samples it must hold
// (private to src/tools).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "labgate/measure/measurement.h"

namespace labgate::tools::sockperf {

/// "3.10-no.git" -> {3, 10}; nullopt when it does not start with N.N.
struct Version {
  int major = 0, minor = 0;
};
std::optional<Version> parse_version(std::string_view printed);
/// Whether labgate has read this version's output: 2.5-2.x and 3.0-3.10 (3.8
/// changed the summary line; a later one may change it again).
bool known(const Version& v);
/// The versions that are, for messages: "2.5 to 3.10".
inline constexpr const char* kKnownVersions = "2.5 to 3.10";

/// The counts sockperf printed for its valid duration and its own error counts.
struct Counts {
  std::uint64_t sent = 0;      ///< [Valid Duration] SentMessages: every message sent
  std::uint64_t received = 0;  ///< [Valid Duration] ReceivedMessages: replies timed
  std::uint64_t dropped = 0, duplicated = 0, out_of_order = 0;
  bool drops_counted = false;
};

/// ping-pong (pp): every message is answered. under-load (ul): 1 in
/// `reply_every` is, the rest only load the path, sent at --mps (open loop).
struct Mode {
  bool under_load = false;
  std::uint64_t reply_every = 1;
  std::string why;  ///< how it was told, with the counts
};
/// Told from the counts alone (no sockperf version prints its mode): sockperf
/// numbers every message and asks a reply of each reply_every-th, so the valid
/// duration's first and last asked-for messages are reply_every apart times the
/// replies asked for less one, and each asked-for reply was timed, counted
/// dropped or counted out of order. A pp run is reply_every 1.
/// `given` (the run's --reply-every, when the caller knows it) is taken as the
/// mode instead: told from the counts, late replies that sockperf counted as drops
/// make the rate read low (19 for 20), and the run a few percent short.
Mode tell_mode(const Counts& c, std::optional<std::uint64_t> given = std::nullopt);
/// Why `given` cannot be this run's --reply-every (its counts say another rate by
/// more than half again), or "" when it can.
std::string reply_every_mismatch(const Counts& c, std::uint64_t given);

/// The samples a run must hold, from its own counts: a pp run's closed loop
/// also fills its valid duration at the mean round trip (unless paced,
/// `paced`); a ul run's replies are only the ones it asked for.
measure::SampleExpectation expect_samples(const Mode& mode, const Counts& c, std::uint64_t observations,
                                          double duration_s, std::optional<double> mean_ns, bool paced);

}  // namespace labgate::tools::sockperf
