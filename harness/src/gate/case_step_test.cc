// Run -> judge -> record for one case on fake hosts that answer with the probes'
// recorded outputs: the figures are judged and recorded, a remote failure is an
// error naming host and step, a signal mid-case is not_run with why, and a run
// that has stopped starts nothing.
#include "labgate/gate/case_step.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gate/fake_lab_test_util.h"
#include "labgate/gate/case_in_run.h"
#include "labgate/gate/case_runner.h"
#include "labgate/transport/interrupt.h"

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using transport::FakeTransport;
namespace lt = testing;

const std::string& kRr = lt::kRecordedRr;

class CaseStep : public lt::FakeLabTest {
 protected:
  void TearDown() override { transport::set_pending_interrupt(0); }

  /// The profile with `budget` on rr; the run folder and its book.
  void open(const std::string& budget) {
    load(kRr + "budget = " + budget + "\n");
    open_book();
    ASSERT_EQ(cases_.size(), 1u);
  }
  /// b's server says where it listens; a's client prints the recorded round trips.
  void script_probes() {
    lab_.host("b").on(
        {"$RUN/pingpong", "server"},
        FakeTransport::ok(lt::testdata("harness/src/measure/testdata/pingpong-server-tcp.txt")));
    lab_.host("a").on({"$RUN/pingpong", "client"},
                      FakeTransport::ok(lt::testdata("harness/src/measure/testdata/pingpong-tcp.json")));
    for (const char* h : {"a", "b"}) lab_.host(h).fail_on({"cat", "/proc/net/snmp"}, "counters not scripted");
  }
};

TEST_F(CaseStep, TheRecordedRoundTripsAreJudgedAndRecorded) {
  open("{ p50 = \"1ms\", p99 = \"5ms\" }");
  script_probes();
  GateSession session(profile_, {"a", "b"}, book_->dir().id(), lab_.boundaries());
  const CaseOutcome out = run_judge_record(session, *book_, cases_[0]);
  ASSERT_FALSE(out.could_not_run) << out.error;
  ASSERT_EQ(out.records.size(), 1u);
  const results::TestRecord& r = out.records[0];
  EXPECT_EQ(r.verdict, results::TestVerdict::kPass) << r.failure;
  EXPECT_EQ(r.test_name(), "rr/a->b");
  EXPECT_EQ(r.metric, "round-trip time");
  ASSERT_NE(r.figures.find("samples"), nullptr);
  EXPECT_EQ(r.figures.find("samples")->value, 6164) << "the recorded histogram's total";
  ASSERT_EQ(r.budget.size(), 2u);
  EXPECT_TRUE(r.budget[0].pass && r.budget[1].pass);
  EXPECT_TRUE(r.started.has_value());
  EXPECT_GT(r.duration_s, 0);
  // The server was started on b bound to b's test address, the client ran on a towards it.
  EXPECT_EQ(lab_.host("b").count({"$RUN/pingpong", "server", "--bind", "192.168.1.2"}), 1);
  EXPECT_EQ(lab_.host("a").count({"$RUN/pingpong", "client", "--connect", "192.168.1.2", "--port", "32807"}),
            1);
  EXPECT_EQ(lab_.host("b").stopped(), 1) << "the probe server was not stopped";
  // Recorded: run.json, the raw outputs and the measurement beside them.
  ASSERT_EQ(book_->run().tests.size(), 1u);
  EXPECT_EQ(book_->run().tests[0].verdict, results::TestVerdict::kPass);
  EXPECT_THAT(read("run.json"), HasSubstr("\"rr\""));
  EXPECT_THAT(read("tests/rr/a-to-b/client.out"), HasSubstr("\"probe\":\"pingpong\""));
  EXPECT_THAT(read("tests/rr/a-to-b/server.out"), HasSubstr("\"event\":\"listening\""));
  EXPECT_THAT(read("tests/rr/a-to-b/measurement.json"), HasSubstr("histogram"));
  // The counters could not be read: a warning on the measurement, not a failure.
  EXPECT_THAT(r.measurement.dump(), HasSubstr("counters not measured"));
}

