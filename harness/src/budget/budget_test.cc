// Budget evaluation: every statistic, ceilings and the floor, the exact limit,
// missing statistics, empty histograms, margins and the failure message.
#include "labgate/budget/budget.h"

#include <gtest/gtest.h>

#include <cmath>

namespace labgate::budget {
namespace {

using profile::Bound;
using profile::Stat;

Bound bound(Stat s, double limit, int line = 0) {
  Bound b{s, limit, {}, ""};
  b.pos = {"lab.toml", line, 3};
  return b;
}

/// Round trips of 1..1000 us, 1 s series with the worst in the third interval.
measure::Measurement rr() {
  measure::Measurement m;
  m.kind = "udp_rr";
  for (std::uint64_t us = 1; us <= 1000; ++us) m.histogram.record(us * 1000);
  m.series = {{0, 1, 400, 200000, 396000, 400000},
              {1, 1, 300, 550000, 697000, 700000},
              {2, 1, 300, 850000, 997000, 1000000}};
  m.sent = 1003;
  m.received = 1000;
  m.dropped = 3;
  m.counts_drops = true;
  m.loss_fraction = 3.0 / 1003.0;
  return m;
}

TEST(Budget, EveryLatencyStatisticPassesAndFails) {
  const measure::Measurement m = rr();
  for (Stat stat : {Stat::kP50, Stat::kP90, Stat::kP99, Stat::kP99_9, Stat::kP99_99, Stat::kMax, Stat::kMean,
                    Stat::kStddev}) {
    SCOPED_TRACE(profile::to_string(stat));
    const double value = *m.stat(profile::to_string(stat));
    EXPECT_GT(value, 0);
    const auto above = evaluate(m, {bound(stat, value + 1)});
    EXPECT_TRUE(above.pass);
    EXPECT_EQ(above.verdicts.at(0).observed, value);
    EXPECT_EQ(above.verdicts.at(0).margin, 1);
    EXPECT_EQ(above.verdicts.at(0).reason, "");
    const auto below = evaluate(m, {bound(stat, value - 1)});
    EXPECT_FALSE(below.pass);
    EXPECT_EQ(below.verdicts.at(0).margin, -1);
    EXPECT_EQ(below.verdicts.at(0).reason, "exceeds the budget");
  }
}

TEST(Budget, ExactlyAtTheLimitPasses) {
  const measure::Measurement m = rr();
  EXPECT_TRUE(evaluate(m, {bound(Stat::kP99, *m.stat("p99"))}).pass);
  EXPECT_TRUE(evaluate(m, {bound(Stat::kDropped, 3)}).pass);
  measure::Measurement s;
  s.throughput_bps = 250e6;
  EXPECT_TRUE(evaluate(s, {bound(Stat::kMinThroughput, 250e6)}).pass);
  const auto r = evaluate(m, {bound(Stat::kMaxLoss, 3.0 / 1003.0)});
  EXPECT_TRUE(r.pass);
  EXPECT_EQ(r.verdicts.at(0).margin, 0);
}

TEST(Budget, ThroughputIsAFloorEverythingElseACeiling) {
  measure::Measurement s;
  s.throughput_bps = 300e6;
  auto r = evaluate(s, {bound(Stat::kMinThroughput, 250e6)});
  EXPECT_TRUE(r.pass);
  EXPECT_TRUE(r.verdicts.at(0).floor);
  EXPECT_EQ(r.verdicts.at(0).margin, 50e6);
  EXPECT_DOUBLE_EQ(*r.verdicts.at(0).margin_pct, 20.0);
  r = evaluate(s, {bound(Stat::kMinThroughput, 400e6)});
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.verdicts.at(0).reason, "below the floor");
  EXPECT_EQ(r.failure_message(),
            "min_throughput = 300Mbit/s is below the floor of 400Mbit/s by 100Mbit/s (25.0%)");
  const auto ceiling = evaluate(rr(), {bound(Stat::kP50, 400000)});
  EXPECT_FALSE(ceiling.verdicts.at(0).floor);
  EXPECT_FALSE(ceiling.pass);
}

TEST(Budget, DroppedAndLoss) {
  measure::Measurement m = rr();
  EXPECT_FALSE(evaluate(m, {bound(Stat::kDropped, 0)}).pass);
  const auto loss = evaluate(m, {bound(Stat::kMaxLoss, 0.001)});
  EXPECT_FALSE(loss.pass);
  EXPECT_NE(loss.failure_message().find("max_loss = 0.299% exceeds the budget of 0.1%"), std::string::npos)
      << loss.failure_message();
  m.dropped = 0;
  m.received = 1003;
  EXPECT_TRUE(evaluate(m, {bound(Stat::kDropped, 0)}).pass);
}

TEST(Budget, AMissingStatisticFailsWithItsReason) {
  measure::Measurement netperf;  // -k output: percentiles only, no counters
  netperf.reported = {{"p50", 85000}, {"p99", 136000}, {"max", 1096000}};
  const auto r =
      evaluate(netperf, {bound(Stat::kP99, 140000), bound(Stat::kP99_9, 200000, 12), bound(Stat::kDropped, 0),
                         bound(Stat::kMinThroughput, 1e6), bound(Stat::kMaxLoss, 0)});
  EXPECT_FALSE(r.pass);
  EXPECT_TRUE(r.verdicts.at(0).pass) << "p99 is reported and within budget";
  for (std::size_t i = 1; i < r.verdicts.size(); ++i) {
    EXPECT_FALSE(r.verdicts[i].pass) << r.verdicts[i].name;
    EXPECT_FALSE(r.verdicts[i].observed);
    EXPECT_FALSE(r.verdicts[i].margin);
    EXPECT_NE(r.verdicts[i].reason.find("not measured"), std::string::npos);
  }
  const std::string msg = r.failure_message();
  EXPECT_NE(
      msg.find("p99_9: not measured: no samples (empty histogram) and the tool reported no p99_9; a missing "
               "statistic fails [lab.toml:12:3]"),
      std::string::npos)
      << msg;
  EXPECT_NE(msg.find("dropped: not measured: nothing was counted"), std::string::npos);
  EXPECT_NE(msg.find("min_throughput: not measured"), std::string::npos);
  EXPECT_NE(msg.find("max_loss: not measured"), std::string::npos);
  EXPECT_EQ(msg.find("p99:"), std::string::npos) << "a passing bound is not listed";
}

TEST(Budget, EmptyHistogramFailsEveryLatencyBound) {
  const measure::Measurement empty;
  for (Stat s : {Stat::kP50, Stat::kP90, Stat::kP99, Stat::kP99_9, Stat::kP99_99, Stat::kMax, Stat::kMean,
                 Stat::kStddev}) {
    const auto r = evaluate(empty, {bound(s, 1e12)});
    EXPECT_FALSE(r.pass) << profile::to_string(s) << ": an empty run must not pass a generous budget";
  }
}

TEST(Budget, EmptyBudgetHolds) {
  const auto r = evaluate(rr(), {});
  EXPECT_TRUE(r.pass);
  EXPECT_TRUE(r.verdicts.empty());
  EXPECT_EQ(r.failure_message(), "");
}

TEST(Budget, NotANumberFails) {
  measure::Measurement m;
  m.throughput_bps = std::nan("");
  const auto r = evaluate(m, {bound(Stat::kMinThroughput, 1)});
  EXPECT_FALSE(r.pass);
  // The judge never makes a figure of NaN: the budget sees it as not measured.
  EXPECT_NE(r.failure_message().find("not measured"), std::string::npos) << r.failure_message();
}

/// A tool's summary figures (exact values, unlike histogram buckets) and a series.
measure::Measurement reported_rr() {
  measure::Measurement m;
  m.reported = {{"p50", 500000}, {"p99", 990000}, {"max", 1000000}, {"mean", 500500}};
  m.series = rr().series;
  return m;
}

TEST(Budget, FailureMessageListsEveryExceededBoundInHumanUnits) {
  const auto r = evaluate(reported_rr(), {bound(Stat::kP50, 90000, 40), bound(Stat::kP99, 140000, 41),
                                          bound(Stat::kMax, 1300000, 42), bound(Stat::kMean, 600000)});
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.failure_message(),
            "p50 = 500us exceeds the budget of 90us by 410us (455.6%) [lab.toml:40:3]\n"
            "p99 = 990us exceeds the budget of 140us by 850us (607.1%) [lab.toml:41:3]");
  const auto max = evaluate(reported_rr(), {bound(Stat::kMax, 800000, 42)});
  EXPECT_EQ(max.failure_message(),
            "max = 1ms exceeds the budget of 800us by 200us (25.0%) [lab.toml:42:3]; the max happened in the "
            "interval 2.0-3.0 s after warm-up (p99 there 997us, 300 samples)");
  ASSERT_TRUE(max.verdicts.at(0).worst_interval);
  EXPECT_EQ(max.verdicts.at(0).worst_interval->start_s, 2);
}

