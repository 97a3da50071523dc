// The gate's GoogleTest cases: rules and measurement cases over the gate layer.
#include "gate_suite.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "gtest_log.h"
#include "labgate/gate/case_in_run.h"
#include "labgate/gate/gate_run.h"
#include "labgate/gate/preconditions_step.h"

namespace labgate::suites {
namespace {

class RuleTest : public ::testing::Test {
 public:
  explicit RuleTest(results::CheckRecord r) : r_(std::move(r)) {}
  // What it expected and found is in run.json, and in junit.xml from there
  // (report::junit_xml): GoogleTest only turns the verdict into an assertion.
  void TestBody() override {
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
  // The error itself was printed once, when the run stopped (and is in run.json
  // and junit.xml): GoogleTest's line names it briefly.
  void TestBody() override {
    FAIL() << "the gate could not run: " << gate::brief_reason(why_)
           << (gate::brief_reason(why_) == why_ ? "" : " (the error above)");
  }

 private:
  std::string why_;
};

// Whether GoogleTest will run the case (a --gtest_filter may leave some of a
// round out: those are not measured with it).
bool will_run(const gate::TestCase& c) {
  const ::testing::UnitTest* u = ::testing::UnitTest::GetInstance();
  for (int i = 0; i < u->total_test_suite_count(); ++i) {
    const ::testing::TestSuite* s = u->GetTestSuite(i);
    if (s->name() != c.suite) continue;
    for (int j = 0; j < s->total_test_count(); ++j)
      if (s->GetTestInfo(j)->name() == c.name()) return s->GetTestInfo(j)->should_run();
  }
  return false;
}

class CaseTest : public ::testing::Test {
 public:
  CaseTest(gate::GateRun& run, gate::TestCase c, std::vector<std::string> hosts,
           std::shared_ptr<gate::MeshRounds> rounds)
      : run_(run), c_(std::move(c)), hosts_(std::move(hosts)), rounds_(std::move(rounds)) {}

  void TestBody() override { report(gate::run_case_in_gate(run_, c_, hosts_, *rounds_, will_run)); }

 private:
  void report(const gate::CaseOutcome& out) {
    // Recorded as not run, so JUnit and the report list it with the reason.
    if (out.not_run) GTEST_SKIP() << out.error;
    // The figures are in run.json, and in junit.xml's properties from there.
    for (const auto& r : out.records) {
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
    if (out.could_not_run) FAIL() << (out.measured ? "" : "could not run ") << c_.name() << ": " << out.error;
  }

  gate::GateRun& run_;
  gate::TestCase c_;
  std::vector<std::string> hosts_;
  std::shared_ptr<gate::MeshRounds> rounds_;
};

}  // namespace

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
  // One MeshRounds for the run: a disjoint mesh's round is measured by its first case.
  auto rounds = std::make_shared<gate::MeshRounds>(cases, run.reporter());
  for (const auto& c : cases)
    ::testing::RegisterTest(c.suite.c_str(), c.name().c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [&run, c, hosts, rounds]() -> ::testing::Test* {
                              return new CaseTest(run, c, hosts, rounds);
                            });
}

bool run_registered(gate::GateRun& run, const std::vector<gate::TestCase>& cases,
                    const std::vector<std::string>& hosts, bool preconditions) {
  if (preconditions) register_preconditions(run, hosts);
  register_cases(run, cases, hosts);
  return RUN_ALL_TESTS() == 0;
}

bool GtestRunner::run(gate::GateRun& run, const std::vector<gate::TestCase>& cases,
                      const std::vector<std::string>& hosts, bool preconditions) {
  int argc = 1;
  char program[] = "labgate";
  char* argv[] = {program, nullptr};
  ::testing::InitGoogleTest(&argc, argv);
  log_gtest_to(run.reporter());  // labgate.log holds GoogleTest's lines as the console shows them
  return run_registered(run, cases, hosts, preconditions);
}

}  // namespace labgate::suites
