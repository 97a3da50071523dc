// The channels a built-in server/client case costs on fake hosts that behave as
// the real shell and probes do: two (the server started, the client run), the
// counters read inside them, the server ending by itself (--once); and the
// backstops: a server that does not end is stopped and its counters read apart,
// a client that fails still leaves no server running.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "gate/fake_lab_test_util.h"
#include "labgate/gate/case_runner.h"

namespace labgate::gate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using transport::FakeTransport;
namespace lt = testing;

using lt::counters;

class BuiltinCase : public lt::FakeLabTest {
 protected:
  /// The recorded pingpong outputs; b's counters before and after differ by 3
  /// retransmitted segments, a's by none.
  TestCase script(const std::string& budget = "{ p50 = \"1ms\" }") {
    const TestCase c = open_case(lt::kRecordedRr + "budget = " + budget + "\n", {"a", "b"});
    lab_.host("b").on(
        {"$RUN/pingpong", "server"},
        FakeTransport::ok(lt::testdata("harness/src/measure/testdata/pingpong-server-tcp.txt")));
    lab_.host("a").on({"$RUN/pingpong", "client"},
                      FakeTransport::ok(lt::testdata("harness/src/measure/testdata/pingpong-tcp.json")));
    const std::string before = counters();
    const std::string after = std::regex_replace(before, std::regex("1647598 4 0"), "1647598 7 0");
    EXPECT_NE(after, before);
    lab_.host("a").on(counters::snapshot_command(), FakeTransport::ok(before));
    lab_.host("b").once(counters::snapshot_command(), FakeTransport::ok(before));
    lab_.host("b").on(counters::snapshot_command(), FakeTransport::ok(after));
    return c;
  }
  /// The channels of the case alone (the session's own set-up left out).
  static std::vector<std::string> case_channels(const lt::FakeHost& h) {
    std::vector<std::string> out;
    for (const auto& c : h.channels)
      if (c.size() > 1 && (c[0] == "[counters]" || c[0] == "cat"))
        out.push_back(c[0] == "cat" ? "cat" : c[1].substr(c[1].rfind('/') + 1) + " " + c[2]);
    return out;
  }
};

TEST_F(BuiltinCase, TheNoiseWatchRidesOnBothProbeCommandsAndEveryMissingPieceIsALimit) {
  const TestCase c = script();
  const CaseRun run = run_case(*session_, c);
  for (const char* h : {"a", "b"}) {
    bool watched = false;
    for (const auto& argv : lab_.host(h).sent)
      if (const auto program = bracketed_program(argv); program && argv.size() >= program->size() + 3) {
        // The three words before the program: the watch, its CPUs (not pinned: all), its deadline.
        const std::size_t at = argv.size() - program->size() - 3;
        watched = watched || (argv[at] == "$RUN/watch" && argv[at + 1] == "all");
      }
    EXPECT_TRUE(watched) << "host " << h << " ran the probe without the watch";
  }
  // These fakes print no watch output and the recorded probes predate outliers:
  // each is "not available" of its host, and nothing is named.
  ASSERT_TRUE(run.tail.is_object());
  EXPECT_EQ(run.tail["hosts"]["a"]["watch"], "not available: the command ended before the watch printed anything");
  EXPECT_EQ(run.tail["hosts"]["b"]["watch"], "not available: the command ended before the watch printed anything");
  EXPECT_THAT(run.tail["limits"].dump(), HasSubstr("host a: client outliers: not available: the probe printed none"));
  EXPECT_EQ(run.tail["top"], "");
}

