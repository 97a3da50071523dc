// iperf3 -J parser on real iperf3 3.12 output recorded between two lab namespaces
// (tests/fixtures/tools/record-lab.sh), plus its error JSON and broken input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "labgate/measure/figures.h"
#include "labgate/tools/parsers.h"
#include "tools/parse_test_util.h"

namespace labgate::tools {
namespace {

using profile::TestKind;
using ::testing::HasSubstr;

std::string iperf3_fixture(const std::string& name) { return test_util::fixture("iperf3", name); }

ParseError iperf3_error(const std::string& origin, const std::string& text, ParseOptions o = {}) {
  return test_util::parse_error(parse_iperf3, origin, text, o);
}

TEST(Iperf3Parser, TheIntervalsOfARecordedRunInOrderWithTheWarmUpsMarked) {
  const std::vector<RateInterval> iv =
      iperf3_intervals(test_util::fixture_text("iperf3", "iperf312-tcp.json"));  // -t 3 -O 1
  ASSERT_EQ(iv.size(), 4u);
  EXPECT_TRUE(iv[0].omitted);
  EXPECT_FALSE(iv[1].omitted);
  EXPECT_DOUBLE_EQ(iv[1].seconds, 1.0002570152282715);
  EXPECT_DOUBLE_EQ(iv[1].bits_per_second, 11164464962.489138);
  EXPECT_DOUBLE_EQ(iv[3].bits_per_second, 17077854328.934563);
  EXPECT_TRUE(iperf3_intervals("not json").empty());
  EXPECT_TRUE(iperf3_intervals("{\"error\":\"unable to connect\"}").empty());
}

TEST(Iperf3Parser, RecordedTcp) {
  const measure::Measurement m = parse_iperf3(read_tool_file(iperf3_fixture("iperf312-tcp.json")));
  EXPECT_EQ(m.source, "iperf3");
  EXPECT_EQ(m.kind, "tcp_stream");
  ASSERT_TRUE(m.throughput_bps);
  EXPECT_DOUBLE_EQ(*m.throughput_bps, 14796813994.013613);  // end.sum_received.bits_per_second
  EXPECT_DOUBLE_EQ(m.duration_s, 3.00014);
  EXPECT_DOUBLE_EQ(m.warmup_s, 1);  // -O 1
  EXPECT_DOUBLE_EQ(m.reported.at("retransmits"), 1711);
  EXPECT_EQ(m.parameters.at("iperf3.version"), "iperf 3.12");
  EXPECT_EQ(m.parameters.at("message_size"), "131072");
  EXPECT_FALSE(m.loss_fraction);
  EXPECT_EQ(m.reported.count("p99"), 0u);  // iperf3 has no per-message latency
}

TEST(Iperf3Parser, RecordedUdp) {
  const measure::Measurement m = parse_iperf3(read_tool_file(iperf3_fixture("iperf312-udp.json")));
  EXPECT_EQ(m.kind, "udp_stream");
  EXPECT_DOUBLE_EQ(*m.throughput_bps, 199734237.07146233);
  EXPECT_DOUBLE_EQ(m.reported.at("jitter"), 0.003941978832288372 * 1e6);
  EXPECT_EQ(m.sent, 73238u);
  EXPECT_EQ(m.received, 73238u);
  EXPECT_EQ(m.dropped, 0u);
  ASSERT_TRUE(m.loss_fraction);
  EXPECT_DOUBLE_EQ(*m.loss_fraction, 0.0);
  EXPECT_DOUBLE_EQ(m.duration_s, 3.00382);
  EXPECT_EQ(m.parameters.at("message_size"), "1024");
}

// Recorded on the lab's pair 1 beside eight busy loops (-t 2 -O 1 -l 64, the lab
// profile's case): the server, the receiver, says 2.0359 s, the client sent for
// 2.0000 s and its intervals cover 2.0000 s. The receiver's clock is not the one
// the intervals were timed on; held against it, this whole run read 1.8 % short
// and failed its accounting (the CI flake of stop 31).
TEST(Iperf3Parser, TheIntervalsAreHeldAgainstTheClientsOwnTimeNotTheReceivers) {
  const measure::Measurement m = parse_iperf3(read_tool_file(iperf3_fixture("iperf312-tcp-loaded.json")));
  EXPECT_DOUBLE_EQ(m.duration_s, 2.035932);  // the throughput's time: the receiver's
  ASSERT_TRUE(m.expectation);
  EXPECT_DOUBLE_EQ(m.expectation->expected, 1.999991);  // end.sum_sent.seconds
  EXPECT_THAT(m.expectation->basis, HasSubstr("the client's 2.000 s as sender"));
  const measure::JudgedFigures j = measure::judge_figures(m);
  EXPECT_TRUE(j.accounting.pass) << j.accounting.message;

  // A run that really stalled still reads short: drop the last interval.
  nlohmann::json run = nlohmann::json::parse(test_util::fixture_text("iperf3", "iperf312-tcp-loaded.json"));
  run["intervals"].erase(run["intervals"].size() - 1);
  const std::string text = run.dump(1, '\t');
  const measure::Measurement stalled = parse_iperf3(text_from_string("stalled.json", text));
  const measure::JudgedFigures s = measure::judge_figures(stalled);
  EXPECT_FALSE(s.accounting.pass) << s.accounting.message;
}

TEST(Iperf3Parser, LossFromLostPackets) {
  std::string text = test_util::fixture_text("iperf3", "iperf312-udp.json");
  // Edit end.sum (the last "lost_packets": 0 before sum_sent) to 7324 of 73238 lost.
  const std::size_t sum = text.rfind("\"sum\":");  // end.sum comes after every interval's "sum"
  text.replace(text.find("\"lost_packets\":\t0", sum), 17, "\"lost_packets\":\t7324");
  const measure::Measurement m = parse_iperf3(text_from_string("lossy.json", text));
  EXPECT_EQ(m.dropped, 7324u);
  EXPECT_EQ(m.received, 73238u - 7324u);
  EXPECT_NEAR(*m.loss_fraction, 0.1, 1e-4);
}

TEST(Iperf3Parser, ErrorJsonIsServerUnreachable) {
  try {
    parse_iperf3(read_tool_file(iperf3_fixture("iperf312-refused.json")));
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.kind(), ParseFailure::kServerUnreachable);
    EXPECT_EQ(e.line(), 10);
    EXPECT_THAT(e.what(), HasSubstr("iperf312-refused.json:10: iperf3 reported an error: unable to connect"));
  }
  const ParseError other =
      iperf3_error("e.json", "{\"start\":{},\"error\":\"the server is busy running a test\"}");
  EXPECT_EQ(other.kind(), ParseFailure::kToolFailed);
}

TEST(Iperf3Parser, TruncatedJsonNamesTheLastLine) {
  const std::string text = test_util::fixture_text("iperf3", "iperf312-tcp.json");
  const std::string cut = text.substr(0, text.size() / 2);
  const ParseError e = iperf3_error("cut.json", cut);
  const int lines = static_cast<int>(std::count(cut.begin(), cut.end(), '\n')) + 1;
  EXPECT_EQ(e.line(), lines);
  EXPECT_THAT(e.what(), HasSubstr("invalid JSON"));
}

TEST(Iperf3Parser, MissingFieldNamesPathAndEnclosingLine) {
  std::string text = test_util::fixture_text("iperf3", "iperf312-tcp.json");
  const std::size_t at = text.find("\"sum_received\"");
  text.replace(at, 14, "\"sum_elsewhere\"");
  const ParseError e = iperf3_error("edited.json", text);
  EXPECT_THAT(e.what(), HasSubstr("end.sum_received.bits_per_second is missing"));
  // Points at the top-level "end" object, not at an interval's numeric "end".
  const int end_line = [&] {
    const std::size_t p = text.find("\"end\":\t{");
    return static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(p), '\n')) + 1;
  }();
  EXPECT_EQ(e.line(), end_line);
}

