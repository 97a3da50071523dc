// Real netperf 2.7.1 output (built by ci/netperf, run between lab namespaces with
// the very argv labgate's tool driver gives it: -j -v 2 -f m -- -r 64,64 -k ...),
// saved verbatim as tests/fixtures/tools/netperf/real-271-*.txt. Its shape differs
// from the crafted fixtures: the banner says ": interval :" (--enable-intervals),
// and with -f m an RR test's THROUGHPUT is 10^6bits/s (request + response bytes x
// 8 x the transaction rate), not Trans/s. The parser and the one judge must read it
// as they read the crafted ones: netperf's own figures, and the sample accounting
// catching the loop that stalled on a lost UDP reply.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/measure/figures.h"
#include "labgate/tools/parsers.h"
#include "tools/parse_test_util.h"

namespace labgate::tools {
namespace {

using ::testing::HasSubstr;

measure::Measurement parse_real(const std::string& name) {
  return parse_netperf(read_tool_file(test_util::fixture("netperf", name)));
}

/// The one judge's figure for `stat` is netperf's own, `ns` from its -k value.
void expect_netperfs_own(const measure::JudgedFigures& j, const char* stat, double ns) {
  const stats::Figure* f = j.figures.find(stat);
  ASSERT_TRUE(f) << stat;
  EXPECT_EQ(f->value, ns) << stat;
  EXPECT_EQ(f->source, stats::FigureSource::kTool) << stat;
}

TEST(NetperfRealOutput, CleanUdpRrIsNetperfsOwnFiguresAndAccountsForItsTransactions) {
  const measure::Measurement m = parse_real("real-271-udp-rr-clean.txt");
  EXPECT_EQ(m.kind, "udp_rr");
  EXPECT_THAT(m.parameters.at("netperf.banner"), HasSubstr(": histogram : interval : demo : first burst 0"));
  EXPECT_DOUBLE_EQ(m.reported.at("p50"), 5000);
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), 9000);
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), 9750);
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 9883000);
  EXPECT_DOUBLE_EQ(m.reported.at("transaction_rate"), 102171.870);
  // -f m: netperf's payload throughput of the transactions, 128 bytes each.
  ASSERT_TRUE(m.throughput_bps);
  EXPECT_DOUBLE_EQ(*m.throughput_bps, 104.62e6);
  EXPECT_NEAR(*m.throughput_bps, 102171.870 * 128 * 8, 0.01e6);
  EXPECT_EQ(m.histogram.count(), 204351u);  // HIST_TOTAL
  EXPECT_FALSE(m.counts_drops) << "netperf UDP_RR cannot count drops";

  const measure::JudgedFigures j = measure::judge_figures(m);
  expect_netperfs_own(j, "p99", 9000);
  expect_netperfs_own(j, "mean", 9750);
  expect_netperfs_own(j, "max", 9883000);
  // The decade buckets' own p99 (9-10 us, at its upper edge) is not netperf's P99 of 9 us.
  EXPECT_NE(static_cast<double>(m.histogram.percentile(99.0)), 9000);
  EXPECT_FALSE(j.figures.find("dropped"));
  EXPECT_FALSE(j.figures.find("p99_9"));
  EXPECT_TRUE(j.accounting.checked);
  EXPECT_TRUE(j.accounting.pass) << j.accounting.message;
  // 2.00 s at a 9.75 us mean allows ~205,128; 102171.870/s x 2.00 s held.
  EXPECT_NEAR(j.accounting.expected.value_or(0), 2.0 / 9.75e-6, 1.0);
  EXPECT_NEAR(j.accounting.held, 102171.870 * 2.0, 1.0);
}

TEST(NetperfRealOutput, CleanTcpRrPasses) {
  const measure::Measurement m = parse_real("real-271-tcp-rr-clean.txt");
  EXPECT_EQ(m.kind, "tcp_rr");
  EXPECT_THAT(m.parameters.at("netperf.banner"), HasSubstr(": nodelay : histogram : interval :"));
  const measure::JudgedFigures j = measure::judge_figures(m);
  expect_netperfs_own(j, "p99", 49000);
  expect_netperfs_own(j, "mean", 27770);
  EXPECT_TRUE(j.accounting.pass) << j.accounting.message;
}

TEST(NetperfRealOutput, UdpRrWhoseRepliesWereDroppedFromOneSecondFailsTheAccounting) {
  // Replies dropped (nft, host a's input) from 1 s into a 3 s run: MEAN_LATENCY
  // 7.80 us over ~1 s of transactions, RT_LATENCY 23.25 us over all 3 s.
  const measure::Measurement m = parse_real("real-271-udp-rr-stalled.txt");
  const measure::JudgedFigures j = measure::judge_figures(m);
  // netperf's own figures still look healthy: only the accounting sees the stall.
  expect_netperfs_own(j, "p99", 6000);
  expect_netperfs_own(j, "mean", 7800);
  EXPECT_TRUE(j.accounting.checked);
  EXPECT_FALSE(j.accounting.pass);
  EXPECT_NEAR(j.accounting.expected.value_or(0), 3.0 / 7.80e-6, 1.0);  // ~384,615 had time to run
  EXPECT_NEAR(j.accounting.held, 43004.334 * 3.0, 1.0);                // 129,013 completed
  EXPECT_THAT(j.accounting.message, HasSubstr("RT_LATENCY 23.25 us"));
  EXPECT_THAT(j.accounting.message, HasSubstr("replies were lost"));
  EXPECT_FALSE(j.figures.find("dropped")) << "never 'dropped 0' for a tool that cannot count drops";
}

