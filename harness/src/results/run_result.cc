// The run-results model: verdict names, derived fields and its JSON form (run.json).
#include "labgate/results/run_result.h"

#include <cctype>
#include <cstdio>
#include <ctime>
#include <stdexcept>

#include "labgate/util/json_reader.h"

namespace labgate::results {

using nlohmann::json;
using util::json_type_name;
using util::JsonReader;

const char* to_string(CheckVerdict v) {
  switch (v) {
    case CheckVerdict::kPass:
      return "pass";
    case CheckVerdict::kFail:
      return "fail";
    case CheckVerdict::kNotCheckable:
      return "not_checkable";
  }
  return "fail";
}

const char* to_string(TestVerdict v) {
  switch (v) {
    case TestVerdict::kPass:
      return "pass";
    case TestVerdict::kFail:
      return "fail";
    case TestVerdict::kError:
      return "error";
    case TestVerdict::kNotRun:
      return "not_run";
  }
  return "error";
}

const char* to_string(Conformance c) {
  switch (c) {
    case Conformance::kYes: return "yes";
    case Conformance::kNo: return "no";
    case Conformance::kNotChecked: return "not_checked";
  }
  return "not_checked";
}

std::optional<Conformance> parse_conformance(const std::string& s) {
  for (Conformance c : {Conformance::kYes, Conformance::kNo, Conformance::kNotChecked})
    if (s == to_string(c)) return c;
  return std::nullopt;
}

std::string TestRecord::suite_name() const { return suite.empty() ? "Tests" : suite; }

Conformance RunResult::conformance() const {
  bool unchecked = checks.empty() || !not_checked_why.empty();
  for (const auto& c : checks) {
    if (c.verdict == CheckVerdict::kFail) return Conformance::kNo;
    if (c.verdict == CheckVerdict::kNotCheckable) unchecked = true;
  }
  return unchecked ? Conformance::kNotChecked : Conformance::kYes;
}

std::string RunResult::conformance_why() const {
  std::size_t failed = 0, unknown = 0;
  const CheckRecord* first_failed = nullptr;
  const CheckRecord* first_unknown = nullptr;
  for (const auto& c : checks) {
    if (c.verdict == CheckVerdict::kFail && !failed++) first_failed = &c;
    if (c.verdict == CheckVerdict::kNotCheckable && !unknown++) first_unknown = &c;
  }
  const std::string n = std::to_string(checks.size());
  if (failed)
    return std::to_string(failed) + " of " + n + " precondition rules failed (first: " + first_failed->test_name() +
           ")";
  if (!not_checked_why.empty()) return not_checked_why;
  if (checks.empty()) return "no precondition was checked";
  if (unknown)
    return std::to_string(unknown) + " of " + n + " precondition rules could not be checked (first: " +
           first_unknown->test_name() + (first_unknown->message.empty() ? "" : ": " + first_unknown->message) +
           "); the others held";
  return "every precondition held (" + n + " rules)";
}

std::string RunResult::verdict() const {
  if (!exit_code) return "incomplete";
  switch (*exit_code) {
    case 0:
      return "passed";
    case 1:
      return "failed";
    case 2:
      return "usage error";
    case 3:
      return "could not run";
  }
  return "exit " + std::to_string(*exit_code);
}

std::string format_time(Clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  // Floor division so times before 1970 still print sanely.
  std::time_t secs = static_cast<std::time_t>(ms / 1000 - (ms % 1000 < 0 ? 1 : 0));
  const int millis = static_cast<int>(((ms % 1000) + 1000) % 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[96];  // sized for any int fields, so no truncation is possible
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
  return buf;
}

Clock::time_point parse_time(const std::string& text) {
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6 ||
      consumed != 19)
    throw std::invalid_argument("'" + text + "' is not an ISO 8601 UTC time like 2024-05-01T12:00:00.000Z");
  std::size_t pos = 19;
  int millis = 0;
  if (pos < text.size() && text[pos] == '.') {
    int digits = 0;
    for (++pos; pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])); ++pos, ++digits)
      if (digits < 3) millis = millis * 10 + (text[pos] - '0');
    if (digits == 0) throw std::invalid_argument("'" + text + "': no digits after the decimal point");
    for (; digits < 3; ++digits) millis *= 10;
  }
  if (pos + 1 != text.size() || text[pos] != 'Z')
    throw std::invalid_argument("'" + text + "' must end in Z (UTC)");
  if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
      tm.tm_min > 59 || tm.tm_sec > 60)
    throw std::invalid_argument("'" + text + "' has a field out of range");
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  const std::time_t secs = timegm(&tm);
  return Clock::time_point(std::chrono::seconds(secs) + std::chrono::milliseconds(millis));
}

