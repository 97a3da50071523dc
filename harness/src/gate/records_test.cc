// The records every reporter reads: a check result as a CheckRecord, a judged
// measurement (budget and sample accounting), the runner's rules, an error record.
#include "labgate/gate/records.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gate/fake_lab_test_util.h"
#include "labgate/measure/probe_output.h"

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;
namespace lt = testing;

class Records : public ::testing::Test {
 protected:
  TestCase rr(const std::string& budget, const std::string& extra = "") {
    profile_ = lt::write_profile(
        tmp_.path(), lt::two_hosts("[[test]]\nname = \"rr\"\nkind = \"tcp_rr\"\nfrom = \"a\"\nto = \"b\"\n"
                                   "duration = \"300ms\"\nwarmup = \"100ms\"\ninterval = \"100ms\"\n" +
                                   extra + "budget = " + budget + "\n"));
    return expand_cases(profile_).at(0);
  }
  measure::Measurement recorded() {
    return measure::parse_probe_output(lt::testdata("harness/src/measure/testdata/pingpong-tcp.json")).at(0);
  }
  lt::TempDir tmp_;
  profile::Profile profile_;
};

TEST_F(Records, AJudgedMeasurementCarriesItsBudgetLinesFiguresAndAccounting) {
  const TestCase c = rr("{ p50 = \"1ms\", max = \"1ms\" }");
  const results::TestRecord r = judge_case(c, recorded(), c.pair);
  EXPECT_EQ(r.suite, "Latency");
  EXPECT_EQ(r.name, "rr");
  EXPECT_EQ(r.pair, "a->b");
  EXPECT_EQ(r.kind, "tcp_rr");
  EXPECT_EQ(r.tool, "builtin");
  ASSERT_EQ(r.budget.size(), 2u);
  EXPECT_EQ(r.budget[0].stat, "p50");
  EXPECT_EQ(r.budget[0].unit, "ns");
  EXPECT_TRUE(r.budget[0].pass);
  EXPECT_GT(*r.budget[0].margin, 0);
  EXPECT_EQ(r.budget[1].stat, "max");
  EXPECT_FALSE(r.budget[1].pass) << "the recorded max is 10.7 ms";
  EXPECT_EQ(r.budget[1].observed, r.figures.value("max"));
  EXPECT_EQ(r.verdict, results::TestVerdict::kFail);
  EXPECT_THAT(r.failure, HasSubstr("max"));
  EXPECT_TRUE(r.accounting.checked);
  EXPECT_TRUE(r.accounting.pass) << r.accounting.message;
  EXPECT_EQ(r.measurement["histogram"]["total"], 6164);
}

TEST_F(Records, LostSamplesFailTheCaseWhateverTheBudgetSays) {
  const TestCase c = rr("{ p50 = \"1ms\" }");
  measure::Measurement m = recorded();
  ASSERT_TRUE(m.expectation) << "the probe's reader sets what the run must hold";
  m.expectation->expected = m.expectation->held * 2;  // half the samples went missing
  const results::TestRecord r = judge_case(c, m, "a->b");
  EXPECT_TRUE(r.budget.at(0).pass);
  EXPECT_FALSE(r.accounting.pass);
  EXPECT_EQ(r.verdict, results::TestVerdict::kFail);
  EXPECT_EQ(r.failure.rfind(r.accounting.message, 0), 0u) << r.failure;
}

TEST_F(Records, AFailedRuleFailsTheRecordAndJoinsItsFailureText) {
  const TestCase c = rr("{ p50 = \"1ms\" }");
  results::TestRecord r = judge_case(c, recorded(), c.pair);
  ASSERT_EQ(r.verdict, results::TestVerdict::kPass);
  add_rules(r, {{"path_mtu a->b", 1500, 1500, true, "a->b carries 1500 bytes"},
                {"buffers_cover_bdp b", 212992, 1.2e6, false, "b: rmem_max 212992 < BDP 1200000"}});
  EXPECT_EQ(r.verdict, results::TestVerdict::kFail);
  EXPECT_EQ(r.failure, "buffers_cover_bdp b: b: rmem_max 212992 < BDP 1200000");
  ASSERT_EQ(r.budget.size(), 3u);
  EXPECT_EQ(r.budget[1].unit, "bytes");
  EXPECT_TRUE(r.budget[1].pass);
  EXPECT_FALSE(r.budget[2].pass);
}

