// Real sfnt-pingpong output (ci/sfnt-pingpong's build of sfnettest), recorded
// between the namespaces of lab pair 21 by tests/fixtures/tools/record-sfnt.sh:
// each figure is checked against the row the tool printed, as round trips (its
// default 1/2 RTT doubled, --rtt as printed); a sweep of sizes, a run that could
// not reach its server and output that does not say RTT or 1/2 RTT are refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "labgate/tools/parsers.h"
#include "parse_test_util.h"

namespace labgate::tools {
namespace {

using ::testing::HasSubstr;

std::string path(const std::string& name) { return test_util::fixture("sfnt", name); }
measure::Measurement sfnt_file(const std::string& name, ParseOptions o = {}) {
  return parse_sfnt_pingpong(read_tool_file(path(name)), o);
}
ParseError sfnt_error(const std::string& text, ParseOptions o = {}) {
  return test_util::parse_error(parse_sfnt_pingpong, "sfnt.txt", text, o);
}

/// The tool's own lines, read here without the parser: its "# reporting:" line
/// and the row of its table (size mean min median max %ile stddev iter).
struct SfntPrinted {
  bool half = false;
  std::vector<double> row;
};
SfntPrinted printed(const std::string& name) {
  std::ifstream in(path(name));
  SfntPrinted p;
  std::string line;
  while (std::getline(in, line)) {
    if (line == "# reporting: 1/2 RTT") p.half = true;
    if (line.size() > 1 && line[0] == '\t' && std::isdigit(static_cast<unsigned char>(line[1]))) {
      std::istringstream cells(line);
      p.row.clear();
      for (double v; cells >> v;) p.row.push_back(v);
    }
  }
  return p;
}

class SfntRecorded : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(SfntRecorded, FiguresAreItsOwnRowAsRoundTrips) {
  const auto [file, kind] = GetParam();
  const SfntPrinted p = printed(file);
  ASSERT_EQ(p.row.size(), 8u) << file;
  const measure::Measurement m = sfnt_file(file);
  const double f = p.half ? 2 : 1;
  EXPECT_EQ(m.source, "sfnt-pingpong");
  EXPECT_EQ(m.kind, kind);
  EXPECT_EQ(m.metric, measure::Metric::kRoundTrip);
  EXPECT_EQ(m.parameters.at("message_size"), std::to_string(static_cast<int>(p.row[0])));
  EXPECT_EQ(m.reported.at("mean"), p.row[1] * f);
  EXPECT_EQ(m.reported.at("min"), p.row[2] * f);
  EXPECT_EQ(m.reported.at("p50"), p.row[3] * f);
  EXPECT_EQ(m.reported.at("max"), p.row[4] * f);
  EXPECT_EQ(m.reported.at("p99"), p.row[5] * f);
  EXPECT_EQ(m.reported.at("stddev"), p.row[6] * f);
  EXPECT_EQ(m.parameters.at("sfnt.iterations"), std::to_string(static_cast<long>(p.row[7])));
  EXPECT_THAT(m.parameters.at("latency_normalised"), HasSubstr(p.half ? "doubled" : "--rtt"));
  EXPECT_EQ(m.parameters.at("sfnt.version"), "no-version-modified");
  EXPECT_EQ(detect_tool(read_tool_file(path(file))), profile::Tool::kSfntPingpong);
  // It ran until its --maxms (1000 ms here) had passed: the loop is accounted for.
  ASSERT_TRUE(m.expectation.has_value()) << file;
  EXPECT_EQ(m.duration_s, 1.0);
  EXPECT_EQ(m.expectation->held, p.row[7]);
  EXPECT_NEAR(m.expectation->expected, 1e9 / (p.row[1] * f), 1);
}

INSTANTIATE_TEST_SUITE_P(Lab, SfntRecorded,
                         ::testing::Values(std::make_pair("udp-half.txt", "udp_rr"),
                                           std::make_pair("udp-rtt.txt", "udp_rr"),
                                           std::make_pair("tcp-half.txt", "tcp_rr"),
                                           std::make_pair("tcp-rtt.txt", "tcp_rr"),
                                           std::make_pair("udp-driver.txt", "udp_rr"),
                                           std::make_pair("udp-rtt-ipv6.txt", "udp_rr")),
                         [](const auto& info) {  // the file's name: stable CTest names
                           std::string n = info.param.first;
                           n = n.substr(0, n.find('.'));
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(SfntParser, HalfRttIsDoubledAndSaidSo) {
  const measure::Measurement m = sfnt_file("udp-half.txt");
  EXPECT_THAT(m.parameters.at("latency_normalised"), HasSubstr("reported 1/2 RTT"));
  EXPECT_THAT(m.parameters.at("sfnt.cmdline"), HasSubstr("--sizes 64"));
}

TEST(SfntParser, ItsStderrAfterTheTableIsNotARow) {
  // As labgate's driver reads a run: stdout, then stderr.
  const std::string text = read_tool_file(path("udp-rtt.txt")).raw +
                           "sfnt-pingpong: client: waiting for server to start\nsh: 1: lspci: not found\n";
  const measure::Measurement m = parse_sfnt_pingpong(text_from_string("run", text));
  EXPECT_EQ(m.reported.at("p50"), printed("udp-rtt.txt").row[3]);
  EXPECT_THAT(sfnt_error(text + "12 34\n").reason(), HasSubstr("not a row of its table"));
}

TEST(SfntParser, ASweepOfSizesIsRefusedNamingThem) {
  const std::string text = read_tool_file(path("udp-sizes.txt")).raw;
  const ParseError e = sfnt_error(text);
  EXPECT_THAT(e.reason(), HasSubstr("3 message sizes (1, 64, 1024)"));
  EXPECT_THAT(e.reason(), HasSubstr("--sizes N"));
}

TEST(SfntParser, NoServerIsItsOwnErrorQuoted) {
  const ParseError e = sfnt_error(read_tool_file(path("refused.txt")).raw);
  EXPECT_EQ(e.kind(), ParseFailure::kServerUnreachable);
  EXPECT_THAT(e.reason(), HasSubstr("Connection refused"));
}

TEST(SfntParser, TheKindAskedForMustBeTheRunsOwn) {
  const std::string text = read_tool_file(path("tcp-rtt.txt")).raw;
  EXPECT_THAT(sfnt_error(text, ParseOptions{profile::TestKind::kUdpRr}).reason(),
              HasSubstr("this is a tcp_rr run, not the udp_rr"));
}

// Synthetic damage to a real file: each refusal names its line.
std::string edited(const std::string& from, const std::string& to) {
  std::string text = read_tool_file(path("udp-rtt.txt")).raw;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(SfntParser, OutputThatDoesNotSayRttOrHalfIsRefused) {
  EXPECT_THAT(sfnt_error(edited("# reporting: RTT\n", "")).reason(),
              HasSubstr("does not say RTT or 1/2 RTT"));
  EXPECT_THAT(sfnt_error(edited("# reporting: RTT", "# reporting: one-way")).reason(),
              HasSubstr("neither RTT nor 1/2 RTT"));
}

TEST(SfntParser, AnotherTableOrAnInconsistentRowIsRefused) {
  EXPECT_THAT(sfnt_error(edited("\tstddev\titer", "\tp999\titer")).reason(), HasSubstr("column 7 is 'p999'"));
  const SfntPrinted p = printed("udp-rtt.txt");
  std::ostringstream row;  // the max below the min
  row << "\t64\t" << p.row[1] << "\t" << p.row[2] << "\t" << p.row[3] << "\t1\t" << p.row[5] << "\t"
      << p.row[6] << "\t" << p.row[7];
  const std::string text = read_tool_file(path("udp-rtt.txt")).raw;
  const auto at = text.rfind("\n\t64\t");
  ASSERT_NE(at, std::string::npos);
  const ParseError e = sfnt_error(text.substr(0, at + 1) + row.str() + "\n");
  EXPECT_THAT(e.reason(), HasSubstr("does not hold"));
  EXPECT_GT(e.line(), 0);
}

TEST(SfntParser, LocalIpcRunsAreNotTheNetwork) {
  EXPECT_THAT(sfnt_error(edited(" udp 198.", " pipe 198.")).reason(),
              HasSubstr("pipe measures a local IPC path"));
}

TEST(SfntParser, TruncatedOutputFailsCleanly) {
  const std::string text = read_tool_file(path("udp-rtt.txt")).raw;
  EXPECT_THAT(sfnt_error(text.substr(0, text.rfind("#\tsize"))).reason(), HasSubstr("ends before its table"));
  test_util::expect_every_prefix_parses_or_fails_cleanly(parse_sfnt_pingpong, text, 7);
}

}  // namespace
}  // namespace labgate::tools
