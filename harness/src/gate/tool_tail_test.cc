// A tool case's tail as the gate puts it together: each host's watch output (the
// recorded hog run of harness/src/tail/testdata) placed on its clock from the
// harness's times of the client's run and the watch's stop, a watch that could
// not say anything a limit of its host, and iperf3's recorded intervals joined.
#include "labgate/gate/tool_tail.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../tail/tail_test_util.h"
#include "gate/fake_lab_test_util.h"
#include "gate/recorded_tool_run.h"
#include "labgate/gate/records.h"

namespace labgate::gate {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

profile::TestSpec spec_of(profile::Tool tool, profile::TestKind kind) {
  profile::TestSpec s;
  s.name = "t";
  s.tool = tool;
  s.kind = kind;
  s.cpu.client = 1;
  s.cpu.server = 0;
  return s;
}

using testing::RecordedToolRun;

TEST(ToolTail, TheRunIsPlacedOnEachHostsClockFromTheWatchsStop) {
  const RecordedToolRun r;
  const json t =
      explain_tool_run(spec_of(profile::Tool::kSockperf, profile::TestKind::kUdpRr), r.tool, r.a, r.b);
  const tail::WatchOutput w = tail::parse_watch(tail::testdata("hog_watch.json"), "a");
  const std::uint64_t end = w.windows.back().t1;
  const json& a = t["over_run"]["a"];
  EXPECT_EQ(a["to_ns"], end - 50000000);
  EXPECT_EQ(a["from_ns"], end - 50000000 - 3000000000ull);
  EXPECT_EQ(a["align_ns"], 4000000) << "the stop's round trip bounds the channel's delay";
  EXPECT_EQ(a["tool_cpus"], json::array({1}));
  EXPECT_EQ(t["over_run"]["b"]["tool_cpus"], json::array({0}));
  // The max's excess comes from the tool's own figures: 250 us - 50 us.
  EXPECT_THAT(t["top"].get<std::string>(),
              HasSubstr("over the whole run (sockperf gives no moment for its max): "));
  EXPECT_THAT(t["causes"].dump(), HasSubstr("enough for the max's 200 us over the p50"));
  EXPECT_THAT(t["causes"].dump(), HasSubstr("tailhog (pid 14260) ran "));
  EXPECT_THAT(t["join"].get<std::string>(), HasSubstr("whole run only: sockperf"));
}

TEST(ToolTail, AWatchThatSaidNothingUsableIsALimitOfItsHost) {
  RecordedToolRun r;
  r.b.result->out = "";
  r.b.result->err = "watch: --cpus: '9' is not a list of CPUs\n";
  r.b.result->signal.clear();
  r.b.result->exit_status = 2;
  json t = explain_tool_run(spec_of(profile::Tool::kNetperf, profile::TestKind::kTcpRr), r.tool, r.a, r.b);
  const std::string b = t["over_run"]["b"]["watch"];
  EXPECT_THAT(b, HasSubstr("not available: watch output from b"));
  EXPECT_THAT(b, HasSubstr("watch: --cpus: '9' is not a list of CPUs"));
  EXPECT_THAT(t["limits"].dump(), HasSubstr("host b: noise watch: not available"));
  for (const json& c : t["causes"]) EXPECT_NE(c["host"], "b");
  EXPECT_THAT(t["top"].get<std::string>(),
              ::testing::StartsWith("over the whole run (netperf gives no moment"))
      << "host a's causes stand with their evidence";
  r.a.result.reset();
  r.a.why_not = "the watch could not be started: host a: no space";
  t = explain_tool_run(spec_of(profile::Tool::kNetperf, profile::TestKind::kTcpRr), r.tool, r.a, r.b);
  EXPECT_EQ(t["over_run"]["a"]["watch"], "not available: the watch could not be started: host a: no space");
  EXPECT_TRUE(t["causes"].empty());
  EXPECT_EQ(t["top"], "unexplained: the noise watch did not see every host of the run");
}

TEST(ToolTail, IperfsRecordedIntervalsAreJoinedAndTheSlackIsItsStartUpAndWrapUp) {
  RecordedToolRun r;
  r.tool.client.out = gate::testing::testdata("tests/fixtures/tools/iperf3/iperf312-tcp-j.json");
  r.tool.measurement = {};
  const json t =
      explain_tool_run(spec_of(profile::Tool::kIperf3, profile::TestKind::kTcpStream), r.tool, r.a, r.b);
  const json& w = t["worst_interval"];
  // 6.53 and 7.99 Gbit/s over 1.000032 s and 1.000510 s: the first is the worst.
  EXPECT_EQ(w["index"], 0);
  EXPECT_EQ(w["start_s"], 0.0);
  // It ends 1.000510 s before the last, which ends at most 3 s - 2.000542 s before the exit.
  const std::uint64_t to = t["over_run"]["a"]["to_ns"];
  EXPECT_EQ(w["joined"]["a"]["to_ns"], to - 1000509977 + 4000000);
  EXPECT_NEAR(static_cast<double>(to - w["joined"]["a"]["from_ns"].get<std::uint64_t>()),
              1000509977.0 + 1000031948.0 + (3e9 - 2000541925.0) + 4e6, 2.0);
  EXPECT_THAT(t["join"].get<std::string>(), HasSubstr("per interval"));
}

TEST(ToolTail, ALongRunGetsLongerWindowsSoTheWatchsRingHoldsAllOfIt) {
  EXPECT_EQ(watch_interval(3s), "10ms");
  EXPECT_EQ(watch_interval(50s), "10ms");  // 60 s with its start-up: 6000 windows of 10 ms
  EXPECT_EQ(watch_interval(51s), "20ms");
  EXPECT_EQ(watch_interval(100s), "20ms");
  EXPECT_EQ(watch_interval(std::chrono::hours(6)), "3610ms");
}

TEST(ToolTail, AFailingMaxOfAToolCarriesTheRunsTopLine) {
  results::TestRecord rec;
  rec.verdict = results::TestVerdict::kFail;
  rec.budget = {results::BudgetLine{"max", 412000.0, 200000, "ns", -1.06, false, "exceeds the budget"}};
  rec.failure = "max = 412 us exceeds the budget of 200 us by 212 us";
  const json tail = {
      {"top", "over the whole run (netperf gives no moment for its max): tailhog (pid 7) ran 600 ms"},
      {"over_run", json::object()}};
  add_tail(rec, tail);
  EXPECT_EQ(rec.failure,
            "max = 412 us exceeds the budget of 200 us by 212 us; why: over the whole run (netperf gives no "
            "moment for its max): tailhog (pid 7) ran 600 ms");
}

}  // namespace
}  // namespace labgate::gate
