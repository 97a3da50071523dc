// validate refuses what a probe, a tool, the filesystem or the OS would refuse at
// run time (the limits table), at the value's file:line:column, naming the limit.
#include "labgate/profile/limits.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const std::string kLimitsHosts =
    "[lab]\nname = \"l\"\n[defaults.ssh]\nuser = \"root\"\nprobe_dir = \"/tmp\"\n"
    "[hosts.a]\naddress = \"10.0.0.1\"\ntest_address = \"192.168.1.1\"\n"
    "[hosts.b]\naddress = \"10.0.0.2\"\ntest_address = \"192.168.1.2\"\n";

// The profile's errors (as validate prints them, one a line), or "" when it loads.
std::string limit_errors(const std::string& text) {
  return test_util::error_lines(load_from_string(text, "/p/lim.toml"));
}

// A test at line 12 of the profile; `extra` is its line 21.
std::string limits_profile(const std::string& kind, const std::string& tool, const std::string& extra,
                           const std::string& name = "t") {
  return kLimitsHosts + "[[test]]\nname = \"" + name + "\"\nkind = \"" + kind + "\"\ntool = \"" + tool +
         "\"\nfrom = \"a\"\nto = \"b\"\nduration = \"10s\"\nwarmup = \"1s\"\nbudget = { " +
         (kind.ends_with("stream") ? "min_throughput = \"1Mbit/s\"" : "max_retransmits = 1") + " }\n" + extra;
}

TEST(Limits, MessageSizesAreTheProbesAndToolsOwnAtTheirLine) {
  EXPECT_THAT(limit_errors(limits_profile("udp_rr", "builtin", "message_size = 1\n")),
              AllOf(HasSubstr("/p/lim.toml:21:16: test[t].message_size"), HasSubstr("pingpong probe (udp)"),
                    HasSubstr("at least 16 bytes"), HasSubstr("found 1")));
  EXPECT_THAT(limit_errors(limits_profile("udp_rr", "sockperf", "message_size = 13\n")),
              AllOf(HasSubstr("sockperf -m"), HasSubstr("at least 14 bytes")));
  EXPECT_THAT(limit_errors(limits_profile("udp_rr", "sockperf", "message_size = 14\n")), IsEmpty());
  EXPECT_THAT(limit_errors(limits_profile("tcp_rr", "builtin", "message_size = 1000000000000\n")),
              AllOf(HasSubstr("at most 1048576 bytes"), HasSubstr("found 1000000000000")));
  EXPECT_THAT(limit_errors(limits_profile("tcp_rr", "builtin", "message_size = 1048576\n")), IsEmpty());
  EXPECT_THAT(limit_errors(limits_profile("tcp_rr", "sockperf", "message_size = 1048576\n")),
              HasSubstr("at most 1048575"));
  EXPECT_THAT(limit_errors(limits_profile("udp_stream", "iperf3", "message_size = 15\n")),
              HasSubstr("iperf3 -l (udp)"));
  EXPECT_THAT(limit_errors(limits_profile("udp_stream", "netperf", "message_size = 65508\n")),
              AllOf(HasSubstr("at most 65507 bytes (one IPv4 datagram)")));
  // A paced pingpong request carries its timestamp: 1 byte is fine closed loop only.
  EXPECT_THAT(limit_errors(limits_profile("tcp_rr", "builtin", "message_size = 1\n")), IsEmpty());
  EXPECT_THAT(limit_errors(limits_profile("tcp_rr", "builtin", "message_size = 1\nrate = \"1000/s\"\n")),
              HasSubstr("paced by rate) needs messages of at least 16 bytes"));
}

TEST(Limits, RatesAndIntervalsTheRunWouldRefuse) {
  EXPECT_THAT(
      limit_errors(limits_profile("tcp_rr", "netperf", "rate = \"1000/s\"\n")),
      AllOf(HasSubstr("lim.toml:21:8: test[t].rate"), HasSubstr("netperf cannot send at a fixed rate")));
  EXPECT_THAT(limit_errors(limits_profile("tcp_rr", "sockperf", "rate = \"0.2/s\"\n")),
              HasSubstr("from 1 to 1073741824"));
  EXPECT_THAT(limit_errors(limits_profile("tcp_rr", "builtin", "rate = \"2000000000/s\"\n")),
              HasSubstr("at most 1000000000 messages a second"));
  EXPECT_THAT(limit_errors(limits_profile("tcp_rr", "builtin", "interval = \"999us\"\n")),
              AllOf(HasSubstr("test[t].interval"), HasSubstr("at least 1ms")));
  EXPECT_THAT(limit_errors(limits_profile("tcp_rr", "builtin", "interval = \"1ms\"\n")), IsEmpty());
  // 3 hours at 1 ms: 10.8 million intervals, more than the probes' series holds.
  EXPECT_THAT(limit_errors(std::regex_replace(limits_profile("tcp_rr", "builtin", "interval = \"1ms\"\n"),
                                              std::regex("duration = \"10s\""), "duration = \"3h\"")),
              AllOf(HasSubstr("at most 10000000 intervals"), HasSubstr("is 10800000")));
}

