// Internal pieces of report.html, one function per part of the page.
#pragma once

#include <string>

#include "labgate/report/chart_data.h"
#include "labgate/results/run_result.h"

namespace labgate::report::html {

/// A coloured verdict label: "pass", "fail", "error", "not checkable".
std::string pill(const std::string& verdict);

/// The precondition table (rule | one column per host | expected | verdict)
/// followed by every failure with its fix.
std::string preconditions(const results::RunResult& run);

/// One test: heading, context line, budget table, plots, details. `anchor` is
/// the element id the overview links to; `charts` is increased by the number
/// of plots drawn (the page's self-check compares it with what rendered).
std::string test_section(const results::TestRecord& t, const std::string& anchor, int& charts);

/// "Why the tail" of a test with run.json's "tail" (issue 25): the ranked
/// causes, the worst outliers with their evidence and split, the hosts' limits.
/// Empty for a test without one.
std::string tail_section(const results::TestRecord& t);

/// For a mesh test's case: which schedule ran it (and its round), and that the
/// pairs of a disjoint round shared the switch. Empty for one pair.
std::string mesh_schedule_note(const results::TestRecord& t);

/// The overview row's figure cells: p50, p99, p99.9, max and the kind's own figure.
std::string figure_cells(const results::TestRecord& t);

/// The CPU placement recorded in a measurement, e.g. "client CPU 2, server CPU 2".
std::string cpu_placement(const ChartData& v);

}  // namespace labgate::report::html
