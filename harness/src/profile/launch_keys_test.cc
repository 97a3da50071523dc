// wrapper and preload: a command prefix split into words and a shared library,
// each validated with the key's file:line:column, only for tcp/udp kinds, and
// preload only for the built-in probes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

LoadResult with_keys(const std::string& keys, const std::string& kind = "tcp_rr") {
  return load_from_string(
      "[lab]\nname = \"x\"\n[hosts.a]\naddress = \"10.0.0.1\"\ntest_address = \"fd00::1\"\n"
      "[hosts.b]\naddress = \"10.0.0.2\"\ntest_address = \"fd00::2\"\n"
      "[[test]]\nname = \"t\"\nkind = \"" +
          kind + "\"\nfrom = \"a\"\nto = \"b\"\nbudget = { max = \"1s\" }\n" + keys,
      "/tmp/launch.toml");
}

TEST(LaunchKeys, AWrapperIsSplitIntoWordsAndAPreloadKept) {
  const LoadResult r =
      with_keys("wrapper = \"onload  --profile=latency EF_POLL_USEC=100\"\npreload = \"libonload.so\"\n");
  ASSERT_TRUE(r.profile) << r.errors.at(0).str();
  const TestSpec& t = r.profile->tests.at(0);
  EXPECT_THAT(t.wrapper, ElementsAre("onload", "--profile=latency", "EF_POLL_USEC=100"));
  EXPECT_EQ(t.preload, "libonload.so");
  EXPECT_TRUE(with_keys("preload = \"/usr/lib64/libxlio.so.3\"\n").profile);
}

TEST(LaunchKeys, ShellTextAndBadLibrariesAreRefusedAtTheKey) {
  const std::pair<const char*, const char*> cases[] = {
      {"wrapper = \"onload; rm -rf /\"", "is not a plain word"},
      {"wrapper = \"$(id)\"", "is not a plain word"},
      {"wrapper = \"--profile=latency\"", "must start with a command"},
      {"wrapper = \"  \"", "a command prefix of 1 to 16 words"},
      {"preload = \"libx.so:liby.so\"", "one shared library"},
      {"preload = \"../libx.so\"", "one shared library"},
      {"preload = \"lib/libx.so\"", "one shared library"},
      {"preload = \"libx\"", "one shared library"}};
  for (const auto& [line, why] : cases) {
    const LoadResult r = with_keys(std::string(line) + "\n");
    ASSERT_FALSE(r.profile) << line;
    EXPECT_THAT(r.errors.at(0).str(), HasSubstr("/tmp/launch.toml:15:")) << line;
    EXPECT_THAT(r.errors.at(0).str(), HasSubstr(why)) << line;
  }
}

TEST(LaunchKeys, OnlyTcpUdpKindsAndPreloadOnlyForTheBuiltInProbes) {
  const LoadResult tool = with_keys("tool = \"netperf\"\npreload = \"libxlio.so\"\n");
  ASSERT_FALSE(tool.profile);
  EXPECT_THAT(tool.errors.at(0).str(),
              HasSubstr("preload runs the built-in probes' dynamically linked build"));
  EXPECT_TRUE(with_keys("tool = \"netperf\"\nwrapper = \"onload\"\n").profile)
      << "a tool may run under a wrapper";
  const LoadResult mtu = with_keys("mtu = 1500\nwrapper = \"onload\"\n", "path_mtu");
  ASSERT_FALSE(mtu.profile);
  EXPECT_THAT(test_util::error_lines(mtu),
              HasSubstr("`wrapper` runs a tcp/udp test's tool or probe under a command"));
  const LoadResult typo = with_keys("wraper = \"onload\"\n");
  ASSERT_FALSE(typo.profile);
  EXPECT_THAT(typo.errors.at(0).str(), HasSubstr("wrapper"));
}

}  // namespace
}  // namespace labgate::profile
