// One-way budgets (issue 24): judged on the one-way record's figure within its
// error bound; a record that may not be judged fails the bound, saying why.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/budget/budget.h"

namespace labgate::budget {
namespace {

using nlohmann::json;
using profile::Bound;
using profile::Stat;

Bound one_way_bound(Stat s, double limit) { return Bound{s, limit, {"lab.toml", 12, 25}, ""}; }

/// A reported record as measure::one_way_record writes it (client a, server b).
json reported() {
  return {{"reported", true},
          {"client", "a"},
          {"server", "b"},
          {"offset_ns", 1'002'000},
          {"bound_ns", 1'500},
          {"max_error_ns", 5'000},
          {"a_to_b", {{"count", 1000}, {"p50_ns", 6'000}, {"p99_ns", 9'000}, {"max_ns", 21'000}}},
          {"b_to_a", {{"count", 1000}, {"p50_ns", 4'000}, {"p99_ns", 7'000}, {"max_ns", 15'000}}}};
}

BudgetResult judge(const json& rec, const std::vector<Bound>& b) {
  const measure::Measurement m;
  return evaluate(m, stats::FigureSet{}, b, rec);
}

TEST(OneWayBudget, EachDirectionIsJudgedOnItsOwnFigure) {
  const BudgetResult r = judge(reported(), {one_way_bound(Stat::kOneWayP99Forward, 10'000),
                                            one_way_bound(Stat::kOneWayMaxReverse, 15'000)});
  EXPECT_TRUE(r.pass) << r.failure_message();
  EXPECT_EQ(r.verdicts.at(0).observed, 9'000);
  EXPECT_EQ(r.verdicts.at(0).error_bound, 1'500);
  EXPECT_EQ(r.verdicts.at(0).direction, "a->b");
  EXPECT_EQ(r.verdicts.at(1).observed, 15'000);  // exactly at the limit passes
  EXPECT_EQ(r.verdicts.at(1).direction, "b->a");
  const BudgetResult over = judge(reported(), {one_way_bound(Stat::kOneWayP50Reverse, 3'000)});
  EXPECT_FALSE(over.pass);
  EXPECT_EQ(
      over.failure_message(),
      "one_way_p50_reverse (b->a) = 4us +- 1.5us exceeds the budget of 3us by 1us (33.3%) [lab.toml:12:25]");
}

TEST(OneWayBudget, ABoundTooWideFailsNotJudgedWithTheRecordsReason) {
  json rec = reported();
  rec["reported"] = false;
  rec["bound_ns"] = 37'020;
  rec["why_not"] = "offset bound 37.02us exceeds one_way_max_error 5us";
  rec.erase("a_to_b");
  rec.erase("b_to_a");
  const BudgetResult r = judge(rec, {one_way_bound(Stat::kOneWayP99Forward, 10'000)});
  EXPECT_FALSE(r.pass);
  EXPECT_FALSE(r.verdicts.at(0).observed);
  EXPECT_EQ(r.verdicts.at(0).error_bound, 37'020);
  EXPECT_EQ(
      r.failure_message(),
      "one_way_p99_forward (a->b): not judged: offset bound 37.02us exceeds one_way_max_error 5us; a one-way "
      "budget that cannot be judged fails [lab.toml:12:25]");
}

TEST(OneWayBudget, NoRecordOrNoLimitIsNeverAPass) {
  const BudgetResult none = judge(nullptr, {one_way_bound(Stat::kOneWayMaxForward, 1e9)});
  EXPECT_FALSE(none.pass);
  EXPECT_THAT(none.failure_message(), ::testing::HasSubstr("not judged: no one-way record"));
  json unlimited = reported();
  unlimited["max_error_ns"] = nullptr;
  const BudgetResult r = judge(unlimited, {one_way_bound(Stat::kOneWayMaxForward, 1e9)});
  EXPECT_FALSE(r.pass);
  EXPECT_THAT(r.failure_message(), ::testing::HasSubstr("not judged: no one_way_max_error"));
}

TEST(OneWayBudget, AFeedsWorstIsJudgedOnlyWhenEverySubscriberIsKnown) {
  // As measure::worst_one_way writes it: the largest figure and whose, the widest bound.
  const json worst = {{"reported", true},
                      {"client", "m1"},
                      {"server", "worst"},
                      {"bound_ns", 2'000},
                      {"max_error_ns", 5'000},
                      {"a_to_b", {{"p50_ns", 6'000}, {"p99_ns", 9'000}, {"max_ns", 21'000}}},
                      {"worst", {{"p50_ns", "m2"}, {"p99_ns", "m4"}, {"max_ns", "m4"}}}};
  const BudgetResult r = judge(worst, {one_way_bound(Stat::kOneWayMaxForward, 20'000)});
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.failure_message(),
            "one_way_max_forward (m1->worst) = 21us +- 2us exceeds the budget of 20us by 1us (5.0%) "
            "[lab.toml:12:25]");
  const json unknown = {{"reported", false},
                        {"client", "m1"},
                        {"server", "worst"},
                        {"max_error_ns", 5'000},
                        {"why_not", "not known for m3: no reply came back from m3"}};
  const BudgetResult u = judge(unknown, {one_way_bound(Stat::kOneWayP99Forward, 1'000'000)});
  EXPECT_FALSE(u.pass);
  EXPECT_THAT(
      u.failure_message(),
      ::testing::HasSubstr("one_way_p99_forward (m1->worst): not judged: not known for m3: no reply came "
                           "back from m3; a one-way budget that cannot be judged fails"));
}

}  // namespace
}  // namespace labgate::budget
