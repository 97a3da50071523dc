// The tuning rules on the recorded RHEL 7-like and RHEL 9-like hosts
// (tests/fixtures/rhel) and on the RHEL 5.8 host, through the real probe and
// profiles/example-rhel9-pair.toml: NIC settings, IRQs, NUMA, isolation, THP,
// tuned, and what 2.6.18 cannot report coming out "not checkable".
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/checks/checks.h"
#include "labgate/checks/fix_script.h"
#include "labgate/profile/load.h"
#include "probe_runner.h"

namespace labgate::facts_fixture {
namespace {

using checks::CheckResult;
using checks::Verdict;
using ::testing::HasSubstr;

const std::string kRoots = LABGATE_SOURCE_DIR "/tests/fixtures/";

const profile::Profile& rhel9_example() {
  static const profile::Profile p = profile::load_or_throw(LABGATE_SOURCE_DIR "/profiles/example-rhel9-pair.toml");
  return p;
}

std::vector<CheckResult> judge_root(const std::string& root, const std::string& host,
                                    const profile::Preconditions& pre) {
  const facts::Facts f = facts_of_root(kRoots + root, pre);
  return checks::check_host(host, f, pre);
}

const CheckResult& result_of_rule(const std::vector<CheckResult>& rs, const std::string& rule) {
  for (const CheckResult& r : rs)
    if (r.rule == rule) return r;
  throw std::runtime_error("no result " + rule);
}

TEST(Rhel9Host, TheExampleProfilePassesButForOneIrqOffItsCpus) {
  const auto rs = judge_root("rhel/rhel9", "a", rhel9_example().preconditions);
  std::vector<std::string> failed, unknown;
  for (const CheckResult& r : rs) {
    if (r.verdict == Verdict::kFail) failed.push_back(r.rule);
    if (r.verdict == Verdict::kNotCheckable) unknown.push_back(r.rule + ": " + r.reason);
  }
  EXPECT_THAT(failed, ::testing::ElementsAre("interfaces/ens1f0/irq_cpus"));
  // The fixture records only the direct port: the switch network's cases have no NIC on a.
  const std::string no_switch_nic =
      ": test udp_rr_64/network=switch CPU 3: no interface holds its test address; test tcp_rr_switch CPU 3: "
      "no interface holds its test address";
  EXPECT_THAT(unknown, ::testing::ElementsAre("cpu/test_cpus_isolated" + no_switch_nic,
                                              "cpu/test_cpus_nic_local" + no_switch_nic));
  const CheckResult& irq = result_of_rule(rs, "interfaces/ens1f0/irq_cpus");
  EXPECT_EQ(irq.message,
            "host a: ens1f0 IRQs fire outside 0-1: IRQ 105 on 5 (/proc/irq/105/effective_affinity_list)");
  EXPECT_THAT(irq.fix, HasSubstr("echo 0-1 > /proc/irq/105/smp_affinity_list"));
  EXPECT_THAT(irq.fix, HasSubstr("tuned's cpu-partitioning"));
  EXPECT_EQ(result_of_rule(rs, "interfaces/ens1f0/coalesce/rx_usecs").source,
            "/.labgate-ioctl/ens1f0.conf:11");
  EXPECT_EQ(result_of_rule(rs, "interfaces/ens1f0/numa_node").verdict, Verdict::kPass);
  EXPECT_EQ(result_of_rule(rs, "interfaces/ens1f0/network").found, "198.18.7.1");
  profile::Preconditions direct_only = rhel9_example().preconditions;
  direct_only.host_use["a"].pinned = {{"udp_rr_64/network=direct", 3, "direct"}};
  const auto direct = judge_root("rhel/rhel9", "a", direct_only);
  EXPECT_EQ(result_of_rule(direct, "cpu/test_cpus_isolated").verdict, Verdict::kPass);
  EXPECT_EQ(result_of_rule(direct, "cpu/test_cpus_nic_local").verdict, Verdict::kPass);
  EXPECT_EQ(result_of_rule(rs, "service_enabled/tuned").verdict, Verdict::kPass);
  EXPECT_EQ(result_of_rule(rs, "cpu/transparent_hugepage").source,
            "/sys/kernel/mm/transparent_hugepage/enabled");
}

TEST(Rhel9Host, AManagedIrqIsFixedOnTheKernelLineNotInProc) {
  profile::Preconditions pre = rhel9_example().preconditions;
  pre.interfaces.at(0).irq_cpus = "2-3";  // every IRQ is now off; IRQ 98 is managed
  const auto rs = judge_root("rhel/rhel9", "a", pre);
  const CheckResult& irq = result_of_rule(rs, "interfaces/ens1f0/irq_cpus");
  EXPECT_THAT(irq.fix, HasSubstr("IRQ 98 is managed by the kernel: its affinity cannot be written"));
  EXPECT_THAT(irq.fix, ::testing::Not(HasSubstr("/proc/irq/98/")));
  EXPECT_THAT(irq.fix, HasSubstr("echo 2-3 > /proc/irq/99/smp_affinity_list"));
}

TEST(Rhel9Host, ATestOnACpuOffTheNicsNodeOrNotIsolatedFails) {
  profile::Preconditions pre = rhel9_example().preconditions;
  pre.host_use["a"].pinned = {{"udp_rr_64/network=direct", 9, "direct"}, {"x", 1, "direct"}, {"y", 99, ""}};
  const auto rs = judge_root("rhel/rhel9", "a", pre);
  EXPECT_EQ(result_of_rule(rs, "cpu/test_cpus_nic_local").message,
            "host a: test udp_rr_64/network=direct CPU 9 is on node 1, ens1f0 on node 0; test y CPU 99 does "
            "not exist (the host has CPUs 0-15)");
  EXPECT_EQ(result_of_rule(rs, "cpu/test_cpus_isolated").message,
            "host a: test x CPU 1 is not isolated (isolated: 2-15); test x CPU 1 receives IRQ 101 of ens1f0 "
            "(/proc/irq/101/effective_affinity_list); test x CPU 1 receives IRQ 103 of ens1f0 "
            "(/proc/irq/103/effective_affinity_list); test x CPU 1 receives IRQ 99 of ens1f0 "
            "(/proc/irq/99/effective_affinity_list); test y CPU 99 does not exist (the host has CPUs 0-15)");
}

TEST(Rhel7Host, IsolationFromTheBootLineAndAffinityFromTheList) {
  profile::Preconditions pre = rhel9_example().preconditions;
  pre.interfaces.at(0).name = "ens2f0";
  pre.interfaces.at(0).network.reset();
  pre.host_use["a"].networks = {{"direct", "198.18.5.1"}};
  pre.host_use["a"].pinned = {{"t", 3, "direct"}};
  const auto rs = judge_root("rhel/rhel7", "a", pre);
  const CheckResult& iso = result_of_rule(rs, "cpu/isolated");
  EXPECT_EQ(iso.verdict, Verdict::kPass);
  EXPECT_THAT(iso.message, HasSubstr("from isolcpus= on /proc/cmdline"));
  EXPECT_EQ(result_of_rule(rs, "cpu/nohz_full").source, "/sys/devices/system/cpu/nohz_full");
  EXPECT_EQ(result_of_rule(rs, "interfaces/ens2f0/irq_cpus").message,
            "host a: ens2f0 IRQs fire outside 0-1: IRQ 71 on 4 (/proc/irq/71/smp_affinity_list)");
  EXPECT_EQ(result_of_rule(rs, "interfaces/ens2f0/pause/rx").verdict, Verdict::kFail);
  EXPECT_THAT(result_of_rule(rs, "interfaces/ens2f0/pause/rx").fix,
              HasSubstr("ethtool -A 'ens2f0' rx off\n# and for every boot"));
  EXPECT_THAT(result_of_rule(rs, "interfaces/ens2f0/pause/rx").fix,
              HasSubstr("nmcli connection modify 'ens2f0' ethtool.pause-rx off"));
  EXPECT_EQ(result_of_rule(rs, "cpu/tuned_profile").found, "latency-performance");
  EXPECT_THAT(result_of_rule(rs, "cpu/test_cpus_nic_local").verdict, Verdict::kPass);
}

TEST(Rhel58Host, WhatTwoSixEighteenCannotSayIsNotCheckable) {
  profile::Preconditions pre = rhel9_example().preconditions;
  pre.interfaces.at(0).name = "eth1";
  pre.interfaces.at(0).network.reset();
  pre.host_use["b"].networks = {{"", "1.1.1.1"}};
  pre.host_use["b"].pinned = {{"t", 3, ""}};
  const auto rs = judge_root("rhel58/after", "b", pre);
  const CheckResult& ch = result_of_rule(rs, "interfaces/eth1/channels/combined");
  EXPECT_EQ(ch.verdict, Verdict::kNotCheckable);
  EXPECT_EQ(ch.reason,
            "/.labgate-ioctl/eth1.conf:19: Not supported (the kernel or driver cannot report it; "
            "ETHTOOL_GCHANNELS exists from 2.6.37)");
  EXPECT_THAT(result_of_rule(rs, "interfaces/eth1/offload/gro").reason,
              HasSubstr("ETHTOOL_GGRO exists from 2.6.30"));
  EXPECT_THAT(result_of_rule(rs, "interfaces/eth1/offload/lro").reason,
              HasSubstr("the LRO flag exists from 2.6.24"));
  EXPECT_EQ(result_of_rule(rs, "interfaces/eth1/offload/tso").verdict, Verdict::kPass);
  EXPECT_EQ(result_of_rule(rs, "interfaces/eth1/coalesce/rx_usecs").found, "20");
  EXPECT_THAT(
      result_of_rule(rs, "interfaces/eth1/coalesce/rx_usecs").fix,
      HasSubstr("ethtool -C 'eth1' rx-usecs 0\n# and for every boot (RHEL 5 has no ETHTOOL_OPTS for this): "
                "the same line in /etc/rc.d/rc.local"));
  EXPECT_EQ(result_of_rule(rs, "cpu/clocksource").verdict, Verdict::kNotCheckable);
  EXPECT_THAT(result_of_rule(rs, "cpu/clocksource").reason, HasSubstr("x86_64 kernels before 2.6.21"));
  EXPECT_EQ(result_of_rule(rs, "cpu/transparent_hugepage").verdict,
            Verdict::kPass);  // no THP at all in 2.6.18
  EXPECT_EQ(result_of_rule(rs, "cpu/tuned_profile").verdict, Verdict::kFail);
  EXPECT_THAT(result_of_rule(rs, "cpu/tuned_profile").fix, HasSubstr("chkconfig tuned on"));
  const CheckResult& irq = result_of_rule(rs, "interfaces/eth1/irq_cpus");
  EXPECT_EQ(irq.message, "host b: eth1 IRQs fire outside 0-1: IRQ 98 on 0-15 (/proc/irq/98/smp_affinity)");
  EXPECT_THAT(irq.fix, HasSubstr("echo 3 > /proc/irq/98/smp_affinity\n"));
  EXPECT_THAT(irq.fix, HasSubstr("/etc/rc.d/rc.local"));
  EXPECT_EQ(result_of_rule(rs, "cpu/isolated").found, "(none)");
  EXPECT_THAT(result_of_rule(rs, "cpu/isolated").fix, HasSubstr("grubby --update-kernel="));
  EXPECT_EQ(result_of_rule(rs, "interfaces/eth1/numa_node").verdict, Verdict::kNotCheckable);
  // CPU 3 exists (16 CPUs from /proc/cpuinfo: 2.6.18 has no cpu/online) but is not isolated.
  EXPECT_THAT(result_of_rule(rs, "cpu/test_cpus_isolated").message,
              HasSubstr("test t CPU 3 is not isolated"));
}

}  // namespace
}  // namespace labgate::facts_fixture
