// Why the tail of a case as the gate puts it together: the recorded real run
// of harness/src/tail/testdata (a hog on the client's CPU) read from the
// probes' and the watch's outputs as the shell lines return them, every
// missing piece a limit of its host, and the cause beside a failing p99/max.
#include "labgate/gate/tail_case.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../tail/tail_test_util.h"
#include "labgate/gate/records.h"

namespace labgate::gate {
namespace {

using nlohmann::json;

TailSide client_side() {
  return {"a", tail::testdata("hog_client.json"), "watch: starting\n" + tail::testdata("hog_watch.json"), 0,
          ""};
}

TailSide server_side() {
  // The server's listening line comes first; its summary is the last line.
  return {"b", "{\"event\":\"listening\",\"port\":50374}\n" + tail::testdata("hog_server.json"),
          tail::testdata("hog_watch.json"), 0, ""};
}

TEST(TailCase, TheRecordedHogIsTheTopCauseWithEveryOutlierInRunJson) {
  const json t = explain_tail(client_side(), server_side(), 60000, 0);
  EXPECT_EQ(t["hosts"]["a"]["watch"], "ok");
  EXPECT_EQ(t["hosts"]["b"]["watch"], "ok");
  ASSERT_GT(t["outliers_total"].get<int>(), 20);
  EXPECT_EQ(t["outliers"].size(), t["outliers_total"].get<std::size_t>());
  // The VM was compiling too (testdata/README.md): cc1plus on the server's CPU
  // is a cause as real as the hog; the hog is ranked where it ran.
  bool hog = false;
  for (const json& r : t["ranked"])
    hog = hog || (r["cause"] == "tailhog (pid 14260) on CPU 1 of host a" && r["count"].get<int>() >= 20);
  EXPECT_TRUE(hog) << t["ranked"].dump();
  const std::string top = t["top"];
  EXPECT_EQ(top, t["ranked"][0]["count"].dump() + " of " + t["outliers_total"].dump() +
                     " outliers: " + t["ranked"][0]["cause"].get<std::string>());
  EXPECT_EQ(tail_line(t), "why: " + top);
  EXPECT_FALSE(t["outliers"][0]["split"].get<std::string>().empty());
  EXPECT_EQ(t["typical_ns"], 60000);
}

TEST(TailCase, TheOneWayRecordsMonotonicOffsetPlacesHostBsWatchAndIsRecorded) {
  const json one_way = {{"reported", false},
                        {"offset_ns", 123},
                        {"bound_ns", 4000},
                        {"monotonic_offset_ns", -250},
                        {"from_exchange", {{"seq", 77}, {"round_trip_ns", 8000}}}};
  const json t = explain_tail(client_side(), server_side(), 60000, 0, one_way);
  EXPECT_EQ(t["clock_offset"]["ns"], -250);
  EXPECT_EQ(t["clock_offset"]["bound_ns"], 4000);
  EXPECT_EQ(t["clock_offset"]["source"],
            "the one-way estimator's exchange of the shortest round trip (request 77)");
  // Without it, the requests both probes kept (the recorded run has some).
  const json by_seq = explain_tail(client_side(), server_side(), 60000, 0);
  EXPECT_THAT(by_seq["clock_offset"]["source"].get<std::string>(), ::testing::StartsWith("the median over "));
}

TailSide jitter_side() {
  return {"a", tail::testdata("hog_jitter.json"), tail::testdata("hog_jitter_watch.json"), 0, ""};
}

TEST(TailCase, AJitterCaseNamesWhatRanOnItsCpuOnOneHostAndNeverTheWire) {
  const json t = explain_jitter_tail(jitter_side(), {{1, 40}});
  const json& cpu1 = tail_of_cpu(t, 1);
  ASSERT_TRUE(cpu1.is_object()) << t.dump().substr(0, 400);
  EXPECT_EQ(cpu1["hosts"]["a"]["watch"], "ok");
  EXPECT_EQ(cpu1["outliers_total"], 64);
  EXPECT_EQ(cpu1["sample"], "gap");
  bool hog = false;
  for (const json& r : cpu1["ranked"])
    hog = hog || (r["cause"] == "tailhog (pid 21493) on CPU 1 of host a" && r["count"].get<int>() >= 48);
  EXPECT_TRUE(hog) << cpu1["ranked"].dump();
  for (const json& o : cpu1["outliers"])
    for (const json& e : o["evidence"]) {
      EXPECT_NE(e["kind"], "wire") << o.dump();
      EXPECT_NE(e["kind"], "server_turnaround") << o.dump();
      EXPECT_NE(e.value("comm", std::string()), "jitter") << "the probe is never its own cause";
      EXPECT_NE(e.value("comm", std::string()), "watch") << "nor the watch";
    }
  const std::string limits = cpu1["limits"].dump();
  EXPECT_EQ(limits.find("host b"), std::string::npos) << limits;
  EXPECT_EQ(limits.find("socket wait"), std::string::npos) << "no socket: not a limit" << limits;
  EXPECT_THAT(worst_line(cpu1), ::testing::StartsWith("why: the worst ("));
  EXPECT_THAT(worst_line(cpu1), ::testing::HasSubstr(", gap "));
  EXPECT_EQ(cpu1["hosts"]["a"]["placement"], "away from the watched CPUs");
  EXPECT_EQ(limits.find("noise watch: it ran"), std::string::npos) << limits;
  EXPECT_TRUE(tail_of_cpu(t, 0).is_null()) << "a CPU the probe did not measure has no tail";
  TailSide shared = jitter_side();
  const std::size_t at = shared.watch->find("\"placement\":\"away from the watched CPUs\"");
  ASSERT_NE(at, std::string::npos);
  shared.watch->replace(at, 40, "\"placement\":\"on the watched CPUs: no other CPU is allowed to it\"");
  EXPECT_THAT(tail_of_cpu(explain_jitter_tail(shared, {{1, 40}}), 1)["limits"].dump(),
              ::testing::HasSubstr("host a: noise watch: it ran on the watched CPUs: no other CPU is allowed to it"));
  const json round_trip = {{"top", "x"}};
  EXPECT_EQ(&tail_of_cpu(round_trip, 3), &round_trip) << "a round-trip case's tail is every record's";
}

TEST(TailCase, AJitterCaseWithoutWatchOrOutliersSaysSoAndNamesNoCause) {
  TailSide side = jitter_side();
  side.watch.reset();
  json t = explain_jitter_tail(side, {{1, 40}});
  const json& no_watch = tail_of_cpu(t, 1);
  EXPECT_EQ(no_watch["hosts"]["a"]["watch"], "not available: the command ended before the watch printed anything");
  for (const json& o : no_watch["outliers"])
    for (const json& e : o["evidence"]) EXPECT_NE(e["kind"], "preempted") << o.dump();
  json doc = json::parse(tail::testdata("hog_jitter.json"));
  doc["per_cpu"][0].erase("outliers");  // a probe of an older build
  side = jitter_side();
  side.probe_out = doc.dump() + "\n";
  t = explain_jitter_tail(side, {{1, 40}});
  EXPECT_THAT(tail_of_cpu(t, 1)["limits"].dump(),
              ::testing::HasSubstr("host a: jitter CPU 1 outliers: not available: the probe printed none"));
  EXPECT_EQ(tail_of_cpu(t, 1)["outliers_total"], 0);
  side.probe_out = "not json\n";
  EXPECT_EQ(explain_jitter_tail(side, {})["why_not"], "the jitter probe printed no per-CPU results");
}

TEST(TailCase, AMissingOrBrokenWatchIsALimitOfItsHostAndNothingIsMadeUp) {
  TailSide a = client_side(), b = server_side();
  b.watch.reset();
  a.watch = "watch: --cpus: '9' is not a list of CPUs\n";
  a.watch_status = 2;
  json t = explain_tail(a, b, 60000, 0);
  EXPECT_EQ(
      t["hosts"]["a"]["watch"],
      "not available: the watch exited 2 without its document: watch: --cpus: '9' is not a list of CPUs");
  EXPECT_EQ(t["hosts"]["b"]["watch"], "not available: the command ended before the watch printed anything");
  const std::string limits = t["limits"].dump();
  EXPECT_NE(limits.find("host a: noise watch: not available"), std::string::npos) << limits;
  EXPECT_EQ(limits.find("no noise watch output"), std::string::npos) << "the reason, not the generic line";
  // With no watch, no host cause is named: only what the probes recorded.
  for (const json& o : t["outliers"])
    for (const json& e : o["evidence"]) EXPECT_NE(e["kind"], "preempted") << o.dump();
  // A watch whose ring dropped the oldest windows says how much it kept.
  TailSide long_run = client_side();
  const std::size_t at = long_run.watch->find("\"windows_not_kept\":0");
  ASSERT_NE(at, std::string::npos);
  long_run.watch->replace(at, 20, "\"windows_not_kept\":7");
  t = explain_tail(long_run, server_side(), 60000, 0);
  EXPECT_THAT(t["limits"].dump(), ::testing::HasSubstr("host a: noise watch: only its last "));
  EXPECT_THAT(t["limits"].dump(), ::testing::HasSubstr("(7 earlier windows not kept)"));
  b.watch_missing = "the watch probe could not be installed: host b: no space";
  t = explain_tail(client_side(), b, 60000, 0);
  EXPECT_EQ(t["hosts"]["b"]["watch"],
            "not available: the watch probe could not be installed: host b: no space");
  a.probe_out = "{\"format\":\"labgate-probe-1\"}\n";
  t = explain_tail(a, b, 60000, 0);
  EXPECT_EQ(t["outliers_total"], 0);
  EXPECT_EQ(t["top"], "");
  EXPECT_NE(t["limits"].dump().find("host a: client outliers: not available: the probe printed none"),
            std::string::npos);
  EXPECT_EQ(tail_line(t), "");
}

TEST(TailCase, AFailingMaxCarriesItsOwnCauseAndAFailingP99TheRankedOne) {
  results::TestRecord r;
  r.verdict = results::TestVerdict::kFail;
  results::BudgetLine p50{"p50", 90000.0, 50000, "ns", -0.8, false, "exceeds the budget"};
  results::BudgetLine p99{"p99", 300000.0, 100000, "ns", -2, false, "exceeds the budget"};
  results::BudgetLine max{"max", 412000.0, 200000, "ns", -1.06, false, "exceeds the budget"};
  r.budget = {p50, p99, max};
  r.failure =
      "p50 = 90 us exceeds the budget of 50 us by 40 us\np99 = 300 us exceeds the budget of 100 us by 200 "
      "us\n"
      "max = 412 us exceeds the budget of 200 us by 212 us";
  const json tail = {
      {"top", "14 of 16 outliers: stress (pid 4242) on CPU 1 of host a"},
      {"outliers",
       {{{"seq", 812}, {"value_ns", 412000}, {"cause", "IRQ 57 eth2-rx-0 x12 on CPU 1 of host a"}}}}};
  add_tail(r, tail);
  EXPECT_EQ(
      r.failure,
      "p50 = 90 us exceeds the budget of 50 us by 40 us\n"
      "p99 = 300 us exceeds the budget of 100 us by 200 us; why: 14 of 16 outliers: stress (pid 4242) on CPU "
      "1 "
      "of host a\n"
      "max = 412 us exceeds the budget of 200 us by 212 us; why: the worst (412 us, request 812): IRQ 57 "
      "eth2-rx-0 x12 on CPU 1 of host a");
  EXPECT_EQ(r.tail, tail);
  // Passing: the record carries it (run.json, report), the failure text stays empty.
  results::TestRecord ok;
  ok.verdict = results::TestVerdict::kPass;
  ok.budget = {results::BudgetLine{"max", 1000.0, 200000, "ns", 0.99, true, ""}};
  add_tail(ok, tail);
  EXPECT_EQ(ok.failure, "");
  EXPECT_EQ(ok.tail, tail);
  results::TestRecord none;
  add_tail(none, nullptr);
  EXPECT_TRUE(none.tail.is_null());
}

}  // namespace
}  // namespace labgate::gate
