// The exact command lines labgate gives netperf, sockperf and iperf3, and the
// tests a tool cannot run refused with the test's name and position.
#include "labgate/tools/tool_commands.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "tools/parse_test_util.h"

namespace labgate::tools {
namespace {

using namespace std::chrono_literals;
using profile::TestKind;
using profile::Tool;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

using Argv = std::vector<std::string>;

profile::TestSpec command_spec(Tool tool, TestKind kind) {
  profile::TestSpec s;
  s.name = "t1";
  s.tool = tool;
  s.kind = kind;
  s.duration = 120s;
  s.warmup = 2s;
  s.message_size = 64;
  s.pos = {"lab.toml", 40, 1};
  return s;
}

std::string all(const std::vector<std::string>& v) { return ::testing::PrintToString(v); }

TEST(ToolCommands, NetperfTcpRrAsTheSeedRanItWithKeysAndBinding) {
  auto s = command_spec(Tool::kNetperf, TestKind::kTcpRr);
  s.cpu = {2, 2};
  const ToolInvocation inv = build_invocation(s, test_util::kPairEndpoint);
  EXPECT_EQ(inv.server_argv, (Argv{"netserver", "-D", "-f", "-4", "-L", "198.19.210.2", "-p", "41000"}));
  EXPECT_EQ(inv.client_argv,
            (Argv{"netperf",
                  "-4",
                  "-H",
                  "198.19.210.2",
                  "-L",
                  "198.19.210.1",
                  "-p",
                  "41000",
                  "-t",
                  "TCP_RR",
                  "-l",
                  "120",
                  "-j",
                  "-v",
                  "2",
                  "-f",
                  "m",
                  "-T",
                  "2,2",
                  "--",
                  "-r",
                  "64,64",
                  "-D",
                  "-k",
                  "P50_LATENCY,P90_LATENCY,P99_LATENCY,MEAN_LATENCY,STDDEV_LATENCY,MIN_LATENCY,MAX_LATENCY,"
                  "THROUGHPUT,THROUGHPUT_UNITS,ELAPSED_TIME,TRANSACTION_RATE,RT_LATENCY,REQUEST_SIZE,"
                  "RESPONSE_SIZE"}));
  EXPECT_EQ(inv.server_protocol, "tcp");
  EXPECT_EQ(inv.client_timeout, 122s + 30s);
  EXPECT_THAT(all(inv.warnings),
              HasSubstr("netperf has no warm-up option: the profile's warm-up of 2s is not applied"));
  EXPECT_THAT(all(inv.warnings), HasSubstr("stop at P99"));
  EXPECT_EQ(inv.parameters.at("message_size"), "64");
  EXPECT_EQ(inv.parameters.at("cpu.client"), "2");
}

TEST(ToolCommands, NetperfUdpStreamCountsSendsAndReceives) {
  auto s = command_spec(Tool::kNetperf, TestKind::kUdpStream);
  s.cpu.server = 3;
  const ToolInvocation inv = build_invocation(s, test_util::kPairEndpoint);
  EXPECT_THAT(all(inv.client_argv), HasSubstr("\"UDP_STREAM\""));
  EXPECT_THAT(all(inv.client_argv), HasSubstr("\"-T\", \",3\""));
  EXPECT_THAT(all(inv.client_argv), HasSubstr("\"--\", \"-m\", \"64\", \"-k\""));
  EXPECT_THAT(inv.client_argv.back(), HasSubstr("LOCAL_SEND_CALLS,REMOTE_RECV_CALLS"));
  EXPECT_THAT(all(inv.client_argv), ::testing::Not(HasSubstr("\"-D\"")));  // no Nagle on UDP
}

TEST(ToolCommands, NetperfCannotRunOpenLoop) {
  auto s = command_spec(Tool::kNetperf, TestKind::kUdpRr);
  s.rate_per_sec = 20000;
  EXPECT_THAT([&] { build_invocation(s, test_util::kPairEndpoint); },
              ::testing::ThrowsMessage<std::invalid_argument>(
                  HasSubstr("test 't1' (lab.toml:40:1): netperf cannot send at a fixed rate")));
}

TEST(ToolCommands, SockperfPingPongFullRttBoundToTestAddresses) {
  auto s = command_spec(Tool::kSockperf, TestKind::kTcpRr);
  s.duration = 10s;
  s.cpu = {1, 0};
  const ToolInvocation inv = build_invocation(s, test_util::kPairEndpoint);
  EXPECT_EQ(inv.server_argv,
            (Argv{"sockperf", "sr", "-i", "198.19.210.2", "-p", "41000", "--tcp", "--cpu-affinity", "0"}));
  EXPECT_EQ(inv.client_argv,
            (Argv{"taskset", "-c", "1", "sockperf", "pp", "-i", "198.19.210.2", "-p", "41000", "-m", "64",
                  "-t", "10", "--full-rtt", "--client_ip", "198.19.210.1", "--tcp"}));
  EXPECT_THAT(all(inv.warnings), HasSubstr("sockperf's warm-up is its own fixed stage"));

  auto udp = command_spec(Tool::kSockperf, TestKind::kUdpRr);
  udp.rate_per_sec = 5000;
  const ToolInvocation u = build_invocation(udp, test_util::kPairEndpoint);
  EXPECT_EQ(u.server_protocol, "udp");
  EXPECT_THAT(all(u.client_argv), HasSubstr("--mps=5000"));
  EXPECT_THAT(all(u.warnings), HasSubstr("coordinated omission"));
}

TEST(ToolCommands, SockperfFullLogTimesOnTheMonotonicClockIntoTheRunsDirectory) {
  auto s = command_spec(Tool::kSockperf, TestKind::kUdpRr);
  s.full_log = true;
  Endpoint ep = test_util::kPairEndpoint;
  try {
    build_invocation(s, ep);
    FAIL() << "full_log without a place on the client host";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("full_log needs a directory of the run on the client host"));
  }
  ep.full_log_path = "/var/tmp/labgate-x/run1/t1.full.log";
  const ToolInvocation inv = build_invocation(s, ep);
  const Argv& a = inv.client_argv;
  const auto at = std::find(a.begin(), a.end(), "--full-log");
  ASSERT_NE(at, a.end()) << all(a);
  EXPECT_EQ(*(at + 1), ep.full_log_path);
  EXPECT_NE(std::find(a.begin(), a.end(), "--no-rdtsc"), a.end()) << all(a);
  EXPECT_EQ(inv.full_log_path, ep.full_log_path);
  EXPECT_EQ(inv.parameters.at("timing_clock"), "CLOCK_MONOTONIC (--no-rdtsc, for full_log)");
  s.full_log = false;
  const ToolInvocation plain = build_invocation(s, ep);
  EXPECT_THAT(all(plain.client_argv), Not(HasSubstr("rdtsc"))) << "sockperf keeps its TSC unless asked";
  EXPECT_TRUE(plain.full_log_path.empty());
}

TEST(ToolCommands, ToolPathPicksTheProgramOnBothHosts) {
  auto s = command_spec(Tool::kSockperf, TestKind::kUdpRr);
  s.tool_path = "sockperf-3.10";
  s.cpu = {1, {}};
  const ToolInvocation sp = build_invocation(s, test_util::kPairEndpoint);
  EXPECT_EQ(sp.server_argv.front(), "sockperf-3.10");
  EXPECT_EQ(sp.client_argv.at(3), "sockperf-3.10");  // after taskset -c 1
  auto i = command_spec(Tool::kIperf3, TestKind::kTcpStream);
  i.tool_path = "/usr/local/bin/iperf3-3.21";
  const ToolInvocation ip = build_invocation(i, test_util::kPairEndpoint);
  EXPECT_EQ(ip.server_argv.front(), "/usr/local/bin/iperf3-3.21");
  EXPECT_EQ(ip.client_argv.front(), "/usr/local/bin/iperf3-3.21");
}

TEST(ToolCommands, SockperfRefusesStreamsAndTinyMessages) {
  EXPECT_THAT(
      [&] {
        build_invocation(command_spec(Tool::kSockperf, TestKind::kTcpStream), test_util::kPairEndpoint);
      },
      ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("sockperf measures ping-pong round trips")));
  auto s = command_spec(Tool::kSockperf, TestKind::kUdpRr);
  s.message_size = 8;
  EXPECT_THAT([&] { build_invocation(s, test_util::kPairEndpoint); },
              ::testing::ThrowsMessage<std::invalid_argument>(
                  HasSubstr("at least 14 bytes: each message carries sockperf's 14-byte header; found 8")));
}

