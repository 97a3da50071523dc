// Turning what the layers below produce (check results, measurements, budget
// verdicts) into the neutral run records the reporters read. Pure.
#pragma once

#include <string>
#include <vector>

#include "labgate/budget/budget.h"
#include "labgate/checks/check_result.h"
#include "labgate/gate/case_runner.h"
#include "labgate/gate/test_cases.h"
#include "labgate/measure/measurement.h"
#include "labgate/results/run_result.h"

namespace labgate::gate {

results::CheckRecord to_record(const checks::CheckResult& c);

/// "round-trip time", "per-send time", "clock gap": said next to every number.
std::string metric_label(measure::Metric m);

/// Judges one measurement of a case: its figures and sample accounting (the one
/// judge, measure::judge_figures, with the test's sample_tolerance), its budget on
/// those same figures, and the record every reporter reads. `pair` overrides the
/// case's pair label (jitter: "a/cpu2"). The caller sets started/duration/conformance.
results::TestRecord judge_case(const TestCase& c, const measure::Measurement& m, const std::string& pair);
/// The same with the case's one-way record (CaseRun::one_way): kept in the
/// measurement as "one_way", and the figures its one-way budgets are judged on.
results::TestRecord judge_case(const TestCase& c, const measure::Measurement& m, const std::string& pair,
                               const nlohmann::json& one_way);

/// Adds the case's rules (path MTU, buffers_cover_bdp) to `r`'s budget lines; a
/// failed rule fails the record and its message joins the failure text.
void add_rules(results::TestRecord& r, const std::vector<RuleVerdict>& rules);

/// Gives `r` the case's tail explanation (run.json's "tail"); a failing p99 or
/// max line of its failure carries the top cause beside it ("...; why: 14 of 16
/// outliers: ..."). Nothing for a null `tail`.
void add_tail(results::TestRecord& r, const nlohmann::json& tail);

/// A case that could not be measured: verdict error with the reason.
results::TestRecord error_record(const TestCase& c, const std::string& why);

}  // namespace labgate::gate
