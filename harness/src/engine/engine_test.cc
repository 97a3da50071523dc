// engine::run on fake hosts, end to end: the results folder, the labels' cases,
// the preconditions, the session and lease, the exit code and run.json, for a
// run that passes, fails, is refused, loses a host or is interrupted; and what
// the run told its Reporter as it went (a recording fake, as ninja's build_test
// gives its Builder a fake Status).
#include "labgate/engine/engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gate/fake_lab_test_util.h"
#include "gate/recording_reporter.h"
#include "labgate/gate/case_in_run.h"
#include "labgate/gate/preconditions_step.h"
#include "labgate/results/run_dir.h"
#include "labgate/transport/interrupt.h"

namespace labgate::engine {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;
using transport::FakeTransport;
namespace lt = gate::testing;
namespace fs = std::filesystem;

const std::string kTests = "[preconditions.sysctl]\n\"net.ipv4.tcp_sack\" = 0\n" + lt::kRecordedRr +
                           "budget = { p50 = \"1ms\" }\n"
                           "[[test]]\nname = \"jit\"\nkind = \"jitter\"\non = [\"a\"]\ncpus = [0]\n"
                           "duration = \"2s\"\nwarmup = \"100ms\"\nbudget = { p99 = \"1ms\" }\n";

// A case runner without GoogleTest: each step through the gate's one model of
// it, as the suites' runner does; it notes what the engine asked of it.
struct PlainRunner : CaseRunner {
  bool preconditions = false;
  std::vector<std::string> cases, hosts;
  bool answer = true;    ///< what it says of the run (false: a failure outside any record)
  int signal_after = 0;  ///< a signal arrives after the first case
  bool run(gate::GateRun& run, const std::vector<gate::TestCase>& cs, const std::vector<std::string>& hs,
           bool pre) override {
    preconditions = pre;
    hosts = hs;
    if (pre) gate::run_preconditions_in(run, hs);
    gate::MeshRounds rounds(cs, run.reporter());
    for (const auto& c : cs) {
      cases.push_back(c.name());
      gate::run_case_in_gate(run, c, hs, rounds);
      if (signal_after) transport::set_pending_interrupt(signal_after);
    }
    return answer;
  }
};

class Engine : public lt::FakeLabTest {
 protected:
  void SetUp() override {
    FakeLabTest::SetUp();
    load(kTests);
    lt::script_recorded_run(lab_);
    lab_.host("a").fail_on({"$RUN/jitter"}, "jitter probe not scripted");
  }
  void TearDown() override { transport::set_pending_interrupt(0); }

  ExitCode run_engine(std::set<std::string> labels = {}) {
    Options o;
    o.labels = std::move(labels);
    o.results_root = (tmp_.path() / "runs").string();
    return run(profile_, o, runner_, lab_.boundaries(), told_);
  }
  /// run.json of the one run folder the engine made.
  results::RunResult recorded() {
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(tmp_.path() / "runs")) dirs.push_back(e.path());
    EXPECT_EQ(dirs.size(), 1u);
    return results::RunDir::open(dirs.at(0)).load_run();
  }
  int measurements() { return lab_.host("a").count({"$RUN/pingpong", "client"}); }

  PlainRunner runner_;
  gate::testing::RecordingReporter told_;
};

TEST_F(Engine, ALabelRunsItsCasesWithoutThePreconditionsAndSaysSo) {
  EXPECT_EQ(run_engine({"latency"}), ExitCode::kPassed);
  EXPECT_FALSE(runner_.preconditions);
  EXPECT_THAT(runner_.cases, ElementsAre("rr/a->b"));
  EXPECT_THAT(runner_.hosts, ElementsAre("a", "b"));
  EXPECT_EQ(lab_.host("a").count({"$RUN/facts"}), 0);
  const results::RunResult r = recorded();
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.not_checked_why, "-L latency left the preconditions out");
  ASSERT_EQ(r.tests.size(), 1u);
  EXPECT_EQ(r.tests[0].verdict, results::TestVerdict::kPass) << r.tests[0].failure;
}

