// sockperf parser on seed 000's sockperf 2.5 runs and on real Debian sockperf 3.7
// output recorded between two lab namespaces (tests/fixtures/tools/record-lab.sh).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>

#include "labgate/tools/parsers.h"
#include "tools/parse_test_util.h"

namespace labgate::tools {
namespace {

using profile::TestKind;
using ::testing::HasSubstr;

measure::Measurement sockperf_file(const std::string& name, ParseOptions o = {}) {
  return parse_sockperf(read_tool_file(test_util::fixture("sockperf", name)), o);
}

ParseError sockperf_error(const std::string& origin, const std::string& text, ParseOptions o = {}) {
  return test_util::parse_error(parse_sockperf, origin, text, o);
}

using test_util::rtt;

TEST(SockperfParser, Seed000Udp25IsDoubledToRoundTrip) {
  const measure::Measurement m = sockperf_file("000-02-udp.txt");
  EXPECT_EQ(m.source, "sockperf");
  EXPECT_EQ(m.kind, "udp_rr");
  EXPECT_EQ(m.metric, measure::Metric::kRoundTrip);
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), 76990);  // avg-lat= 38.495 is half of a 76.99 us round trip
  EXPECT_DOUBLE_EQ(m.reported.at("stddev"), rtt(4.702, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("max"), rtt(222.409, 2));  // "---> observation" before the percentiles
  EXPECT_DOUBLE_EQ(m.reported.at("p99_99"), rtt(213.332, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("p99_9"), rtt(127.006, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("p99_5"), rtt(40.519, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), rtt(40.098, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("p95"), rtt(39.263, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("p90"), rtt(38.966, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("p75"), rtt(38.707, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("p50"), rtt(38.378, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("p25"), rtt(37.964, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("min"), rtt(35.897, 2));  // the plain observation after them
  EXPECT_EQ(m.sent, 1556913u);
  EXPECT_EQ(m.received, 1556913u);
  EXPECT_EQ(m.dropped, 0u);
  EXPECT_DOUBLE_EQ(m.duration_s, 120.0);
  EXPECT_EQ(m.cooldown_s, 0) << "2.5 prints no warm-up: its 0.1 s outside the valid duration is not named";
  EXPECT_EQ(m.parameters.at("sockperf.version"), "2.5.208");
  EXPECT_EQ(m.parameters.at("sockperf.observations"), "1556913");
  EXPECT_THAT(m.parameters.at("latency_normalised"), HasSubstr("doubled"));
  EXPECT_EQ(m.histogram.count(), 0u);
}

TEST(SockperfParser, Seed000Tcp25) {
  const measure::Measurement m = sockperf_file("000-03-tcp.txt");
  EXPECT_EQ(m.kind, "tcp_rr");
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), rtt(41.461, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("max"), rtt(1263.113, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), rtt(58.586, 2));
  EXPECT_DOUBLE_EQ(m.reported.at("min"), rtt(37.283, 2));
  EXPECT_EQ(m.sent, 1445686u);
}

TEST(SockperfParser, Seed000UsageTextIsAToolFailure) {
  try {
    sockperf_file("000-01-usage.txt");
    FAIL() << "usage text parsed";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.kind(), ParseFailure::kToolFailed);
    EXPECT_EQ(e.line(), 4);
    EXPECT_THAT(e.what(), HasSubstr("000-01-usage.txt:4: sockperf printed its usage text"));
  }
}

struct Recorded {
  const char* file;
  const char* kind;
  bool full_rtt;
  double avg, sd, max, p99_999, p99_99, p99_9, p99, p90, p50, min;
  std::uint64_t sent;
};

// The values printed in the recorded files (microseconds as sockperf wrote them).
const Recorded kRecorded[] = {
    {"sockperf37-udp-lat.txt", "udp_rr", false, 25.844, 12.922, 1495.222, 1495.222, 532.865, 81.295, 39.193,
     30.134, 26.043, 6.284, 49310},
    {"sockperf37-udp-rtt.txt", "udp_rr", true, 13.358, 29.262, 6772.738, 3567.897, 997.044, 50.644, 14.581,
     13.419, 12.678, 12.438, 190577},
    {"sockperf37-tcp-lat.txt", "tcp_rr", false, 17.645, 14.252, 1461.969, 996.949, 461.690, 56.448, 41.746,
     29.503, 7.581, 6.775, 72208},
    {"sockperf37-tcp-rtt.txt", "tcp_rr", true, 22.000, 22.471, 2936.057, 2835.458, 361.576, 90.404, 68.111,
     53.579, 13.950, 13.610, 115765},
};

class Sockperf37 : public ::testing::TestWithParam<Recorded> {};

TEST_P(Sockperf37, RoundTripWhateverTheFlag) {
  const Recorded& r = GetParam();
  const measure::Measurement m = sockperf_file(r.file);
  const double f = r.full_rtt ? 1 : 2;
  EXPECT_EQ(m.kind, r.kind);
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), rtt(r.avg, f));
  EXPECT_DOUBLE_EQ(m.reported.at("stddev"), rtt(r.sd, f));
  EXPECT_DOUBLE_EQ(m.reported.at("max"), rtt(r.max, f));
  EXPECT_DOUBLE_EQ(m.reported.at("p99_999"), rtt(r.p99_999, f));
  EXPECT_DOUBLE_EQ(m.reported.at("p99_99"), rtt(r.p99_99, f));
  EXPECT_DOUBLE_EQ(m.reported.at("p99_9"), rtt(r.p99_9, f));
  EXPECT_DOUBLE_EQ(m.reported.at("p99"), rtt(r.p99, f));
  EXPECT_DOUBLE_EQ(m.reported.at("p90"), rtt(r.p90, f));
  EXPECT_DOUBLE_EQ(m.reported.at("p50"), rtt(r.p50, f));
  EXPECT_DOUBLE_EQ(m.reported.at("min"), rtt(r.min, f));
  EXPECT_EQ(m.sent, r.sent);
  EXPECT_EQ(m.received, r.sent);
  EXPECT_DOUBLE_EQ(m.duration_s, 2.55);
  EXPECT_DOUBLE_EQ(m.warmup_s, 0.4);  // "Warm up time=400 msec"
  EXPECT_NEAR(m.cooldown_s, 0.05, 1e-9);  // RunTime 3.000 = 0.400 warm-up + 2.550 valid + the cool-down
  EXPECT_EQ(m.parameters.at("sockperf.version"), "3.7-no.git");
  EXPECT_THAT(m.parameters.at("latency_normalised"), HasSubstr(r.full_rtt ? "--full-rtt" : "doubled"));
}

INSTANTIATE_TEST_SUITE_P(Recorded, Sockperf37, ::testing::ValuesIn(kRecorded), [](const auto& info) {
  std::string n = info.param.file + 10;  // after "sockperf37"
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

TEST(SockperfParser, RefusedAndSilentServersAreUnreachable) {
  for (const char* f : {"sockperf37-tcp-refused.txt", "sockperf37-udp-noserver.txt"}) {
    SCOPED_TRACE(f);
    try {
      sockperf_file(f);
      FAIL();
    } catch (const ParseError& e) {
      EXPECT_EQ(e.kind(), ParseFailure::kServerUnreachable);
      EXPECT_THAT(e.what(), HasSubstr("sockperf reported a failure"));
    }
  }
  try {
    sockperf_file("sockperf37-tcp-refused.txt");
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_THAT(e.what(), HasSubstr("Connection refused"));
  }
}

TEST(SockperfParser, ColourCodesThatLostTheirEscapeAreStripped) {
  std::string text = test_util::fixture_text("sockperf", "sockperf37-udp-rtt.txt");
  std::string no_esc;
  for (char c : text)
    if (c != '\x1b') no_esc += c;  // as pasted from a terminal that dropped ESC
  const measure::Measurement m = parse_sockperf(text_from_string("paste.txt", no_esc));
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), 13358);
  EXPECT_EQ(m.parameters.at("sockperf.observations"), "190577");
}

TEST(SockperfParser, AnsiCodesInOddPlaces) {
  std::string text = test_util::fixture_text("sockperf", "000-02-udp.txt");
  text.replace(text.find("avg-lat= 38.495"), 15, "avg-\x1b[1mlat=\x1b[0m 38\x1b[m.495");
  text.replace(text.find("# UDP"), 5, "# \x1b[32mUDP\x1b[0m");
  const measure::Measurement m = parse_sockperf(text_from_string("ansi.txt", text));
  EXPECT_DOUBLE_EQ(m.reported.at("mean"), 76990);
  EXPECT_EQ(m.kind, "udp_rr");
}

TEST(SockperfParser, TruncatedRunsNameTheEnd) {
  const std::string text = test_util::fixture_text("sockperf", "sockperf37-tcp-lat.txt");
  const ParseError before_avg = sockperf_error("cut1.txt", text.substr(0, text.find("====> avg")));
  EXPECT_THAT(before_avg.what(), HasSubstr("has no '====> avg-' summary (truncated or failed run?)"));
  const ParseError before_pct = sockperf_error("cut2.txt", text.substr(0, text.find("Total 72208")));
  EXPECT_THAT(before_pct.what(), HasSubstr("ends before its percentile block"));
}

TEST(SockperfParser, KindMustMatch) {
  const ParseError e = sockperf_error("k.txt", test_util::fixture_text("sockperf", "sockperf37-tcp-rtt.txt"),
                                      {TestKind::kUdpRr});
  EXPECT_THAT(e.what(), HasSubstr("this is a tcp_rr run, not the udp_rr"));
}

TEST(SockperfParser, GarbageAndOtherToolsAreRefused) {
  EXPECT_THAT(sockperf_error("x.txt", "P99_LATENCY=136\n").what(),
              HasSubstr("x.txt:1: not sockperf ping-pong output"));
  std::string junk(2u << 20, 'Z');
  EXPECT_THAT(sockperf_error("junk.txt", junk).what(), HasSubstr("not sockperf ping-pong output"));
  EXPECT_THAT(sockperf_error("bad.txt", "sockperf: ====> avg-lat= fast (std-dev=1)\n").what(),
              HasSubstr("bad.txt:1: sockperf: cannot read the average"));
}

TEST(SockperfParser, EveryPrefixFailsCleanlyOrParses) {
  test_util::expect_every_prefix_parses_or_fails_cleanly(
      parse_sockperf, test_util::fixture_text("sockperf", "sockperf37-udp-lat.txt"), 5);
  test_util::expect_every_prefix_parses_or_fails_cleanly(
      parse_sockperf, test_util::fixture_text("sockperf", "000-02-udp.txt"), 5);
}

}  // namespace
}  // namespace labgate::tools
