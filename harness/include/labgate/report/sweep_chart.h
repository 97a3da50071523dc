// A swept test (message_size = [64, 1024, 4096], congestion = ["reno", "cubic"])
// as one chart in the report: throughput, or p99, or the mean, against the swept
// value, one point per case in profile order, coloured by its verdict. Drawn from
// the run's records alone (the case names carry the swept value).
#pragma once

#include <string>
#include <vector>

#include "labgate/results/run_result.h"

namespace labgate::report {

/// The cases of one swept test on one pair, in the order the run recorded them.
struct SweepGroup {
  std::string test;                               ///< the [[test]] name, "tcp_stream_sizes"
  std::string pair;                               ///< "a->b"
  std::string parameter;                          ///< the swept key, "message_size"
  std::vector<std::string> values;                ///< as written, "64", "1024", "16KiB"
  std::vector<const results::TestRecord*> cases;  ///< one per value
};

/// Splits a swept case's name "tcp_stream_sizes/message_size=1024" into test,
/// parameter and value; false for a name that is not one swept parameter
/// (not swept, or two parameters at once: those get no chart).
bool parse_sweep_name(const std::string& name, std::string& test, std::string& parameter, std::string& value);

/// Every sweep of the run with at least two cases recorded.
std::vector<SweepGroup> find_sweeps(const results::RunResult& run);

/// The chart of one sweep as <svg>: throughput (Mbit/s) when every case has
/// one, else p99, else the mean; "" when the cases share none of those.
std::string sweep_chart(const SweepGroup& g);

/// The report's "Sweeps" section, one chart per sweep ("" when the run has
/// none); `charts` counts the charts drawn.
std::string sweep_section(const results::RunResult& run, int& charts);

}  // namespace labgate::report
