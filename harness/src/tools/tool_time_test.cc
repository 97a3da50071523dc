// An external tool's start-up and wrap-up, from a real sockperf 3.7 run's lines
// timed as they arrived (tests/fixtures/tools/record-timed.sh), and the driver
// that times them and waits for the server's own readiness line.
#include "labgate/tools/tool_time.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "labgate/tools/parsers.h"
#include "labgate/tools/tool_driver.h"
#include "labgate/transport/fake_transport.h"

namespace labgate::tools {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using transport::FakeTransport;

/// "<seconds>\t<line>" per line, as record-timed.sh wrote them.
std::vector<TimedLine> timed_fixture() {
  std::ifstream in(std::string(LABGATE_SOURCE_DIR) +
                   "/tests/fixtures/tools/sockperf/sockperf37-udp-rtt-timed.txt");
  std::vector<TimedLine> lines;
  for (std::string l; std::getline(in, l);) {
    const auto tab = l.find('\t');
    const double s = std::stod(l.substr(0, tab));
    lines.push_back({std::chrono::nanoseconds(std::llround(s * 1e9)), l.substr(tab + 1)});
  }
  return lines;
}

std::string text_of(const std::vector<TimedLine>& lines) {
  std::string t;
  for (const auto& l : lines) t += l.text + "\n";
  return t;
}

measure::Measurement parsed(const std::vector<TimedLine>& lines) {
  return parse_tool_output(profile::Tool::kSockperf, text_from_string("timed.txt", text_of(lines)),
                           ParseOptions{profile::TestKind::kUdpRr, std::nullopt});
}

TEST(ToolTime, SockperfsStartUpAndWrapUpFromItsOwnLines) {
  const auto lines = timed_fixture();
  ASSERT_GT(lines.size(), 20u);
  measure::Measurement m = parsed(lines);
  account_tool_time(profile::Tool::kSockperf, lines, m);
  ASSERT_TRUE(m.tool_time);
  // First line at 0.121 s, "Starting test..." at 2.122 s: its fixed 2-s pause.
  EXPECT_NEAR(m.tool_time->startup_s, 2.001, 1e-9);
  // "Test end" at 3.122 s, the last percentile line at 3.233 s.
  EXPECT_NEAR(m.tool_time->wrapup_s, lines.back().at.count() / 1e9 - 3.122, 1e-9);
  EXPECT_GT(m.tool_time->wrapup_s, 0.1) << "its 0.1-s wait for late replies is in the wrap-up";
  EXPECT_THAT(m.tool_time->basis, HasSubstr("fixed 2-s pause"));
  EXPECT_THAT(m.parameters.at("tool_time"), HasSubstr("2.001 s start-up"));
  // Its run: 1.000 s = 0.400 warm-up + 0.551 valid + the cool-down (its own figures).
  EXPECT_DOUBLE_EQ(m.warmup_s, 0.4);
  EXPECT_DOUBLE_EQ(m.duration_s, 0.551);
  EXPECT_NEAR(m.cooldown_s, 0.049, 1e-9);
}

TEST(ToolTime, NothingIsClaimedWithoutTheToolsMarkers) {
  auto lines = timed_fixture();
  std::erase_if(lines, [](const TimedLine& l) { return l.text.find("Starting test") != std::string::npos; });
  measure::Measurement m = parsed(lines);
  account_tool_time(profile::Tool::kSockperf, lines, m);
  EXPECT_FALSE(m.tool_time) << "no start of its run, so no start-up";
  EXPECT_FALSE(m.parameters.count("tool_time"));
  // iperf3 -J prints everything at its end: nothing to time.
  measure::Measurement i;
  account_tool_time(profile::Tool::kIperf3, timed_fixture(), i);
  EXPECT_FALSE(i.tool_time);
}

TEST(ToolTime, TheDriverTimesTheClientsLinesAndTakesTheServersWord) {
  const auto lines = timed_fixture();
  FakeTransport a("a"), b("b");
  // No /proc/net answer is scripted: a driver that polled instead of reading the
  // server's "using recvfrom() to block on socket(s)" would fail here.
  b.on({"sockperf", "sr"},
       FakeTransport::ok("sockperf: [SERVER] listen on:\n[ 0] IP = 198.19.210.2     PORT = "
                         "41000 # UDP\nsockperf: [tid 77] using recvfrom() to block on "
                         "socket(s)\n"));
  a.on({"sockperf", "pp"}, FakeTransport::ok(text_of(lines)));
  profile::TestSpec s;
  s.name = "drv";
  s.tool = profile::Tool::kSockperf;
  s.kind = profile::TestKind::kUdpRr;
  s.duration = 1s;
  s.message_size = 64;
  DriverOptions o;
  std::size_t next = 0;  // each line arrives at its recorded time
  o.clock = [&] { return lines.at(std::min(next++, lines.size() - 1)).at; };
  const ToolRun run = run_tool_test(s, a, b, Endpoint{"198.19.210.2", "198.19.210.1", 41000}, o);
  EXPECT_EQ(next, lines.size()) << "one clock reading per stdout line";
  ASSERT_TRUE(run.measurement.tool_time);
  EXPECT_NEAR(run.measurement.tool_time->startup_s, 2.001, 1e-9);
  EXPECT_EQ(b.calls().size(), 1u) << "the server's start only: no readiness poll";
  EXPECT_EQ(b.stopped(), 1);
}

}  // namespace
}  // namespace labgate::tools