TEST_F(CaseStep, AFigureOverItsBudgetFailsTheRecord) {
  open("{ p50 = \"1us\" }");
  script_probes();
  GateSession session(profile_, {"a", "b"}, book_->dir().id(), lab_.boundaries());
  const CaseOutcome out = run_judge_record(session, *book_, cases_[0]);
  ASSERT_FALSE(out.could_not_run) << out.error;
  ASSERT_EQ(out.records.size(), 1u);
  EXPECT_EQ(out.records[0].verdict, results::TestVerdict::kFail);
  EXPECT_THAT(out.records[0].failure, HasSubstr("p50"));
  EXPECT_EQ(exit_code_of(book_->run()), ExitCode::kGateFailed);
}

TEST_F(CaseStep, ARemoteFailureIsCouldNotRunNamingHostAndStep) {
  open("{ p50 = \"1ms\" }");
  script_probes();
  lab_.host("a").on({"$RUN/pingpong", "client"}, FakeTransport::exit_with(1, "connect: No route to host\n"));
  GateSession session(profile_, {"a", "b"}, book_->dir().id(), lab_.boundaries());
  const CaseOutcome out = run_judge_record(session, *book_, cases_[0]);
  EXPECT_TRUE(out.could_not_run);
  EXPECT_FALSE(out.not_run);
  EXPECT_THAT(out.error, HasSubstr("host a: rr/a->b: pingpong client exit 1: connect: No route to host"));
  ASSERT_EQ(book_->run().tests.size(), 1u);
  EXPECT_EQ(book_->run().tests[0].verdict, results::TestVerdict::kError);
  EXPECT_EQ(book_->run().tests[0].failure, out.error);
  EXPECT_EQ(exit_code_of(book_->run()), ExitCode::kCouldNotRun);
  // What it printed is kept even so.
  EXPECT_THAT(read("tests/rr/a-to-b/client.err"), HasSubstr("No route to host"));
  EXPECT_EQ(lab_.host("b").stopped(), 1) << "the server outlived a failed client";
}

TEST_F(CaseStep, ADroppedConnectionNamesTheHost) {
  open("{ p50 = \"1ms\" }");
  script_probes();
  lab_.host("b").fail_on({"$RUN/pingpong", "server"}, "connection lost");
  GateSession session(profile_, {"a", "b"}, book_->dir().id(), lab_.boundaries());
  const CaseOutcome out = run_judge_record(session, *book_, cases_[0]);
  EXPECT_TRUE(out.could_not_run);
  EXPECT_THAT(out.error, HasSubstr("host b: connection lost"));
  EXPECT_EQ(lab_.host("a").count({"$RUN/pingpong", "client"}), 0) << "a client ran without a server";
}

TEST_F(CaseStep, AFinishedMeasurementIsKeptWhenAStepAfterItFails) {
  open("{ p50 = \"1ms\" }");
  script_probes();
  // The client measured; then b's server does not end by itself and stopping it
  // fails, as it does when b's sshd stops answering after the measurement.
  lab_.host("b").ends_by_itself = false;
  lab_.host("b").fail_stop_on({"$RUN/pingpong", "server"}, "cannot run `kill`: the server did not answer");
  GateSession session(profile_, {"a", "b"}, book_->dir().id(), lab_.boundaries());
  const CaseOutcome out = run_judge_record(session, *book_, cases_[0]);
  EXPECT_TRUE(out.could_not_run);
  EXPECT_TRUE(out.measured);
  EXPECT_THAT(out.error, HasSubstr("measured, but a step after the measurement could not be done: host b: "
                                   "cannot run `kill`: the server did not answer"));
  // Recorded with its figures, judged, and the step that failed named.
  ASSERT_EQ(book_->run().tests.size(), 1u);
  const results::TestRecord& r = book_->run().tests[0];
  EXPECT_EQ(r.verdict, results::TestVerdict::kError);
  ASSERT_NE(r.figures.find("samples"), nullptr);
  EXPECT_EQ(r.figures.find("samples")->value, 6164);
  EXPECT_EQ(r.budget.size(), 1u);
  EXPECT_THAT(r.failure, HasSubstr("host b: cannot run `kill`"));
  EXPECT_THAT(r.failure, HasSubstr("the figures are kept: within budget"));
  EXPECT_EQ(exit_code_of(book_->run()), ExitCode::kCouldNotRun);
  EXPECT_THAT(read("run.json"), HasSubstr("\"samples\""));
  EXPECT_THAT(read("tests/rr/a-to-b/measurement.json"), HasSubstr("histogram"));
  EXPECT_THAT(read("tests/rr/a-to-b/client.out"), HasSubstr("\"probe\":\"pingpong\""));
}

