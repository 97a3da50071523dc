// GateRun on fake hosts: the preconditions come first and open the one session;
// a refused lease, an unreachable host or preconditions that could not run stop
// the run, say why once, and no measurement starts after; later cases are
// recorded not_run with the reason.
#include "labgate/gate/gate_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "gate/fake_lab_test_util.h"
#include "labgate/bios/conrep.h"
#include "labgate/facts/clock_daemons.h"
#include "labgate/gate/case_step.h"
#include "labgate/gate/preconditions_step.h"
#include "labgate/results/run_result.h"
#include "labgate/transport/interrupt.h"

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;
using transport::FakeTransport;
namespace lt = testing;

const std::string kTests =
    "[preconditions.sysctl]\n\"net.ipv4.tcp_sack\" = 0\n"
    "[[test]]\nname = \"rr\"\nkind = \"tcp_rr\"\nfrom = \"a\"\nto = \"b\"\nduration = \"300ms\"\n"
    "warmup = \"100ms\"\ninterval = \"100ms\"\nbudget = { p50 = \"1ms\" }\n"
    "[[test]]\nname = \"rr_back\"\nkind = \"tcp_rr\"\nfrom = \"b\"\nto = \"a\"\nduration = \"300ms\"\n"
    "warmup = \"100ms\"\ninterval = \"100ms\"\nbudget = { p50 = \"1ms\" }\n";

class Run : public lt::FakeLabTest {
 protected:
  void SetUp() override {
    FakeLabTest::SetUp();
    load(kTests);
    open_book();
    lt::script_recorded_run(lab_);
  }
  void TearDown() override { transport::set_pending_interrupt(0); }

  /// What the gate run does, in its order: preconditions, then every case.
  std::vector<CaseOutcome> run_gate(GateRun& run) {
    const std::vector<std::string> hosts{"a", "b"};
    run_preconditions_in(run, hosts);
    std::vector<CaseOutcome> out;
    for (const auto& c : cases_) out.push_back(run_in_gate(run, c, hosts));
    run.close();
    return out;
  }
  int measurements() {
    return lab_.host("a").count({"$RUN/pingpong"}) + lab_.host("b").count({"$RUN/pingpong"});
  }
};

TEST_F(Run, PreconditionsFirstThenEveryCaseOnTheOneSession) {
  GateRun run(profile_, *book_, lab_.boundaries());
  const auto outcomes = run_gate(run);
  EXPECT_FALSE(run.stopped());
  EXPECT_EQ(lab_.lease.taken_on, (std::vector<std::string>{"a", "b"})) << "one lease, taken once";
  EXPECT_EQ(lab_.lease.released, 1);
  // The facts probe ran on each host before any probe measured there.
  for (const char* h : {"a", "b"}) {
    const auto cmds = lab_.host(h).commands();
    std::size_t facts = cmds.size(), first_measure = cmds.size();
    for (std::size_t i = 0; i < cmds.size(); ++i) {
      if (cmds[i][0] == "$RUN/facts" && facts == cmds.size()) facts = i;
      if (cmds[i][0] == "$RUN/pingpong" && first_measure == cmds.size()) first_measure = i;
    }
    EXPECT_LT(facts, first_measure) << h;
  }
  ASSERT_EQ(book_->run().checks.size(), 2u);
  EXPECT_EQ(book_->run().conformance(), results::Conformance::kYes);
  ASSERT_EQ(book_->run().tests.size(), 2u);
  for (const auto& t : book_->run().tests) {
    EXPECT_EQ(t.verdict, results::TestVerdict::kPass) << t.failure;
    EXPECT_EQ(t.conformance, results::Conformance::kYes);
  }
  EXPECT_EQ(exit_code_of(book_->run()), ExitCode::kPassed);
  EXPECT_EQ(read("facts/a.json").empty(), false);
}

TEST_F(Run, AFailedPreconditionMakesTheMeasurementsNonConforming) {
  lab_.host("b").on({"$RUN/facts"}, FakeTransport::ok(lt::facts_with_sack("1")));
  GateRun run(profile_, *book_, lab_.boundaries());
  run_gate(run);
  EXPECT_EQ(book_->run().conformance(), results::Conformance::kNo);
  ASSERT_EQ(book_->run().tests.size(), 2u);
  EXPECT_EQ(book_->run().tests[0].conformance, results::Conformance::kNo);
  EXPECT_EQ(exit_code_of(book_->run()), ExitCode::kGateFailed);
}

