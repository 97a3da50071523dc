// The probe on a live kernel: a network namespace with a veth pair, so the
// ioctls (SIOCETHTOOL, SIOCGIFMTU, SIOCGIFFLAGS, SIOCGIFADDR) answer for real.
// Needs root (CI runs as root); skipped otherwise.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <map>

#include "labgate/checks/checks.h"
#include "probe_runner.h"

namespace labgate::facts_fixture {
namespace {

using checks::Verdict;

// A namespace of our own (prefix h3f-, never the lab's lg-), removed on exit.
class Netns {
 public:
  Netns() : name_("h3f-" + std::to_string(getpid())) {
    ok_ = sh("ip netns add " + name_) && sh(in("ip link add v0 type veth peer name v1")) &&
          sh(in("ip addr add 198.18.200.1/30 dev v0")) && sh(in("ip link set v1 mtu 1400")) &&
          sh(in("ip link set v0 up")) && sh(in("ip link set v1 up")) && wait_operstate("v0", "up");
  }
  // The kernel reports a veth's carrier asynchronously (linkwatch, up to a second
  // later on a busy machine): wait for it rather than read "down" too early.
  bool wait_operstate(const std::string& dev, const std::string& want) const {
    for (int i = 0; i < 100; ++i) {
      if (sh(in("sh -c 'grep -qx " + want + " /sys/class/net/" + dev + "/operstate'"))) return true;
      usleep(50 * 1000);
    }
    return false;
  }
  ~Netns() { sh("ip netns del " + name_ + " 2>/dev/null"); }
  bool ok() const { return ok_; }
  std::string in(const std::string& cmd) const { return "ip netns exec " + name_ + " " + cmd; }
  std::string prefix() const { return "ip netns exec " + name_; }
  static bool sh(const std::string& cmd) { return std::system(cmd.c_str()) == 0; }

 private:
  std::string name_;
  bool ok_ = false;
};

TEST(LiveNetns, IoctlsReportTheVethPairAndChecksJudgeIt) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root for a network namespace";
  Netns ns;
  ASSERT_TRUE(ns.ok()) << "could not set up the namespace";
  profile::Preconditions pre;
  profile::InterfaceRule v0;
  v0.name = "v0";
  v0.driver = "veth";
  v0.mtu = 1500;
  v0.link = "up";
  profile::InterfaceRule nosuch;
  nosuch.name = "nosuch0";
  nosuch.driver = "veth";
  pre.interfaces = {v0, nosuch};
  ProbeRun run = run_probe(facts::probe_arguments(pre), ns.prefix());
  ASSERT_EQ(run.exit_code, 0);
  facts::Facts f = facts::parse_facts(run.out, "netns");
  const facts::InterfaceFacts& i = f.interfaces.at("v0");
  EXPECT_EQ(*i.driver.value, "veth");
  EXPECT_EQ(i.driver.source, "ioctl SIOCETHTOOL ETHTOOL_GDRVINFO v0");
  EXPECT_EQ(*i.mtu.value, 1500);
  EXPECT_EQ(*i.link.value, "up");
  EXPECT_EQ(*i.ipv4_address.value, "198.18.200.1");
  EXPECT_FALSE(*f.interfaces.at("nosuch0").exists.value);
  auto rs = checks::check_host("x", f, pre);
  EXPECT_EQ(checks::tally(rs).failed, 1);  // nosuch0
  EXPECT_EQ(rs.back().message, "host x: nosuch0 does not exist (/proc/net/dev)");

  // The peer goes down: v0 stays administratively up but loses its carrier.
  ASSERT_TRUE(Netns::sh(ns.in("ip link set v1 down")));
  ASSERT_TRUE(ns.wait_operstate("v0", "lowerlayerdown")) << "v0 kept its carrier with its peer down";
  run = run_probe(facts::probe_arguments(pre), ns.prefix());
  f = facts::parse_facts(run.out, "netns");
  EXPECT_EQ(*f.interfaces.at("v0").admin.value, "up");
  EXPECT_EQ(*f.interfaces.at("v0").link.value, "down");
  rs = checks::check_host("x", f, pre);
  int link_rules = 0;
  for (const auto& r : rs) {
    if (r.rule != "interfaces/v0/link") continue;
    ++link_rules;
    EXPECT_EQ(r.verdict, Verdict::kFail);
    EXPECT_THAT(r.fix, ::testing::HasSubstr("no carrier"));
  }
  EXPECT_EQ(link_rules, 1);
}

// veth answers ETHTOOL_GCHANNELS and the offload ioctls but not coalescing,
// rings or pause: those rules must come out "not checkable", never passed.
TEST(LiveNetns, VethReportsChannelsAndOffloadsButNotCoalesceRingOrPause) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root for a network namespace";
  Netns ns;
  ASSERT_TRUE(ns.ok()) << "could not set up the namespace";
  profile::Preconditions pre;
  profile::InterfaceRule v0;
  v0.name = "v0";
  v0.settings = {{"channels", {{"rx", "1"}, {"tx", "1"}}},
                 {"offload", {{"tso", "on"}, {"gro", "off"}}},
                 {"coalesce", {{"rx_usecs", "0"}}},
                 {"ring", {{"rx", "4096"}}},
                 {"pause", {{"rx", "off"}}}};
  v0.numa_node = 0;
  v0.speed_mbps = 10000;
  v0.duplex = "full";
  pre.interfaces = {v0};
  const ProbeRun run = run_probe(facts::probe_arguments(pre), ns.prefix());
  ASSERT_EQ(run.exit_code, 0);
  const facts::Facts f = facts::parse_facts(run.out, "netns");
  const auto rs = checks::check_host("x", f, pre);
  std::map<std::string, checks::CheckResult> by_rule;
  for (const auto& r : rs) by_rule[r.rule] = r;
  for (const char* ok : {"interfaces/v0/channels/rx", "interfaces/v0/channels/tx", "interfaces/v0/offload/tso",
                         "interfaces/v0/offload/gro", "interfaces/v0/link/speed", "interfaces/v0/link/duplex"})
    EXPECT_EQ(by_rule[ok].verdict, Verdict::kPass) << ok << ": " << by_rule[ok].message;
  EXPECT_EQ(by_rule["interfaces/v0/channels/rx"].source, "ioctl SIOCETHTOOL ETHTOOL_GCHANNELS v0");
  for (const char* no : {"interfaces/v0/coalesce/rx_usecs", "interfaces/v0/ring/rx", "interfaces/v0/pause/rx"})
    EXPECT_EQ(by_rule[no].verdict, Verdict::kNotCheckable) << no << ": " << by_rule[no].message;
  EXPECT_EQ(by_rule["interfaces/v0/coalesce/rx_usecs"].reason,
            "ioctl SIOCETHTOOL ETHTOOL_GCOALESCE v0: Not supported (the driver does not report it)");
  // veth has no PCI device: no NUMA node to compare.
  EXPECT_EQ(by_rule["interfaces/v0/numa_node"].verdict, Verdict::kNotCheckable);
  EXPECT_THAT(by_rule["interfaces/v0/numa_node"].reason, ::testing::HasSubstr("no PCI device behind v0"));
}

}  // namespace
}  // namespace labgate::facts_fixture