TEST_F(BuiltinCase, IsOneChannelPerHostTheCountersInsideThemAndTheServerEndsByItself) {
  const TestCase c = script();
  std::vector<std::string> order;
  for (const char* h : {"a", "b"})
    lab_.host(h).before_run = [&order, h](const std::vector<std::string>& argv) {
      if (argv.size() > 1 && (argv[1] == "server" || argv[1] == "client"))
        order.push_back(h + (" " + argv[1]));
    };
  const CaseRun run = run_case(*session_, c);
  EXPECT_THAT(order, ElementsAre("b server", "a client"));
  // No cat of its own, no kill: the server's start and the client's run are the case's channels.
  EXPECT_THAT(case_channels(lab_.host("b")), ElementsAre("pingpong server"));
  EXPECT_THAT(case_channels(lab_.host("a")), ElementsAre("pingpong client"));
  EXPECT_EQ(lab_.host("b").kills, 0) << "the server was stopped instead of ending after its client";
  const auto& server = lab_.host("b").channels.back();
  EXPECT_NE(std::find(server.begin(), server.end(), "--once"), server.end());
  // The deltas are the snapshots' inside those commands: b's 3 retransmits, a's none.
  ASSERT_EQ(run.measurements.size(), 1u);
  const auto& m = run.measurements[0];
  EXPECT_EQ(m.parameters.at("counters.b.retransmits"), "3");
  EXPECT_EQ(m.parameters.at("counters.a.retransmits"), "0");
  EXPECT_TRUE(m.warnings.size() == 1 &&
              m.warnings[0].find("3 TCP segments retransmitted") != std::string::npos)
      << (m.warnings.empty() ? "no warning" : m.warnings[0]);
  // The kept outputs are the probes' own, the counters in their own files.
  const auto file = [&](const std::string& name) {
    for (const auto& [n, content] : run.raw_files)
      if (n == name) return content;
    return std::string("(none)");
  };
  EXPECT_EQ(file("client.out"), lt::testdata("harness/src/measure/testdata/pingpong-tcp.json"));
  EXPECT_EQ(file("server.out"), lt::testdata("harness/src/measure/testdata/pingpong-server-tcp.txt"));
  EXPECT_THAT(file("counters-b-after.txt"), HasSubstr("1647598 7 0"));
}

TEST_F(BuiltinCase, AServerThatDoesNotEndByItselfIsStoppedAndItsCountersReadApart) {
  const TestCase c = script();
  lab_.host("b").ends_by_itself = false;
  const CaseRun run = run_case(*session_, c);
  EXPECT_EQ(lab_.host("b").kills, 1);
  // Killed before its shell read the after-snapshot: taken by a command of its own.
  EXPECT_THAT(case_channels(lab_.host("b")), ElementsAre("pingpong server", "cat"));
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_EQ(run.measurements[0].parameters.at("counters.b.retransmits"), "3");
}

// Issue 22: "pingpong client" was said twice ("pingpong client pingpong client could not measure").
TEST_F(BuiltinCase, AProbesOwnReasonNamesItOnce) {
  const TestCase c = script();
  transport::RunResult failed = FakeTransport::exit_with(3);
  failed.out =
      "{\"format\":\"labgate-probe-1\",\"probe\":\"pingpong\",\"status\":\"error\","
      "\"error\":\"no reply from the server for 3.000 s (server stalled or gone)\"}\n";
  lab_.host("a").on({"$RUN/pingpong", "client"}, failed);
  const std::string why = could_not_run(c);
  EXPECT_THAT(why, HasSubstr("host a: rr/a->b: pingpong client could not measure: no reply from the server"));
  EXPECT_EQ(lt::occurrences(why, "pingpong client"), 1) << why;
}

TEST_F(BuiltinCase, AClientThatFailsLeavesNoServerRunning) {
  const TestCase c = script();
  lab_.host("a").on({"$RUN/pingpong", "client"}, FakeTransport::exit_with(3, "pingpong client: no route\n"));
  CaseRun partial;
  EXPECT_THAT(could_not_run(c, &partial), HasSubstr("host a: rr/a->b: pingpong client exit 3"));
  EXPECT_EQ(lab_.host("b").kills, 1) << "the server was left running";
  // What the stopped server printed is kept for the report, without the counters.
  bool kept = false;
  for (const auto& [name, content] : partial.raw_files)
    if (name == "server.out")
      kept = content == lt::testdata("harness/src/measure/testdata/pingpong-server-tcp.txt");
  EXPECT_TRUE(kept) << "server.out missing or not the server's own output";
}

TEST_F(BuiltinCase, CountersTheShellCouldNotReadAreAWarningNotAFailure) {
  const TestCase c = script("{ p50 = \"1ms\", max_retransmits = 10 }");
  lab_.host("a").fail_on(counters::snapshot_command(), "No such file or directory");
  const CaseRun run = run_case(*session_, c);
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_THAT(run.measurements[0].warnings.at(0),
              HasSubstr("counters not measured: host a: counters before the test: cat "
                        "/proc/net/{snmp,netstat,dev} exited 1"));
  // One host unread: the pair's sum is not b's alone, so the budget cannot pass on it.
  EXPECT_EQ(run.measurements[0].reported.count("retransmits"), 0u);
}

}  // namespace
}  // namespace labgate::gate
