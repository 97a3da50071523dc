// Tests for cpu rules: Hyper-Threading, the C-state limit in force, governors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT
using ::testing::HasSubstr;

TEST(Cpu, Rhel5HasNoIntelIdleSoTheProcessorLimitIsInForce) {
  facts::Facts f = tuned_rhel5();  // intel_idle.max_cstate=0 on the command line, no intel_idle module
  f.cpu.processor_max_cstate = text("8", "/sys/module/processor/parameters/max_cstate");
  const auto rs = check_host("a", f, only(&profile::Preconditions::cpu));
  const auto& r = find(rs, "cpu/max_cstate");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.found, "8");
  EXPECT_EQ(
      r.message,
      "host a: the C-state limit in force (/sys/module/processor/parameters/max_cstate: this kernel has no "
      "intel_idle, so intel_idle.max_cstate=0 on the command line does nothing; the ACPI processor driver's "
      "limit applies) is 8, profile wants at most 0");
  EXPECT_THAT(r.fix, HasSubstr("--args='idle=poll'"));
  EXPECT_TRUE(r.needs_reboot);
}

TEST(Cpu, TheCpuidleDriverDecidesOnModernKernels) {
  facts::Facts f = tuned_rhel5();
  f.cpu.cpuidle_driver = text("intel_idle", "/sys/devices/system/cpu/cpuidle/current_driver");
  f.cpu.intel_idle_max_cstate = text("9", "/sys/module/intel_idle/parameters/max_cstate");
  profile::Preconditions p = only(&profile::Preconditions::cpu);
  p.cpu->max_cstate = 1;
  auto rs = check_host("a", f, p);
  EXPECT_EQ(find(rs, "cpu/max_cstate").source, "/sys/module/intel_idle/parameters/max_cstate");
  EXPECT_THAT(find(rs, "cpu/max_cstate").fix, HasSubstr("processor.max_cstate=1 intel_idle.max_cstate=1"));
  f.cpu.cpuidle_driver = text("haltpoll", "/sys/devices/system/cpu/cpuidle/current_driver");
  rs = check_host("a", f, p);
  EXPECT_EQ(find(rs, "cpu/max_cstate").verdict, Verdict::kNotCheckable);
  EXPECT_EQ(find(rs, "cpu/max_cstate").reason,
            "the cpuidle driver is haltpoll, which has no max_cstate limit");
  f.kernel.cmdline = text("ro idle=poll", "/proc/cmdline");
  rs = check_host("a", f, p);
  EXPECT_EQ(find(rs, "cpu/max_cstate").verdict, Verdict::kPass);
}

TEST(Cpu, Rhel5SetsTheProcessorLimitLive) {
  facts::Facts f = tuned_rhel5();
  f.cpu.processor_max_cstate = text("8", "/sys/module/processor/parameters/max_cstate");
  profile::Preconditions p = only(&profile::Preconditions::cpu);
  p.cpu->max_cstate = 1;
  const auto rs = check_host("a", f, p);
  EXPECT_THAT(find(rs, "cpu/max_cstate").fix,
              HasSubstr("echo 1 > '/sys/module/processor/parameters/max_cstate'\n"));
}

TEST(Cpu, HyperThreadingIsABiosSetting) {
  facts::Facts f = tuned_rhel5();
  f.cpu.hyperthreading = {true, "/proc/cpuinfo", "", false, "siblings 16, cpu cores 8 per package"};
  const auto rs = check_host("a", f, only(&profile::Preconditions::cpu));
  const auto& r = find(rs, "cpu/hyperthreading");
  EXPECT_EQ(r.message,
            "host a: Hyper-Threading (/proc/cpuinfo: siblings 16, cpu cores 8 per package) is on, profile "
            "wants off");
  EXPECT_THAT(r.fix, HasSubstr("RBSU"));
}

TEST(Cpu, GovernorOnlyWhereCpufreqIsActive) {
  facts::Facts f = tuned_rhel5();
  auto rs = check_host("a", f, only(&profile::Preconditions::cpu));
  EXPECT_EQ(find(rs, "cpu/governor").verdict, Verdict::kNotCheckable);
  f.cpu.cpufreq = {true, "/sys/devices/system/cpu/cpu*/cpufreq", "", false, ""};
  f.cpu.governors["cpu0"] = text("performance", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  f.cpu.governors["cpu3"] = text("powersave", "/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor");
  rs = check_host("a", f, only(&profile::Preconditions::cpu));
  const auto& r = find(rs, "cpu/governor");
  EXPECT_EQ(r.message,
            "host a: cpufreq governor is not performance on cpu3 powersave "
            "(/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor)");
  EXPECT_THAT(r.fix, HasSubstr("echo 'performance' > \"$f\""));
  f.cpu.governors["cpu3"] = text("performance", "/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor");
  EXPECT_EQ(find(check_host("a", f, only(&profile::Preconditions::cpu)), "cpu/governor").verdict,
            Verdict::kPass);
}

}  // namespace
}  // namespace labgate::checks