TEST_F(CaseStep, ASignalWhileMeasuringIsNotRunWithWhy) {
  open("{ p50 = \"1ms\" }");
  script_probes();
  // SIGINT arrives while the client runs: the transport unwinds as the real one does.
  lab_.host("a").before_run = [](const std::vector<std::string>& argv) {
    if (argv.size() > 1 && argv[1] == "client") {
      transport::set_pending_interrupt(SIGINT);
      transport::throw_if_interrupted("waiting for the pingpong client");
    }
  };
  GateSession session(profile_, {"a", "b"}, book_->dir().id(), lab_.boundaries());
  const CaseOutcome out = run_judge_record(session, *book_, cases_[0]);
  EXPECT_TRUE(out.not_run);
  EXPECT_FALSE(out.could_not_run);
  ASSERT_EQ(book_->run().tests.size(), 1u);
  EXPECT_EQ(book_->run().tests[0].verdict, results::TestVerdict::kNotRun);
  EXPECT_THAT(book_->run().tests[0].failure, HasSubstr("stopped while measuring: interrupted by SIGINT"));
  EXPECT_EQ(lab_.host("b").stopped(), 1);
}

TEST_F(CaseStep, AStoppedRunStartsNothingAndRecordsWhy) {
  open("{ p50 = \"1ms\" }");
  script_probes();
  GateRun run(profile_, *book_, lab_.boundaries());
  run.stop("preconditions: host b: facts probe exit 2");
  const CaseOutcome out = run_in_gate(run, cases_[0], {"a", "b"});
  EXPECT_TRUE(out.not_run);
  EXPECT_TRUE(lab_.lease.taken_on.empty()) << "the lease was taken for a stopped run";
  EXPECT_TRUE(lab_.host("a").calls().empty());
  ASSERT_EQ(book_->run().tests.size(), 1u);
  EXPECT_EQ(book_->run().tests[0].verdict, results::TestVerdict::kNotRun);
  // The reason's head only: the error itself is printed once, by the step that met it.
  EXPECT_EQ(book_->run().tests[0].failure,
            "not started: preconditions (the error is the run's, printed once above and in run.json)");
  // run.json holds it at once; JUnit lists it as skipped with the reason once the
  // step publishes at its end (as `labgate run` and each CTest step do).
  EXPECT_THAT(read("run.json"), HasSubstr("not started: preconditions (the error is the run"));
  book_->publish();
  EXPECT_THAT(read("junit.xml"),
              HasSubstr("<skipped message=\"not started: preconditions (the error is the run"));
}

TEST_F(CaseStep, AnInterruptBeforeTheCaseStartsNothing) {
  open("{ p50 = \"1ms\" }");
  script_probes();
  GateRun run(profile_, *book_, lab_.boundaries());
  transport::set_pending_interrupt(SIGTERM);
  const CaseOutcome out = run_in_gate(run, cases_[0], {"a", "b"});
  EXPECT_TRUE(out.not_run);
  EXPECT_THAT(out.error, HasSubstr("not started: interrupted by SIGTERM"));
  EXPECT_TRUE(lab_.lease.taken_on.empty());
}

TEST_F(CaseStep, TheFirstCaseToFindAHostUnreachableCarriesTheErrorAndTheNextIsNotRun) {
  open("{ p50 = \"1ms\" }");
  script_probes();
  lab_.unreachable["b"] = "connection refused";
  GateRun run(profile_, *book_, lab_.boundaries());
  const CaseOutcome first = run_in_gate(run, cases_[0], {"a", "b"});
  EXPECT_TRUE(first.could_not_run);
  EXPECT_THAT(first.error, HasSubstr("host b: connection refused"));
  TestCase again = cases_[0];
  again.pair = "a->b-again";  // a second case of the same run
  const CaseOutcome second = run_in_gate(run, again, {"a", "b"});
  EXPECT_TRUE(second.not_run);
  EXPECT_THAT(second.error, HasSubstr("not started: could not reach the hosts (the error is the run's"));
  EXPECT_THAT(second.error, Not(HasSubstr("connection refused")));
  EXPECT_EQ(lab_.host("a").count({"$RUN/pingpong"}), 0) << "a measurement started after the run stopped";
  ASSERT_EQ(book_->run().tests.size(), 2u);
  EXPECT_EQ(book_->run().tests[0].verdict, results::TestVerdict::kError);
  EXPECT_EQ(book_->run().tests[1].verdict, results::TestVerdict::kNotRun);
}