// ------------------------------------------------------------------ writing

json to_json(const CheckRecord& c) {
  json j = {{"host", c.host},       {"rule", c.rule},     {"expected", c.expected},
            {"found", c.found},     {"source", c.source}, {"verdict", to_string(c.verdict)},
            {"message", c.message}, {"fix", c.fix}};
  // Optional: run.json files written before these existed stay readable and unchanged.
  if (c.started) j["started"] = format_time(*c.started);
  if (c.duration_s > 0) j["duration_s"] = c.duration_s;
  return j;
}

namespace {

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json to_json(const BudgetLine& b) {
  return {{"stat", b.stat},    {"observed", optional_number(b.observed)}, {"limit", b.limit},
          {"unit", b.unit},    {"margin", optional_number(b.margin)},     {"pass", b.pass},
          {"reason", b.reason}};
}

json to_json(const HostInfo& h) {
  json j = {{"name", h.name}, {"address", h.address}, {"test_address", h.test_address}};
  for (const auto& [key, r] : h.resolved)
    j["resolved"][key] = {{"name", r.first}, {"address", r.second}, {"resolved_on", h.name}};
  return j;
}

}  // namespace

json to_json(const TestRecord& t) {
  json budget = json::array();
  for (const auto& b : t.budget) budget.push_back(to_json(b));
  json j = {{"suite", t.suite_name()},
          {"name", t.name},
          {"pair", t.pair},
          {"kind", t.kind},
          {"tool", t.tool},
          {"metric", t.metric},
          {"network", t.network},
          {"verdict", to_string(t.verdict)},
          {"budget", std::move(budget)},
          {"figures", stats::to_json(t.figures)},
          {"accounting", stats::to_json(t.accounting)},
          {"measurement", t.measurement},
          {"failure", t.failure},
          {"conforming", to_string(t.conformance)},
          {"started", t.started ? json(format_time(*t.started)) : json(nullptr)},
          {"duration_s", t.duration_s},
          {"raw_files", t.raw_files}};
  if (t.started) j["started"] = format_time(*t.started);
  if (!t.mesh_schedule.empty()) j["mesh_schedule"] = t.mesh_schedule;
  if (t.round > 0) j["round"] = t.round;
  if (!t.tail.is_null()) j["tail"] = t.tail;
  return j;
}

namespace {

json overrides_json(const std::vector<profile::AppliedOverride>& overrides) {
  json out = json::array();
  for (const auto& o : overrides) {
    json replaced = json::array();
    for (const auto& v : o.replaced) replaced.push_back({{"test", v.test}, {"was", v.was}});
    out.push_back({{"parameter", o.parameter}, {"value", o.value}, {"replaced", std::move(replaced)}});
  }
  return out;
}

}  // namespace

json to_json(const RunResult& r) {
  json hosts = json::array(), checks = json::array(), tests = json::array();
  for (const auto& h : r.hosts) hosts.push_back(to_json(h));
  for (const auto& c : r.checks) checks.push_back(to_json(c));
  for (const auto& t : r.tests) tests.push_back(to_json(t));
  json j = {{"format", kRunFormat},
          {"run_id", r.run_id},
          {"profile", r.profile_path},
          {"lab", r.lab_name},
          {"suffix", r.suffix},
          {"hosts", std::move(hosts)},
          {"start", format_time(r.start_time)},
          {"end", r.end_time ? json(format_time(*r.end_time)) : json(nullptr)},
          {"labgate_version", r.labgate_version},
          {"exit_code", r.exit_code ? json(*r.exit_code) : json(nullptr)},
          {"verdict", r.verdict()},
          {"conforming", to_string(r.conformance())},
          {"conforming_why", r.conformance_why()},
          {"not_checked_why", r.not_checked_why},
          {"error", r.error},
          {"checks", std::move(checks)},
          {"tests", std::move(tests)},
          {"warnings", r.warnings},
          {"overrides", overrides_json(r.overrides)}};
  // Only imported runs carry it: a measured run's run.json is unchanged.
  if (r.imported)
    j["imported"] = {{"tool", r.imported->tool},
                     {"file", r.imported->file},
                     {"sha256", r.imported->sha256},
                     {"time_source", r.imported->time_source}};
  return j;
}

