// The one-way record in reports: compare's rows (both runs' figures per direction
// with their error bounds, a change inside the two bounds together within the
// error, never a regression) and JUnit's properties.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "labgate/report/compare.h"
#include "labgate/report/figure_format.h"

namespace labgate::report {
namespace {

using ::testing::HasSubstr;

/// A test whose one-way record reports a->b p99 `fwd_p99` and b->a p99 `rev_p99`, each +- `bound`.
results::TestRecord with_one_way(std::int64_t fwd_p99, std::int64_t rev_p99, std::int64_t bound) {
  results::TestRecord t;
  t.name = "rr";
  t.suite = "Latency";
  t.kind = "udp_rr";
  t.pair = "a->b";
  t.measurement = {{"one_way",
                    {{"reported", true},
                     {"client", "a"},
                     {"server", "b"},
                     {"bound_ns", bound},
                     {"max_error_ns", 5'000},
                     {"a_to_b", {{"p50_ns", 5'000}, {"p99_ns", fwd_p99}, {"max_ns", 30'000}}},
                     {"b_to_a", {{"p50_ns", 4'000}, {"p99_ns", rev_p99}, {"max_ns", 30'000}}}}}};
  return t;
}

results::RunResult one_way_run(const std::string& id, results::TestRecord t) {
  results::RunResult r;
  r.run_id = id;
  r.tests = {std::move(t)};
  return r;
}

const OneWayDelta& row(const TestDelta& t, const std::string& stat) {
  for (const OneWayDelta& d : t.one_way)
    if (d.stat == stat) return d;
  throw std::runtime_error("no row " + stat);
}

TEST(CompareOneWay, AChangeInsideBothBoundsIsWithinTheErrorNotARegression) {
  CompareOptions o;
  o.gated = {"one_way_p99_forward", "one_way_p99_reverse"};
  o.fail_on_regression = 0.10;
  // a->b p99 9us -> 11us (+22%) with +- 1.5us each: inside 3us. b->a 7us -> 12us: beyond it.
  const Comparison c = compare_runs(one_way_run("A", with_one_way(9'000, 7'000, 1'500)),
                                    one_way_run("B", with_one_way(11'000, 12'000, 1'500)), o);
  ASSERT_EQ(c.tests.size(), 1u);
  const TestDelta& t = c.tests[0];
  ASSERT_EQ(t.one_way.size(), 6u);
  const OneWayDelta& fwd = row(t, "one_way_p99_forward");
  EXPECT_EQ(fwd.direction, "a->b");
  EXPECT_EQ(fwd.a, 9'000);
  EXPECT_EQ(fwd.bound_b, 1'500);
  EXPECT_TRUE(fwd.within_error);
  EXPECT_FALSE(fwd.regression);
  const OneWayDelta& rev = row(t, "one_way_p99_reverse");
  EXPECT_EQ(rev.direction, "b->a");
  EXPECT_FALSE(rev.within_error);
  EXPECT_TRUE(rev.regression);
  EXPECT_TRUE(c.regression());
  const std::string table = comparison_table(c, o);
  EXPECT_THAT(table, HasSubstr("one_way_p99_forward (a->b): A 9.00 us +- 1.50 us, B 11.0 us +- 1.50 us, B-A "
                               "+2.00 us: within the error (+- 3.00 us)"));
  EXPECT_THAT(table, HasSubstr("one_way_p99_reverse (b->a): A 7.00 us +- 1.50 us, B 12.0 us +- 1.50 us, B-A "
                               "+5.00 us (+71.4%)  REGRESSION"));
}

TEST(CompareOneWay, ARunThatReportedNoneSaysWhy) {
  results::TestRecord b = with_one_way(9'000, 7'000, 37'020);
  b.measurement["one_way"]["reported"] = false;
  b.measurement["one_way"]["why_not"] = "offset bound 37.02us exceeds one_way_max_error 5us";
  b.measurement["one_way"].erase("a_to_b");
  b.measurement["one_way"].erase("b_to_a");
  const Comparison c =
      compare_runs(one_way_run("A", with_one_way(9'000, 7'000, 1'500)), one_way_run("B", b), {});
  const TestDelta& t = c.tests[0];
  EXPECT_FALSE(row(t, "one_way_max_forward").b);
  EXPECT_FALSE(row(t, "one_way_max_forward").within_error);
  EXPECT_THAT(comparison_table(c, {}),
              HasSubstr("one-way B: not reported: offset bound 37.02us exceeds one_way_max_error 5us"));
  // Neither run estimated it: no one-way rows at all.
  results::TestRecord plain = with_one_way(0, 0, 0);
  plain.measurement = nlohmann::json::object();
  EXPECT_TRUE(compare_runs(one_way_run("A", plain), one_way_run("B", plain), {}).tests[0].one_way.empty());
}

/// A feed subscriber's record: publisher m1 -> m2 only (no way back), fwd p99 `p99`.
results::TestRecord feed_record(std::int64_t p99) {
  results::TestRecord t = with_one_way(p99, 0, 1'000);
  t.kind = "udp_multicast";
  t.pair = "m1/m2";
  nlohmann::json& ow = t.measurement["one_way"];
  ow["client"] = "m1";
  ow["server"] = "m2";
  ow.erase("b_to_a");
  return t;
}

TEST(CompareOneWay, AFeedSubscribersForwardFiguresAreComparedAndNoWayBackIsInvented) {
  CompareOptions o;
  o.gated = {"one_way_p99_forward"};
  o.fail_on_regression = 0.10;
  const Comparison c =
      compare_runs(one_way_run("A", feed_record(10'000)), one_way_run("B", feed_record(20'000)), o);
  const TestDelta& t = c.tests[0];
  ASSERT_EQ(t.one_way.size(), 3u);  // p50, p99, max forward
  EXPECT_EQ(row(t, "one_way_p99_forward").direction, "m1->m2");
  EXPECT_TRUE(row(t, "one_way_p99_forward").regression);
  EXPECT_TRUE(t.one_way_why_not.empty());
}

bool has_property(const std::vector<std::pair<std::string, std::string>>& props, const std::string& k,
                  const std::string& v) {
  return std::find(props.begin(), props.end(), std::pair<std::string, std::string>{k, v}) != props.end();
}

TEST(JunitOneWay, TheFiguresPerDirectionAndTheBoundAreProperties) {
  results::TestRecord t = with_one_way(9'000, 7'000, 1'500);
  t.measurement["one_way"]["offset_ns"] = 1'002'000;
  const auto props = junit_properties(t);
  const auto has = [&](const std::string& k, const std::string& v) { return has_property(props, k, v); };
  EXPECT_TRUE(has("one_way.a_to_b.p99_ns", "9000"));
  EXPECT_TRUE(has("one_way.b_to_a.p99_ns", "7000"));
  EXPECT_TRUE(has("one_way.bound_ns", "1500"));
  EXPECT_TRUE(has("one_way.offset_ns", "1002000"));
}

TEST(JunitOneWay, AFeedsWorstRecordSaysWhoseEachFigureIsAndThatItIsSampled) {
  const std::string kSampled = "publisher->subscriber from each answered message's scheduled send, 1 in 10";
  results::TestRecord t = with_one_way(9'000, 0, 2'000);
  t.kind = "udp_multicast";
  t.pair = "m1/worst";
  nlohmann::json& ow = t.measurement["one_way"];
  ow["client"] = "m1";
  ow["server"] = "worst";
  ow.erase("b_to_a");  // a feed's way back is not reported
  ow["sampled"] = kSampled;
  ow["worst"] = {{"p50_ns", "m3"}, {"p99_ns", "m5"}, {"max_ns", "m5"}};
  const auto props = junit_properties(t);
  const auto has = [&](const std::string& k, const std::string& v) { return has_property(props, k, v); };
  EXPECT_TRUE(has("one_way.m1_to_worst.p99_ns", "9000"));
  EXPECT_TRUE(has("one_way.worst.p99_ns", "m5"));
  EXPECT_TRUE(has("one_way.worst.p50_ns", "m3"));
  EXPECT_TRUE(has("one_way.sampled", kSampled));
  EXPECT_TRUE(std::none_of(props.begin(), props.end(),
                           [](const auto& p) { return p.first.find("worst_to_m1") != std::string::npos; }));
}

}  // namespace
}  // namespace labgate::report
