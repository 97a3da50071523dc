// Tests for probe_arguments: one probe run asks for exactly what the rules need.
#include "labgate/facts/probe_args.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace labgate::facts {
namespace {

using ::testing::ElementsAre;

std::string flag_values(const std::vector<std::string>& args, const std::string& flag) {
  std::string out;
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == flag) out += (out.empty() ? "" : " ") + args[i + 1];
  return out;
}

TEST(ProbeArguments, OnlyOsAndKernelForAnEmptyProfile) {
  EXPECT_THAT(probe_arguments({}), ElementsAre("--sections", "kernel,os"));
}

TEST(ProbeArguments, EveryRuleFamilyAsksForItsSectionAndNames) {
  profile::Preconditions pre;
  pre.kernel_cmdline = profile::CmdlineRule{{"nosoftlockup"}, {"quiet"}};
  pre.sysctl = {{"net.ipv4.tcp_sack", {"0"}, {}}, {"net.ipv4.tcp_rmem", {"4096", "87380", "16777216"}, {}}};
  pre.modules.push_back({"tg3", true, "3.125g", {}, {}, {}});
  profile::InterfaceRule eth1;
  eth1.name = "eth1";
  eth1.driver = "tg3";
  eth1.link = "up";
  eth1.mtu = 1500;
  pre.interfaces.push_back(eth1);
  pre.services_disabled = {"avahi-daemon", "cups"};
  pre.cpu = profile::CpuRule{};
  pre.cpu->hyperthreading = false;
  pre.cpu->max_cstate = 0;
  pre.cpu->governor = "performance";
  pre.same_on_all_hosts = {"modules.e1000e.version", "interfaces.eth2.mtu", "kernel_release"};
  const auto args = probe_arguments(pre, "/tmp/root");
  EXPECT_THAT(std::vector<std::string>(args.begin(), args.begin() + 2), ElementsAre("--root", "/tmp/root"));
  EXPECT_EQ(flag_values(args, "--sections"),
            "boot,cpu,interfaces,kernel,modules,os,processes,services,sysctl");
  EXPECT_EQ(flag_values(args, "--sysctl"), "net.ipv4.tcp_sack net.ipv4.tcp_rmem");
  EXPECT_EQ(flag_values(args, "--module"), "e1000e tg3");
  EXPECT_EQ(flag_values(args, "--iface"), "eth1 eth2");
  EXPECT_EQ(flag_values(args, "--service"), "avahi-daemon cups");
}

TEST(ProbeArguments, SameOnAllHostsAloneStillGathersItsFacts) {
  profile::Preconditions pre;
  pre.same_on_all_hosts = {"kernel_cmdline", "cpu.max_cstate", "modules.tg3.parameters"};
  const auto args = probe_arguments(pre);
  EXPECT_EQ(flag_values(args, "--sections"), "boot,cpu,kernel,modules,os");
  EXPECT_EQ(flag_values(args, "--module"), "tg3");
}

}  // namespace
}  // namespace labgate::facts

namespace labgate::facts {
namespace {

TEST(ProbeArguments, TuningRulesAskForServicesBootAndEveryInterface) {
  profile::Preconditions pre;
  pre.services_enabled = {"chronyd"};
  pre.cpu = profile::CpuRule{};
  pre.cpu->isolated = "2-15";
  pre.cpu->tuned_profile = "network-latency";
  pre.cpu->test_cpus_nic_local = true;  // the NIC of a test is whichever interface holds its address
  pre.same_on_all_hosts = {"interfaces.ens1f0.coalesce"};
  const auto args = probe_arguments(pre);
  std::string sections, services, ifaces;
  bool all = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--sections") sections = args[i + 1];
    if (args[i] == "--service") services += (services.empty() ? "" : " ") + args[i + 1];
    if (args[i] == "--iface") ifaces += args[i + 1];
    all = all || args[i] == "--all-interfaces";
  }
  EXPECT_EQ(sections, "boot,cpu,interfaces,kernel,os,processes,services");
  EXPECT_EQ(services, "chronyd tuned");
  EXPECT_EQ(ifaces, "ens1f0");
  EXPECT_TRUE(all);
}

}  // namespace
}  // namespace labgate::facts
