// A test with `preload` or `wrapper` runs the probes' dynamically linked build
// behind `env LD_PRELOAD=...` and the wrapper's words; a plain test is unchanged.
#include <gtest/gtest.h>

#include "labgate/measure/probe_command.h"

namespace labgate::measure {
namespace {

using Argv = std::vector<std::string>;

profile::TestSpec launch_spec(profile::TestKind kind) {
  profile::TestSpec s;
  s.name = "t";
  s.kind = kind;
  return s;
}

TEST(ProbeLaunch, PreloadAndWrapperPrefixBothEndsOfTheDynamicBuild) {
  auto s = launch_spec(profile::TestKind::kUdpRr);
  s.preload = "libxlio.so";
  s.wrapper = {"numactl", "-N", "0"};
  EXPECT_EQ(probe_binary(s), "pingpong-dyn");
  const Argv server = probe_server_argv(s, "/tmp/d", "fd00::2", "fd00::1");
  EXPECT_EQ(Argv(server.begin(), server.begin() + 6),
            (Argv{"env", "LD_PRELOAD=libxlio.so", "numactl", "-N", "0", "/tmp/d/pingpong-dyn"}));
  const Argv client = probe_client_argv(s, "/tmp/d", "fd00::2", 4000);
  EXPECT_EQ(client.at(5), "/tmp/d/pingpong-dyn");
  EXPECT_EQ(client.at(6), "client");
}

TEST(ProbeLaunch, AWrapperAloneAlsoRunsTheDynamicBuildAndAPlainTestTheStaticOne) {
  auto s = launch_spec(profile::TestKind::kTcpStream);
  s.wrapper = {"onload", "--profile=latency"};
  EXPECT_EQ(probe_binary(s), "stream-dyn");
  EXPECT_EQ(launch_prefix(s), (Argv{"onload", "--profile=latency"}));
  const auto plain = launch_spec(profile::TestKind::kTcpStream);
  EXPECT_EQ(probe_binary(plain), "stream");
  EXPECT_TRUE(launch_prefix(plain).empty());
  EXPECT_EQ(probe_client_argv(plain, "/tmp/d", "198.19.1.2", 4000).at(0), "/tmp/d/stream");
}

}  // namespace
}  // namespace labgate::measure