// ------------------------------------------------------------------ reading

namespace {

std::string indexed(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

CheckVerdict check_verdict(const JsonReader& r, const char* key) {
  const std::string v = r.str(key);
  if (v == "pass") return CheckVerdict::kPass;
  if (v == "fail") return CheckVerdict::kFail;
  if (v == "not_checkable") return CheckVerdict::kNotCheckable;
  r.fail(key, "expected pass, fail or not_checkable, got \"" + v + "\"");
}

TestVerdict test_verdict(const JsonReader& r, const char* key) {
  const std::string v = r.str(key);
  if (v == "pass") return TestVerdict::kPass;
  if (v == "fail") return TestVerdict::kFail;
  if (v == "error") return TestVerdict::kError;
  if (v == "not_run") return TestVerdict::kNotRun;
  r.fail(key, "expected pass, fail, error or not_run, got \"" + v + "\"");
}

std::vector<std::string> strings(const JsonReader& r, const char* key) {
  std::vector<std::string> out;
  const auto& a = r.array(key, false);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_string())
      throw std::invalid_argument(indexed(r.path_of(key), i) + ": expected a string, got " +
                                  json_type_name(a[i]));
    out.push_back(a[i].get<std::string>());
  }
  return out;
}

std::optional<Clock::time_point> optional_time(const JsonReader& r, const char* key) {
  if (!r.find(key)) return std::nullopt;
  try {
    return parse_time(r.str(key));
  } catch (const std::invalid_argument& e) {
    r.fail(key, e.what());
  }
}

CheckRecord check_at(const json& j, const std::string& path) {
  const JsonReader r(j, path);
  CheckRecord c;
  c.host = r.str("host");
  c.rule = r.str("rule");
  c.expected = r.str_or("expected", "");
  c.found = r.str_or("found", "");
  c.source = r.str_or("source", "");
  c.verdict = check_verdict(r, "verdict");
  c.message = r.str_or("message", "");
  c.fix = r.str_or("fix", "");
  c.started = optional_time(r, "started");
  c.duration_s = r.opt_num("duration_s").value_or(0.0);
  return c;
}

BudgetLine budget_at(const json& j, const std::string& path) {
  const JsonReader r(j, path);
  BudgetLine b;
  b.stat = r.str("stat");
  b.observed = r.opt_num("observed");
  b.limit = r.num("limit");
  b.unit = r.str_or("unit", "");
  b.margin = r.opt_num("margin");
  b.pass = r.boolean("pass");
  b.reason = r.str_or("reason", "");
  return b;
}

Conformance conformance_at(const JsonReader& r, const char* key, bool v1) {
  if (v1) return r.bool_or(key, true) ? Conformance::kYes : Conformance::kNo;  // labgate-run-1: a bool
  const std::string v = r.str(key);
  if (auto c = parse_conformance(v)) return *c;
  r.fail(key, "expected yes, no or not_checked, got \"" + v + "\"");
}

