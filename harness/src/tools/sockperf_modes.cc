// sockperf's versions, its client modes told from its counts, and the samples
// each mode must hold.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "sockperf_parts.h"

namespace labgate::tools::sockperf {

std::optional<Version> parse_version(std::string_view s) {
  Version v;
  std::size_t i = 0;
  const auto digits = [&](int& out) {
    const std::size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - from < 6) out = out * 10 + (s[i++] - '0');
    return i > from;
  };
  if (!digits(v.major) || i >= s.size() || s[i++] != '.' || !digits(v.minor)) return std::nullopt;
  return v;
}

bool known(const Version& v) { return (v.major == 2 && v.minor >= 5) || (v.major == 3 && v.minor <= 10); }

namespace {
/// Replies asked for: each was timed, counted dropped or counted out of order.
std::uint64_t asked_of(const Counts& c) {
  return c.received + (c.drops_counted ? c.dropped + c.out_of_order : 0);
}
/// Messages sent per reply asked for, from the counts (late replies that
/// sockperf counted as drops make it read low); nullopt with too few replies.
std::optional<double> rate_from_counts(const Counts& c) {
  const std::uint64_t asked = asked_of(c);
  if (asked < 2 || c.sent < asked) return std::nullopt;
  return static_cast<double>(c.sent - 1) / static_cast<double>(asked - 1);
}
}  // namespace

std::string reply_every_mismatch(const Counts& c, std::uint64_t given) {
  const auto told = rate_from_counts(c);
  if (!told || given == 0) return "";
  const double ratio = static_cast<double>(given) / *told;
  if (ratio <= 1.5 && ratio >= 1 / 1.5) return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.1f", *told);
  return "--reply-every " + std::to_string(given) + " does not match this run: its own counts (" +
         std::to_string(c.sent) + " sent, " + std::to_string(c.received) + " answered) say about 1 in " +
         buf + " was answered. Was it another run, or a ping-pong (pp) run?";
}

Mode tell_mode(const Counts& c, std::optional<std::uint64_t> given) {
  Mode m;
  if (given) {
    // sockperf ul asks a reply of every --reply-every-th message, 1 included.
    m.under_load = true;
    m.reply_every = std::max<std::uint64_t>(1, *given);
    m.why = "--reply-every " + std::to_string(*given) + ", as given";
    return m;
  }
  m.why = "its own counts: " + std::to_string(c.sent) + " sent, " + std::to_string(asked_of(c)) +
          " answered or counted lost";
  const std::optional<double> told = rate_from_counts(c);
  if (!told) return m;
  const auto every = static_cast<std::uint64_t>(std::llround(*told));
  if (every >= 2) {
    m.under_load = true;
    m.reply_every = every;
  }
  return m;
}

measure::SampleExpectation expect_samples(const Mode& mode, const Counts& c, std::uint64_t observations,
                                          double duration_s, std::optional<double> mean_ns, bool paced) {
  measure::SampleExpectation e;
  if (mode.under_load) {
    // Each reply it asked for is an observation, a counted drop or out of order:
    // ul's own counts, never the closed loop's (it is paced by --mps).
    e.held = static_cast<double>(observations + c.dropped + c.out_of_order);
    e.expected = std::floor(static_cast<double>(c.sent - 1) / static_cast<double>(mode.reply_every)) + 1;
    e.basis = std::to_string(c.sent) + " messages sent (its own count), 1 in " +
              std::to_string(mode.reply_every) + " asked for a reply; held: " + std::to_string(observations) +
              " observations + " + std::to_string(c.dropped) + " counted drops + " +
              std::to_string(c.out_of_order) + " out of order";
    e.shortfall_means =
        "replies sockperf asked for are neither in its observations nor in its own error counts";
    return e;
  }
  // Every message received is an observation, and a closed ping-pong loop (one
  // message in flight; sockperf pp without --mps) fills its valid duration at
  // the mean round trip.
  e.held = static_cast<double>(observations + (c.drops_counted ? c.dropped : 0));
  e.expected = std::max<double>(1, static_cast<double>(c.received));
  e.basis = std::to_string(c.received) + " messages received (its own count)";
  e.shortfall_means = "messages sockperf counted are missing from its observations";
  if (!paced && mean_ns && *mean_ns > 0 && duration_s > 0) {
    const double by_time = duration_s * 1e9 / *mean_ns;
    char buf[160];
    std::snprintf(buf, sizeof buf, "; %.2f s at a %.2f us mean round trip (one in flight) allows ~%.0f",
                  duration_s, *mean_ns / 1e3, by_time);
    e.basis += buf;
    if (by_time > e.expected) {
      e.expected = by_time;
      e.shortfall_means = "the ping-pong loop stalled: replies were late or lost";
    }
  }
  e.basis += "; held: " + std::to_string(observations) + " observations" +
             (c.drops_counted ? " + " + std::to_string(c.dropped) + " counted drops" : "");
  return e;
}

}  // namespace labgate::tools::sockperf
