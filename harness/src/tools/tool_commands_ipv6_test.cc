// The external tools over an IPv6 interconnect: netperf and netserver switch
// to -6, sockperf and iperf3 take the literal as it is, mixed families are refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "labgate/tools/tool_commands.h"

namespace labgate::tools {
namespace {

using namespace std::chrono_literals;
using profile::TestKind;
using profile::Tool;
using ::testing::HasSubstr;

const Endpoint kEp6{"fd4c:6762:0:19::2", "fd4c:6762:0:19::1", 41000};

profile::TestSpec ipv6_spec(Tool tool, TestKind kind) {
  profile::TestSpec s;
  s.name = "t6";
  s.tool = tool;
  s.kind = kind;
  s.duration = 10s;
  s.message_size = 64;
  s.pos = {"lab-ipv6.toml", 12, 1};
  return s;
}

bool has_pair(const std::vector<std::string>& v, const std::string& flag, const std::string& value) {
  for (std::size_t i = 0; i + 1 < v.size(); ++i)
    if (v[i] == flag && v[i + 1] == value) return true;
  return false;
}

TEST(ToolCommandsIpv6, NetperfAndNetserverUseSixForBothConnections) {
  const ToolInvocation inv = build_invocation(ipv6_spec(Tool::kNetperf, TestKind::kTcpRr), kEp6);
  EXPECT_EQ(inv.server_argv.at(3), "-6");
  EXPECT_TRUE(has_pair(inv.server_argv, "-L", "fd4c:6762:0:19::2"));
  EXPECT_EQ(inv.client_argv.at(1), "-6");
  EXPECT_TRUE(has_pair(inv.client_argv, "-H", "fd4c:6762:0:19::2"));
  EXPECT_TRUE(has_pair(inv.client_argv, "-L", "fd4c:6762:0:19::1"));
  EXPECT_EQ(std::count(inv.client_argv.begin(), inv.client_argv.end(), "-4"), 0);
}

TEST(ToolCommandsIpv6, SockperfAndIperf3TakeTheLiteral) {
  const ToolInvocation sp = build_invocation(ipv6_spec(Tool::kSockperf, TestKind::kUdpRr), kEp6);
  EXPECT_TRUE(has_pair(sp.server_argv, "-i", "fd4c:6762:0:19::2"));
  EXPECT_TRUE(has_pair(sp.client_argv, "-i", "fd4c:6762:0:19::2"));
  EXPECT_TRUE(has_pair(sp.client_argv, "--client_ip", "fd4c:6762:0:19::1"));
  const ToolInvocation ip = build_invocation(ipv6_spec(Tool::kIperf3, TestKind::kTcpStream), kEp6);
  EXPECT_TRUE(has_pair(ip.server_argv, "-B", "fd4c:6762:0:19::2"));
  EXPECT_TRUE(has_pair(ip.client_argv, "-c", "fd4c:6762:0:19::2"));
  EXPECT_TRUE(has_pair(ip.client_argv, "-B", "fd4c:6762:0:19::1"));
}

TEST(ToolCommandsIpv6, MixedFamiliesAreRefusedNamingBothAddresses) {
  try {
    build_invocation(ipv6_spec(Tool::kIperf3, TestKind::kTcpStream),
                     {"fd4c:6762:0:19::2", "198.19.19.1", 41000});
    FAIL() << "an IPv6 server with an IPv4 client was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("'t6' (lab-ipv6.toml:12:1)"));
    EXPECT_THAT(e.what(), HasSubstr("fd4c:6762:0:19::2 and the client's 198.19.19.1"));
  }
}

}  // namespace
}  // namespace labgate::tools
