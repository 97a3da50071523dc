// Tests of profile loading on the shipped profiles and on the bad fixtures in
// tests/fixtures/profiles, whose `# expect-error:` comments say which errors the
// loader must report on which line (and nothing else).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "labgate/profile/load.h"
#include "labgate/util/exit_code.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using ::testing::HasSubstr;

// ------------------------------------------------------------ shipped profiles

TEST(Load, ExampleProfileIsValidAndTyped) {
  LoadResult r = load(test_util::kSourceDir + "/profiles/example-rhel58-pair.toml");
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  const Profile& p = *r.profile;
  EXPECT_EQ(p.lab_name, "ctp-pair-1");
  ASSERT_EQ(p.hosts.size(), 2u);
  EXPECT_EQ(p.hosts[0].name, "a");  // file order
  EXPECT_EQ(p.hosts[0].address, "10.228.235.168");
  EXPECT_EQ(p.hosts[1].test_address, "1.1.1.2");
  EXPECT_TRUE(p.hosts[1].ssh.legacy_algorithms);
  EXPECT_EQ(p.hosts[1].ssh.command_timeout, std::chrono::seconds(300));
  const Preconditions& pre = p.preconditions;
  EXPECT_EQ(pre.kernel_release, "2.6.18-308.el5");
  ASSERT_TRUE(pre.kernel_cmdline);
  EXPECT_EQ(pre.kernel_cmdline->absent, std::vector<std::string>{"quiet"});
  ASSERT_EQ(pre.sysctl.size(), 10u);
  EXPECT_EQ(pre.sysctl[0].key, "net.ipv4.tcp_timestamps");
  EXPECT_EQ(pre.sysctl[9].fields, (std::vector<std::string>{"4096", "87380", "16777216"}));
  ASSERT_EQ(pre.modules.size(), 1u);
  EXPECT_EQ(pre.modules[0].parameters.at("tg3_disable_eee"), "1");
  ASSERT_EQ(pre.interfaces.size(), 1u);
  EXPECT_EQ(pre.interfaces[0].firmware_version, "5719-v1.31 NCSI v1.1.15.0");
  EXPECT_EQ(pre.services_disabled.size(), 30u);
  EXPECT_EQ(pre.cpu->max_cstate, 0);
  EXPECT_EQ(pre.bios.size(), 19u);  // seed 000's RBSU table
  EXPECT_TRUE(pre.buffers_cover_bdp);
  EXPECT_EQ(pre.rule_count(), 62 + 19 + 1);

  ASSERT_EQ(p.tests.size(), 24u);
  const TestSpec& t = p.tests[0];
  EXPECT_EQ(t.name, "tcp_rr_64");
  EXPECT_EQ(t.duration, std::chrono::seconds(120));  // [defaults.test]
  EXPECT_EQ(t.cpu.client, 2);
  ASSERT_NE(t.find_bound(Stat::kMax), nullptr);
  EXPECT_DOUBLE_EQ(t.find_bound(Stat::kMax)->limit, 1.3e6);
  EXPECT_EQ(t.find_bound(Stat::kMax)->as_written, "1.3ms");
  EXPECT_EQ(p.find_test("udp_rr_64")->find_bound(Stat::kDropped)->limit, 0);
  EXPECT_DOUBLE_EQ(p.find_test("tcp_stream_64")->find_bound(Stat::kMinThroughput)->limit, 250e6);
  EXPECT_DOUBLE_EQ(p.find_test("udp_stream_64")->find_bound(Stat::kMaxLoss)->limit, 0.001);
  EXPECT_EQ(p.find_test("tcp_rr_64_netperf")->tool, Tool::kNetperf);
  const TestSpec* jitter = p.find_test("timer_jitter");
  EXPECT_EQ(jitter->kind, TestKind::kJitter);
  EXPECT_EQ(jitter->on, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(jitter->cpus, (std::vector<int>{2, 3}));
  EXPECT_EQ(jitter->duration, std::chrono::seconds(60));
}

TEST(Load, ExampleProfileHoldsTheSeedsFieldPractice) {
  LoadResult r = load(test_util::kSourceDir + "/profiles/example-rhel58-pair.toml");
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  const Profile& p = *r.profile;
  EXPECT_EQ(p.find_test("path_mtu")->mtu, 1500);  // from [preconditions.interfaces.eth1]
  EXPECT_EQ(p.find_test("flood_ping/size=4096")->ping.size, 4096u);
  EXPECT_DOUBLE_EQ(p.find_test("flood_ping/size=4096")->find_bound(Stat::kMean)->limit, 250e3);
  EXPECT_DOUBLE_EQ(p.find_test("flood_ping/size=1024")->find_bound(Stat::kMean)->limit, 150e3);
  EXPECT_DOUBLE_EQ(p.find_test("tcp_stream_msg/message_size=1024")->find_bound(Stat::kMinThroughput)->limit,
                   900e6);
  EXPECT_DOUBLE_EQ(
      p.find_test("tcp_stream_sockbuf/socket_buffer=16KiB")->find_bound(Stat::kMinThroughput)->limit, 100e6);
  EXPECT_EQ(p.find_test("tcp_stream_cc/congestion=htcp")->congestion, "htcp");
  EXPECT_EQ(p.find_test("dns_lookup")->command.count, 100u);
  const TestSpec* sb = p.find_test("rac_storage_sysbench");
  EXPECT_EQ(sb->tool, Tool::kSysbench);
  EXPECT_EQ(sb->disk.path, "/u01/labgate/labgate-rac_storage_sysbench.dat");
  EXPECT_TRUE(sb->disk.direct);
  EXPECT_EQ(p.find_test("rac_storage_rndrd")->disk.block_size, 16384u);
}

TEST(Load, LabProfilesAreValid) {
  LoadResult lab = load(test_util::kSourceDir + "/profiles/lab.toml");
  ASSERT_TRUE(lab.profile) << test_util::error_lines(lab);
  const Profile& p = *lab.profile;
  EXPECT_EQ(p.find_host("a")->address, "198.18.0.2");
  EXPECT_EQ(p.find_host("b")->test_address, "198.19.1.2");
  EXPECT_EQ(p.find_host("a")->ssh.identity, test_util::kSourceDir + "/.lab/pair1/id_rsa");
  EXPECT_EQ(p.find_host("b")->ssh.known_hosts, test_util::kSourceDir + "/.lab/pair1/known_hosts");
  EXPECT_EQ(p.lease_wait, std::chrono::seconds(60));
  EXPECT_EQ(p.find_test("udp_stream_64")->rate_per_sec, 2000.0);
  EXPECT_EQ(p.find_test("tcp_stream_iperf3")->tool, Tool::kIperf3);

  LoadResult legacy = load(test_util::kSourceDir + "/profiles/lab-legacy.toml");
  ASSERT_TRUE(legacy.profile) << test_util::error_lines(legacy);
  EXPECT_EQ(legacy.profile->hosts[0].ssh.port, 2222);
  EXPECT_TRUE(legacy.profile->hosts[1].ssh.legacy_algorithms);
}

// ------------------------------------------------------------ the issue's typos

TEST(Load, IssueTyposAreAllReportedWithLineAndColumn) {
  LoadResult r = load(test_util::kProfileFixtures + "issue-typos.toml");
  EXPECT_FALSE(r.profile);
  ASSERT_EQ(r.errors.size(), 3u) << test_util::error_lines(r);
  EXPECT_EQ(r.errors[0].str(), test_util::kProfileFixtures +
                                   "issue-typos.toml:37:1: unknown table [preconditions.sysctls]; did you "
                                   "mean [preconditions.sysctl]?");
  EXPECT_EQ(r.errors[1].pos.line, 87);
  EXPECT_EQ(r.errors[1].pos.column, 32);
  EXPECT_EQ(r.errors[1].key, "test[tcp_rr_64].budget.p99");
  EXPECT_THAT(r.errors[1].message,
              HasSubstr("\"140 us\" has a space between number and unit; write \"140us\""));
  EXPECT_EQ(r.errors[2].pos.line, 93);
  EXPECT_EQ(r.errors[2].pos.column, 6);
  EXPECT_EQ(r.errors[2].key, "test[udp_rr_64].to");
  EXPECT_THAT(r.errors[2].message, HasSubstr("\"c\" is not a defined host; defined hosts: a, b"));
}

TEST(Load, LoadOrThrowJoinsEveryError) {
  try {
    load_or_throw(test_util::kProfileFixtures + "issue-typos.toml");
    FAIL() << "no exception";
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kUsageError);
    const std::string what = f.what();
    EXPECT_THAT(what, HasSubstr("issue-typos.toml:37:1: unknown table"));
    EXPECT_THAT(what, HasSubstr("issue-typos.toml:87:32: test[tcp_rr_64].budget.p99: "));
    EXPECT_THAT(what, HasSubstr("issue-typos.toml:93:6: test[udp_rr_64].to: "));
    EXPECT_EQ(std::count(what.begin(), what.end(), '\n'), 2);  // three errors, one per line
  }
}

}  // namespace
}  // namespace labgate::profile