TEST(NetperfRealOutput, UdpRrWithEveryReplyDroppedIsZeroSamplesNeverFiguresOfZero) {
  const measure::Measurement m = parse_real("real-271-udp-rr-all-dropped.txt");
  const measure::JudgedFigures j = measure::judge_figures(m);
  for (const char* s : {"p50", "p90", "p99", "max", "min", "mean", "stddev"})
    EXPECT_FALSE(j.figures.find(s)) << s << " must not be a figure of 0";
  EXPECT_THAT(::testing::PrintToString(m.warnings),
              HasSubstr("RT_LATENCY=inf is netperf's 'not measured' marker"));
  EXPECT_TRUE(j.accounting.checked);
  EXPECT_FALSE(j.accounting.pass) << "zero samples never pass";
  EXPECT_EQ(j.accounting.held, 0);
}

// `-- -o LIST` (CSV) and `-- -O LIST` (columns): the same figures as -k, under
// netperf's column titles (record-versions.sh, lab pair 17).
TEST(NetperfRealOutput, OmniCsvIsNetperfsOwnFigures) {
  const measure::Measurement m = parse_real("real-271-tcp-rr-omni-csv.txt");
  EXPECT_EQ(m.kind, "tcp_rr");
  EXPECT_EQ(m.parameters.at("netperf.output"), "omni output selectors, -o (CSV)");
  EXPECT_DOUBLE_EQ(m.reported.at("min"), 13000);
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), 17420);
  EXPECT_DOUBLE_EQ(m.reported.at("p50"), 16000);
  EXPECT_DOUBLE_EQ(m.reported.at("p90"), 19000);
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), 22000);
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 5367000);
  EXPECT_DOUBLE_EQ(m.reported.at("stddev"), 57020);
  EXPECT_DOUBLE_EQ(m.reported.at("transaction_rate"), 57244.290);
  EXPECT_DOUBLE_EQ(m.duration_s, 2.0);
  const measure::JudgedFigures j = measure::judge_figures(m);
  expect_netperfs_own(j, "p99", 22000);
  EXPECT_TRUE(j.accounting.checked);
  EXPECT_TRUE(j.accounting.pass) << j.accounting.message;

  const measure::Measurement udp = parse_real("real-271-udp-rr-omni-csv.txt");
  EXPECT_EQ(udp.kind, "udp_rr");
  EXPECT_DOUBLE_EQ(udp.reported.at("mean"), 16710);
  EXPECT_DOUBLE_EQ(udp.reported.at("max"), 5388000);

  const measure::Measurement stream = parse_real("real-271-tcp-stream-omni-csv.txt");
  EXPECT_EQ(stream.kind, "tcp_stream");
  ASSERT_TRUE(stream.throughput_bps);
  EXPECT_DOUBLE_EQ(*stream.throughput_bps, 812.81e6);
  EXPECT_EQ(stream.parameters.at("netperf.LOCAL_SEND_CALLS"), "198460");
}

TEST(NetperfRealOutput, OmniColumnsAreReadUnderTheirWrappedTitles) {
  const measure::Measurement m = parse_real("real-271-tcp-rr-omni-keyval.txt");
  EXPECT_EQ(m.parameters.at("netperf.output"), "omni output selectors, -O (columns)");
  EXPECT_DOUBLE_EQ(m.reported.at("min"), 13000);
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), 18870);
  EXPECT_DOUBLE_EQ(m.reported.at("p50"), 17000);
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), 23000);
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 7982000);
  EXPECT_DOUBLE_EQ(m.reported.at("stddev"), 81510);
  EXPECT_DOUBLE_EQ(m.reported.at("transaction_rate"), 52851.052);
  EXPECT_EQ(m.parameters.at("netperf.RT_LATENCY"), "18.921");
  EXPECT_EQ(m.parameters.at("netperf.RESPONSE_SIZE"), "64");
  EXPECT_TRUE(measure::judge_figures(m).accounting.pass);
}

TEST(NetperfRealOutput, OmniOutputCutShortNamesItsLine) {
  const std::string csv = read_tool_file(test_util::fixture("netperf", "real-271-tcp-rr-omni-csv.txt")).raw;
  std::string cut = csv.substr(0, csv.rfind(",64"));  // the values line loses its last column
  try {
    parse_netperf(text_from_string("cut.txt", cut));
    FAIL() << "a short values line parsed";
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("cut.txt:3: netperf -o values: 13 for the 14 columns of line 2"));
  }
  test_util::expect_every_prefix_parses_or_fails_cleanly(
      parse_netperf, read_tool_file(test_util::fixture("netperf", "real-271-tcp-rr-omni-keyval.txt")).raw,
      13);
}

}  // namespace
}  // namespace labgate::tools
