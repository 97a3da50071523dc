// The network-path kinds on fake hosts: path_mtu's DF search in both directions
// judged against the profile's mtu, and ping_flood's summary with the kernel
// counters watched around it (CounterWatch) and judged by their budgets.
#include "labgate/gate/netpath_runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "gate/fake_lab_test_util.h"
#include "labgate/counters/snapshot.h"
#include "labgate/gate/case_runner.h"
#include "labgate/gate/case_step.h"
#include "labgate/gate/records.h"

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;
using transport::FakeTransport;
namespace lt = testing;

using NetKinds = lt::FakeLabTest;

/// A path that carries packets up to `mtu` bytes towards `to`: bigger ones are
/// refused locally ("message too long", as iputils says) or, with `silent`,
/// dropped on the way (no reply).
void path(lt::FakeHost& h, const std::string& to, int mtu, bool silent = false) {
  h.respond = [=](const std::vector<std::string>& argv) -> std::optional<transport::RunResult> {
    if (argv.size() != 11 || argv[0] != "ping" || argv[7] != "do" || argv[10] != to) return std::nullopt;
    const int size = std::stoi(argv[9]) + 28;
    if (size <= mtu)
      return FakeTransport::ok(
          "PING " + to + " (" + to + ") " + argv[9] +
          " bytes of data.\n\n1 packets transmitted, 1 received, 0% packet loss, time 0ms\n");
    if (silent) {
      auto r = FakeTransport::ok("\n1 packets transmitted, 0 received, 100% packet loss, time 1000ms\n");
      r.exit_status = 1;
      return r;
    }
    return FakeTransport::exit_with(1,
                                    "ping: local error: message too long, mtu=" + std::to_string(mtu) + "\n");
  };
}

const std::string kMtu =
    "[[test]]\nname = \"mtu\"\nkind = \"path_mtu\"\nfrom = \"a\"\nto = \"b\"\nmtu = 1500\n";

TEST_F(NetKinds, PathMtuFindsBothDirectionsAndPassesWhenTheyAreTheProfiles) {
  const TestCase c = open_case(kMtu, {"a", "b"});
  path(lab_.host("a"), "192.168.1.2", 1500);
  path(lab_.host("b"), "192.168.1.1", 1500);
  const CaseRun run = run_case(*session_, c);
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_EQ(run.measurements[0].reported.at("mtu_forward"), 1500);
  EXPECT_EQ(run.measurements[0].reported.at("mtu_reverse"), 1500);
  ASSERT_EQ(run.rules.size(), 2u);
  EXPECT_TRUE(run.rules[0].pass && run.rules[1].pass);
  results::TestRecord r = judge_case(c, run.measurements[0], c.pair);
  add_rules(r, run.rules);
  EXPECT_EQ(r.verdict, results::TestVerdict::kPass) << r.failure;
  // The expected size and one above settle a healthy path: two probes each way.
  EXPECT_EQ(lab_.host("a").count({"ping"}), 2);
  EXPECT_EQ(lab_.host("b").count({"ping"}), 2);
}

TEST_F(NetKinds, ANarrowerReversePathFailsItsRuleWithBothFigures) {
  const TestCase c = open_case(kMtu, {"a", "b"});
  path(lab_.host("a"), "192.168.1.2", 1500);
  path(lab_.host("b"), "192.168.1.1", 1400, /*silent=*/true);
  const CaseRun run = run_case(*session_, c);
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_EQ(run.measurements[0].reported.at("mtu_reverse"), 1400);
  results::TestRecord r = judge_case(c, run.measurements[0], c.pair);
  add_rules(r, run.rules);
  EXPECT_EQ(r.verdict, results::TestVerdict::kFail);
  EXPECT_THAT(r.failure, HasSubstr("path_mtu b->a: b->a carries 1400 bytes; expected 1500"));
  // The why is said once, on the first rule (the whole verdict).
  ASSERT_GE(r.budget.size(), 2u);
  EXPECT_THAT(r.budget[r.budget.size() - 2].reason, HasSubstr("narrower than the profile expects"));
}

TEST_F(NetKinds, TheRecordOfAPathMtuCaseIsJudgedOnItsRules) {
  const TestCase c = open_case(kMtu, {"a", "b"});
  open_book();
  path(lab_.host("a"), "192.168.1.2", 1500);
  path(lab_.host("b"), "192.168.1.1", 1400);
  const CaseOutcome out = run_judge_record(*session_, *book_, c);
  ASSERT_EQ(out.records.size(), 1u);
  EXPECT_EQ(out.records[0].verdict, results::TestVerdict::kFail) << "the narrower reverse path passed";
  EXPECT_THAT(out.records[0].failure, HasSubstr("path_mtu b->a"));
  EXPECT_EQ(out.records[0].metric, "path MTU (largest packet passed with DF)");
  EXPECT_EQ(book_->run().tests.at(0).verdict, results::TestVerdict::kFail);
}

