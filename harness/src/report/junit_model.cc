// Builds the JUnit suites and cases of a run (see junit_model.h): names,
// outcomes, messages, measured times and the properties each case carries.
#include "junit_model.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "labgate/report/figure_format.h"
#include "labgate/report/format.h"
#include "labgate/report/markup.h"

namespace labgate::report::junit_detail {

using results::CheckRecord;
using results::CheckVerdict;
using results::Clock;
using results::RunResult;
using results::TestRecord;
using results::TestVerdict;

namespace {

std::string check_name(const CheckRecord& c) { return c.test_name(); }

// "host a: X not checkable: why (why)" -> "host a: X not checkable: why": the
// reason appended in parentheses is dropped when the sentence already says it.
std::string without_repeated_reason(const std::string& message) {
  if (message.size() < 4 || message.back() != ')') return message;
  const auto open = message.rfind(" (");
  if (open == std::string::npos) return message;
  const std::string reason = message.substr(open + 2, message.size() - open - 3);
  if (reason.empty() || message.substr(0, open).find(reason) == std::string::npos) return message;
  return message.substr(0, open);
}

Case check_case(const CheckRecord& c) {
  Case k;
  k.name = check_name(c);
  k.time_s = c.duration_s;
  k.started = c.started;
  k.properties = {{"expected", c.expected}, {"found", c.found}, {"source", c.source}};
  std::string detail =
      "expected: " + c.expected + "\nfound:    " + c.found + "\nsource:   " + c.source + "\n";
  if (!c.fix.empty()) detail += "fix:\n" + c.fix + "\n";
  switch (c.verdict) {
    case CheckVerdict::kPass:
      break;
    case CheckVerdict::kFail:
      k.outcome = Outcome::kFailure;
      k.type = "precondition";
      k.message = c.message.empty()
                      ? "host " + c.host + ": " + c.rule + " is " + c.found + ", profile wants " + c.expected
                      : without_repeated_reason(c.message);
      k.detail = k.message + "\n" + detail;
      break;
    case CheckVerdict::kNotCheckable:
      k.outcome = Outcome::kSkipped;
      k.message = c.message.empty() ? "not checkable on host " + c.host : without_repeated_reason(c.message);
      break;
  }
  if (k.outcome != Outcome::kFailure) k.out = detail;
  return k;
}

std::string budget_text(const TestRecord& t) {
  std::string s;
  for (const auto& b : t.budget) {
    s += "  " + b.stat + ": " +
         (b.observed ? format_in_unit(*b.observed, b.unit, Units::kAscii) : std::string("not measured")) +
         (b.stat == "min_throughput" ? " >= " : " <= ") + format_in_unit(b.limit, b.unit, Units::kAscii) +
         (b.margin ? " (margin " + format_signed_percent(*b.margin) + ")" : "") +
         (b.pass ? "  ok" : "  FAILED") + (b.reason.empty() ? "" : ": " + b.reason) + "\n";
  }
  return s;
}

Case test_case(const TestRecord& t) {
  Case k;
  k.name = t.test_name();
  k.time_s = t.duration_s;
  k.started = t.started;
  for (auto& p : junit_properties(t)) k.properties.push_back(std::move(p));
  k.properties.emplace_back("metric", t.metric);
  k.properties.emplace_back("kind", t.kind);
  k.properties.emplace_back("tool", t.tool);
  const std::string note =
      t.conformance == results::Conformance::kNo           ? "measured on a non-conforming system (preconditions failed)"
      : t.conformance == results::Conformance::kNotChecked ? "measured on a system whose preconditions were not checked"
                                                           : "";
  std::string body = (t.metric.empty() ? "" : "metric: " + t.metric + "\n");
  if (!t.budget.empty()) body += "budget:\n" + budget_text(t);
  if (!note.empty()) body += note + "\n";
  if (t.accounting.checked) body += t.accounting.message + "\n";
  // Why the tail (issue 25), pass or fail: a failing p99/max line carries it in the message too.
  if (t.tail.is_object())
    if (const auto top = t.tail.find("top");
        top != t.tail.end() && top->is_string() && !top->get<std::string>().empty())
      body += "why the tail: " + top->get<std::string>() + "\n";
  switch (t.verdict) {
    case TestVerdict::kPass:
      k.out = body;
      break;
    case TestVerdict::kNotRun:
      k.outcome = Outcome::kSkipped;
      k.message = t.failure;
      break;
    case TestVerdict::kFail:
    case TestVerdict::kError:
      k.outcome = t.verdict == TestVerdict::kFail ? Outcome::kFailure : Outcome::kError;
      k.type = t.verdict == TestVerdict::kFail ? "budget" : "gate";
      k.message = t.failure.empty() ? std::string(t.verdict == TestVerdict::kFail ? "budget exceeded"
                                                                                  : "the test could not run")
                                    : t.failure;
      if (!note.empty()) k.message += " [" + note + "]";
      k.detail = k.message + "\n" + body;
      break;
  }
  return k;
}

double to_seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Measured time of a set of cases: from the first start to the last end when
// every case says when it started (tests of a suite may overlap or leave gaps),
// else the sum of their measured durations.
double measured_time(const std::vector<const Case*>& cases, std::optional<Clock::time_point>* first) {
  double sum = 0;
  bool all_started = !cases.empty();
  std::optional<Clock::time_point> begin, end;
  for (const Case* k : cases) {
    sum += std::max(0.0, k->time_s);
    if (!k->started) {
      all_started = false;
      continue;
    }
    const auto stop = *k->started + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(std::max(0.0, k->time_s)));
    if (!begin || *k->started < *begin) begin = *k->started;
    if (!end || stop > *end) end = stop;
  }
  *first = begin;
  return all_started ? to_seconds(*end - *begin) : sum;
}

}  // namespace

