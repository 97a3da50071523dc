// The gate's GoogleTest cases: rules and measurement cases over the gate layer.
#include "gate_suite.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "labgate/gate/case_step.h"
#include "labgate/gate/gate_run.h"
#include "labgate/gate/mesh_rounds.h"
#include "labgate/gate/preconditions_step.h"
#include "labgate/gate/records.h"
#include "labgate/measure/probe_command.h"

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

// Before a round's pairs start on their threads: each host's probe installed
// one host after another (the session's own bookkeeping is not shared between
// threads). A failure here shows again, with its reason, in the pair's measurement.
void install_probes(gate::GateSession& session, const gate::TestCase& c) {
  if (c.spec->tool != profile::Tool::kBuiltin) return;
  for (const std::string& h : {c.client, c.server}) {
    try {
      session.probe(h, measure::probe_for(c.spec->kind));
    } catch (const std::exception& e) {
      spdlog::debug("{}: installing the probe on {} before the round: {}", c.name(), h, e.what());
    }
  }
}

class CaseTest : public ::testing::Test {
 public:
  CaseTest(gate::GateRun& run, gate::TestCase c, std::vector<std::string> hosts,
           std::shared_ptr<gate::MeshRounds> rounds)
      : run_(run), c_(std::move(c)), hosts_(std::move(hosts)), rounds_(std::move(rounds)) {}

  void TestBody() override {
    // A disjoint mesh's pairs are measured round by round (gate/mesh_rounds);
    // every other case as the gate layer runs it.
    if (c_.round > 0) return mesh_pair();
    report(gate::run_in_gate(run_, c_, hosts_));
  }

 private:
  void mesh_pair() {
    // A pair of a round already measured (its round started with an earlier
    // case) reports what it measured, even when the run stopped since.
    if (rounds_->holds(c_)) {
      gate::MeasuredCase m = rounds_->take(c_, {});
      return report(gate::record_case(*run_.session(hosts_), run_.book(), c_, std::move(m),
                                      !rounds_->round_pending(c_)));
    }
    // Nothing is begun once the run has stopped: one error, not one per case.
    if (auto why = run_.stopped()) {
      // Recorded as not run, so JUnit and the report list it with the reason.
      results::TestRecord r = gate::error_record(c_, gate::not_started_reason(*why));
      r.verdict = results::TestVerdict::kNotRun;
      r.conformance = run_.book().run().conformance();
      run_.book().put_test(std::move(r));
      run_.book().checkpoint();
      GTEST_SKIP() << gate::not_started_reason(*why);
    }
    gate::GateSession* session = run_.session(hosts_);
    if (!session) {
      // The first case to need the hosts found them unreachable: it carries the error.
      const std::string why = run_.stopped().value_or("the hosts could not be reached");
      run_.book().put_test(gate::error_record(c_, why));
      run_.book().checkpoint();
      FAIL() << "could not run " << c_.name() << ": " << why;
    }
    // Each pair keeps its own files on its thread; run.json is written here, after the round.
    const results::Conformance conformance = run_.book().run().conformance();
    const auto measure = [session, conformance, this](const gate::TestCase& x) {
      gate::MeasuredCase m = gate::measure_case(*session, x);
      if (x.round > 0) gate::keep_case(run_.book().dir(), conformance, x, m);
      return m;
    };
    const auto prepare = [session](const gate::TestCase& x) { install_probes(*session, x); };
    gate::MeasuredCase m = rounds_->take(c_, measure, prepare, will_run);
    // A round's results are published once, with its last pair's.
    report(gate::record_case(*session, run_.book(), c_, std::move(m), !rounds_->round_pending(c_)));
  }

  void report(const gate::CaseOutcome& out) {
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
    if (out.could_not_run) FAIL() << (out.measured ? "" : "could not run ") << c_.name() << ": " << out.error;
  }

  static std::vector<std::pair<std::string, std::string>> report_properties(const results::TestRecord& r);

  gate::GateRun& run_;
  gate::TestCase c_;
  std::vector<std::string> hosts_;
  std::shared_ptr<gate::MeshRounds> rounds_;
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
  // One MeshRounds for the run: a disjoint mesh's round is measured by its first case.
  auto rounds = std::make_shared<gate::MeshRounds>(cases);
  for (const auto& c : cases)
    ::testing::RegisterTest(c.suite.c_str(), c.name().c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [&run, c, hosts, rounds]() -> ::testing::Test* {
                              return new CaseTest(run, c, hosts, rounds);
                            });
}

}  // namespace labgate::suites
