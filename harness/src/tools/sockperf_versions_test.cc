// Real sockperf 3.7 (Debian's) and 3.10 (ci/sockperf) output, recorded between
// the namespaces of lab pair 17 by tests/fixtures/tools/record-versions.sh:
// 3.10's summary line (`avg-latency=… (std-dev=…, mean-ad=…, …)`), --histogram,
// under-load (ul) runs judged by their own counts, throughput (tp) runs and
// versions labgate has not read refused by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "labgate/measure/figures.h"
#include "labgate/tools/parsers.h"
#include "parse_test_util.h"

namespace labgate::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

measure::Measurement sockperf_version_file(const std::string& name) {
  return parse_sockperf(read_tool_file(test_util::fixture("sockperf", name)));
}
ParseError sockperf_version_error(const std::string& origin, const std::string& text) {
  return test_util::parse_error(parse_sockperf, origin, text);
}
/// A test name from a fixture's file name after its first `skip` characters.
std::string name_after(const char* file, std::size_t skip) {
  std::string n = file + skip;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}
using test_util::rtt;
/// The parse options of an import given sockperf ul's --reply-every.
ParseOptions replying_every(std::uint64_t n) {
  ParseOptions o;
  o.reply_every = n;
  return o;
}

struct PrintedFigures {
  const char* file;
  const char* kind;
  bool full_rtt;
  double avg, sd, max, p99_9, p99, p50, min;
  std::uint64_t sent;
  const char* dispersion;
};

// As sockperf 3.10 printed them (microseconds).
const PrintedFigures k310[] = {
    {"sockperf310-udp-lat.txt", "udp_rr", false, 8.771, 33.014, 2641.181, 85.036, 22.097, 8.011, 6.314, 88094,
     "mean-ad=2.190, median-ad=1.298"},
    {"sockperf310-udp-rtt.txt", "udp_rr", true, 14.465, 38.139, 5442.642, 75.752, 20.590, 12.959, 12.428,
     106896, "mean-ad=2.172, median-ad=0.266"},
    {"sockperf310-tcp-rtt.txt", "tcp_rr", true, 16.803, 44.979, 4546.116, 228.018, 38.857, 14.361, 13.329,
     92015, "mean-ad=3.724, median-ad=1.336"},
    {"sockperf310-udp-rtt-histogram.txt", "udp_rr", true, 24.953, 172.784, 7151.887, 3214.642, 60.930, 15.162,
     12.688, 62015, "mean-ad=19.523, median-ad=2.375"},
};

class Sockperf310 : public ::testing::TestWithParam<PrintedFigures> {};

TEST_P(Sockperf310, ItsSummaryLineIsReadAsRoundTrips) {
  const PrintedFigures& p = GetParam();
  const measure::Measurement m = sockperf_version_file(p.file);
  const double f = p.full_rtt ? 1 : 2;
  EXPECT_EQ(m.kind, p.kind);
  EXPECT_EQ(m.parameters.at("sockperf.version"), "3.10-no.git");
  EXPECT_EQ(m.parameters.at("sockperf.mode"), "ping-pong (pp)");
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), rtt(p.avg, f));
  EXPECT_DOUBLE_EQ(m.reported.at("stddev"), rtt(p.sd, f));
  EXPECT_DOUBLE_EQ(m.reported.at("max"), rtt(p.max, f));
  EXPECT_DOUBLE_EQ(m.reported.at("p99_9"), rtt(p.p99_9, f));
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), rtt(p.p99, f));
  EXPECT_DOUBLE_EQ(m.reported.at("p50"), rtt(p.p50, f));
  EXPECT_DOUBLE_EQ(m.reported.at("min"), rtt(p.min, f));
  EXPECT_EQ(m.sent, p.sent);
  EXPECT_EQ(m.received, p.sent);
  EXPECT_TRUE(m.counts_drops);
  EXPECT_THAT(m.parameters.at("sockperf.dispersion"), HasSubstr(p.dispersion));
  EXPECT_THAT(m.parameters.at("sockperf.dispersion"),
              HasSubstr(p.full_rtt ? "(round trips" : "(half round trips"));
  EXPECT_THAT(m.parameters.at("latency_normalised"), HasSubstr(p.full_rtt ? "--full-rtt" : "doubled"));
  // The closed loop's accounting: its valid duration at its mean allows what it holds.
  const measure::JudgedFigures j = measure::judge_figures(m);
  EXPECT_TRUE(j.accounting.checked);
  EXPECT_TRUE(j.accounting.pass) << j.accounting.message;
  EXPECT_THAT(j.accounting.message, HasSubstr("mean round trip (one in flight)"));
  ASSERT_TRUE(j.figures.find("p99"));
  EXPECT_EQ(j.figures.find("p99")->source, stats::FigureSource::kTool);
  EXPECT_EQ(j.figures.value("dropped"), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Recorded, Sockperf310, ::testing::ValuesIn(k310), [](const auto& info) {
  return name_after(info.param.file, 11);
});  // after "sockperf310"