TestRecord test_at(const json& j, const std::string& path, bool v1) {
  const JsonReader r(j, path);
  TestRecord t;
  t.suite = r.str_or("suite", "");
  t.name = r.str("name");
  t.pair = r.str("pair");
  t.kind = r.str("kind");
  t.tool = r.str_or("tool", "");
  t.metric = r.str_or("metric", "");
  t.network = r.str_or("network", "");
  t.verdict = test_verdict(r, "verdict");
  const auto& budget = r.array("budget", false);
  for (std::size_t i = 0; i < budget.size(); ++i)
    t.budget.push_back(budget_at(budget[i], indexed(r.path_of("budget"), i)));
  // labgate-run-1 figures were display values without a source: not read (the
  // measurement is kept, and `labgate report` re-judges nothing it cannot source).
  if (const auto* f = r.find("figures"); f && !v1) t.figures = stats::figure_set_from_json(*f, r.path_of("figures"));
  if (const auto* a = r.find("accounting"); a && !v1)
    t.accounting = stats::sample_accounting_from_json(*a, r.path_of("accounting"));
  if (const auto* m = r.find("measurement")) {
    if (!m->is_object()) r.fail("measurement", "expected an object, got " + json_type_name(*m));
    t.measurement = *m;
  }
  t.failure = r.str_or("failure", "");
  t.conformance = conformance_at(r, "conforming", v1);
  if (r.find("started")) {
    try {
      t.started = parse_time(r.str("started"));
    } catch (const std::invalid_argument& e) {
      r.fail("started", e.what());
    }
  }
  t.duration_s = r.opt_num("duration_s").value_or(0.0);
  t.raw_files = strings(r, "raw_files");
  t.started = optional_time(r, "started");
  t.mesh_schedule = r.str_or("mesh_schedule", "");
  t.round = static_cast<int>(r.opt_num("round").value_or(0.0));
  if (const auto* tail = r.find("tail")) {
    if (!tail->is_object()) r.fail("tail", "expected an object, got " + json_type_name(*tail));
    t.tail = *tail;
  }
  return t;
}

}  // namespace

CheckRecord check_record_from_json(const json& j) { return check_at(j, ""); }
TestRecord test_record_from_json(const json& j) { return test_at(j, "", false); }

RunResult run_result_from_json(const json& j) {
  const JsonReader r(j, "");
  const std::string format = r.str("format");
  const bool v1 = format == kRunFormatV1;
  if (format != kRunFormat && !v1)
    r.fail("format", "expected \"" + std::string(kRunFormat) + "\" (or the older \"" + kRunFormatV1 + "\"), got \"" +
                         format + "\"");
  RunResult run;
  run.run_id = r.str("run_id");
  run.profile_path = r.str_or("profile", "");
  run.lab_name = r.str_or("lab", "");
  run.suffix = r.str_or("suffix", "");
  const auto& hosts = r.array("hosts", false);
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    const JsonReader h(hosts[i], indexed("hosts", i));
    run.hosts.push_back({h.str("name"), h.str_or("address", ""), h.str_or("test_address", ""), {}});
    if (const auto* res = h.find("resolved"))
      for (auto it = res->begin(); it != res->end(); ++it)
        run.hosts.back().resolved[it.key()] = {it->value("name", ""), it->value("address", "")};
  }
  try {
    run.start_time = parse_time(r.str("start"));
    if (r.find("end")) run.end_time = parse_time(r.str("end"));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("start/end: ") + e.what());
  }
  run.labgate_version = r.str_or("labgate_version", "");
  if (const auto code = r.opt_int("exit_code")) run.exit_code = static_cast<int>(*code);
  run.error = r.str_or("error", "");
  run.not_checked_why = r.str_or("not_checked_why", "");
  const auto& checks = r.array("checks", false);
  for (std::size_t i = 0; i < checks.size(); ++i)
    run.checks.push_back(check_at(checks[i], indexed("checks", i)));
  const auto& tests = r.array("tests", false);
  for (std::size_t i = 0; i < tests.size(); ++i) run.tests.push_back(test_at(tests[i], indexed("tests", i), v1));
  run.warnings = strings(r, "warnings");
  const auto& overrides = r.array("overrides", false);
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    const JsonReader o(overrides[i], indexed("overrides", i));
    profile::AppliedOverride a{o.str("parameter"), o.str("value"), {}};
    const auto& replaced = o.array("replaced", false);
    for (std::size_t k = 0; k < replaced.size(); ++k) {
      const JsonReader v(replaced[k], indexed(indexed("overrides", i) + ".replaced", k));
      a.replaced.push_back({v.str("test"), v.str("was")});
    }
    run.overrides.push_back(std::move(a));
  }
  if (r.find("imported")) {
    const JsonReader i = r.object("imported");
    run.imported = ImportedFrom{i.str("tool"), i.str("file"), i.str_or("sha256", ""), i.str_or("time_source", "")};
  }
  return run;
}

}  // namespace labgate::results
