// Tests of the kinds and keys added for the seeds' field practice, on the valid
// fixture extra-kinds.toml: path_mtu, ping_flood, command, disk kinds, sweeps
// with per-value budgets, counter budgets, BIOS rules and buffers_cover_bdp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

const std::string kExtraKindsFixture = test_util::kProfileFixtures + "extra-kinds.toml";

class ExtraKinds : public ::testing::Test {
 protected:
  void SetUp() override {
    LoadResult r = load(kExtraKindsFixture);
    ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
    p_ = *r.profile;
  }
  const TestSpec& test(const std::string& name) {
    const TestSpec* t = p_.find_test(name);
    if (!t) throw std::runtime_error("no test " + name);
    return *t;
  }
  double limit(const std::string& name, Stat s) {
    const Bound* b = test(name).find_bound(s);
    if (!b) throw std::runtime_error("no bound " + std::string(to_string(s)) + " in " + name);
    return b->limit;
  }
  Profile p_;
};

TEST_F(ExtraKinds, PathMtuExpectsTheInterfacesMtuUnlessWritten) {
  EXPECT_EQ(test("mtu_from_interfaces").kind, TestKind::kPathMtu);
  EXPECT_EQ(test("mtu_from_interfaces").mtu, 9000);
  EXPECT_EQ(test("mtu_written").mtu, 1500);
  EXPECT_TRUE(test("mtu_written").budget.empty());
}

TEST_F(ExtraKinds, PingFloodSweepsSizeWithAPerValueBudget) {
  const TestSpec& small = test("flood/size=1024");
  EXPECT_EQ(small.kind, TestKind::kPingFlood);
  EXPECT_EQ(small.ping.count, 1000u);
  EXPECT_EQ(small.ping.size, 1024u);
  EXPECT_FALSE(small.ping.interval);  // flood pace
  EXPECT_EQ(small.sweep_of, "flood");
  ASSERT_EQ(small.sweep.size(), 1u);
  EXPECT_EQ(small.sweep[0].parameter, "size");
  EXPECT_EQ(small.sweep[0].value, "1024");
  EXPECT_DOUBLE_EQ(limit("flood/size=1024", Stat::kMean), 20e6);
  EXPECT_DOUBLE_EQ(limit("flood/size=4096", Stat::kMean), 31e6);  // budget_by
  EXPECT_DOUBLE_EQ(limit("flood/size=4096", Stat::kMdev), 25e6);  // inherited from budget
  EXPECT_DOUBLE_EQ(limit("flood/size=4096", Stat::kMaxLoss), 0);
  EXPECT_DOUBLE_EQ(limit("flood/size=4096", Stat::kMaxRxDrops), 0);
  EXPECT_EQ(p_.find_test("flood"), nullptr);  // only the cases exist
  EXPECT_EQ(test("flood_paced").ping.interval, milliseconds(10));
}

TEST_F(ExtraKinds, CommandRunsAnArgvOnOneHost) {
  const TestSpec& dig = test("dig");
  EXPECT_EQ(dig.on, std::vector<std::string>{"a"});
  EXPECT_EQ(dig.command.argv, (std::vector<std::string>{"dig", "@ns1", "example.internal"}));
  EXPECT_EQ(dig.command.count, 100u);
  EXPECT_EQ(dig.command.pause, seconds(1));
  EXPECT_EQ(dig.command.timeout, seconds(5));
  EXPECT_DOUBLE_EQ(limit("dig", Stat::kMaxFailures), 0);
  const TestSpec& loop = test("true_for_a_while");
  EXPECT_FALSE(loop.command.count);  // runs for the duration instead
  EXPECT_EQ(loop.duration, seconds(10));
  EXPECT_EQ(loop.on, std::vector<std::string>{"b"});
}