TEST_F(NetKinds, APingThatCannotRunIsCouldNotRunNamingTheHost) {
  const TestCase c = open_case(kMtu, {"a", "b"});
  path(lab_.host("a"), "192.168.1.2", 1500);
  lab_.host("b").on({"ping"}, FakeTransport::exit_with(2, "ping: connect: Network is unreachable\n"));
  const std::string msg = could_not_run(c);
  EXPECT_THAT(msg, HasSubstr("host b: mtu/a->b: DF probe could not run"));
  EXPECT_THAT(msg, HasSubstr("Network is unreachable"));
}

const std::string kFlood =
    "[[test]]\nname = \"flood\"\nkind = \"ping_flood\"\nfrom = \"a\"\nto = \"b\"\ncount = 77214\n";

using lt::counters;

TEST_F(NetKinds, PingFloodIsJudgedOnItsSummaryAndTheCountersAroundIt) {
  const TestCase c = open_case(
      kFlood + "budget = { max_loss = \"0.01%\", mean = \"50ms\", max_retransmits = 0 }\n", {"a", "b"});
  lab_.host("a").on({"ping", "-f"},
                    FakeTransport::ok(lt::testdata("tests/fixtures/seeds-extra/ping/seed001-flood-56.txt")));
  // b retransmitted 3 TCP segments while the flood ran; a nothing.
  const std::string before = counters();
  const std::string after = std::regex_replace(before, std::regex("1647598 4 0"), "1647598 7 0");
  ASSERT_NE(after, before);
  lab_.host("a").on({"cat", "/proc/net/snmp"}, FakeTransport::ok(before));
  lab_.host("b").once({"cat", "/proc/net/snmp"}, FakeTransport::ok(before));
  lab_.host("b").on({"cat", "/proc/net/snmp"}, FakeTransport::ok(after));
  const CaseRun run = run_case(*session_, c);
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_EQ(run.measurements[0].host, "a");
  EXPECT_EQ(run.measurements[0].peer, "b");
  // The flood goes to b's test address, and each host's counters were read twice.
  EXPECT_EQ(lab_.host("a").count({"ping", "-f", "-q", "-n", "-c", "77214"}), 1);
  EXPECT_EQ(lab_.host("a").commands().back(), counters::snapshot_command());
  EXPECT_EQ(lab_.host("a").count(counters::snapshot_command()), 2);
  EXPECT_EQ(lab_.host("b").count(counters::snapshot_command()), 2);
  const results::TestRecord r = judge_case(c, run.measurements[0], c.pair);
  EXPECT_EQ(r.metric, "round-trip time (ping -f)");
  EXPECT_NEAR(r.figures.value("loss").value_or(-1), 1.0 / 77214, 1e-9);
  EXPECT_EQ(r.verdict, results::TestVerdict::kFail);
  EXPECT_THAT(r.failure, HasSubstr("max_retransmits"));
  int passed = 0;
  for (const auto& line : r.budget) passed += line.pass;
  EXPECT_EQ(passed, 2) << "loss and mean are within budget";
}

TEST_F(NetKinds, CountersThatCannotBeReadAreAWarningAndTheirBudgetFails) {
  const TestCase c = open_case(kFlood + "budget = { max_retransmits = 0 }\n", {"a", "b"});
  lab_.host("a").on({"ping", "-f"},
                    FakeTransport::ok(lt::testdata("tests/fixtures/seeds-extra/ping/seed001-flood-56.txt")));
  lab_.host("a").on({"cat", "/proc/net/snmp"}, FakeTransport::ok(counters()));
  lab_.host("b").on({"cat", "/proc/net/snmp"},
                    FakeTransport::exit_with(1, "cat: /proc/net/netstat: Permission denied"));
  const CaseRun run = run_case(*session_, c);
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_THAT(
      run.measurements[0].warnings,
      ::testing::Contains(HasSubstr("counters not measured: host b: cat /proc/net/{snmp,netstat,dev}")));
  const results::TestRecord r = judge_case(c, run.measurements[0], c.pair);
  EXPECT_EQ(r.verdict, results::TestVerdict::kFail) << "a counter budget passed on a's counters alone";
  ASSERT_EQ(r.budget.size(), 1u);
  EXPECT_FALSE(r.budget[0].observed) << "judged on a partial sum";
  // a's own figures stay for the report.
  EXPECT_EQ(run.measurements[0].parameters.at("counters.a.retransmits"), "0");
}

TEST_F(NetKinds, AFloodRefusedForLackOfRootSaysSo) {
  const TestCase c = open_case(kFlood + "budget = { max_loss = \"1%\" }\n", {"a", "b"});
  const std::string dir = "tests/fixtures/seeds-extra/ping/";
  transport::RunResult r;
  r.exit_status = 2;
  r.out = lt::testdata(dir + "flood-nonroot.out");
  r.err = lt::testdata(dir + "flood-nonroot.err");
  lab_.host("a").on({"ping", "-f"}, r);
  for (const char* h : {"a", "b"}) lab_.host(h).on({"cat", "/proc/net/snmp"}, FakeTransport::ok(counters()));
  const std::string msg = could_not_run(c);
  EXPECT_THAT(msg, HasSubstr("host a: flood/a->b"));
  EXPECT_THAT(msg, HasSubstr("needs root"));
}

}  // namespace
}  // namespace labgate::gate