TEST(ToolCommands, Iperf3UdpAtTheProfileRateWithOmittedWarmup) {
  auto s = command_spec(Tool::kIperf3, TestKind::kUdpStream);
  s.duration = 30s;
  s.rate_per_sec = 20000;
  s.cpu = {1, 1};
  const ToolInvocation inv = build_invocation(s, test_util::kPairEndpoint);
  EXPECT_EQ(inv.server_argv,
            (Argv{"iperf3", "-s", "-1", "-B", "198.19.210.2", "-p", "41000", "--idle-timeout", "92"}));
  EXPECT_EQ(
      inv.client_argv,
      (Argv{
          "iperf3", "-c", "198.19.210.2",      "-B",   "198.19.210.1", "-p", "41000", "-t", "30",       "-O",
          "2",      "-J", "--connect-timeout", "5000", "-l",           "64", "-u",    "-b", "10240000", "-A",
          "1,1"}));
  EXPECT_EQ(inv.server_protocol, "tcp");

  auto unpaced = command_spec(Tool::kIperf3, TestKind::kUdpStream);
  EXPECT_THAT(all(build_invocation(unpaced, test_util::kPairEndpoint).client_argv),
              HasSubstr("\"-b\", \"0\""));
  EXPECT_THAT(all(build_invocation(unpaced, test_util::kPairEndpoint).warnings), HasSubstr("unpaced"));
}