TEST(SockperfVersions, TheHistogramChartIsNamedNotRead) {
  const measure::Measurement m = sockperf_version_file("sockperf310-udp-rtt-histogram.txt");
  EXPECT_THAT(m.parameters.at("sockperf.histogram"), HasSubstr("not read"));
  EXPECT_EQ(m.histogram.count(), 0u) << "the '#' bars are not counts";
  const measure::Measurement plain = sockperf_version_file("sockperf310-udp-rtt.txt");
  EXPECT_EQ(plain.parameters.count("sockperf.histogram"), 0u);
}

struct UnderLoad {
  const char* file;
  const char* kind;
  std::uint64_t sent, answered, reply_every;
};
const UnderLoad kUl[] = {
    {"sockperf37-udp-ul.txt", "udp_rr", 15471, 1548, 10},
    {"sockperf310-udp-ul.txt", "udp_rr", 15471, 1548, 10},
    {"sockperf37-tcp-ul-rtt.txt", "tcp_rr", 7601, 153, 50},
    {"sockperf310-tcp-ul-rtt.txt", "tcp_rr", 7601, 153, 50},
};

class SockperfUl : public ::testing::TestWithParam<UnderLoad> {};

TEST_P(SockperfUl, IsJudgedByItsOwnCountsNotAsAStalledPingPong) {
  const UnderLoad& u = GetParam();
  const measure::Measurement m = sockperf_version_file(u.file);
  EXPECT_EQ(m.kind, u.kind);
  EXPECT_EQ(m.parameters.at("sockperf.mode"), "under-load (ul)");
  EXPECT_THAT(m.parameters.at("sockperf.reply_every"),
              HasSubstr(std::to_string(u.reply_every) + " (told from"));
  EXPECT_EQ(m.sent, u.sent);
  EXPECT_EQ(m.received, u.answered);
  EXPECT_THAT(::testing::PrintToString(m.warnings),
              HasSubstr("under-load (ul) run: 1 in " + std::to_string(u.reply_every)));
  const measure::JudgedFigures j = measure::judge_figures(m);
  EXPECT_TRUE(j.accounting.checked);
  EXPECT_TRUE(j.accounting.pass) << j.accounting.message;
  EXPECT_EQ(j.accounting.expected.value_or(0), static_cast<double>(u.answered));
  EXPECT_EQ(j.accounting.held, static_cast<double>(u.answered));
  EXPECT_THAT(j.accounting.message, Not(HasSubstr("one in flight")));
  EXPECT_EQ(j.figures.value("dropped"), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Recorded, SockperfUl, ::testing::ValuesIn(kUl), [](const auto& info) {
  return name_after(info.param.file, 8);
});  // after "sockperf"

TEST(SockperfVersions, UlRepliesMissingFromItsOwnCountsFailTheAccounting) {
  std::string text = test_util::fixture_text("sockperf", "sockperf310-udp-ul.txt");
  // 48 of the replies it asked for neither observed nor counted as drops.
  text.replace(text.find("Total 1548 observations"), 23, "Total 1500 observations");
  const measure::Measurement m = parse_sockperf(text_from_string("ul.txt", text));
  const measure::JudgedFigures j = measure::judge_figures(m);
  EXPECT_FALSE(j.accounting.pass);
  EXPECT_THAT(j.accounting.message, HasSubstr("1 in 10 asked for a reply"));
  EXPECT_THAT(j.accounting.message, HasSubstr("neither in its observations nor in its own error counts"));
}

TEST(SockperfVersions, UlDropsAreItsOwnCountedDrops) {
  std::string text = test_util::fixture_text("sockperf", "sockperf310-udp-ul.txt");
  // 20 of the 1548 replies asked for lost: sockperf counts them and times the rest.
  text.replace(text.find("ReceivedMessages=1548"), 21, "ReceivedMessages=1528");
  text.replace(text.find("# dropped messages = 0"), 22, "# dropped messages = 20");
  text.replace(text.find("Total 1548 observations"), 23, "Total 1528 observations");
  const measure::Measurement m = parse_sockperf(text_from_string("ul.txt", text));
  EXPECT_THAT(m.parameters.at("sockperf.reply_every"), HasSubstr("10 (told from"));
  const measure::JudgedFigures j = measure::judge_figures(m);
  EXPECT_TRUE(j.accounting.pass) << j.accounting.message;
  EXPECT_EQ(j.figures.value("dropped"), 20.0);
}

// A real `sockperf ul --mps=20000 --reply-every 20` (3.7) beside eight busy
// loops: replies came late and sockperf counted 390 of them as drops, so its
// counts say 1 in ~19 was answered, and held against 1 in 19 it reads 5 %
// short. Its command line's --reply-every (labgate import --reply-every) holds
// it against what it really asked for.
TEST(SockperfVersions, UlGivenItsReplyEveryIsHeldAgainstItNotAgainstItsCounts) {
  const std::string f = "sockperf37-udp-ul-e20-loaded.txt";
  const measure::Measurement told = sockperf_version_file(f);
  EXPECT_THAT(told.parameters.at("sockperf.reply_every"), HasSubstr("19 (told from its own counts"));
  EXPECT_THAT(::testing::PrintToString(told.warnings), HasSubstr("import it again with --reply-every N"));
  EXPECT_FALSE(measure::judge_figures(told).accounting.pass) << "the flaw this option exists for";

  const measure::Measurement m =
      parse_sockperf(read_tool_file(test_util::fixture("sockperf", f)), replying_every(20));
  EXPECT_EQ(m.parameters.at("sockperf.reply_every"), "20 (told from --reply-every 20, as given)");
  EXPECT_THAT(::testing::PrintToString(m.warnings), Not(HasSubstr("import it again")));
  const measure::JudgedFigures j = measure::judge_figures(m);
  EXPECT_TRUE(j.accounting.pass) << j.accounting.message;
  EXPECT_EQ(j.accounting.expected.value_or(0), std::floor((12101.0 - 1) / 20) + 1);
  EXPECT_EQ(j.accounting.held, 238.0 + 390.0);
}

TEST(SockperfVersions, UlRepliesMissingFailTheAccountingWithItsReplyEveryGiven) {
  std::string text = test_util::fixture_text("sockperf", "sockperf310-udp-ul.txt");
  text.replace(text.find("Total 1548 observations"), 23, "Total 1500 observations");
  const measure::Measurement m = parse_sockperf(text_from_string("ul.txt", text), replying_every(10));
  const measure::JudgedFigures j = measure::judge_figures(m);
  EXPECT_FALSE(j.accounting.pass);
  EXPECT_THAT(j.accounting.message, HasSubstr("1 in 10 asked for a reply"));
}

TEST(SockperfVersions, AReplyEveryItsCountsDoNotBearOutIsRefusedAtItsCountsLine) {
  const std::string text = test_util::fixture_text("sockperf", "sockperf310-udp-ul.txt");
  for (std::uint64_t wrong : {1u, 100u}) {
    SCOPED_TRACE(wrong);
    const ParseError e = test_util::parse_error(parse_sockperf, "ul.txt", text, replying_every(wrong));
    EXPECT_THAT(e.what(), HasSubstr("--reply-every " + std::to_string(wrong) + " does not match this run"));
    EXPECT_THAT(e.what(), HasSubstr("about 1 in 10.0 was answered"));
    const auto counts_line = std::count(text.begin(), text.begin() + text.find("[Valid Duration]"), '\n') + 1;
    EXPECT_EQ(e.line(), counts_line) << e.what();
  }
  // Within half again of its counts' rate: taken (late replies make the counts read low).
  EXPECT_NO_THROW(parse_sockperf(text_from_string("ul.txt", text), replying_every(12)));
}

TEST(SockperfVersions, ThroughputRunsAreRefusedByName) {
  for (const char* f : {"sockperf37-udp-tp.txt", "sockperf310-udp-tp.txt"}) {
    SCOPED_TRACE(f);
    const ParseError e = sockperf_version_error(f, test_util::fixture_text("sockperf", f));
    EXPECT_EQ(e.kind(), ParseFailure::kToolFailed);
    EXPECT_THAT(e.what(), HasSubstr("sockperf throughput (tp) output"));
    EXPECT_THAT(e.what(), HasSubstr("Total of "));
  }
}

TEST(SockperfVersions, AVersionLabgateHasNotReadIsRefusedByName) {
  for (const char* v : {"3.11-no.git", "4.0", "2.4.1", "x.y"}) {
    SCOPED_TRACE(v);
    std::string text = test_util::fixture_text("sockperf", "sockperf310-udp-rtt.txt");
    text.replace(text.find("3.10-no.git"), 11, v);
    const ParseError e = sockperf_version_error("v.txt", text);
    EXPECT_THAT(e.what(),
                HasSubstr(std::string("v.txt:1: sockperf ") + v + " is a version labgate has not read"));
    EXPECT_THAT(e.what(), HasSubstr("it reads 2.5 to 3.10"));
  }
}

TEST(SockperfVersions, EveryPrefixFailsCleanlyOrParses) {
  test_util::expect_every_prefix_parses_or_fails_cleanly(
      parse_sockperf, test_util::fixture_text("sockperf", "sockperf310-udp-lat.txt"), 7);
  test_util::expect_every_prefix_parses_or_fails_cleanly(
      parse_sockperf, test_util::fixture_text("sockperf", "sockperf310-udp-ul.txt"), 7);
}

}  // namespace
}  // namespace labgate::tools
