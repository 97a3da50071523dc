// udp_multicast by sockperf and sfnt-pingpong: the commands join the group on
// each end's own test address, the round trip through the group is said, and
// what the tool cannot do (IPv6 groups, a tool without a multicast mode) is
// refused by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/tools/tool_commands.h"
#include "tools/parse_test_util.h"

namespace labgate::tools {
namespace {

using Argv = std::vector<std::string>;
using ::testing::HasSubstr;
using namespace std::chrono_literals;
using profile::Tool;

profile::TestSpec feed(Tool tool) {
  profile::TestSpec s;
  s.name = "feed";
  s.tool = tool;
  s.kind = profile::TestKind::kUdpMulticast;
  s.duration = 3s;
  s.warmup = 500ms;
  s.message_size = 64;
  s.multicast.group = "239.1.1.1";
  s.multicast.port = 5000;
  s.multicast.ttl = 2;
  s.multicast.subscribers = {"b"};
  s.pos = {"lab.toml", 40, 1};
  return s;
}

TEST(MulticastCommands, SockperfJoinsTheGroupOnEachTestAddress) {
  const ToolInvocation inv = build_invocation(feed(Tool::kSockperf), test_util::kPairEndpoint);
  EXPECT_EQ(inv.server_argv, (Argv{"sockperf", "sr", "-i", "239.1.1.1", "-p", "5000", "--mc-rx-if", "198.19.210.2",
                                   "--mc-tx-if", "198.19.210.2", "--mc-ttl", "2"}));
  EXPECT_EQ(inv.client_argv,
            (Argv{"sockperf", "pp", "-i", "239.1.1.1", "-p", "5000", "--mc-rx-if", "198.19.210.1", "--mc-tx-if",
                  "198.19.210.1", "--mc-ttl", "2", "-m", "64", "-t", "3", "--full-rtt"}));
  // Ready when it says so, else when the group's port is bound (not the test address's).
  EXPECT_EQ(inv.server_ready_line, "to block on socket(s)");
  EXPECT_EQ(inv.listen_address, "239.1.1.1");
  EXPECT_EQ(inv.listen_port, 5000);
  EXPECT_EQ(inv.parameters.at("multicast.group"), "239.1.1.1:5000");
  EXPECT_THAT(inv.parameters.at("multicast.path"), HasSubstr("round trip through the group both ways"));
  EXPECT_THAT(inv.warnings.at(0), HasSubstr("the profile's warm-up of 500ms is not applied"));
}

TEST(MulticastCommands, SockperfSsmFiltersEachEndByItsPeerPacesByMpsAndSizesBuffers) {
  profile::TestSpec s = feed(Tool::kSockperf);
  s.multicast.source = "198.19.210.1";
  s.rate_per_sec = 1000;
  s.socket_buffer = 1048576;
  const ToolInvocation inv = build_invocation(s, test_util::kPairEndpoint);
  EXPECT_THAT(inv.server_argv,
              ::testing::IsSupersetOf({"--mc-source-filter", "198.19.210.1", "--buffer-size", "1048576"}));
  EXPECT_THAT(inv.client_argv, ::testing::IsSupersetOf({"--mc-source-filter", "198.19.210.2", "--mps=1000",
                                                        "--buffer-size", "1048576"}));
}

TEST(MulticastCommands, SfntJoinsTheGroupOnEachEndInPlaceOfBind) {
  const ToolInvocation inv = build_invocation(feed(Tool::kSfntPingpong), test_util::kPairEndpoint);
  EXPECT_EQ(inv.server_argv, (Argv{"sfnt-pingpong", "--port", "41000"}));
  EXPECT_EQ(inv.server_protocol, "tcp");
  EXPECT_TRUE(inv.listen_address.empty());  // its control connection on the test address
  EXPECT_EQ(inv.client_argv,
            (Argv{"sfnt-pingpong", "--port", "41000", "--sizes", "64", "--minms", "3000", "--maxms", "3000",
                  "--maxiter", "3000000", "--warmupms", "500", "--rtt", "--timeout", "5", "--mcast", "239.1.1.1",
                  "--mcastintf=198.19.210.1;198.19.210.2", "--ttl", "2", "--affinity=any;any", "udp",
                  "198.19.210.2"}));
  EXPECT_THAT(inv.warnings.at(0), HasSubstr("the profile's group port 5000 is not used"));
}

TEST(MulticastCommands, WhatTheToolsCannotDoIsRefusedByName) {
  const auto refusal = [](const profile::TestSpec& s, const Endpoint& ep) -> std::string {
    try {
      build_invocation(s, ep);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(not refused)";
  };
  const Endpoint v6{"fd00::2", "fd00::1", 41000};
  EXPECT_THAT(refusal(feed(Tool::kSockperf), v6), HasSubstr("test 'feed' (lab.toml:40:1): udp_multicast is IPv4"));
  EXPECT_THAT(refusal(feed(Tool::kSfntPingpong), v6), HasSubstr("udp_multicast is IPv4"));
  EXPECT_THAT(refusal(feed(Tool::kNetperf), test_util::kPairEndpoint), HasSubstr("netperf has no multicast mode"));
  profile::TestSpec big = feed(Tool::kSockperf);
  big.message_size = 70000;
  EXPECT_THAT(refusal(big, test_util::kPairEndpoint), HasSubstr("at most"));
}

}  // namespace
}  // namespace labgate::tools
