// netperf parser on every netperf run printed in seeds 000, 001 and 004 (copied
// verbatim into tests/fixtures/tools/netperf), plus broken and hostile input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>

#include "labgate/tools/parsers.h"
#include "tools/parse_test_util.h"

namespace labgate::tools {
namespace {

using profile::TestKind;
using ::testing::HasSubstr;

measure::Measurement netperf_file(const std::string& name, ParseOptions o = {}) {
  return parse_netperf(read_tool_file(test_util::fixture("netperf", name)), o);
}

ParseError netperf_error(const std::string& origin, const std::string& text, ParseOptions o = {}) {
  return test_util::parse_error(parse_netperf, origin, text, o);
}

/// What seed 000 prints for each -k run (microseconds; nullopt = -2147483648).
struct KRun {
  const char* file;
  const char* kind;
  std::optional<double> p50;
  double p90, p99, mean, stddev, max;
  std::uint64_t hist_total;
};

const KRun kSeed000[] = {
    {"000-01.txt", "tcp_rr", 85, 111, 136, 90.89, 16.20, 1096, 1314524},
    {"000-02.txt", "tcp_rr", 85, 112, 136, 91.45, 16.07, 1101, 1306480},
    {"000-03.txt", "tcp_stream", std::nullopt, 1, 3, 0.49, 0.88, 249, 212446357},
    {"000-04.txt", "tcp_stream", std::nullopt, 1, 2, 0.47, 22.79, 12129, 220712713},
    {"000-05.txt", "tcp_stream", std::nullopt, 1, 3, 0.48, 0.88, 431, 213399998},
    {"000-06.txt", "udp_rr", 83, 93, 101, 84.49, 11.01, 1091, 1413828},
    {"000-07.txt", "udp_rr", 83, 107, 125, 89.38, 14.68, 1088, 1336759},
    {"000-08.txt", "udp_stream", 1, 3, 3, 1.50, 1.34, 4125, 76219519},
    {"000-09.txt", "udp_stream", 1, 2, 3, 1.50, 1.22, 4183, 75898066},
    {"000-10.txt", "tcp_rr", 86, 110, 134, 92.47, 15.73, 1277, 1281962},
    {"000-11.txt", "tcp_rr", 86, 110, 133, 91.88, 15.43, 1083, 1289936},
    {"000-12.txt", "tcp_stream", std::nullopt, 1, 5, 0.54, 1.17, 349, 192910366},
    {"000-13.txt", "tcp_stream", std::nullopt, 1, 5, 0.55, 1.18, 330, 185115827},
    {"000-14.txt", "udp_rr", 82, 94, 101, 83.59, 11.44, 1225, 1417624},
    {"000-15.txt", "udp_rr", 84, 108, 128, 89.71, 15.31, 1093, 1320969},
    {"000-16.txt", "udp_stream", 2, 3, 4, 2.21, 1.57, 342, 52480827},
    {"000-17.txt", "udp_stream", 2, 3, 4, 2.21, 1.58, 340, 52384119},
};

class Seed000 : public ::testing::TestWithParam<KRun> {};

TEST_P(Seed000, KeyValuesAndHistogramAsPrinted) {
  const KRun& r = GetParam();
  const measure::Measurement m = netperf_file(r.file);
  EXPECT_EQ(m.source, "netperf");
  EXPECT_EQ(m.kind, r.kind);
  const bool rr = std::string(r.kind).ends_with("_rr");
  EXPECT_EQ(m.metric, rr ? measure::Metric::kRoundTrip : measure::Metric::kSendTime);
  if (r.p50) {
    EXPECT_DOUBLE_EQ(m.reported.at("p50"), *r.p50 * 1000);
  } else {
    EXPECT_EQ(m.reported.count("p50"), 0u) << "-2147483648 must never become a number";
    EXPECT_THAT(::testing::PrintToString(m.warnings), HasSubstr("P50_LATENCY=-2147483648"));
  }
  EXPECT_DOUBLE_EQ(m.reported.at("p90"), r.p90 * 1000);
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), r.p99 * 1000);
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), std::round(r.mean * 1000 * 1000) / 1000);
  EXPECT_DOUBLE_EQ(m.reported.at("stddev"), std::round(r.stddev * 1000 * 1000) / 1000);
  EXPECT_DOUBLE_EQ(m.reported.at("max"), r.max * 1000);
  // Budgets see netperf's own figures, not the coarse histogram; unmeasured stays absent.
  EXPECT_EQ(m.stat("p99"), r.p99 * 1000);
  EXPECT_EQ(m.stat("p50").has_value(), r.p50.has_value());
  EXPECT_FALSE(m.stat("p99_9")) << "netperf's percentiles stop at P99";
  EXPECT_EQ(m.histogram.count(), r.hist_total);
  // The bucket that holds netperf's exact maximum is recorded at that maximum.
  EXPECT_EQ(m.histogram.max(), static_cast<std::uint64_t>(r.max * 1000));
  // Upper-edge recording keeps the histogram's percentiles at or above netperf's own.
  EXPECT_GE(static_cast<double>(m.histogram.percentile(99)), r.p99 * 1000);
  EXPECT_THAT(m.parameters.at("latency"), HasSubstr(rr ? "round-trip" : "send()"));
  EXPECT_THAT(::testing::PrintToString(m.warnings), HasSubstr("decade-bucket resolution"));
  EXPECT_EQ(m.parameters.at("command").rfind("netperf -n 16 -H ", 0), 0u);
}