TEST_F(Run, BiosRulesAreJudgedFromConrepAndAMissingConrepIsNotCheckable) {
  load(kTests + "[preconditions.bios]\nIntel_Hyperthreading = \"Disabled\"\n");
  open_book();
  const auto conrep = bios::conrep_command("$RUN/conrep.dat");
  lab_.host("a").on(
      conrep, FakeTransport::ok(lt::testdata("tests/fixtures/seeds-extra/conrep/dl380p-gen8-before.xml")));
  lab_.host("b").on(conrep, FakeTransport::exit_with(127, ""));
  GateRun run(profile_, *book_, lab_.boundaries());
  const PreconditionsStep step = run_preconditions_in(run, {"a", "b"});
  ASSERT_TRUE(step.could_not_run.empty()) << step.could_not_run;
  std::map<std::string, results::CheckRecord> bios;
  for (const auto& r : step.records)
    if (r.rule.rfind("bios/", 0) == 0) bios[r.host] = r;
  ASSERT_EQ(bios.size(), 2u);
  EXPECT_EQ(bios["a"].verdict, results::CheckVerdict::kPass) << bios["a"].message;
  EXPECT_EQ(bios["a"].source, "conrep -s");
  EXPECT_EQ(bios["b"].verdict, results::CheckVerdict::kNotCheckable);
  EXPECT_THAT(bios["b"].message, HasSubstr("conrep"));
  EXPECT_NE(book_->run().conformance(), results::Conformance::kYes) << "a rule not checked on b";
}

// The clock step's daemon reports reach the judged facts (not only the kept
// snapshot): the bound is chronyc's, not the kernel's adjtimex maxerror.
TEST_F(Run, ClockDaemonReportsAreJudgedNotOnlyRecorded) {
  load(kTests + "[preconditions.clock]\nmax_error = \"100us\"\n");
  open_book();
  const std::string clock =
      R"j(,"clock":{"synchronized":{"value":true,"source":"adjtimex"},"status":{"value":8193,"source":"adjtimex"},)j"
      R"j("state":{"value":0,"source":"adjtimex"},"maxerror_us":{"value":1500,"source":"adjtimex"},)j"
      R"j("esterror_us":{"value":2,"source":"adjtimex"}},)j"
      R"j("processes":{"list":[{"pid":2841,"comm":"chronyd","argv0":"chronyd","source":"/proc/2841/stat"}]}})j";
  std::string facts = lt::facts_with_sack("0");
  facts = facts.substr(0, facts.size() - 1) + clock;
  const std::string step =
      "@@labgate-clock chrony chronyc -c tracking\n" +
      lt::testdata("tests/fixtures/clock/chronyc-tracking-synced.csv") +
      "@@labgate-clock-exit 0\n@@labgate-clock ntpd ntpq -c rv\n@@labgate-clock-exit 127\n"
      "@@labgate-clock ptp4l pmc -u -b 0 'GET TIME_STATUS_NP'\n@@labgate-clock-exit 127\n";
  for (const char* h : {"a", "b"}) {
    lab_.host(h).on({"$RUN/facts"}, FakeTransport::ok(facts));
    lab_.host(h).on(facts::clock_daemons_command(), FakeTransport::ok(step));
  }
  GateRun run(profile_, *book_, lab_.boundaries());
  const PreconditionsStep out = run_preconditions_in(run, {"a", "b"});
  ASSERT_TRUE(out.could_not_run.empty()) << out.could_not_run;
  int bounds = 0;
  for (const auto& r : out.records) {
    if (r.rule != "clock/max_error") continue;
    ++bounds;
    EXPECT_EQ(r.verdict, results::CheckVerdict::kPass) << r.host << ": " << r.message;
    EXPECT_EQ(r.source, "chronyc -c tracking") << r.host << ": " << r.message;
  }
  EXPECT_EQ(bounds, 2);
}

