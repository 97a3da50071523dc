// The gate's GoogleTest cases: rules and measurement cases over the gate layer.
#include "gate_suite.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "labgate/gate/case_step.h"
#include "labgate/gate/preconditions_step.h"

namespace labgate::suites {
namespace {

class RuleTest : public ::testing::Test {
 public:
  explicit RuleTest(results::CheckRecord r) : r_(std::move(r)) {}
  void TestBody() override {
    RecordProperty("expected", r_.expected);
    RecordProperty("found", r_.found);
    RecordProperty("source", r_.source);
    if (r_.verdict == results::CheckVerdict::kNotCheckable) GTEST_SKIP() << r_.message;
    if (r_.verdict == results::CheckVerdict::kFail)
      ADD_FAILURE() << r_.message << (r_.fix.empty() ? "" : "\nfix:\n" + r_.fix);
  }

 private:
  results::CheckRecord r_;
};

class GateBroken : public ::testing::Test {
 public:
  explicit GateBroken(std::string why) : why_(std::move(why)) {}
  void TestBody() override { FAIL() << "the gate could not run: " << why_; }

 private:
  std::string why_;
};

class CaseTest : public ::testing::Test {
 public:
  CaseTest(gate::GateRun& run, gate::TestCase c, std::vector<std::string> hosts)
      : run_(run), c_(std::move(c)), hosts_(std::move(hosts)) {}

  void TestBody() override {
    const gate::CaseOutcome out = gate::run_in_gate(run_, c_, hosts_);
    // Recorded as not run, so JUnit and the report list it with the reason.
    if (out.not_run) GTEST_SKIP() << out.error;
    for (const auto& r : out.records) {
      const std::string prefix = r.pair != c_.pair ? r.pair.substr(c_.pair.size() + 1) + "." : "";
      for (const auto& [name, value] : report_properties(r)) RecordProperty(prefix + name, value);
      if (r.verdict == results::TestVerdict::kFail)
        ADD_FAILURE() << r.test_name() << " (" << r.metric << "):\n" << r.failure
                      << (r.conformance == results::Conformance::kNo
                              ? "\n(measured on a system that failed its preconditions)"
                              : "");
    }
    if (out.lease_lost) ADD_FAILURE() << "the lab lease was broken by someone else during this test";
    // One case that could not run (a missing tool, a probe killed) is exit 3 for
    // the run, but the other cases still measure: only an unreachable host, a
    // refused lease or a signal stops the run (GateRun::stopped).
    if (out.could_not_run) FAIL() << "could not run " << c_.name() << ": " << out.error;
  }

 private:
  static std::vector<std::pair<std::string, std::string>> report_properties(const results::TestRecord& r);

  gate::GateRun& run_;
  gate::TestCase c_;
  std::vector<std::string> hosts_;
};

}  // namespace
}  // namespace labgate::suites

#include "labgate/report/figure_format.h"

namespace labgate::suites {
namespace {
std::vector<std::pair<std::string, std::string>> CaseTest::report_properties(const results::TestRecord& r) {
  auto props = report::junit_properties(r);
  props.emplace_back("metric", r.metric);
  return props;
}
}  // namespace

std::vector<std::string> run_hosts(const profile::Profile& p, const std::vector<gate::TestCase>& cases,
                                   bool with_preconditions) {
  std::vector<std::string> hosts = gate::hosts_of(cases);
  if (with_preconditions)
    for (const auto& h : gate::precondition_hosts(p))
      if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  std::sort(hosts.begin(), hosts.end());
  return hosts;
}

void register_preconditions(gate::GateRun& run, const std::vector<std::string>& hosts) {
  const gate::PreconditionsStep step = gate::run_preconditions_in(run, hosts);
  if (!step.could_not_run.empty()) {
    const std::string why = step.could_not_run;
    ::testing::RegisterTest("Preconditions", "gate/could_not_run", nullptr, nullptr, __FILE__, __LINE__,
                            [why]() -> ::testing::Test* { return new GateBroken(why); });
    return;
  }
  for (const auto& r : step.records)
    ::testing::RegisterTest("Preconditions", r.test_name().c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [r]() -> ::testing::Test* { return new RuleTest(r); });
}

void register_cases(gate::GateRun& run, const std::vector<gate::TestCase>& cases,
                    const std::vector<std::string>& hosts) {
  for (const auto& c : cases)
    ::testing::RegisterTest(c.suite.c_str(), c.name().c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [&run, c, hosts]() -> ::testing::Test* { return new CaseTest(run, c, hosts); });
}

}  // namespace labgate::suites
