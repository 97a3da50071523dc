// Conversions from checks, measurements and budget verdicts to run records.
#include "labgate/gate/records.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "labgate/gate/kind_runner.h"
#include "labgate/gate/tail_case.h"
#include "labgate/measure/figures.h"

namespace labgate::gate {

results::CheckRecord to_record(const checks::CheckResult& c) {
  results::CheckRecord r;
  r.host = c.host;
  r.rule = c.rule;
  r.expected = c.expected;
  r.found = c.found;
  r.source = c.source;
  r.verdict = c.verdict == checks::Verdict::kPass   ? results::CheckVerdict::kPass
              : c.verdict == checks::Verdict::kFail ? results::CheckVerdict::kFail
                                                    : results::CheckVerdict::kNotCheckable;
  r.message = c.message;
  if (r.verdict == results::CheckVerdict::kNotCheckable && !c.reason.empty())
    r.message = r.message.empty() ? c.reason : r.message + " (" + c.reason + ")";
  for (const auto& n : c.notes) r.message += (r.message.empty() ? "" : "; ") + n;
  if (c.host == "pair") {
    // Pair rules show every host's value side by side.
    std::string found;
    for (const auto& v : c.values) found += (found.empty() ? "" : " | ") + v.host + ": " + v.value;
    if (!found.empty()) r.found = found;
  }
  r.fix = c.fix;
  if (c.needs_reboot && !r.fix.empty()) r.fix += "\n# takes effect after a reboot";
  return r;
}

std::string metric_label(measure::Metric m) {
  switch (m) {
    case measure::Metric::kRoundTrip: return "round-trip time";
    case measure::Metric::kSendTime: return "per-send time";
    case measure::Metric::kClockGap: return "clock gap";
    case measure::Metric::kIoTime: return "I/O time";
    case measure::Metric::kWallTime: return "wall time per run";
  }
  return "unknown";
}

namespace {
const char* unit_name(profile::Stat s) {
  switch (profile::unit_of(s)) {
    case profile::StatUnit::kNanos: return "ns";
    case profile::StatUnit::kCount: return "count";
    case profile::StatUnit::kBitsPerSec: return "bit/s";
    case profile::StatUnit::kFraction: return "fraction";
  }
  return "";
}

results::TestRecord base_record(const TestCase& c) {
  results::TestRecord r;
  r.suite = c.suite;
  r.name = c.spec->name;
  r.pair = c.pair;
  r.kind = profile::to_string(c.spec->kind);
  r.tool = profile::to_string(c.spec->tool);
  r.network = c.spec->network;
  if (c.spec->mesh) r.mesh_schedule = profile::to_string(c.spec->mesh->schedule);
  r.round = c.round;
  return r;
}
}  // namespace

results::TestRecord judge_case(const TestCase& c, const measure::Measurement& m, const std::string& pair) {
  return judge_case(c, m, pair, nlohmann::json());
}

results::TestRecord judge_case(const TestCase& c, const measure::Measurement& m, const std::string& pair,
                               const nlohmann::json& one_way) {
  const measure::JudgedFigures judged = measure::judge_figures(m, c.spec->sample_tolerance);
  const budget::BudgetResult b = budget::evaluate(m, judged.figures, c.spec->budget, one_way);
  results::TestRecord r = base_record(c);
  r.pair = pair;
  const KindRunner* kind = find_runner(c.spec->kind);
  r.metric = kind && kind->metric ? kind->metric : metric_label(m.metric);
  for (const auto& v : b.verdicts) {
    results::BudgetLine line;
    line.stat = v.name;
    line.observed = v.observed;
    line.limit = v.limit;
    line.unit = unit_name(v.stat);
    if (v.margin_pct) line.margin = *v.margin_pct / 100.0;
    line.pass = v.pass;
    line.reason = v.reason;
    r.budget.push_back(line);
  }
  r.figures = judged.figures;
  r.accounting = judged.accounting;
  r.measurement = measure::to_json(m);
  // One-way delay (issue 24) rides in the measurement: tests[].measurement.one_way.
  if (!one_way.is_null()) r.measurement["one_way"] = one_way;
  // Lost samples fail the case whatever the budget says: a stalled loop's
  // figures describe the part of the run that was not stalled.
  r.verdict = b.pass && judged.accounting.pass ? results::TestVerdict::kPass : results::TestVerdict::kFail;
  const std::string budget_failure = b.failure_message();
  if (!judged.accounting.pass) r.failure = judged.accounting.message;
  if (!budget_failure.empty()) r.failure += (r.failure.empty() ? "" : "\n") + budget_failure;
  return r;
}

void add_rules(results::TestRecord& r, const std::vector<RuleVerdict>& rules) {
  for (const auto& v : rules) {
    results::BudgetLine line;
    line.stat = v.rule;
    line.observed = v.observed;
    line.limit = v.limit;
    line.unit = v.unit;
    line.pass = v.pass;
    line.reason = v.message;
    r.budget.push_back(line);
    if (v.pass) continue;
    r.verdict = results::TestVerdict::kFail;
    r.failure += (r.failure.empty() ? "" : "\n") + v.rule + ": " + v.message;
  }
}

void add_tail(results::TestRecord& r, const nlohmann::json& tail) {
  if (tail.is_null()) return;
  r.tail = tail;
  for (const results::BudgetLine& b : r.budget) {
    if (b.pass) continue;
    // The max is one sample: its own cause. A percentile is many: the ranked summary's.
    const std::string why = why_line(tail, b.stat);
    if (why.empty()) continue;
    // That statistic's line of the failure text gets it at its end.
    for (std::size_t at = 0; at < r.failure.size();) {
      const std::size_t nl = std::min(r.failure.find('\n', at), r.failure.size());
      const std::string line = r.failure.substr(at, nl - at);
      if (line.rfind(b.stat + " ", 0) == 0) {
        r.failure.insert(nl, "; " + why);
        break;
      }
      at = nl + 1;
    }
  }
}

results::TestRecord error_record(const TestCase& c, const std::string& why) {
  results::TestRecord r = base_record(c);
  r.verdict = results::TestVerdict::kError;
  r.failure = why;
  r.measurement = nullptr;
  return r;
}

}  // namespace labgate::gate
