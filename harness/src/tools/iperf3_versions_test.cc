// Real iperf3 3.12 (Debian's) and 3.21 (ci/iperf3) output, recorded between the
// namespaces of lab pair 17 by tests/fixtures/tools/record-versions.sh: -J and
// the text log, -R filed as the server's send, --bidir as two flows, -P 2
// summed, UDP; a figure iperf3 did not give stays absent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/measure/figures.h"
#include "labgate/tools/parsers.h"
#include "parse_test_util.h"

namespace labgate::tools {
namespace {

using ::testing::HasSubstr;

std::vector<measure::Measurement> flows(const std::string& name) {
  return parse_iperf3_runs(read_tool_file(test_util::fixture("iperf3", name)));
}
measure::Measurement one(const std::string& name) {
  auto f = flows(name);
  EXPECT_EQ(f.size(), 1u) << name;
  return f.at(0);
}
bool has(const measure::Measurement& m, const char* key) { return m.parameters.count(key) > 0; }

TEST(Iperf3Versions, ForwardJsonIsTheClientsSendWithItsOwnSrtt) {
  const measure::Measurement m = one("iperf321-tcp-j.json");
  EXPECT_EQ(m.parameters.at("iperf3.version"), "iperf 3.21");
  EXPECT_EQ(m.parameters.at(kDirectionKey), kSentByClient);
  EXPECT_FALSE(sent_by_server(m));
  EXPECT_DOUBLE_EQ(*m.throughput_bps, 8105621105.171903);  // end.sum_received
  EXPECT_DOUBLE_EQ(m.reported.at("retransmits"), 8);
  EXPECT_EQ(m.parameters.at("iperf3.tcp_srtt_mean_us"), "109");
  EXPECT_TRUE(measure::judge_figures(m).accounting.pass);
}

TEST(Iperf3Versions, ReverseIsTheServersSendAndHasNoSrtt) {
  struct Case {
    const char* file;
    double bps, retransmits;
  };
  for (const Case& c :
       {Case{"iperf321-tcp-reverse.json", 7907728403.74836, 19},
        Case{"iperf312-tcp-reverse.json", 7102606211.56488, 7}, Case{"iperf321-tcp-reverse.txt", 6.32e9, 5},
        Case{"iperf312-tcp-reverse.txt", 9.13e9, 5}}) {
    SCOPED_TRACE(c.file);
    const measure::Measurement m = one(c.file);
    EXPECT_TRUE(sent_by_server(m));
    EXPECT_EQ(m.parameters.at(kDirectionKey), kSentByServer);
    // iperf3 prints mean_rtt 0 for the client's receiving socket: not a figure.
    EXPECT_FALSE(has(m, "iperf3.tcp_srtt_mean_us"));
    EXPECT_DOUBLE_EQ(*m.throughput_bps, c.bps);
    EXPECT_DOUBLE_EQ(m.reported.at("retransmits"), c.retransmits);
  }
}

TEST(Iperf3Versions, BidirIsTwoFlowsNothingDropped) {
  struct Case {
    const char* file;
    double forward, reverse;
  };
  for (const Case& c :
       {Case{"iperf312-tcp-bidir.json", 4020117671.863376, 3835014977.503908},
        Case{"iperf321-tcp-bidir.json", 6886912252.199864, 5607697243.462352},
        Case{"iperf321-tcp-bidir.txt", 3.93e9, 3.47e9}, Case{"iperf312-tcp-bidir.txt", 4.52e9, 4.66e9}}) {
    SCOPED_TRACE(c.file);
    const auto f = flows(c.file);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_FALSE(sent_by_server(f[0]));
    EXPECT_TRUE(sent_by_server(f[1]));
    EXPECT_DOUBLE_EQ(*f[0].throughput_bps, c.forward);
    EXPECT_DOUBLE_EQ(*f[1].throughput_bps, c.reverse);
    EXPECT_FALSE(has(f[1], "iperf3.tcp_srtt_mean_us")) << "the client only received on the return flow";
    for (const auto& m : f) {
      EXPECT_THAT(m.parameters.at("iperf3.bidir"), HasSubstr("each recorded as its own pair"));
      EXPECT_TRUE(measure::judge_figures(m).accounting.pass) << measure::judge_figures(m).accounting.message;
    }
    // The one-measurement reader says why it cannot give one.
    EXPECT_THAT(
        test_util::parse_error(parse_iperf3, c.file, test_util::fixture_text("iperf3", c.file)).what(),
        HasSubstr("--bidir output holds 2 directions"));
  }
  EXPECT_EQ(flows("iperf321-tcp-bidir.json")[0].parameters.at("iperf3.tcp_srtt_mean_us"), "567");
}

// Recorded on lab pair 22 beside busy loops (-t 2 -O 1 -l 64 --bidir): iperf3
// summarises both directions with the client's first stream, its sender, so the
// return flow's "receiver" seconds (2.0357) are the server's, not the client's
// that timed its intervals (2.0000). Held against them, the return flow read
// 1.75 % short and failed (6 of 12 such runs of 3.12 did); both flows are held
// against the client's own 1.99995 s.
TEST(Iperf3Versions, BidirReturnFlowIsHeldAgainstTheClientsOwnTime) {
  const auto f = flows("iperf312-tcp-bidir-loaded.json");
  ASSERT_EQ(f.size(), 2u);
  for (const auto& m : f) {
    ASSERT_TRUE(m.expectation);
    EXPECT_DOUBLE_EQ(m.expectation->expected, 1.999951);  // end.sum_sent(_bidir_reverse).seconds
    EXPECT_THAT(m.expectation->basis, HasSubstr("the client's 2.000 s as sender"));
    const measure::JudgedFigures j = measure::judge_figures(m);
    EXPECT_TRUE(j.accounting.pass) << j.accounting.message;
  }
  EXPECT_DOUBLE_EQ(f[1].duration_s, 2.035666);  // its throughput's time stays iperf3's receiver's
}

TEST(Iperf3Versions, ParallelStreamsAreSummed) {
  const measure::Measurement j = one("iperf321-tcp-p2.json");
  EXPECT_DOUBLE_EQ(*j.throughput_bps, 13427350226.199205);
  EXPECT_EQ(j.parameters.at("iperf3.num_streams"), "2");
  EXPECT_EQ(j.parameters.at("iperf3.tcp_srtt_mean_us"), "161");  // (167 + 156) / 2, both sending sockets
  const measure::Measurement t = one("iperf312-tcp-p2.txt");
  EXPECT_DOUBLE_EQ(*t.throughput_bps, 8.60e9);  // [SUM] receiver
  EXPECT_DOUBLE_EQ(t.reported.at("retransmits"), 6);
  EXPECT_EQ(t.parameters.at("iperf3.num_streams"), "2");
  EXPECT_TRUE(measure::judge_figures(t).accounting.pass);
}

TEST(Iperf3Versions, TextLogIsReadAsPrinted) {
  const measure::Measurement m = one("iperf321-tcp.txt");
  EXPECT_EQ(m.kind, "tcp_stream");
  EXPECT_DOUBLE_EQ(*m.throughput_bps, 6.40e9);
  EXPECT_DOUBLE_EQ(m.duration_s, 2.01);
  EXPECT_DOUBLE_EQ(m.reported.at("retransmits"), 8);
  EXPECT_THAT(m.parameters.at("iperf3.read_from"), HasSubstr("3 significant figures"));
  EXPECT_FALSE(has(m, "iperf3.version"));
  EXPECT_FALSE(has(m, "iperf3.tcp_srtt_mean_us")) << "a text log holds no RTT: absent, not 0";
  const measure::JudgedFigures j = measure::judge_figures(m);
  EXPECT_TRUE(j.accounting.checked);
  EXPECT_TRUE(j.accounting.pass) << j.accounting.message;
  EXPECT_EQ(detect_tool(read_tool_file(test_util::fixture("iperf3", "iperf321-tcp.txt"))),
            profile::Tool::kIperf3);
}

TEST(Iperf3Versions, UdpTextAndJson) {
  const measure::Measurement t = one("iperf312-udp.txt");
  EXPECT_EQ(t.kind, "udp_stream");
  EXPECT_DOUBLE_EQ(*t.throughput_bps, 99.7e6);
  EXPECT_EQ(t.sent, 24405u);
  EXPECT_EQ(t.dropped, 70u);
  EXPECT_DOUBLE_EQ(*t.loss_fraction, 70.0 / 24405);
  EXPECT_DOUBLE_EQ(t.reported.at("jitter"), 0.006e6);
  const measure::Measurement r = one("iperf321-udp-reverse.json");
  EXPECT_TRUE(sent_by_server(r));
  EXPECT_EQ(r.sent, 24417u);
  EXPECT_DOUBLE_EQ(r.reported.at("jitter"), 0.0054033726721066915e6);
  EXPECT_EQ(one("iperf321-udp-j.json").kind, "udp_stream");
}

TEST(Iperf3Versions, AVersionLabgateHasNotReadIsRefusedByName) {
  for (const char* v : {"iperf 3.22", "iperf 4.0"}) {
    std::string text = test_util::fixture_text("iperf3", "iperf321-tcp-j.json");
    text.replace(text.find("iperf 3.21"), 10, v);
    const ParseError e = test_util::parse_error(parse_iperf3, "v.json", text);
    EXPECT_THAT(e.what(), HasSubstr(std::string("iperf3 '") + v + "' is a version labgate has not read"));
  }
}

TEST(Iperf3Versions, BrokenTextLogsNameTheirLine) {
  std::string text = test_util::fixture_text("iperf3", "iperf321-tcp.txt");
  const ParseError cut = test_util::parse_error(parse_iperf3, "cut.txt", text.substr(0, text.find("- - -")));
  EXPECT_THAT(cut.what(), HasSubstr("has no final summary (truncated or failed run?)"));
  const ParseError refused = test_util::parse_error(
      parse_iperf3, "r.txt",
      "Connecting to host 198.19.17.2, port 5209\niperf3: error - unable to connect to server\n");
  EXPECT_EQ(refused.kind(), ParseFailure::kServerUnreachable);
  EXPECT_EQ(refused.line(), 2);
  std::string bytes = text;
  bytes.replace(bytes.find("6.40 Gbits/sec"), 14, "800 MBytes/sec");
  EXPECT_THAT(test_util::parse_error(parse_iperf3, "b.txt", bytes).what(),
              HasSubstr("labgate reads bits/sec"));
  test_util::expect_every_prefix_parses_or_fails_cleanly(
      parse_iperf3, test_util::fixture_text("iperf3", "iperf312-tcp-bidir.txt"), 9);
}

}  // namespace
}  // namespace labgate::tools