TEST(ToolCommands, Iperf3RefusesRoundTripsAndServerOnlyPinning) {
  EXPECT_THAT(
      [&] { build_invocation(command_spec(Tool::kIperf3, TestKind::kTcpRr), test_util::kPairEndpoint); },
      ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("iperf3 measures throughput")));
  auto s = command_spec(Tool::kIperf3, TestKind::kTcpStream);
  s.cpu.server = 1;
  EXPECT_THAT([&] { build_invocation(s, test_util::kPairEndpoint); },
              ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("set cpu.client as well")));
}

// The index of `flag` in argv followed by `value`, or -1.
long find_pair(const Argv& argv, const std::string& flag, const std::string& value) {
  for (std::size_t i = 0; i + 1 < argv.size(); ++i)
    if (argv[i] == flag && argv[i + 1] == value) return static_cast<long>(i);
  return -1;
}

TEST(ToolCommands, SweptSocketBufferAndCongestionInEachToolsWords) {
  auto n = command_spec(Tool::kNetperf, TestKind::kTcpStream);
  n.socket_buffer = 16384;
  n.congestion = "reno";
  const auto np = build_invocation(n, test_util::kPairEndpoint).client_argv;
  const long dashdash = std::find(np.begin(), np.end(), "--") - np.begin();
  EXPECT_GT(find_pair(np, "-s", "16384"), dashdash) << "netperf -s/-S are test-specific: " << all(np);
  EXPECT_GT(find_pair(np, "-S", "16384"), dashdash);
  EXPECT_GT(find_pair(np, "-K", "reno,reno"), dashdash);

  auto i = command_spec(Tool::kIperf3, TestKind::kTcpStream);
  i.socket_buffer = 131072;
  i.congestion = "bbr";
  const auto inv = build_invocation(i, test_util::kPairEndpoint);
  EXPECT_GE(find_pair(inv.client_argv, "-w", "131072"), 0) << all(inv.client_argv);
  EXPECT_GE(find_pair(inv.client_argv, "-C", "bbr"), 0);
  EXPECT_EQ(inv.parameters.at("congestion"), "bbr");

  auto k = command_spec(Tool::kSockperf, TestKind::kUdpRr);
  k.socket_buffer = 65536;
  const auto sp = build_invocation(k, test_util::kPairEndpoint);
  EXPECT_GE(find_pair(sp.server_argv, "--buffer-size", "65536"), 0) << all(sp.server_argv);
  EXPECT_GE(find_pair(sp.client_argv, "--buffer-size", "65536"), 0) << all(sp.client_argv);
  k.kind = TestKind::kTcpRr;
  k.congestion = "cubic";
  try {
    build_invocation(k, test_util::kPairEndpoint);
    FAIL() << "sockperf cannot set a congestion control";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("sockperf has no option for the TCP congestion control"));
    EXPECT_THAT(e.what(), HasSubstr("lab.toml:40"));
  }
}

TEST(ToolCommands, FractionalSecondsAreRoundedUpAndSaid) {
  auto s = command_spec(Tool::kSockperf, TestKind::kUdpRr);
  s.duration = 1500ms;
  const ToolInvocation inv = build_invocation(s, test_util::kPairEndpoint);
  EXPECT_THAT(all(inv.client_argv), HasSubstr("\"-t\", \"2\""));
  EXPECT_THAT(all(inv.warnings), HasSubstr("duration 1.5s rounded up to 2s"));
  s.duration = 200ms;
  s.warmup = 0s;
  EXPECT_EQ(build_invocation(s, test_util::kPairEndpoint).client_argv[9], "1");
}

TEST(ToolCommands, WhatNoToolCanRun) {
  EXPECT_THAT(
      [&] { build_invocation(command_spec(Tool::kNetperf, TestKind::kJitter), test_util::kPairEndpoint); },
      ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("built-in jitter probe")));
  EXPECT_THAT(
      [&] { build_invocation(command_spec(Tool::kNetperf, TestKind::kPingFlood), test_util::kPairEndpoint); },
      ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("rr and stream kinds, not ping_flood")));
  EXPECT_THAT(
      [&] { build_invocation(command_spec(Tool::kBuiltin, TestKind::kTcpRr), test_util::kPairEndpoint); },
      ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("labgate's own probes")));
  EXPECT_THAT(
      [&] {
        build_invocation(command_spec(Tool::kNetperf, TestKind::kTcpRr), Endpoint{"198.19.210.2", "", 1});
      },
      ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("need a test_address")));
  EXPECT_THAT(
      [&] {
        build_invocation(command_spec(Tool::kNetperf, TestKind::kTcpRr), Endpoint{"a", "b", 70000});
      },
      ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("port 70000 is not a TCP/UDP port")));
}

}  // namespace
}  // namespace labgate::tools
