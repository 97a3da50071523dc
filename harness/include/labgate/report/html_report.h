// report.html: one self-contained page (inline CSS, inline SVG drawn here, a
// few lines of inline JS, nothing fetched from the network) that shows a run
// the way a performance engineer reads it: verdict and context first, the
// precondition table with hosts side by side, then every test with its budget
// table and plots.
#pragma once

#include <string>

#include "labgate/results/run_result.h"

namespace labgate::report {

/// The whole HTML document for a run.
std::string html_report(const results::RunResult& run);

}  // namespace labgate::report