TEST_F(Run, PreconditionsThatCouldNotRunStopTheRunAndNoMeasurementStarts) {
  lab_.host("b").on({"$RUN/facts"}, FakeTransport::exit_with(2, "facts: cannot read /proc\n"));
  GateRun run(profile_, *book_, lab_.boundaries());
  const auto outcomes = run_gate(run);
  ASSERT_TRUE(run.stopped());
  EXPECT_THAT(*run.stopped(), HasSubstr("preconditions: "));
  EXPECT_THAT(*run.stopped(), HasSubstr("cannot read /proc"));
  EXPECT_EQ(measurements(), 0) << "a measurement started after the preconditions could not run";
  for (const auto& o : outcomes) EXPECT_TRUE(o.not_run);
  ASSERT_EQ(book_->run().tests.size(), 2u);
  for (const auto& t : book_->run().tests) {
    EXPECT_EQ(t.verdict, results::TestVerdict::kNotRun);
    EXPECT_THAT(t.failure, HasSubstr("not started: preconditions (the error is the run's"));
  }
  EXPECT_EQ(book_->run().conformance(), results::Conformance::kNotChecked);
  EXPECT_THAT(book_->run().not_checked_why, HasSubstr("cannot read /proc"));
  EXPECT_EQ(exit_code_of(book_->run()), ExitCode::kCouldNotRun);
  EXPECT_EQ(lab_.lease.released, 1) << "the hosts were left leased";
}

// Issue 22: a read-only /tmp was headlined "could not reach the hosts" although
// the hosts were reached and the detail said read-only file system.
TEST_F(Run, TheHeadlineNamesTheStepThatFailedNotReachingTheHosts) {
  lab_.host("b").fail_on({"/bin/sh", "-c"},
                         "mkdir: cannot create directory '/tmp/labgate-x': Read-only file system");
  GateRun run(profile_, *book_, lab_.boundaries());
  run_gate(run);
  ASSERT_TRUE(run.stopped());
  EXPECT_THAT(*run.stopped(), ::testing::StartsWith("could not start the run on the hosts: "));
  EXPECT_THAT(*run.stopped(), HasSubstr("Read-only file system"));
  EXPECT_EQ(brief_reason(*run.stopped()), "could not start the run on the hosts");
  lab_.lease.refuse = "host a: the lab lease /tmp/labgate-lease-fakelab is held by someone";
  GateRun second(profile_, *book_, lab_.boundaries());
  run_gate(second);
  ASSERT_TRUE(second.stopped());
  EXPECT_THAT(*second.stopped(),
              ::testing::StartsWith("could not take the lab lease: host a: the lab lease"));
}

TEST_F(Run, AnUnreachableHostIsNamedOnceAndStopsTheRun) {
  lab_.unreachable["b"] = "connection refused";
  GateRun run(profile_, *book_, lab_.boundaries());
  const auto outcomes = run_gate(run);
  ASSERT_TRUE(run.stopped());
  EXPECT_EQ(*run.stopped(), "could not reach the hosts: host b: connection refused");
  EXPECT_EQ(lt::occurrences(book_->run().error, "host b: connection refused"), 1) << book_->run().error;
  EXPECT_TRUE(lab_.lease.taken_on.empty()) << "a lease was asked although a host could not be reached";
  EXPECT_EQ(measurements(), 0);
  EXPECT_EQ(book_->run().conformance(), results::Conformance::kNotChecked);
  for (const auto& t : book_->run().tests) EXPECT_EQ(t.verdict, results::TestVerdict::kNotRun);
  EXPECT_EQ(exit_code_of(book_->run()), ExitCode::kCouldNotRun);
}

TEST_F(Run, ARefusedLeaseStopsBeforeAnyMeasurement) {
  lab_.lease.refuse = "lease 'fakelab' is held by labgate run 1 by alice@x pid 7";
  GateRun run(profile_, *book_, lab_.boundaries());
  run_gate(run);
  ASSERT_TRUE(run.stopped());
  EXPECT_THAT(*run.stopped(), HasSubstr("is held by labgate run 1 by alice"));
  EXPECT_TRUE(lab_.host("a").calls().empty());
  EXPECT_TRUE(lab_.host("b").calls().empty());
  for (const auto& t : book_->run().tests) EXPECT_EQ(t.verdict, results::TestVerdict::kNotRun);
  EXPECT_THAT(read("run.json"), HasSubstr("is held by labgate run 1 by alice"));
}

