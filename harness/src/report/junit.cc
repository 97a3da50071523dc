// Writes the merged JUnit XML of a run from the results model alone.
#include "labgate/report/junit.h"

#include <cstdio>
#include <map>
#include <vector>

#include "labgate/report/format.h"
#include "labgate/report/markup.h"
#include "labgate/report/figure_format.h"

namespace labgate::report {

using results::CheckRecord;
using results::CheckVerdict;
using results::RunResult;
using results::TestRecord;
using results::TestVerdict;

namespace {

enum class Outcome { kPass, kFailure, kError, kSkipped };

struct Case {
  std::string name;
  double time_s = 0;
  Outcome outcome = Outcome::kPass;
  std::string message;  // failure / error / skipped message attribute
  std::string type;     // failure / error type attribute
  std::string detail;   // element body
  std::vector<std::pair<std::string, std::string>> properties;
  std::string out;  // system-out
};

struct Suite {
  std::string name;
  std::vector<Case> cases;
};

std::string attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + xml_escape(value) + "\"";
}

std::string seconds(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", s < 0 ? 0.0 : s);
  return buf;
}

Case check_case(const CheckRecord& c) {
  Case k;
  k.name = c.test_name();
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
                      : c.message;
      k.detail = k.message + "\n" + detail;
      break;
    case CheckVerdict::kNotCheckable:
      k.outcome = Outcome::kSkipped;
      k.message = c.message.empty() ? "not checkable on host " + c.host : c.message;
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
  for (auto& p : junit_properties(t)) k.properties.push_back(std::move(p));
  k.properties.emplace_back("metric", t.metric);
  k.properties.emplace_back("kind", t.kind);
  k.properties.emplace_back("tool", t.tool);
  const std::string note =
      t.conformance == results::Conformance::kNo
          ? "measured on a non-conforming system (preconditions failed)"
          : t.conformance == results::Conformance::kNotChecked ? "measured on a system whose preconditions were not checked" : "";
  std::string body = (t.metric.empty() ? "" : "metric: " + t.metric + "\n");
  if (!t.budget.empty()) body += "budget:\n" + budget_text(t);
  if (t.accounting.checked) body += t.accounting.message + "\n";
  if (!note.empty()) body += note + "\n";
  switch (t.verdict) {
    case TestVerdict::kPass:
      k.out = body;
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

std::vector<Suite> suites_of(const RunResult& run) {
  std::vector<Suite> suites;
  if (!run.checks.empty()) {
    suites.push_back({"Preconditions", {}});
    for (const auto& c : run.checks) suites.back().cases.push_back(check_case(c));
  }
  std::map<std::string, std::size_t> index;
  for (const auto& t : run.tests) {
    const std::string name = t.suite_name();
    auto it = index.find(name);
    if (it == index.end()) {
      it = index.emplace(name, suites.size()).first;
      suites.push_back({name, {}});
    }
    suites[it->second].cases.push_back(test_case(t));
  }
  // A gate that could not run still leaves a red testcase, not an empty report.
  if (!run.error.empty() || (run.exit_code && *run.exit_code == 3 && suites.empty())) {
    Case k;
    k.name = "run";
    k.outcome = Outcome::kError;
    k.type = "gate";
    k.message = run.error.empty() ? "the gate could not run" : run.error;
    k.detail = k.message + "\n";
    suites.push_back({"Gate", {k}});
  }
  return suites;
}

std::string render_case(const std::string& suite, const Case& k) {
  std::string s =
      "    <testcase" + attr("name", k.name) + attr("classname", suite) + attr("time", seconds(k.time_s));
  s += ">\n";
  if (!k.properties.empty()) {
    s += "      <properties>\n";
    for (const auto& [n, v] : k.properties)
      s += "        <property" + attr("name", n) + attr("value", v) + "/>\n";
    s += "      </properties>\n";
  }
  switch (k.outcome) {
    case Outcome::kPass:
      break;
    case Outcome::kSkipped:
      s += "      <skipped" + attr("message", k.message) + "/>\n";
      break;
    case Outcome::kFailure:
    case Outcome::kError: {
      const char* tag = k.outcome == Outcome::kFailure ? "failure" : "error";
      s += std::string("      <") + tag + attr("message", k.message) + attr("type", k.type) + ">" +
           xml_escape_text(k.detail) + "</" + tag + ">\n";
      break;
    }
  }
  if (!k.out.empty()) s += "      <system-out>" + xml_escape_text(k.out) + "</system-out>\n";
  return s + "    </testcase>\n";
}

}  // namespace

std::string junit_xml(const RunResult& run) {
  const std::vector<Suite> suites = suites_of(run);
  const std::vector<std::pair<std::string, std::string>> run_props = {
      {"labgate.run_id", run.run_id},
      {"labgate.lab", run.lab_name},
      {"labgate.profile", run.profile_path},
      {"labgate.suffix", run.suffix},
      {"labgate.version", run.labgate_version},
      {"labgate.verdict", run.verdict()},
      {"labgate.conforming", results::to_string(run.conformance())},
      {"labgate.conforming_why", run.conformance_why()},
      {"labgate.start", results::format_time(run.start_time)},
      {"labgate.end", run.end_time ? results::format_time(*run.end_time) : ""}};
  std::string warnings;
  for (const auto& w : run.warnings) warnings += "warning: " + w + "\n";

  std::string body;
  int total = 0, failures = 0, errors = 0;
  double total_time = 0;
  for (const auto& suite : suites) {
    int f = 0, e = 0, sk = 0;
    double time = 0;
    for (const auto& k : suite.cases) {
      f += k.outcome == Outcome::kFailure;
      e += k.outcome == Outcome::kError;
      sk += k.outcome == Outcome::kSkipped;
      time += k.time_s;
    }
    total += static_cast<int>(suite.cases.size());
    failures += f;
    errors += e;
    total_time += time;
    body += "  <testsuite" + attr("name", suite.name) + attr("tests", std::to_string(suite.cases.size())) +
            attr("failures", std::to_string(f)) + attr("errors", std::to_string(e)) +
            attr("skipped", std::to_string(sk)) + attr("time", seconds(time)) +
            attr("timestamp", results::format_time(run.start_time)) + ">\n";
    body += "    <properties>\n";
    for (const auto& [n, v] : run_props)
      body += "      <property" + attr("name", n) + attr("value", v) + "/>\n";
    body += "    </properties>\n";
    for (const auto& k : suite.cases) body += render_case(suite.name, k);
    if (!warnings.empty()) body += "    <system-out>" + xml_escape_text(warnings) + "</system-out>\n";
    body += "  </testsuite>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" +
         attr("name", "labgate " + run.lab_name + " " + run.run_id) + attr("tests", std::to_string(total)) +
         attr("failures", std::to_string(failures)) + attr("errors", std::to_string(errors)) +
         attr("time", seconds(total_time)) + ">\n" + body + "</testsuites>\n";
}

}  // namespace labgate::report
