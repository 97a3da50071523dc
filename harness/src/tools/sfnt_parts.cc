// sfnt-pingpong's sample expectation (sfnt_parts.h).
#include "sfnt_parts.h"

#include <cmath>
#include <cstdio>

namespace labgate::tools::sfnt {

measure::SampleExpectation expect_samples(std::uint64_t iterations, double duration_s, double mean_ns) {
  measure::SampleExpectation e;
  e.held = static_cast<double>(iterations);
  e.expected = mean_ns > 0 ? std::max(1.0, duration_s * 1e9 / mean_ns) : 1.0;
  char buf[200];
  std::snprintf(
      buf, sizeof buf,
      "%.2f s (its --maxms, which it runs until) at a %.2f us mean round trip (one in flight) allows ~%.0f",
      duration_s, mean_ns / 1e3, e.expected);
  e.basis = buf;
  e.shortfall_means = "the ping-pong loop stalled: pings or pongs were late (sfnt-pingpong counts no drops)";
  return e;
}

}  // namespace labgate::tools::sfnt