TEST_F(Run, ACaseThatCouldNotRunDoesNotStopTheOthers) {
  // One probe killed is exit 3 for the run, but only a stopped run skips the rest.
  lab_.host("a").on({"$RUN/pingpong", "client"}, FakeTransport::exit_with(-1, ""));
  GateRun run(profile_, *book_, lab_.boundaries());
  const auto outcomes = run_gate(run);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_TRUE(outcomes[0].could_not_run);
  EXPECT_FALSE(outcomes[1].could_not_run) << outcomes[1].error;
  EXPECT_EQ(book_->run().tests[1].verdict, results::TestVerdict::kPass);
  EXPECT_EQ(exit_code_of(book_->run()), ExitCode::kCouldNotRun);
}

TEST_F(Run, EachCaseIsInRunJsonAtOnceTheReportsFollowAndAStopCompletesThem) {
  GateRun run(profile_, *book_, lab_.boundaries());
  const std::vector<std::string> hosts{"a", "b"};
  run_preconditions_in(run, hosts);
  const std::string junit_before = read("junit.xml");
  ASSERT_THAT(junit_before, HasSubstr("Preconditions")) << "the preconditions are published when checked";
  run_in_gate(run, cases_.at(0), hosts);
  // run.json holds the case at once: a later step, or `labgate report` after a kill, reads it.
  const auto state = results::run_result_from_json(nlohmann::json::parse(read("run.json")));
  ASSERT_EQ(state.tests.size(), 1u);
  EXPECT_EQ(state.tests[0].name, "rr");
  EXPECT_EQ(read("junit.xml"), junit_before) << "the reports were rendered again after a case";
  // A stop mid-run (an interrupt, a lost lease) publishes: the reports hold every case so far and why.
  run.stop("interrupted by SIGINT");
  for (const char* f : {"junit.xml", "junit-strict.xml", "report.html"})
    EXPECT_NE(read(f).find("interrupted by SIGINT"), std::string::npos) << f;
  for (const char* f : {"junit.xml", "junit-strict.xml"})
    EXPECT_NE(read(f).find("testcase name=\"rr/a-&gt;b\""), std::string::npos) << f;
  EXPECT_NE(read("report.html").find("tests/rr/a-to-b/measurement.json"), std::string::npos);
  EXPECT_THAT(read("metrics.prom"), HasSubstr("labgate_latency_seconds{lab=\"fakelab\",test=\"rr\""));
  run_in_gate(run, cases_.at(1), hosts);  // not started: in run.json, in the reports at the run's end
  EXPECT_EQ(results::run_result_from_json(nlohmann::json::parse(read("run.json"))).tests.size(), 2u);
  run.close();
}

TEST_F(Run, AStopIsRecordedOnceAndPublished) {
  GateRun run(profile_, *book_, lab_.boundaries());
  run.stop("first reason");
  run.stop("second reason");
  EXPECT_EQ(*run.stopped(), "first reason");
  EXPECT_EQ(book_->run().error, "first reason");
  EXPECT_THAT(read("run.json"), HasSubstr("first reason"));
  EXPECT_EQ(run.session({"a", "b"}), nullptr);
  EXPECT_TRUE(lab_.lease.taken_on.empty());
}

TEST_F(Run, AClean_upFailureIsRecordedNotThrown) {
  GateRun run(profile_, *book_, lab_.boundaries());
  ASSERT_NE(run.session({"a", "b"}), nullptr);
  lab_.host("a").fail_on({"/bin/sh", "-c"}, "connection lost");
  EXPECT_NO_THROW(run.close());
  EXPECT_THAT(book_->run().error, HasSubstr("clean-up: cleanup failed: host a: could not clean up"));
  EXPECT_EQ(lab_.lease.released, 1);
}

TEST(StoppedWhy, IsTheRunsError) {
  results::RunResult r;
  EXPECT_FALSE(stopped_why(r));
  r.error = "host b: connection refused";
  EXPECT_EQ(stopped_why(r).value_or(""), "host b: connection refused");
}

}  // namespace
}  // namespace labgate::gate
