// sfnt-pingpong's command lines: one size, round trips (--rtt), the profile's
// duration as its --minms/--maxms and its warm-up as --warmupms, no pinning the
// profile did not ask for, UDP bound to the test addresses; what it cannot do
// (streams, pacing, socket buffers, congestion control) refused by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/tools/tool_commands.h"
#include "tools/parse_test_util.h"

namespace labgate::tools {
namespace {

using namespace std::chrono_literals;
using profile::TestKind;
using profile::Tool;
using ::testing::HasSubstr;
using Argv = std::vector<std::string>;

profile::TestSpec sfnt(TestKind kind) {
  profile::TestSpec s;
  s.name = "t1";
  s.tool = Tool::kSfntPingpong;
  s.kind = kind;
  s.duration = 3s;
  s.warmup = 500ms;
  s.message_size = 64;
  s.pos = {"lab.toml", 40, 1};
  return s;
}

std::string refusal(const profile::TestSpec& s, const Endpoint& ep) {
  try {
    build_invocation(s, ep);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(not refused)";
}

TEST(SfntCommands, UdpRoundTripsForTheDurationBoundToTheTestAddresses) {
  const ToolInvocation inv = build_invocation(sfnt(TestKind::kUdpRr), test_util::kPairEndpoint);
  EXPECT_EQ(inv.server_argv, (Argv{"sfnt-pingpong", "--port", "41000"}));
  EXPECT_EQ(inv.server_protocol, "tcp");
  EXPECT_EQ(inv.client_argv, (Argv{"sfnt-pingpong",
                                   "--port",
                                   "41000",
                                   "--sizes",
                                   "64",
                                   "--minms",
                                   "3000",
                                   "--maxms",
                                   "3000",
                                   "--maxiter",
                                   "3000000",
                                   "--warmupms",
                                   "500",
                                   "--rtt",
                                   "--timeout",
                                   "5",
                                   "--bind=198.19.210.1;198.19.210.2",
                                   "--affinity=any;any",
                                   "udp",
                                   "198.19.210.2"}));
}

TEST(SfntCommands, TcpNodelayPinningAndToolPath) {
  auto s = sfnt(TestKind::kTcpRr);
  s.cpu = {1, {}};
  s.tool_path = "/opt/sfnettest/bin/sfnt-pingpong";
  s.duration = 200ms;  // --maxiter never below its own default
  const ToolInvocation inv = build_invocation(s, Endpoint{"fd4c:6762:0:21::2", "fd4c:6762:0:21::1", 2049});
  EXPECT_EQ(inv.server_argv.front(), "/opt/sfnettest/bin/sfnt-pingpong");
  EXPECT_EQ(inv.client_argv, (Argv{"/opt/sfnettest/bin/sfnt-pingpong",
                                   "--port",
                                   "2049",
                                   "--sizes",
                                   "64",
                                   "--minms",
                                   "200",
                                   "--maxms",
                                   "200",
                                   "--maxiter",
                                   "1000000",
                                   "--warmupms",
                                   "500",
                                   "--rtt",
                                   "--timeout",
                                   "5",
                                   "--nodelay",
                                   "--affinity=1;any",
                                   "tcp",
                                   "fd4c:6762:0:21::2"}));
}

TEST(SfntCommands, WhatItCannotDoIsRefusedByName) {
  EXPECT_THAT(refusal(sfnt(TestKind::kTcpStream), test_util::kPairEndpoint),
              HasSubstr("sfnt-pingpong measures ping-pong round trips"));
  auto paced = sfnt(TestKind::kUdpRr);
  paced.rate_per_sec = 1000;
  EXPECT_THAT(refusal(paced, test_util::kPairEndpoint), HasSubstr("cannot pace it"));
  auto buffered = sfnt(TestKind::kUdpRr);
  buffered.socket_buffer = 1 << 20;
  EXPECT_THAT(refusal(buffered, test_util::kPairEndpoint), HasSubstr("no option for the socket buffer"));
  auto big = sfnt(TestKind::kTcpRr);
  big.message_size = 65537;
  EXPECT_THAT(refusal(big, test_util::kPairEndpoint),
              HasSubstr("sfnt-pingpong --sizes (tcp) sends messages of at most 65536 bytes"));
}

}  // namespace
}  // namespace labgate::tools
