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

// The server's socket waits compare the kernel's arrival stamp with a read
// time carried over with its clock anchor: a realtime step during the run puts
// each off by the step, so none is used and the limit says why.
TEST(TailCase, AServersRealtimeStepDuringTheRunDropsItsSocketWaitsSayingWhy) {
  const auto server_with = [](long long end_delta) {
    json doc = json::parse(tail::testdata("hog_server.json"));
    doc["turnaround_from"] = "arrival";
    doc["anchor"] = {{"clock", "realtime"},
                     {"delta_ns", 1000},
                     {"error_ns", 20},
                     {"end_delta_ns", end_delta},
                     {"end_error_ns", 20}};
    TailSide b = server_side();
    b.probe_out = "{\"event\":\"listening\",\"port\":50374}\n" + doc.dump() + "\n";
    return b;
  };
  const json steady = explain_tail(client_side(), server_with(1010), 60000, 0);
  EXPECT_EQ(steady["limits"].dump().find("socket wait"), std::string::npos) << steady["limits"].dump();
  EXPECT_NE(steady["outliers"].dump().find("in host b's socket"), std::string::npos)
      << "the recorded run's server waits are in its splits";

  const json stepped = explain_tail(client_side(), server_with(1000 + 500'000), 60000, 0);
  EXPECT_THAT(stepped["limits"].dump(),
              ::testing::HasSubstr("host b: socket wait: not available: host b's realtime clock was stepped "
                                   "forward by 500us during the run"));
  EXPECT_EQ(stepped["outliers"].dump().find("in host b's socket"), std::string::npos)
      << stepped["outliers"].dump();
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

// The recorded stream runs (testdata/README.md): tailhog busy 200 ms of every
// second on the receiver's CPU 0; the receiver (a stream server) is host b.
TailSide stream_side(const std::string& proto) {
  return {"b", "{\"event\":\"listening\",\"port\":40000}\n" + tail::testdata("hog_stream_" + proto + ".json"),
          tail::testdata("hog_stream_" + proto + "_watch.json"), 0, ""};
}

/// The gaps of at least `least` ns and how many of them name `cause`.
std::pair<int, int> named_among(const json& t, std::uint64_t least, const std::string& cause) {
  int n = 0, named = 0;
  for (const json& o : t["outliers"]) {
    if (o["value_ns"].get<std::uint64_t>() < least) continue;
    ++n;
    bool has = false;
    for (const json& e : o["evidence"]) has = has || e["text"].get<std::string>().find(cause) != std::string::npos;
    named += has ? 1 : 0;
  }
  return {n, named};
}

void expect_one_host_only(const json& t) {
  for (const json& o : t["outliers"])
    for (const json& e : o["evidence"]) {
      EXPECT_NE(e["kind"], "wire") << o.dump();
      EXPECT_NE(e["kind"], "server_turnaround") << o.dump();
      EXPECT_EQ(e["host"], "b") << o.dump();
      EXPECT_NE(e.value("comm", std::string()), "stream") << "the probe is never its own cause";
      EXPECT_NE(e.value("comm", std::string()), "watch") << "nor the watch";
    }
  EXPECT_EQ(t["limits"].dump().find("host a"), std::string::npos) << t["limits"].dump();
}

TEST(TailCase, ATcpStreamPutsItsWorstReceiveGapsDownToWhatRanOnTheReceiversCpu) {
  const json t = explain_stream_tail(stream_side("tcp"), 0);
  EXPECT_EQ(t["hosts"]["b"]["watch"], "ok");
  EXPECT_EQ(t["outliers_total"], 64);
  EXPECT_EQ(t["sample"], "receive gap ending at byte");
  EXPECT_EQ(t["receive_gaps"]["proto"], "tcp");
  EXPECT_THAT(t["receive_gaps"]["what"].get<std::string>(), ::testing::HasSubstr("not a packet boundary"));
  EXPECT_EQ(t["typical_ns"], t["receive_gaps"]["p50_ns"]);
  const auto [n, named] = named_among(t, 100000000, "tailhog (pid 1381) ran ");
  EXPECT_EQ(n, 3) << "tailhog stalled the receiver 200 ms in each of its seconds";
  EXPECT_EQ(named, n);
  // Ranked by time, not count: the hog's three 200 ms gaps outweigh the many short ones.
  EXPECT_THAT(t["top"].get<std::string>(),
              ::testing::MatchesRegex("[0-9.]+ ms of the [0-9.]+ ms in the 64 worst receive gaps: tailhog \\(pid "
                                      "1381\\) on CPU 0 of host b"));
  bool ranked = false;
  for (const json& r : t["ranked"]) ranked = ranked || r["cause"] == "tailhog (pid 1381) on CPU 0 of host b";
  EXPECT_TRUE(ranked) << t["ranked"].dump();
  expect_one_host_only(t);
  EXPECT_THAT(t["limits"].dump(),
              ::testing::HasSubstr("host b: socket wait: not available: the kernel keeps no per-socket receive stamp"));
  EXPECT_FALSE(t.contains("loss_bursts")) << "TCP loses nothing the receiver can count";
  EXPECT_EQ(t["value_name"], "receive gap");
  EXPECT_EQ(t["seq_name"], "Byte offset");
  EXPECT_EQ(t["on_series_clock"], false) << "the receiver's clock: never marked on the sender's series";
}

TEST(TailCase, AUdpStreamPutsItsGapsAndItsLossBurstsDownToTheHog) {
  const json t = explain_stream_tail(stream_side("udp"), 0);
  EXPECT_EQ(t["sample"], "receive gap ending at datagram");
  const auto [n, named] = named_among(t, 100000000, "tailhog (pid 1451) ran ");
  EXPECT_EQ(n, 3);
  EXPECT_EQ(named, n);
  for (const json& o : t["outliers"]) {
    if (o["value_ns"].get<std::uint64_t>() < 100000000) continue;
    EXPECT_THAT(o["split"].get<std::string>(), ::testing::HasSubstr("datagram waited ")) << "the socket wait";
  }
  expect_one_host_only(t);
  // The big bursts (a full buffer while tailhog ran) are put down to it; the
  // pause before each is the stall, not the gap right before the jump.
  ASSERT_TRUE(t["loss_bursts"].is_array());
  EXPECT_EQ(t["loss_bursts"].size(), 16u);
  int big = 0;
  for (const json& b : t["loss_bursts"]) {
    if (b["lost"].get<int>() < 1000) continue;
    ++big;
    EXPECT_GE(b["pause_ns"].get<std::uint64_t>(), 190000000u) << b.dump();
    EXPECT_THAT(b["cause"].get<std::string>(), ::testing::HasSubstr("tailhog (pid 1451) ran ")) << b.dump();
  }
  EXPECT_EQ(big, 2);
  EXPECT_THAT(t["loss_top"].get<std::string>(),
              ::testing::MatchesRegex("[0-9]+ of 8282 lost datagrams came after a receive pause with tailhog "
                                      "\\(pid 1451\\) on CPU 0 of host b"));
  EXPECT_FALSE(t["receive_gaps"].contains("largest_seq_gaps")) << "they are in loss_bursts, explained";
  // Without the watch: no host cause, for the gaps or the losses.
  TailSide blind = stream_side("udp");
  blind.watch.reset();
  const json u = explain_stream_tail(blind, 0);
  EXPECT_EQ(u["hosts"]["b"]["watch"], "not available: the command ended before the watch printed anything");
  for (const json& b : u["loss_bursts"]) EXPECT_EQ(b["cause"], "unexplained");
  EXPECT_THAT(u["loss_top"].get<std::string>(), ::testing::HasSubstr("(unexplained)"));
  // A server of an older build keeps no gaps: said, nothing made up.
  blind.probe_out = "{\"format\":\"labgate-probe-1\",\"probe\":\"stream\",\"role\":\"server\"}\n";
  const json old = explain_stream_tail(blind, 0);
  EXPECT_EQ(old["outliers_total"], 0);
  EXPECT_THAT(old["limits"].dump(), ::testing::HasSubstr("host b: receiver outliers: not available: the probe printed none"));
}

TEST(TailCase, AStreamsTailExplainsItsFailingThroughputAndLossNeverTheSendersMax) {
  const json t = explain_stream_tail(stream_side("udp"), 0);
  results::TestRecord r;
  r.verdict = results::TestVerdict::kFail;
  r.budget = {results::BudgetLine{"min_throughput", 1e6, 1e9, "bit/s", -0.99, false, "below the floor"},
              results::BudgetLine{"max_loss", 0.2, 0.001, "", -0.199, false, "exceeds the budget"},
              results::BudgetLine{"max", 412000.0, 200000, "ns", -1.06, false, "exceeds the budget"}};
  r.failure =
      "min_throughput = 1Mbit/s is below the floor of 1Gbit/s\nmax_loss = 20% exceeds the budget of 0.1%\n"
      "max = 412 us exceeds the budget of 200 us";
  add_tail(r, t);
  EXPECT_EQ(r.failure, "min_throughput = 1Mbit/s is below the floor of 1Gbit/s; " + tail_line(t) +
                           "\nmax_loss = 20% exceeds the budget of 0.1%; why: " + t["loss_top"].get<std::string>() +
                           "\nmax = 412 us exceeds the budget of 200 us")
      << "the max is the sender's send() time: the receiver's gaps do not explain it";
  EXPECT_EQ(why_line(t, "p99"), "");
  EXPECT_EQ(why_line(json{{"top", "x"}}, "p99_9"), "why: x") << "a round trip's tail: p99* and max as before";
  EXPECT_EQ(why_line(json{{"top", "x"}}, "min_throughput"), "");
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