INSTANTIATE_TEST_SUITE_P(AllRuns, Seed000, ::testing::ValuesIn(kSeed000), [](const auto& info) {
  return std::string(info.param.file).substr(0, 6).replace(3, 1, "_");
});

TEST(NetperfParser, Seed000TcpRrHistogramBuckets) {
  const measure::Measurement m = netperf_file("000-01.txt");
  // TEN_USEC bucket 7 (70-80 us) holds 87045 samples, recorded at 79.999 us.
  std::uint64_t at_80 = 0, at_max = 0;
  m.histogram.for_each_bucket([&](std::uint64_t lo, std::uint64_t hi, std::uint64_t n) {
    if (lo <= 79999 && 79999 <= hi) at_80 = n;
    if (lo <= 1096000 && 1096000 <= hi) at_max = n;
  });
  EXPECT_EQ(at_80, 87045u);
  EXPECT_EQ(at_max, 4u);  // UNIT_MSEC bucket 1 (1-2 ms): 4 samples, netperf's MAX_LATENCY=1096 us
  // Coarse: the 80-90 us bucket's upper edge, within the project histogram's 0.1%.
  EXPECT_GE(m.histogram.percentile(50), 89999u);
  EXPECT_LE(m.histogram.percentile(50), 89999u * 1001 / 1000);
}

TEST(NetperfParser, HumanAnnotationsInSeed000AreToleratedAndNoted) {
  const measure::Measurement m = netperf_file("000-04.txt");
  const std::string w = ::testing::PrintToString(m.warnings);
  EXPECT_THAT(w, HasSubstr("line 8: a '*' annotation"));   // **MAX_LATENCY=12129
  EXPECT_THAT(w, HasSubstr("line 14: a '*' annotation"));  // TEN_MSEC : 0: **820
  EXPECT_THAT(w, HasSubstr("ignored 1 line(s)"));          // the note about avahi-daemon
  EXPECT_DOUBLE_EQ(m.reported.at("max"), 12129000);
  EXPECT_EQ(m.histogram.max(), 12129000u);  // the 820 samples of 10-20 ms are capped at the real max
}