// A pair of a disjoint mesh round and a single case are one model
// (case_in_run.h): a run that cannot measure them records both alike, the
// run's conformance included (the round's copy once left it out).
TEST_F(CaseStep, AMeshPairThatCannotStartIsRecordedAsASingleCaseIs) {
  open("{ p50 = \"1ms\" }");
  script_probes();
  lab_.unreachable["b"] = "connection refused";
  results::CheckRecord failed;
  failed.host = "b";
  failed.rule = "sysctl/net.ipv4.tcp_sack";
  failed.verdict = results::CheckVerdict::kFail;
  std::vector<std::vector<results::TestRecord>> recorded;
  for (int round : {0, 1}) {
    book_.emplace(
        results::RunDir::create(tmp_.path() / ("round" + std::to_string(round)), "", results::Clock::now()),
        profile_);
    book_->set_checks({failed});
    TestCase c = cases_[0];
    c.round = round;
    TestCase next = c;
    next.pair = "a->b-again";
    MeshRounds rounds({c, next});
    GateRun run(profile_, *book_, lab_.boundaries());
    EXPECT_TRUE(run_case_in_gate(run, c, {"a", "b"}, rounds).could_not_run) << "round " << round;
    EXPECT_TRUE(run_case_in_gate(run, next, {"a", "b"}, rounds).not_run) << "round " << round;
    recorded.push_back(book_->run().tests);
  }
  ASSERT_EQ(recorded[0].size(), 2u);
  ASSERT_EQ(recorded[1].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const results::TestRecord& single = recorded[0][i];
    const results::TestRecord& pair = recorded[1][i];
    EXPECT_EQ(single.conformance, results::Conformance::kNo) << single.test_name();
    EXPECT_EQ(pair.conformance, single.conformance) << pair.test_name();
    EXPECT_EQ(pair.verdict, single.verdict) << pair.test_name();
    EXPECT_EQ(pair.failure, single.failure) << pair.test_name();
  }
}

TEST_F(CaseStep, AMeshPairIsMeasuredWithItsRoundJudgedAndRecorded) {
  open("{ p50 = \"1ms\" }");
  script_probes();
  TestCase c = cases_[0];
  c.round = 1;
  MeshRounds rounds({c});
  GateRun run(profile_, *book_, lab_.boundaries());
  const CaseOutcome out = run_case_in_gate(run, c, {"a", "b"}, rounds);
  ASSERT_FALSE(out.could_not_run) << out.error;
  ASSERT_EQ(out.records.size(), 1u);
  EXPECT_EQ(out.records[0].verdict, results::TestVerdict::kPass) << out.records[0].failure;
  EXPECT_EQ(lab_.host("a").count({"$RUN/pingpong", "client"}), 1);
  ASSERT_EQ(book_->run().tests.size(), 1u);
  EXPECT_THAT(read("run.json"), HasSubstr("\"rr\""));
  EXPECT_THAT(read("tests/rr/a-to-b/measurement.json"), HasSubstr("histogram"));
}

TEST(ResultLine, SaysFiguresSamplesTheirSourceAndConformance) {
  results::TestRecord r;
  r.name = "rr";
  r.pair = "a->b";
  r.metric = "round-trip time";
  r.figures.put({"p99", 41, "ns", stats::FigureSource::kHistogram, ""});
  r.figures.put({"samples", 125215, "count", stats::FigureSource::kHistogram, ""});
  r.conformance = results::Conformance::kNo;
  const std::string line = result_line(r);
  EXPECT_THAT(line, HasSubstr("rr/a->b: round-trip time p99 41.0 ns, "));
  EXPECT_THAT(line, HasSubstr("215 samples (histogram)"));
  EXPECT_THAT(line, HasSubstr("[non-conforming system]"));
  r.conformance = results::Conformance::kYes;
  EXPECT_THAT(result_line(r), Not(HasSubstr("[")));
}

}  // namespace
}  // namespace labgate::gate