std::string identity_of(const RunResult& run) {
  std::string id = run.lab_name.empty() ? "labgate" : run.lab_name;
  // A pool pair's run has the suffix "pool-<pair id>" (gate_pool_tests.cmake):
  // the pair keeps two pool members apart even when their profiles share a lab name.
  const std::string pool = "pool-";
  if (run.suffix.rfind(pool, 0) == 0 && run.suffix.size() > pool.size()) {
    const std::string pair = run.suffix.substr(pool.size());
    if (id.find(pair) == std::string::npos) id += "." + pair;
  }
  return id;
}

std::string seconds(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", s < 0 ? 0.0 : s);
  return buf;
}

std::string attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + xml_escape(value) + "\"";
}

Document document_of(const RunResult& run) {
  Document doc;
  doc.identity = identity_of(run);
  if (!run.checks.empty()) {
    doc.suites.push_back({"Preconditions", {}});
    for (const auto& c : run.checks) doc.suites.back().cases.push_back(check_case(c));
  }
  std::map<std::string, std::size_t> index;
  for (const auto& t : run.tests) {
    const std::string name = t.suite_name();
    auto it = index.find(name);
    if (it == index.end()) {
      it = index.emplace(name, doc.suites.size()).first;
      doc.suites.push_back({name, {}});
    }
    doc.suites[it->second].cases.push_back(test_case(t));
  }
  // A gate that could not run still leaves a red testcase, not an empty report.
  if (!run.error.empty() || (run.exit_code && *run.exit_code == 3 && doc.suites.empty())) {
    Case k;
    k.name = "run";
    k.outcome = Outcome::kError;
    k.type = "gate";
    k.message = run.error.empty() ? "the gate could not run" : run.error;
    k.detail = k.message + "\n";
    doc.suites.push_back({"Gate", {k}});
  }

  std::vector<const Case*> all;
  for (auto& s : doc.suites) {
    std::vector<const Case*> cases;
    for (const auto& k : s.cases) {
      s.failures += k.outcome == Outcome::kFailure;
      s.errors += k.outcome == Outcome::kError;
      s.skipped += k.outcome == Outcome::kSkipped;
      cases.push_back(&k);
      all.push_back(&k);
    }
    std::optional<Clock::time_point> first;
    s.time_s = measured_time(cases, &first);
    s.timestamp = first.value_or(run.start_time);
    doc.tests += static_cast<int>(s.cases.size());
    doc.failures += s.failures;
    doc.errors += s.errors;
    doc.skipped += s.skipped;
  }
  std::optional<Clock::time_point> first;
  doc.time_s = measured_time(all, &first);

  doc.run_properties = {{"labgate.run_id", run.run_id},
                        {"labgate.lab", run.lab_name},
                        {"labgate.identity", doc.identity},
                        {"labgate.profile", run.profile_path},
                        {"labgate.suffix", run.suffix},
                        {"labgate.version", run.labgate_version},
                        {"labgate.verdict", run.verdict()},
                        {"labgate.conforming", results::to_string(run.conformance())},
                        {"labgate.conforming_why", run.conformance_why()},
                        {"labgate.start", results::format_time(run.start_time)},
                        {"labgate.end", run.end_time ? results::format_time(*run.end_time) : ""}};
  if (run.imported) {  // a saved tool output, not a run labgate measured
    doc.run_properties.push_back({"labgate.imported_tool", run.imported->tool});
    doc.run_properties.push_back({"labgate.imported_from", run.imported->file});
    doc.run_properties.push_back({"labgate.imported_sha256", run.imported->sha256});
  }
  for (const auto& w : run.warnings) doc.warnings += "warning: " + w + "\n";
  for (const auto& h : run.hosts)
    if (!h.address.empty()) doc.hostname += (doc.hostname.empty() ? "" : ",") + h.address;
  if (doc.hostname.empty()) doc.hostname = "localhost";
  return doc;
}

}  // namespace labgate::report::junit_detail
