// Tests of a test's `tool_path`: the sockperf or iperf3 program run on both
// hosts (one version beside another), and each misuse an error at file:line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using ::testing::HasSubstr;

const std::string kToolPathHead = R"(
[lab]
name = "versions"
[hosts.a]
address = "10.0.0.1"
test_address = "192.168.10.1"
[hosts.b]
address = "10.0.0.2"
test_address = "192.168.10.2"
)";

LoadResult load_test(const std::string& tool, const std::string& kind, const std::string& path) {
  return load_from_string(
      kToolPathHead + "[[test]]\nname = \"t\"\nkind = \"" + kind + "\"\ntool = \"" + tool +
          "\"\nfrom = \"a\"\nto = \"b\"\ntool_path = \"" + path + "\"\nbudget = { " +
          (kind.ends_with("_stream") ? "min_throughput = \"1Mbit/s\"" : "max = \"1s\"") + " }\n",
      "versions.toml");
}

TEST(ToolPath, NamesTheProgramOfSockperfAndIperf3) {
  for (const auto& [tool, kind, path] : {std::tuple{"sockperf", "udp_rr", "sockperf-3.10"},
                                         std::tuple{"iperf3", "tcp_stream", "/opt/iperf/bin/iperf3"}}) {
    const LoadResult r = load_test(tool, kind, path);
    ASSERT_TRUE(r.profile) << test_util::error_lines(r);
    EXPECT_EQ(r.profile->find_test("t")->tool_path, path);
  }
}

TEST(ToolPath, IsRefusedWhereItCannotPickOneProgram) {
  EXPECT_THAT(test_util::error_lines(load_test("netperf", "tcp_rr", "/opt/netperf")),
              HasSubstr("versions.toml:16:13: test[t].tool_path: picks the sockperf, iperf3 or sfnt-pingpong "
                        "program to run; tool = "
                        "\"netperf\" has two (netperf and netserver)"));
  EXPECT_THAT(test_util::error_lines(load_test("builtin", "tcp_rr", "/opt/x")),
              HasSubstr("has none to pick"));
  for (const char* bad : {"sockperf 3.10", "$(reboot)", "/opt/../bin/sockperf", "/opt/sockperf/", ""})
    EXPECT_THAT(test_util::error_lines(load_test("sockperf", "udp_rr", bad)),
                HasSubstr("expected a program name or an absolute path"))
        << bad;
  EXPECT_THAT(test_util::error_lines(load_test("iperf3", "tcp_stream", "bin/iperf3")),
              HasSubstr("a path must be absolute"));
}

}  // namespace
}  // namespace labgate::profile