TEST(Budget, JitterMessagesNameTheCpu) {
  measure::Measurement m = reported_rr();
  m.cpu = 3;
  const auto r = evaluate(m, {bound(Stat::kMax, 20000)});
  EXPECT_EQ(r.cpu, 3);
  EXPECT_EQ(r.failure_message().rfind("cpu 3: max = 1ms exceeds", 0), 0u) << r.failure_message();
}

TEST(Budget, MarginPercentIsUnknownForAZeroLimit) {
  const auto r = evaluate(rr(), {bound(Stat::kDropped, 0)});
  EXPECT_EQ(r.verdicts.at(0).margin, -3);
  EXPECT_FALSE(r.verdicts.at(0).margin_pct);
  EXPECT_EQ(r.failure_message(), "dropped = 3 exceeds the budget of 0 by 3");
}

TEST(FormatValue, HumanUnits) {
  EXPECT_EQ(format_value(Stat::kP99, 850), "850ns");
  EXPECT_EQ(format_value(Stat::kP99, 136500), "136.5us");
  EXPECT_EQ(format_value(Stat::kMax, 1.2e6), "1.2ms");
  EXPECT_EQ(format_value(Stat::kMean, 90890.4), "90.89us");
  EXPECT_EQ(format_value(Stat::kMinThroughput, 941.5e6), "941.5Mbit/s");
  EXPECT_EQ(format_value(Stat::kMaxLoss, 0.001), "0.1%");
  EXPECT_EQ(format_value(Stat::kDropped, 3), "3");
}

}  // namespace
}  // namespace labgate::budget