TEST_F(Records, AnErrorRecordSaysWhyAndHoldsNoMeasurement) {
  const TestCase c = rr("{ p50 = \"1ms\" }");
  const results::TestRecord r = error_record(c, "host a: pingpong client exit 1");
  EXPECT_EQ(r.verdict, results::TestVerdict::kError);
  EXPECT_EQ(r.failure, "host a: pingpong client exit 1");
  EXPECT_TRUE(r.measurement.is_null());
  EXPECT_EQ(r.test_name(), "rr/a->b");
}

TEST(CheckRecords, ANotCheckableRuleSaysWhyAndAPairRuleShowsEveryHost) {
  checks::CheckResult c;
  c.host = "a";
  c.rule = "bios/Intel_Hyperthreading";
  c.verdict = checks::Verdict::kNotCheckable;
  c.reason = "conrep is not installed";
  c.fix = "set it in RBSU";
  c.needs_reboot = true;
  results::CheckRecord r = to_record(c);
  EXPECT_EQ(r.verdict, results::CheckVerdict::kNotCheckable);
  EXPECT_EQ(r.message, "conrep is not installed");
  EXPECT_EQ(r.fix, "set it in RBSU\n# takes effect after a reboot");

  checks::CheckResult p;
  p.host = "pair";
  p.rule = "pair/same/kernel_release";
  p.verdict = checks::Verdict::kFail;
  p.values = {{"a", "5.10", "/proc/sys/kernel/osrelease"}, {"b", "6.1", "/proc/sys/kernel/osrelease"}};
  r = to_record(p);
  EXPECT_EQ(r.verdict, results::CheckVerdict::kFail);
  EXPECT_EQ(r.found, "a: 5.10 | b: 6.1");
}

TEST(MetricLabel, NamesWhatEachNumberIs) {
  EXPECT_EQ(metric_label(measure::Metric::kRoundTrip), "round-trip time");
  EXPECT_EQ(metric_label(measure::Metric::kClockGap), "clock gap");
  EXPECT_EQ(metric_label(measure::Metric::kWallTime), "wall time per run");
}

TEST_F(Records, AOneWayBudgetIsJudgedOnTheCasesOneWayRecordWhichTheMeasurementKeeps) {
  const TestCase c = rr("{ one_way_p99_forward = \"10us\", one_way_max_reverse = \"10us\" }",
                        "one_way_max_error = \"5us\"\n");
  const nlohmann::json ow = {{"reported", true},
                             {"client", "a"},
                             {"server", "b"},
                             {"bound_ns", 1'500},
                             {"max_error_ns", 5'000},
                             {"a_to_b", {{"p50_ns", 6'000}, {"p99_ns", 9'000}, {"max_ns", 21'000}}},
                             {"b_to_a", {{"p50_ns", 4'000}, {"p99_ns", 7'000}, {"max_ns", 15'000}}}};
  const results::TestRecord r = judge_case(c, recorded(), c.pair, ow);
  EXPECT_EQ(r.measurement["one_way"], ow);
  ASSERT_EQ(r.budget.size(), 2u);
  EXPECT_EQ(r.budget[0].stat, "one_way_p99_forward");
  EXPECT_TRUE(r.budget[0].pass);
  EXPECT_EQ(r.budget[0].observed, 9'000);
  EXPECT_FALSE(r.budget[1].pass);
  EXPECT_EQ(r.verdict, results::TestVerdict::kFail);
  EXPECT_THAT(r.failure, HasSubstr("one_way_max_reverse (b->a) = 15us +- 1.5us exceeds the budget of 10us"));
  // Judged without its record (an import of the client's output alone): failed, saying why.
  const results::TestRecord bare = judge_case(c, recorded(), c.pair);
  EXPECT_EQ(bare.verdict, results::TestVerdict::kFail);
  EXPECT_THAT(bare.failure, HasSubstr("one_way_p99_forward (a->b): not judged: no one-way record"));
}

}  // namespace
}  // namespace labgate::gate
