// How the reporters present the judged figures of a test (results::TestRecord::
// figures): the value in words, which way is worse, and the JUnit properties.
// Only formatting lives here: every value is the one the judge decided.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "labgate/report/format.h"
#include "labgate/results/run_result.h"

namespace labgate::report {

/// Every figure name a reporter may ask for (for --stats/--regression-stats).
const std::vector<std::string>& known_figure_names();

/// A figure's name from itself or from its JUnit/dashboard name ("loss_pct" ->
/// "loss", "p99_us" -> "p99"); nullopt for a name labgate never records.
std::optional<std::string> figure_name_of(const std::string& name);

/// True for figures where more is better (throughput, IOPS, MTU, transaction
/// rate); latencies, drops, loss and failures are worse when larger.
bool higher_is_better(const std::string& stat);

/// "18.0 µs", "941 Mbit/s", "0.1%", "1500 bytes", "3".
std::string figure_text(const stats::Figure& f, Units u = Units::kUnicode);

/// "netperf's own p99 (tool)": where a figure came from, for a reader.
std::string figure_origin(const stats::Figure& f);

/// The JUnit properties of a test: each figure under its dashboard name with the
/// unit in it (p99_us, throughput_mbit_s, loss_pct, samples, mtu_forward_bytes,
/// ...), its source beside it (p99_us.source), the sample accounting, and the
/// measured duration. Absent figures have no property (never 0).
std::vector<std::pair<std::string, std::string>> junit_properties(const results::TestRecord& t);

}  // namespace labgate::report