TEST(NetperfParser, Seed001StreamTables) {
  struct Row {
    const char* file;
    double mbit, secs;
    const char* msg;
  } rows[] = {{"001-01.txt", 941.38, 60.03, "16384"},
              {"001-02.txt", 940.09, 300.03, "16384"},
              {"001-03.txt", 941.34, 60.03, "1024"},
              {"001-04.txt", 941.22, 60.02, "4096"}};
  for (const Row& r : rows) {
    SCOPED_TRACE(r.file);
    const measure::Measurement m = netperf_file(r.file);
    EXPECT_EQ(m.kind, "tcp_stream");
    ASSERT_TRUE(m.throughput_bps);
    EXPECT_DOUBLE_EQ(*m.throughput_bps, r.mbit * 1e6);
    EXPECT_DOUBLE_EQ(m.duration_s, r.secs);
    EXPECT_EQ(m.parameters.at("message_size"), r.msg);
    EXPECT_EQ(m.parameters.at("netperf.remote_socket_bytes"), "87380");
    EXPECT_EQ(m.histogram.count(), 0u);
    // The banner was wrapped onto two lines by the PDF it was copied from.
    EXPECT_THAT(m.parameters.at("netperf.banner"), HasSubstr("(10.228.235.163) port 0 AF_INET"));
    EXPECT_TRUE(m.warnings.empty()) << ::testing::PrintToString(m.warnings);
  }
}

TEST(NetperfParser, Seed004Tables) {
  const measure::Measurement stream = netperf_file("004-01.txt");
  EXPECT_EQ(stream.kind, "tcp_stream");
  EXPECT_DOUBLE_EQ(*stream.throughput_bps, 88.74e6);
  EXPECT_DOUBLE_EQ(stream.duration_s, 10.25);

  const measure::Measurement rr = netperf_file("004-02.txt");
  EXPECT_EQ(rr.kind, "tcp_rr");
  EXPECT_EQ(rr.metric, measure::Metric::kRoundTrip);
  EXPECT_DOUBLE_EQ(rr.reported.at("transaction_rate"), 9237.25);
  EXPECT_DOUBLE_EQ(rr.reported.at("mean"), 1e9 / 9237.25);  // one transaction in flight ("first burst 0")
  EXPECT_EQ(rr.reported.count("p99"), 0u);
  EXPECT_EQ(rr.parameters.at("message_size"), "1,1");
  EXPECT_THAT(::testing::PrintToString(rr.warnings), HasSubstr("1 / transaction rate"));

  const measure::Measurement udp = netperf_file("004-03.txt");
  EXPECT_EQ(udp.kind, "udp_stream");
  EXPECT_EQ(udp.sent, 1737u);
  EXPECT_EQ(udp.received, 1737u);
  EXPECT_EQ(udp.dropped, 0u);
  ASSERT_TRUE(udp.loss_fraction);
  EXPECT_DOUBLE_EQ(*udp.loss_fraction, 0.0);
  EXPECT_DOUBLE_EQ(*udp.throughput_bps, 90.91e6);
  EXPECT_EQ(udp.parameters.at("message_size"), "65507");
}

TEST(NetperfParser, UdpStreamLossFromTheReceiverRow) {
  const std::string text =
      "MIGRATED UDP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 198.19.210.2 () port 0 AF_INET\n"
      "Socket  Message  Elapsed      Messages\n"
      "Size    Size     Time         Okay Errors   Throughput\n"
      "bytes   bytes    secs            #      #   10^6bits/sec\n\n"
      "212992      64   10.00     2000000      0     102.40\n"
      "212992           10.00     1500000            76.80\n";
  const measure::Measurement m = parse_netperf(text_from_string("udp.txt", text));
  EXPECT_EQ(m.sent, 2000000u);
  EXPECT_EQ(m.received, 1500000u);
  EXPECT_EQ(m.dropped, 500000u);
  EXPECT_DOUBLE_EQ(*m.loss_fraction, 0.25);
  EXPECT_DOUBLE_EQ(*m.throughput_bps, 76.8e6);  // what arrived, not what was sent
}

