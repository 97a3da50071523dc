// full_log: sockperf's per-sample log, only for a tcp_rr/udp_rr test run by
// sockperf, refused elsewhere at its file:line with what the tool does instead.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using ::testing::HasSubstr;

LoadResult full_log_profile(const std::string& kind, const std::string& tool,
                            const std::string& line = "full_log = true\n") {
  return load_from_string(
      "[lab]\nname = \"x\"\n[hosts.a]\naddress = \"10.0.0.1\"\ntest_address = \"fd00::1\"\n"
      "[hosts.b]\naddress = \"10.0.0.2\"\ntest_address = \"fd00::2\"\n"
      "[[test]]\nname = \"t\"\nkind = \"" +
          kind + "\"\ntool = \"" + tool + "\"\nfrom = \"a\"\nto = \"b\"\nbudget = { max = \"1s\" }\n" + line,
      "/tmp/full_log.toml");
}

TEST(FullLogKey, SockperfRoundTripsKeepIt) {
  for (const char* kind : {"tcp_rr", "udp_rr"}) {
    const LoadResult r = full_log_profile(kind, "sockperf");
    ASSERT_TRUE(r.profile) << kind << ": " << r.errors.at(0).str();
    EXPECT_TRUE(r.profile->tests.at(0).full_log);
  }
  const LoadResult off = full_log_profile("udp_rr", "sockperf", "");
  ASSERT_TRUE(off.profile) << off.errors.at(0).str();
  EXPECT_FALSE(off.profile->tests.at(0).full_log) << "it changes sockperf's clock: off unless asked";
}

TEST(FullLogKey, OtherToolsAndKindsAreRefusedAtTheKey) {
  const std::pair<std::pair<const char*, const char*>, const char*> cases[] = {
      {{"tcp_rr", "netperf"}, "netperf has none: its tail is joined over the whole run"},
      {{"udp_rr", "builtin"}, "the built-in probe keeps its own outliers"},
      {{"tcp_stream", "iperf3"}, "`full_log` keeps sockperf's per-sample log of a tcp_rr/udp_rr test"}};
  for (const auto& [kt, why] : cases) {
    const LoadResult r = full_log_profile(kt.first, kt.second);
    ASSERT_FALSE(r.profile) << kt.first << "/" << kt.second;
    EXPECT_THAT(test_util::error_lines(r), HasSubstr("/tmp/full_log.toml:16:")) << kt.second;
    EXPECT_THAT(test_util::error_lines(r), HasSubstr(why)) << kt.second;
  }
}

}  // namespace
}  // namespace labgate::profile
