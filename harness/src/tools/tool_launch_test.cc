// wrapper = "...": netperf, sockperf and iperf3 run under the command prefix on
// both ends, and the run's parameters say so.
#include <gtest/gtest.h>

#include "labgate/tools/tool_commands.h"

namespace labgate::tools {
namespace {

using namespace std::chrono_literals;

TEST(ToolLaunch, BothEndsRunUnderTheWrapper) {
  profile::TestSpec s;
  s.name = "t";
  s.tool = profile::Tool::kSockperf;
  s.kind = profile::TestKind::kUdpRr;
  s.duration = 10s;
  s.wrapper = {"onload", "--profile=latency"};
  const ToolInvocation inv = build_invocation(s, {"198.19.1.2", "198.19.1.1", 41000});
  EXPECT_EQ(inv.server_argv.at(0), "onload");
  EXPECT_EQ(inv.server_argv.at(1), "--profile=latency");
  EXPECT_EQ(inv.server_argv.at(2), "sockperf");
  EXPECT_EQ(inv.client_argv.at(0), "onload");
  EXPECT_EQ(inv.client_argv.at(2), "sockperf");
  EXPECT_EQ(inv.parameters.at("wrapper"), "onload --profile=latency");
  s.wrapper.clear();
  EXPECT_EQ(build_invocation(s, {"198.19.1.2", "198.19.1.1", 41000}).client_argv.at(0), "sockperf");
}

}  // namespace
}  // namespace labgate::tools