TEST_F(ExtraKinds, MessageSizeSweepMatchesBudgetByValueByMeaning) {
  std::vector<std::string> names;
  for (const TestSpec& t : p_.tests)
    if (t.sweep_of == "tcp_stream_sweep") names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"tcp_stream_sweep/message_size=64",
                                             "tcp_stream_sweep/message_size=1024",
                                             "tcp_stream_sweep/message_size=4KiB"}));
  EXPECT_EQ(test("tcp_stream_sweep/message_size=4KiB").message_size, 4096u);
  EXPECT_DOUBLE_EQ(limit("tcp_stream_sweep/message_size=64", Stat::kMinThroughput), 900e6);
  EXPECT_DOUBLE_EQ(limit("tcp_stream_sweep/message_size=4KiB", Stat::kMinThroughput), 940e6);  // "4096" key
  EXPECT_DOUBLE_EQ(limit("tcp_stream_sweep/message_size=4KiB", Stat::kMaxRetransmits), 0);
}

TEST_F(ExtraKinds, TwoListsGiveEveryCombination) {
  std::vector<std::string> names;
  for (const TestSpec& t : p_.tests)
    if (t.sweep_of == "buffers") names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"buffers/socket_buffer=16KiB,congestion=cubic",
                                             "buffers/socket_buffer=16KiB,congestion=reno",
                                             "buffers/socket_buffer=128KiB,congestion=cubic",
                                             "buffers/socket_buffer=128KiB,congestion=reno"}));
  const TestSpec& t = test("buffers/socket_buffer=16KiB,congestion=reno");
  EXPECT_EQ(t.socket_buffer, 16384u);
  EXPECT_EQ(t.congestion, "reno");
  EXPECT_DOUBLE_EQ(limit(t.name, Stat::kMinThroughput), 100e6);
  EXPECT_DOUBLE_EQ(limit(t.name, Stat::kMaxRetransmits), 10);
  EXPECT_DOUBLE_EQ(limit("buffers/socket_buffer=128KiB,congestion=cubic", Stat::kMinThroughput), 500e6);
  EXPECT_EQ(test("buffers/socket_buffer=128KiB,congestion=cubic").find_bound(Stat::kMaxRetransmits), nullptr);
}

TEST_F(ExtraKinds, DiskTestsStayBelowTheConfiguredDirectory) {
  const TestSpec& rd = test("rndrd");
  EXPECT_EQ(rd.kind, TestKind::kDiskRandomRead);
  EXPECT_EQ(rd.tool, Tool::kBuiltin);
  EXPECT_EQ(rd.disk.dir, "/u01/labgate");  // [defaults.test] disk_dir
  EXPECT_EQ(rd.disk.path, "/u01/labgate/labgate-rndrd.dat");
  EXPECT_EQ(rd.disk.file_size, 64u << 20);
  EXPECT_EQ(rd.disk.block_size, 16384u);  // default
  EXPECT_EQ(rd.disk.threads, 2);
  EXPECT_TRUE(rd.disk.direct);
  EXPECT_DOUBLE_EQ(limit("rndrd", Stat::kMinIops), 150);
  const TestSpec& rw = test("rndrw_sysbench");
  EXPECT_EQ(rw.tool, Tool::kSysbench);
  EXPECT_EQ(rw.disk.dir, "/data");
  EXPECT_EQ(rw.disk.path, "/data/lg/file.dat");
  EXPECT_EQ(rw.disk.block_size, 4096u);
  EXPECT_FALSE(rw.disk.direct);
  EXPECT_DOUBLE_EQ(rw.disk.read_mix, 0.5);
}

TEST_F(ExtraKinds, BiosRulesAndBufferRuleAreRules) {
  const Preconditions& pre = p_.preconditions;
  ASSERT_EQ(pre.bios.size(), 2u);
  EXPECT_EQ(pre.bios[0].name, "Intel_Hyperthreading");
  EXPECT_EQ(pre.bios[0].value, "Disabled");
  EXPECT_EQ(pre.bios[1].name, "HP_Power_Profile");
  EXPECT_GT(pre.bios[1].pos.line, 0);
  EXPECT_TRUE(pre.buffers_cover_bdp);
  EXPECT_GT(pre.buffers_cover_bdp_pos.line, 0);
  EXPECT_EQ(pre.rule_count(), 1 + 2 + 1);  // mtu, two BIOS settings, buffers_cover_bdp
}

}  // namespace
}  // namespace labgate::profile