// A run with cases has each host prepare for its probes and tools as soon as
// it is connected (SSH: the spare channel); a run of the preconditions alone
// starts none, so it prepares for none (issue 23: one shell start per host).
TEST_F(Engine, OnlyARunWithCasesPreparesTheHostsForProcesses) {
  EXPECT_EQ(run_engine({"preconditions"}), ExitCode::kPassed);
  EXPECT_EQ(lab_.host("a").prepared, 0);
  EXPECT_EQ(lab_.host("b").prepared, 0);
  EXPECT_EQ(run_engine({"latency"}), ExitCode::kPassed);
  EXPECT_EQ(lab_.host("a").prepared, 1);
  EXPECT_EQ(lab_.host("b").prepared, 1);
}

TEST_F(Engine, NoLabelIsEveryLabelPreconditionsFirst) {
  EXPECT_EQ(run_engine(), ExitCode::kCouldNotRun) << "the unscripted jitter probe is an error record";
  EXPECT_TRUE(runner_.preconditions);
  EXPECT_THAT(runner_.cases, ElementsAre("rr/a->b", "jit/a"));
  const results::RunResult r = recorded();
  EXPECT_EQ(r.exit_code, 3);
  ASSERT_EQ(r.checks.size(), 2u);
  EXPECT_EQ(r.conformance(), results::Conformance::kYes);
}

TEST_F(Engine, AFailedPreconditionIsExitOneAndTheFiguresSayNonConforming) {
  lab_.host("b").on({"$RUN/facts"}, FakeTransport::ok(lt::facts_with_sack("1")));
  EXPECT_EQ(run_engine({"preconditions", "latency"}), ExitCode::kGateFailed);
  const results::RunResult r = recorded();
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.tests.size(), 1u);
  EXPECT_EQ(r.tests[0].verdict, results::TestVerdict::kPass);
  EXPECT_EQ(r.tests[0].conformance, results::Conformance::kNo);
}

TEST_F(Engine, AFailureTheRunnerSawOutsideAnyRecordIsExitOne) {
  runner_.answer = false;
  EXPECT_EQ(run_engine({"latency"}), ExitCode::kGateFailed);
  EXPECT_EQ(recorded().exit_code, 1);
}

TEST_F(Engine, AnUnknownLabelIsAUsageErrorBeforeAnyFolderOrHost) {
  try {
    run_engine({"latency", "speed"});
    ADD_FAILURE() << "an unknown label ran";
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kUsageError);
    EXPECT_THAT(f.what(), HasSubstr("unknown label 'speed' ("));
    EXPECT_THAT(f.what(), HasSubstr("latency"));
  }
  EXPECT_FALSE(fs::exists(tmp_.path() / "runs"));
  EXPECT_TRUE(runner_.cases.empty());
}

TEST_F(Engine, AnUnreachableHostIsExitThreeAndNothingIsMeasured) {
  lab_.unreachable["b"] = "connection refused";
  EXPECT_EQ(run_engine({"latency"}), ExitCode::kCouldNotRun);
  EXPECT_EQ(measurements(), 0);
  const results::RunResult r = recorded();
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.error, HasSubstr("host b: connection refused"));
}

TEST_F(Engine, ARefusedLeaseIsExitThreeAndNothingIsMeasured) {
  lab_.lease.refuse = "the lab is leased by jenkins-42";
  EXPECT_EQ(run_engine({"latency"}), ExitCode::kCouldNotRun);
  EXPECT_EQ(measurements(), 0);
  EXPECT_THAT(recorded().error, HasSubstr("jenkins-42"));
}

TEST_F(Engine, ASignalIsExitThreeTheRestIsNotRunAndTheHostsAreLeft) {
  runner_.signal_after = SIGINT;
  EXPECT_EQ(run_engine({"latency", "jitter"}), ExitCode::kCouldNotRun);
  EXPECT_EQ(lab_.host("a").count({"$RUN/jitter"}), 0) << "a case started after the signal";
  const results::RunResult r = recorded();
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.error, "interrupted by SIGINT");
  ASSERT_EQ(r.tests.size(), 2u);
  EXPECT_EQ(r.tests[1].verdict, results::TestVerdict::kNotRun);
  EXPECT_EQ(lab_.lease.released, 1) << "the lease was not given back";
}

