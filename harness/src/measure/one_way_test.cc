// The one-way estimator on exchanges whose truth is known (a skewed clock, an
// asymmetric path, a clock that moves) and on exchanges recorded on the lab,
// where both hosts share one clock, and the record run.json keeps of them.
#include "labgate/measure/one_way.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "labgate/stats/histogram.h"
#include "util/source_file.h"

namespace labgate::measure {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

/// One exchange as two hosts would stamp it: the server's clock is `offset`
/// ahead of the client's, the request takes `ab` and the reply `ba` (ns).
Exchange exchange(std::uint64_t seq, std::int64_t at, std::int64_t offset, std::int64_t ab, std::int64_t ba) {
  return {seq, at, at + ab + offset, at + ab + ba};
}

bool contains(const OffsetEstimate& e, std::int64_t truth) {
  return std::llabs(e.offset_ns - truth) <= static_cast<long long>(e.bound_ns);
}

TEST(OneWayEstimate, ASkewedClockIsFoundWithinTheFastestExchangesBound) {
  const std::int64_t truth = 250'000;  // the server's clock 250 us ahead
  std::mt19937_64 rng(7);
  std::exponential_distribution<double> queueing(1.0 / 20'000);  // 20 us mean extra wait
  std::vector<Exchange> ex;
  for (std::uint64_t i = 0; i < 1000; ++i)
    ex.push_back(exchange(i, 1'000'000 * static_cast<std::int64_t>(i), truth,
                          10'000 + static_cast<std::int64_t>(queueing(rng)),
                          10'000 + static_cast<std::int64_t>(queueing(rng))));
  const auto est = estimate_offset(ex, 40);
  ASSERT_TRUE(est);
  EXPECT_TRUE(contains(*est, truth)) << est->offset_ns << " +- " << est->bound_ns;
  // The fastest exchange's half round trip, both anchors' errors on top.
  std::int64_t fastest = ex[0].round_trip();
  for (const Exchange& e : ex) fastest = std::min(fastest, e.round_trip());
  EXPECT_EQ(est->from.round_trip(), fastest);
  EXPECT_EQ(est->bound_ns, static_cast<std::uint64_t>((fastest + 1) / 2) + 40);
  EXPECT_LT(est->bound_ns, 25'000u);
}

TEST(OneWayEstimate, AnAsymmetricPathBiasesTheOffsetButTheBoundStillHoldsTheTruth) {
  const std::int64_t truth = -1'500'000;  // the server 1.5 ms behind
  const std::vector<Exchange> ex = {exchange(1, 5'000, truth, 30'000, 5'000),
                                    exchange(2, 90'000, truth, 31'000, 6'000)};
  const auto est = estimate_offset(ex, 0);
  ASSERT_TRUE(est);
  // No pair of timestamps can tell 30 + 5 from 17.5 + 17.5: the midpoint is off
  // by half the asymmetry, which is exactly what the bound allows for.
  EXPECT_EQ(est->offset_ns - truth, 12'500);
  EXPECT_EQ(est->bound_ns, 17'500u);
  EXPECT_TRUE(contains(*est, truth));
  EXPECT_EQ(est->from.seq, 1u);
}

TEST(OneWayEstimate, NoExchangeNoEstimate) { EXPECT_FALSE(estimate_offset({}, 0)); }

json one_way_fixture() {
  return json::parse(test_files::source_file("harness/src/measure/testdata/pingpong-udp-one-way.json"));
}

TEST(OneWayRecord, OnTheLabBothHostsShareOneClockSoZeroIsWithinTheBound) {
  const json f = one_way_fixture();
  const json rec = one_way_record(f["one_way"], f["server_anchor"], std::nullopt);
  ASSERT_TRUE(rec["reported"].get<bool>()) << rec.dump();
  const std::int64_t offset = rec["offset_ns"], bound = rec["bound_ns"];
  EXPECT_LE(std::llabs(offset), bound);
  EXPECT_EQ(rec["anchor_error_ns"], 45);  // 20 ns on the client, 25 on the server
  // One machine, one monotonic clock: the namespaces' offset is zero within the bound.
  EXPECT_LE(std::llabs(rec["monotonic_offset_ns"].get<std::int64_t>()), bound);
  EXPECT_EQ(rec["exchanges"].size(), 16u);
  for (const char* dir : {"a_to_b", "b_to_a"}) {
    const json& d = rec[dir];
    EXPECT_EQ(d["count"], 27970) << dir;  // the measured round trips
    // A one-way delay is >= 0 and no longer than its round trip, up to the bound.
    EXPECT_GE(d["p50_ns"].get<std::int64_t>(), -bound) << dir;
    EXPECT_LT(d["p50_ns"].get<std::int64_t>(), f["round_trip"]["mean_ns"].get<std::int64_t>()) << dir;
    EXPECT_LE(d["p99_ns"].get<std::int64_t>(), d["max_ns"].get<std::int64_t>()) << dir;
    EXPECT_LE(d["max_ns"].get<std::int64_t>(), f["round_trip"]["max_ns"].get<std::int64_t>() + bound) << dir;
  }
  EXPECT_THAT(one_way_line(rec), ::testing::MatchesRegex("one-way a->b p50 .* b->a p50 .* each \\+- .*"));
}

/// A client "one_way" member for exchanges of known delays, as the probe writes it.
json client_member(const std::vector<Exchange>& ex, std::int64_t ref, std::int64_t bias) {
  stats::Histogram ab, ba;
  json kept = json::array();
  std::int64_t lo = INT64_MIN, hi = INT64_MAX;
  for (const Exchange& e : ex) {
    ab.record(static_cast<std::uint64_t>((e.t2 - e.t1) - ref + bias));
    ba.record(static_cast<std::uint64_t>((e.t4 - e.t2) + ref + bias));
    lo = std::max(lo, e.t2 - e.t4);
    hi = std::min(hi, e.t2 - e.t1);
    kept.push_back({{"seq", e.seq}, {"t1", e.t1}, {"t2", e.t2}, {"t4", e.t4}});
  }
  return {{"anchor", {{"clock", "realtime"}, {"delta_ns", 1}, {"error_ns", 10}}},
          {"stamped", ex.size()},
          {"unstamped", 0},
          {"intersection", {{"lo_ns", lo}, {"hi_ns", hi}}},
          {"reference", {{"offset_ns", ref}, {"bias_ns", bias}}},
          {"out_of_range", 0},
          {"kept", kept},
          {"a_to_b", ab.to_json()},
          {"b_to_a", ba.to_json()}};
}

const json kServerAnchor = {{"clock", "realtime"}, {"delta_ns", 2}, {"error_ns", 10}};

TEST(OneWayRecord, TheDirectionsAreTheHistogramsShiftedByTheOffsetFound) {
  // Server 1 ms ahead, 8 us there and 4 us back: the offset found is 2 us off
  // (half the asymmetry), so each direction is off by 2 us, within the bound.
  std::vector<Exchange> ex;
  for (std::uint64_t i = 0; i < 100; ++i) ex.push_back(exchange(i, 1'000'000 * i, 1'000'000, 8'000, 4'000));
  const json rec = one_way_record(client_member(ex, 1'003'000, 6'001), kServerAnchor, 10us);
  ASSERT_TRUE(rec["reported"].get<bool>()) << rec.dump();
  EXPECT_EQ(rec["offset_ns"], 1'002'000);
  EXPECT_EQ(rec["bound_ns"], 6'020);
  EXPECT_NEAR(rec["a_to_b"]["p50_ns"].get<double>(), 6'000, 10);
  EXPECT_NEAR(rec["b_to_a"]["max_ns"].get<double>(), 6'000, 10);
  EXPECT_EQ(rec["from_exchange"]["round_trip_ns"], 12'000);
  // Host b's monotonic minus host a's: client delta 1 + offset - server delta 2.
  EXPECT_EQ(rec["monotonic_offset_ns"], 1'001'999);
}

TEST(OneWayRecord, ABoundWiderThanTheLimitIsRecordedButTheFiguresAreNot) {
  std::vector<Exchange> ex = {exchange(1, 0, 0, 30'000, 44'000)};
  const json rec = one_way_record(client_member(ex, 0, 40'000), kServerAnchor, 5us);
  EXPECT_FALSE(rec["reported"].get<bool>());
  EXPECT_EQ(rec["why_not"], "offset bound 37.02us exceeds one_way_max_error 5us");
  EXPECT_EQ(rec["bound_ns"], 37'020);
  EXPECT_FALSE(rec.contains("a_to_b"));
  EXPECT_THAT(one_way_line(rec), ::testing::HasSubstr("one-way not reported: offset bound 37.02us"));
}

TEST(OneWayRecord, ClocksThatMoveDuringTheRunAreNamed) {
  // The server's clock gains 50 us between two fast exchanges: their intervals share no point.
  const std::vector<Exchange> ex = {exchange(1, 0, 0, 5'000, 5'000),
                                    exchange(2, 1'000'000, 50'000, 5'000, 5'000)};
  const json rec = one_way_record(client_member(ex, 0, 5'001), kServerAnchor, std::nullopt);
  EXPECT_FALSE(rec["reported"].get<bool>());
  EXPECT_FALSE(rec["consistent"].get<bool>());
  EXPECT_THAT(rec["why_not"].get<std::string>(), ::testing::HasSubstr("the clocks moved against each other"));
}

TEST(OneWayRecord, ARealtimeStepDuringAPingpongRunLeavesItsFiguresStanding) {
  // Every stamp of a pingpong run (t1, t4 on the client, t2 on the server) is
  // its host's monotonic clock carried over with the tie taken at the start:
  // one clock per host whatever realtime does, so a step (the tie moved 500 us
  // by the end) moves neither the offset found nor the figures.
  std::vector<Exchange> ex;
  for (std::uint64_t i = 0; i < 10; ++i) ex.push_back(exchange(i, 1'000'000 * i, 0, 5'000, 5'000));
  const json before = one_way_record(client_member(ex, 0, 5'001), kServerAnchor, std::nullopt);
  json client = client_member(ex, 0, 5'001), server = kServerAnchor;
  client["anchor"]["end_delta_ns"] = 1 + 500'000;
  client["anchor"]["end_error_ns"] = 10;
  server["end_delta_ns"] = 2 - 30'000;
  server["end_error_ns"] = 10;
  const json after = one_way_record(client, server, std::nullopt);
  ASSERT_TRUE(after["reported"].get<bool>()) << after.dump();
  EXPECT_EQ(after["offset_ns"], before["offset_ns"]);
  EXPECT_EQ(after["a_to_b"], before["a_to_b"]);
  EXPECT_EQ(after["b_to_a"], before["b_to_a"]);
}

TEST(OneWayRecord, WhatCannotBeEstimatedSaysWhy) {
  EXPECT_THAT(one_way_record(nullptr, kServerAnchor, std::nullopt)["why_not"].get<std::string>(),
              ::testing::HasSubstr("shorter than 16 bytes"));
  json plain_echo = client_member({}, 0, 0);
  plain_echo["stamped"] = 0;
  plain_echo["unstamped"] = 500;
  EXPECT_THAT(one_way_record(plain_echo, kServerAnchor, std::nullopt)["why_not"].get<std::string>(),
              ::testing::HasSubstr("no receive stamp (500 came back as sent)"));
  const std::vector<Exchange> ex = {exchange(1, 0, 0, 5'000, 5'000)};
  EXPECT_THAT(
      one_way_record(client_member(ex, 0, 5'001), nullptr, std::nullopt)["why_not"].get<std::string>(),
      ::testing::HasSubstr("no clock anchor"));
  json broken = client_member(ex, 0, 5'001);
  broken["kept"][0].erase("t2");
  EXPECT_THROW(one_way_record(broken, kServerAnchor, std::nullopt), std::invalid_argument);
}

TEST(OneWayFigure, ABudgetStatisticReadsItsDirectionAndTheBound) {
  // The fastest exchange is symmetric (the offset is exact); the rest go 20 us there, 5 us back.
  std::vector<Exchange> ex = {exchange(0, 0, 1'000'000, 4'000, 4'000)};
  for (std::uint64_t i = 1; i < 100; ++i) ex.push_back(exchange(i, 1'000'000 * i, 1'000'000, 20'000, 5'000));
  json rec = one_way_record(client_member(ex, 1'003'000, 6'001), kServerAnchor, 10us);
  ASSERT_TRUE(rec["reported"].get<bool>()) << rec.dump();
  rec["client"] = "ny4";
  rec["server"] = "ld4";
  const OneWayFigure fwd = one_way_figure(rec, profile::Stat::kOneWayMaxForward);
  ASSERT_TRUE(fwd.value_ns);
  EXPECT_EQ(fwd.why_not, "");
  EXPECT_NEAR(*fwd.value_ns, 20'000, 20);
  EXPECT_EQ(*fwd.value_ns, rec["a_to_b"]["max_ns"].get<double>());
  EXPECT_EQ(fwd.bound_ns, 4'020);
  EXPECT_EQ(fwd.direction, "ny4->ld4");
  const OneWayFigure rev = one_way_figure(rec, profile::Stat::kOneWayP50Reverse);
  ASSERT_TRUE(rev.value_ns);
  EXPECT_NEAR(*rev.value_ns, 5'000, 10);
  EXPECT_EQ(*rev.value_ns, rec["b_to_a"]["p50_ns"].get<double>());
  EXPECT_EQ(rev.direction, "ld4->ny4");
}

TEST(OneWayFigure, WhatMayNotBeJudgedSaysWhy) {
  const std::vector<Exchange> wide = {exchange(1, 0, 0, 30'000, 44'000)};
  const OneWayFigure f = one_way_figure(one_way_record(client_member(wide, 0, 40'000), kServerAnchor, 5us),
                                        profile::Stat::kOneWayP99Forward);
  EXPECT_FALSE(f.value_ns);
  EXPECT_EQ(f.bound_ns, 37'020);
  EXPECT_EQ(f.why_not, "offset bound 37.02us exceeds one_way_max_error 5us");
  // Reported with no limit set: the bound was held to nothing, so it is not judged.
  const std::vector<Exchange> ex = {exchange(1, 0, 0, 5'000, 5'000)};
  const OneWayFigure unlimited =
      one_way_figure(one_way_record(client_member(ex, 0, 5'001), kServerAnchor, std::nullopt),
                     profile::Stat::kOneWayP50Forward);
  EXPECT_TRUE(unlimited.value_ns) << unlimited.why_not;
  EXPECT_THAT(unlimited.why_not, ::testing::HasSubstr("no one_way_max_error"));
  EXPECT_THAT(one_way_figure(nullptr, profile::Stat::kOneWayMaxReverse).why_not,
              ::testing::HasSubstr("no one-way record"));
}

}  // namespace
}  // namespace labgate::measure