TEST(NetperfParser, KeyValuesWithoutBannerNeedAKind) {
  const std::string text =
      "P50_LATENCY=40\nP90_LATENCY=45\nP99_LATENCY=60\nTHROUGHPUT=20000.5\nTHROUGHPUT_UNITS=Trans/s\n";
  const ParseError e = netperf_error("nobanner.txt", text);
  EXPECT_EQ(e.line(), 1);
  EXPECT_THAT(e.what(), HasSubstr("nobanner.txt:1: cannot tell which netperf test"));
  const measure::Measurement m = parse_netperf(text_from_string("nobanner.txt", text), {TestKind::kUdpRr});
  EXPECT_EQ(m.kind, "udp_rr");
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), 60000);
  EXPECT_DOUBLE_EQ(m.reported.at("transaction_rate"), 20000.5);
}

TEST(NetperfParser, OmniStreamThroughputUnitsAndLoss) {
  const std::string text =
      "MIGRATED UDP STREAM TEST from 198.19.210.1 () port 0 AF_INET to 198.19.210.2 () port 0 AF_INET\n"
      "THROUGHPUT=812.25\nTHROUGHPUT_UNITS=10^6bits/s\nELAPSED_TIME=10.00\nLOCAL_SEND_CALLS=1000\n"
      "REMOTE_RECV_CALLS=990\nP99_LATENCY=3\n";
  const measure::Measurement m = parse_netperf(text_from_string("omni.txt", text));
  EXPECT_DOUBLE_EQ(*m.throughput_bps, 812.25e6);
  EXPECT_DOUBLE_EQ(m.duration_s, 10.0);
  EXPECT_EQ(m.dropped, 10u);
  EXPECT_DOUBLE_EQ(*m.loss_fraction, 0.01);
}

TEST(NetperfParser, KindGivenMustMatchTheBanner) {
  const ParseError e =
      netperf_error("000-01.txt", test_util::fixture_text("netperf", "000-01.txt"), {TestKind::kUdpRr});
  EXPECT_EQ(e.line(), 2);
  EXPECT_THAT(e.what(), HasSubstr("this is a tcp_rr run, not the udp_rr"));
}

TEST(NetperfParser, TruncatedHistogramNamesTheLine) {
  std::string text = test_util::fixture_text("netperf", "000-01.txt");
  text = text.substr(0, text.find("TEN_MSEC"));  // cut after the UNIT_MSEC row (line 13)
  const ParseError e = netperf_error("cut.txt", text);
  EXPECT_EQ(e.line(), 13);
  EXPECT_THAT(e.what(), HasSubstr("the TEN_MSEC row is missing"));
}

/// One edit of seed run 000-01 and the error it must give, at which line.
struct Edit {
  const char* find;
  const char* replace;
  int line;
  const char* message;
};

const Edit kEdits[] = {
    {"HIST_TOTAL: 1314524", "HIST_TOTAL: 1314525", 19,
     "HIST_TOTAL is 1314525 but its buckets add up to 1314524"},
    {"87045", "87x45", 11, "TEN_USEC bucket 7 is '87x45', not a count"},
    {": 87045: 899291: 54667", ": 87045: 899291", 11, "has 9 buckets, not 10"},
    {"P99_LATENCY=136", "P99_LATENCY=lots", 5, "P99_LATENCY is 'lots', not a number"},
    {"MEAN_LATENCY=90.89", "P90_LATENCY=90.89", 6, "P90_LATENCY appears twice (first at line 4)"},
    {"HIST_TOTAL: 1314524", "TOTAL: 1314524", 19, "expected 'HIST_TOTAL: N'"},
};

TEST(NetperfParser, EditedRunsNameTheLine) {
  for (const Edit& e : kEdits) {
    SCOPED_TRACE(e.replace);
    std::string text = test_util::fixture_text("netperf", "000-01.txt");
    text.replace(text.find(e.find), std::string(e.find).size(), e.replace);
    const ParseError err = netperf_error("edited.txt", text);
    EXPECT_EQ(err.line(), e.line);
    EXPECT_THAT(err.what(), HasSubstr("edited.txt:" + std::to_string(e.line) + ": "));
    EXPECT_THAT(err.what(), HasSubstr(e.message));
  }
}