TEST(Iperf3Parser, KindAndNonJson) {
  EXPECT_THAT(
      iperf3_error("k.json", test_util::fixture_text("iperf3", "iperf312-tcp.json"), {TestKind::kTcpRr})
          .what(),
      HasSubstr("this is a tcp_stream run (iperf3 measures streams), not the tcp_rr"));
  const ParseError text = iperf3_error("netperf.txt", "MIGRATED TCP STREAM TEST from ...\n");
  EXPECT_EQ(text.line(), 1);
  EXPECT_THAT(text.what(), HasSubstr("not iperf3 -J output nor its text log"));
  EXPECT_THAT(iperf3_error("arr.json", "[1,2,3]").what(), HasSubstr("no top-level \"start\" object"));
  std::string junk(1u << 20, '\x01');
  EXPECT_THAT(iperf3_error("junk.bin", junk).what(), HasSubstr("junk.bin:1: not iperf3 -J output"));
}

TEST(Iperf3Parser, EveryPrefixFailsCleanly) {
  test_util::expect_every_prefix_parses_or_fails_cleanly(
      parse_iperf3, test_util::fixture_text("iperf3", "iperf312-udp.json"), 11);
}

TEST(Iperf3Parser, WrongTypesAreRefusedNotCrashed) {
  std::string text = test_util::fixture_text("iperf3", "iperf312-udp.json");
  const std::size_t sum = text.rfind("\"sum\":");  // end.sum comes after every interval's "sum"
  text.replace(text.find("\"packets\":\t73238", sum), 16, "\"packets\":\t\"many\"");
  EXPECT_THAT(iperf3_error("types.json", text).what(),
              HasSubstr("end.sum.packets is missing or not a number"));
}

}  // namespace
}  // namespace labgate::tools
