// The parts of reading sfnt-pingpong output beyond one Measurement: its header,
// its table rows as printed, its own defaults, and the samples a run must hold
// (private to src/tools).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "labgate/measure/measurement.h"
#include "labgate/tools/tool_text.h"

namespace labgate::tools::sfnt {

/// sfnt-pingpong.c's defaults, for a command line that does not set them.
inline constexpr std::uint64_t kDefaultMaxMs = 3000;
inline constexpr std::uint64_t kDefaultMaxIter = 1000000;
inline constexpr std::uint64_t kDefaultWarmupMs = 500;

struct Header {
  std::string cmdline, version, src;
  int cmdline_line = 0;
  std::optional<bool> half;           ///< "# reporting: 1/2 RTT" (true) or "RTT" (false)
  std::string percentile;             ///< "# percentile=99" as printed ("99", "99.9")
  std::vector<std::string> preload;   ///< "LD_PRELOAD=..." and "server LD_PRELOAD=..." as printed
  std::vector<std::string> warnings;  ///< its own "# WARNING ..." lines
};

/// One row of its table, integer ns as printed (half round trips unless --rtt).
struct Row {
  int line = 0;
  std::uint64_t size = 0, mean = 0, min = 0, median = 0, max = 0, pct = 0, stddev = 0, iter = 0;
};

/// Every row, after checking the header says RTT or 1/2 RTT and the percentile,
/// and that each row is its own statistics of one array. Throws ParseError.
std::vector<Row> read(const ToolText& t, Header& h);

/// A closed loop (one ping in flight) that ran for `duration_s` at `mean_ns`
/// round trips holds about duration / mean samples.
measure::SampleExpectation expect_samples(std::uint64_t iterations, double duration_s, double mean_ns);

}  // namespace labgate::tools::sfnt