TEST(NetperfParser, BannerWithoutResultIsTruncated) {
  const std::string text = test_util::fixture_text("netperf", "000-01.txt");
  const std::string banner = text.substr(0, text.find("\nP50_LATENCY=") + 1);
  const ParseError e = netperf_error("banner.txt", banner);
  EXPECT_THAT(e.what(), HasSubstr("ends after its banner at line 2"));
}

TEST(NetperfParser, TwoRunsInOneFileAreRefused) {
  const ParseError e = netperf_error("two.txt", test_util::fixture_text("netperf", "000-01.txt") +
                                                    test_util::fixture_text("netperf", "000-02.txt"));
  EXPECT_EQ(e.line(), 21);
  EXPECT_THAT(e.what(), HasSubstr("a second netperf run starts here (the first at line 2)"));
}

TEST(NetperfParser, UnsupportedTestIsNamed) {
  const ParseError e =
      netperf_error("maerts.txt", "MIGRATED TCP MAERTS TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET\n");
  EXPECT_THAT(e.what(), HasSubstr("maerts.txt:1: netperf test 'TCP MAERTS' has no labgate kind"));
}

TEST(NetperfParser, NoNetserverIsServerUnreachable) {
  const ParseError e = netperf_error(
      "refused.txt",
      "establish control: are you sure there is a netserver listening on 198.19.210.2 at port 12865?\n"
      "establish_control could not establish the control connection from 0.0.0.0 port 0 address family "
      "AF_INET "
      "to 198.19.210.2 port 12865 address family AF_INET\n");
  EXPECT_EQ(e.kind(), ParseFailure::kServerUnreachable);
  EXPECT_EQ(e.line(), 1);
}

TEST(NetperfParser, UdpStreamWithoutReceiverRowIsTruncated) {
  std::string text = test_util::fixture_text("netperf", "004-03.txt");
  text = text.substr(0, text.rfind("4194304"));
  const ParseError e = netperf_error("udp-cut.txt", text);
  EXPECT_THAT(e.what(), HasSubstr("the receiver row"));
  EXPECT_THAT(e.what(), HasSubstr("after line 7"));
}

TEST(NetperfParser, AnsiCodesAnywhereAreIgnored) {
  std::string text = test_util::fixture_text("netperf", "000-01.txt");
  text.replace(text.find("P99_LATENCY=136"), 15, "\x1b[1mP99_\x1b[0mLATENCY=\x1b[31;1m136\x1b[0m");
  text.replace(text.find("HIST_TOTAL"), 10, "HIST_\x1b[KTOTAL");
  const measure::Measurement m = parse_netperf(text_from_string("ansi.txt", text));
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), 136000);
  EXPECT_EQ(m.histogram.count(), 1314524u);
}

TEST(NetperfParser, GarbageIsNotNetperf) {
  for (unsigned seed : {1u, 2u, 3u, 5u, 8u}) {
    std::mt19937 rng(seed);
    std::string junk(2u << 20, '\0');  // 2 MiB of binary junk: under the size limit, still refused cleanly
    for (char& c : junk) c = static_cast<char>(rng());
    const ParseError e = netperf_error("junk.bin", junk);
    EXPECT_EQ(e.line(), 1) << e.what();
    EXPECT_THAT(e.what(), HasSubstr("not netperf output"));
  }
  EXPECT_THAT(netperf_error("words.txt", "hello world\nthis is a saved chat log\n").what(),
              HasSubstr("words.txt:1: not netperf output"));
}

TEST(NetperfParser, EveryPrefixOfARunFailsCleanlyOrParses) {
  test_util::expect_every_prefix_parses_or_fails_cleanly(parse_netperf,
                                                         test_util::fixture_text("netperf", "000-04.txt"), 7);
  test_util::expect_every_prefix_parses_or_fails_cleanly(parse_netperf,
                                                         test_util::fixture_text("netperf", "004-03.txt"), 3);
}

}  // namespace
}  // namespace labgate::tools