// What the run told as it went, from its start to its verdict: nothing of it
// went around the reporter (the console's own lines are ConsoleReporter's).
TEST_F(Engine, APassingRunTellsItsStartEachCaseAndItsVerdict) {
  // The client's stderr as --progress has it: each line is told while it measures.
  transport::RunResult client = FakeTransport::ok(lt::testdata("harness/src/measure/testdata/pingpong-tcp.json"));
  client.err = "{\"progress\": \"pingpong\", \"elapsed_s\": 1.0}\n";
  lab_.host("a").on({"$RUN/pingpong", "client"}, client);
  lab_.lease.says = "host a: lab lease held by jenkins-41; waiting up to 30s";
  EXPECT_EQ(run_engine({"latency"}), ExitCode::kPassed);
  const auto events = told_.events();
  ASSERT_FALSE(events.empty());
  EXPECT_THAT(events.front(), StartsWith("run_started "));  // labgate.log, through the folder's handle
  EXPECT_THAT(events, Contains(StartsWith("info gate run ")));
  EXPECT_THAT(events, Contains("info taking the lease 'fakelab' on 2 host(s)"));
  // The lease tells through the run's reporter, as everything else does.
  EXPECT_THAT(events, Contains("info host a: lab lease held by jenkins-41; waiting up to 30s"));
  EXPECT_THAT(told_.of("started "), ElementsAre("started Latency.rr/a->b"));
  EXPECT_THAT(told_.of("progress "),
              ElementsAre("progress Latency.rr/a->b {\"progress\": \"pingpong\", \"elapsed_s\": 1.0}"));
  EXPECT_THAT(told_.of("finished "), ElementsAre("finished rr a->b pass"));
  EXPECT_THAT(told_.of("error "), IsEmpty());
  EXPECT_EQ(events.back(), "run_finished labgate: passed (exit 0)");
}

TEST_F(Engine, AFailedPreconditionIsToldAsTheVerdictTheCasesStillMeasure) {
  lab_.host("b").on({"$RUN/facts"}, FakeTransport::ok(lt::facts_with_sack("1")));
  EXPECT_EQ(run_engine({"preconditions", "latency"}), ExitCode::kGateFailed);
  EXPECT_THAT(told_.of("started "), ElementsAre("started Latency.rr/a->b"));
  EXPECT_THAT(told_.of("finished "), ElementsAre("finished rr a->b pass"));
  EXPECT_THAT(told_.of("error "), IsEmpty()) << "a failed rule is a verdict, not an error";
  EXPECT_EQ(told_.events().back(), "run_finished labgate: failed (exit 1)");
}

TEST_F(Engine, ARefusedLeaseIsOneErrorAndTheCaseFinishesWithItUnstarted) {
  lab_.lease.refuse = "the lab is leased by jenkins-42";
  EXPECT_EQ(run_engine({"latency"}), ExitCode::kCouldNotRun);
  EXPECT_THAT(told_.of("started "), IsEmpty()) << "a case measured without the lease";
  EXPECT_THAT(told_.of("error "),
              ElementsAre("error could not take the lab lease: the lab is leased by jenkins-42"));
  EXPECT_THAT(told_.of("finished "),
              ElementsAre("finished rr a->b error: could not take the lab lease: the lab is leased by jenkins-42"));
  EXPECT_EQ(told_.events().back(), "run_finished labgate: could not run (exit 3)");
}

TEST_F(Engine, AHostLostMidCaseFinishesTheCaseWithTheHostNamed) {
  lab_.host("b").fail_on({"$RUN/pingpong", "server"}, "connection lost");
  EXPECT_EQ(run_engine({"latency"}), ExitCode::kCouldNotRun);
  EXPECT_THAT(told_.of("started "), ElementsAre("started Latency.rr/a->b"));
  const auto finished = told_.of("finished ");
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_THAT(finished[0], AllOf(StartsWith("finished rr a->b error: "), HasSubstr("host b: connection lost")));
  EXPECT_EQ(told_.events().back(), "run_finished labgate: could not run (exit 3)");
}

TEST_F(Engine, AnInterruptIsToldOnceTheRestFinishesNotStarted) {
  runner_.signal_after = SIGINT;
  EXPECT_EQ(run_engine({"latency", "jitter"}), ExitCode::kCouldNotRun);
  EXPECT_THAT(told_.of("started "), ElementsAre("started Latency.rr/a->b")) << "a case started after the signal";
  EXPECT_THAT(told_.of("finished "),
              ElementsAre("finished rr a->b pass", "finished jit a not_run: not started: interrupted by SIGINT"));
  EXPECT_THAT(told_.of("error "),
              ElementsAre("error labgate run: interrupted by SIGINT; the hosts were cleaned up"));
  EXPECT_EQ(told_.events().back(), "run_finished labgate: could not run (exit 3)");
}

}  // namespace
}  // namespace labgate::engine