TEST(Limits, NamesThatBecomePathComponentsAreBounded) {
  const std::string huge(100 * 1024, 'n');
  const std::string e = limit_errors(limits_profile("tcp_rr", "builtin", "", huge));
  EXPECT_THAT(e, AllOf(HasSubstr("lim.toml:13:8:"), HasSubstr("at most 128 bytes"), HasSubstr("NAME_MAX"),
                       HasSubstr("found 102400 bytes")));
  EXPECT_LT(e.size(), 400u) << "the name itself is not repeated in full";
  EXPECT_THAT(limit_errors(limits_profile("tcp_rr", "builtin", "", std::string(128, 'n'))), IsEmpty());
  // A sweep's case names grow by the swept values.
  EXPECT_THAT(
      limit_errors(limits_profile("tcp_rr", "builtin", "message_size = [64, 1024]\n", std::string(120, 'n'))),
      AllOf(HasSubstr("a swept test's case name may be at most 128 bytes"), HasSubstr("shorten")));
  const std::string host(65, 'h');
  EXPECT_THAT(limit_errors(kLimitsHosts + "[hosts." + host + "]\naddress = \"10.0.0.3\"\n" +
                           limits_profile("tcp_rr", "builtin", "").substr(kLimitsHosts.size())),
              AllOf(HasSubstr("lim.toml:12:1:"), HasSubstr("a host name may be at most 64 bytes")));
}

TEST(Limits, RemoteDirectoriesMustBeNormalAndFitPathMax) {
  const auto with_dir = [](const std::string& dir) {
    std::string t = limits_profile("tcp_rr", "builtin", "");
    return t.replace(t.find("probe_dir = \"/tmp\""), 18, "probe_dir = \"" + dir + "\"");
  };
  EXPECT_THAT(limit_errors(with_dir("/tmp/../etc")),
              AllOf(HasSubstr("lim.toml:5:13: defaults.ssh.probe_dir"), HasSubstr("not in normal form"),
                    HasSubstr("(\"/etc\" if that is the one meant)")));
  EXPECT_THAT(limit_errors(with_dir("/tmp/./x")), HasSubstr("\"/tmp/x\" if"));
  EXPECT_THAT(limit_errors(with_dir("/tmp//x")), HasSubstr("not in normal form"));
  EXPECT_THAT(limit_errors(with_dir("tmp")), HasSubstr("expected an absolute directory"));
  EXPECT_THAT(limit_errors(with_dir("/" + std::string(256, 'd'))), HasSubstr("NAME_MAX (255)"));
  EXPECT_THAT(limit_errors(with_dir("/" + std::string(255, 'd'))), IsEmpty());
  std::string deep;
  while (deep.size() <= kMaxRemoteDirBytes) deep += "/" + std::string(200, 'd');
  EXPECT_THAT(limit_errors(with_dir(deep)),
              AllOf(HasSubstr("at most 3072 bytes"), HasSubstr("PATH_MAX (4096")));
  // One trailing '/' is normal form, and dropped.
  const LoadResult r = load_from_string(with_dir("/var/tmp/"), "/p/lim.toml");
  ASSERT_TRUE(r.profile) << r.errors.at(0).str();
  EXPECT_EQ(r.profile->hosts.at(0).ssh.probe_dir, "/var/tmp");
}

TEST(Limits, TheRefusalsAreEmptyExactlyWithinEachLimit) {
  for (Tool tool : {Tool::kBuiltin, Tool::kNetperf, Tool::kSockperf, Tool::kIperf3})
    for (TestKind kind : {TestKind::kTcpRr, TestKind::kUdpRr, TestKind::kTcpStream, TestKind::kUdpStream}) {
      if (!tool_runs(tool, kind)) continue;
      TestSpec s;
      s.tool = tool;
      s.kind = kind;
      const SizeLimit l = message_size_limit(tool, kind, false);
      ASSERT_LE(l.min, l.max);
      for (std::uint64_t v : {l.min, l.max}) {
        s.message_size = v;
        EXPECT_THAT(message_size_refusal(s), IsEmpty()) << l.who << " " << v;
      }
      for (std::uint64_t v : {l.min - 1, l.max + 1}) {
        if (v == 0) continue;
        s.message_size = v;
        EXPECT_THAT(message_size_refusal(s), HasSubstr(std::to_string(v < l.min ? l.min : l.max)))
            << l.who << " " << v;
      }
    }
}

}  // namespace
}  // namespace labgate::profile
