// cpu: Hyper-Threading (from the topology in /proc/cpuinfo), the C-state limit
// in force, and the cpufreq governor where cpufreq is active.
#include <cctype>

#include "rules.h"

namespace labgate::checks::internal {
namespace {

std::optional<std::string> cmdline_value(const facts::Facts& f, const std::string& key) {
  for (const std::string& w : words(f.kernel.cmdline.value.value_or("")))
    if (w.rfind(key + "=", 0) == 0) return w.substr(key.size() + 1);
  return std::nullopt;
}

std::string max_cstate_fix(const facts::Facts& f, long long want, const CstateLimit& limit) {
  // processor.max_cstate=0 is read as 1 by the ACPI idle driver: only idle=poll keeps CPUs in C0.
  std::vector<std::string> add;
  if (want == 0)
    add.push_back("idle=poll");
  else
    add.push_back("processor.max_cstate=" + std::to_string(want));
  if (want > 0 && limit.source.find("intel_idle") != std::string::npos)
    add.push_back("intel_idle.max_cstate=" + std::to_string(want));
  std::string fix;
  if (want > 0 && limit.source == "/sys/module/processor/parameters/max_cstate" &&
      style_of(f) == Style::kRhelSysv)
    fix = "# 2.6.18 reads this limit live:\necho " + std::to_string(want) + " > " + sh_quote(limit.source) +
          "\n";
  return fix + "# and for every boot:\n" + boot_args_fix(f, add, {});
}

// The deepest idle state any CPU may enter, from cpuidle's state names ("C6",
// "C1E"; POLL is C0), and which CPU: what the limit alone cannot say (a
// driver without max_cstate, or states disabled one by one as tuned does).
struct Deepest {
  long long level = -1;
  std::string cpu, name;
};
std::optional<Deepest> deepest_enabled(const facts::Facts& f) {
  std::optional<Deepest> out;
  for (const auto& [cpu, t] : f.cpu.cstates) {
    if (!t.value) continue;
    for (const std::string& n : words(*t.value)) {
      std::optional<long long> level;
      if (n == "POLL") level = 0;
      else if (n.size() > 1 && n[0] == 'C' && std::isdigit(static_cast<unsigned char>(n[1])))
        level = to_int(n.substr(1, n.find_first_not_of("0123456789", 1) - 1));
      if (!level) continue;
      if (!out) out = Deepest{};
      if (*level > out->level) *out = Deepest{*level, cpu, n};
    }
  }
  return out;
}

}  // namespace

// Which idle driver governs, and so which limit is in force: idle=poll means
// C0 always; the cpuidle driver (2.6.24+) names intel_idle or acpi_idle; on
// kernels without cpuidle in sysfs (RHEL 5), intel_idle when it is present and
// enabled, else the ACPI processor driver's max_cstate.
CstateLimit cstate_in_force(const facts::Facts& f) {
  const facts::CpuFacts& cpu = f.cpu;
  const auto intel =
      cpu.intel_idle_max_cstate.value ? to_int(*cpu.intel_idle_max_cstate.value) : std::nullopt;
  const auto acpi = cpu.processor_max_cstate.value ? to_int(*cpu.processor_max_cstate.value) : std::nullopt;
  if (cmdline_value(f, "idle") == "poll")
    return {0, f.kernel.cmdline.source, "idle=poll on the command line keeps CPUs in C0"};
  if (cpu.cpuidle_driver.value) {
    const std::string& d = *cpu.cpuidle_driver.value;
    if (d == "intel_idle" && intel)
      return {intel, cpu.intel_idle_max_cstate.source, "the cpuidle driver is intel_idle"};
    if (d == "acpi_idle" && acpi)
      return {acpi, cpu.processor_max_cstate.source, "the cpuidle driver is acpi_idle"};
    return {std::nullopt, cpu.cpuidle_driver.source,
            "the cpuidle driver is " + d + ", which has no max_cstate limit"};
  }
  if (intel && *intel > 0) return {intel, cpu.intel_idle_max_cstate.source, "intel_idle is loaded"};
  if (acpi) {
    std::string why =
        cpu.intel_idle_max_cstate.missing ? "this kernel has no intel_idle" : "intel_idle is disabled";
    if (cmdline_value(f, "intel_idle.max_cstate") && cpu.intel_idle_max_cstate.missing)
      why += ", so intel_idle.max_cstate=" + *cmdline_value(f, "intel_idle.max_cstate") +
             " on the command line does nothing";
    return {acpi, cpu.processor_max_cstate.source, why + "; the ACPI processor driver's limit applies"};
  }
  return {std::nullopt, cpu.processor_max_cstate.source,
          "neither intel_idle nor the ACPI processor driver reports a limit"};
}

void check_cpu(Ctx& c) {
  if (!c.pre.cpu) return;
  const profile::CpuRule& rule = *c.pre.cpu;
  const facts::CpuFacts& cpu = c.f.cpu;
  const bool have = c.f.has("cpu");
  if (rule.hyperthreading) {
    CheckResult& r = start(c, "cpu/hyperthreading", *rule.hyperthreading ? "on" : "off");
    if (!have) {
      not_checkable(r, "the snapshot has no cpu section", "");
    } else if (!cpu.hyperthreading.value) {
      not_checkable(
          r, cpu.hyperthreading.note.empty() ? why_unreadable(cpu.hyperthreading) : cpu.hyperthreading.note,
          cpu.hyperthreading.source);
    } else {
      const std::string found = *cpu.hyperthreading.value ? "on" : "off";
      const std::string what =
          "Hyper-Threading (" + cpu.hyperthreading.source + ": " + cpu.hyperthreading.note + ")";
      if (*cpu.hyperthreading.value == *rule.hyperthreading) {
        pass(r, what, found, cpu.hyperthreading.source);
      } else {
        fail(r, what, found, cpu.hyperthreading.source,
             "# Hyper-Threading is a BIOS setting: in RBSU, System Options > Processor Options >\n"
             "# Intel Hyperthreading Options = " +
                 std::string(*rule.hyperthreading ? "Enabled" : "Disabled") + ", then reboot.");
        r.needs_reboot = true;
      }
    }
  }
  if (rule.max_cstate) {
    CheckResult& r = start(c, "cpu/max_cstate", "at most " + std::to_string(*rule.max_cstate));
    const CstateLimit limit = have ? cstate_in_force(c.f) : CstateLimit{};
    if (!have) {
      not_checkable(r, "the snapshot has no cpu section", "");
    } else if (const auto deep = deepest_enabled(c.f);
               deep && deep->level > *rule.max_cstate && (!limit.value || *limit.value <= *rule.max_cstate)) {
      const std::string src = "/sys/devices/system/cpu/" + deep->cpu + "/cpuidle";
      fail_with(r, deep->cpu + " may still enter " + deep->name + " (" + src + "), profile wants at most C" +
                       std::to_string(*rule.max_cstate),
                deep->name, src, max_cstate_fix(c.f, *rule.max_cstate, limit));
      r.needs_reboot = true;
    } else if (!limit.value && deepest_enabled(c.f)) {
      const auto deep = deepest_enabled(c.f);
      pass(r, "the deepest idle state any CPU may enter (" + limit.explanation + "; cpuidle: " + deep->name + ")",
           std::to_string(deep->level), "/sys/devices/system/cpu/cpu*/cpuidle");
    } else if (!limit.value) {
      not_checkable(r, limit.explanation, limit.source);
    } else if (*limit.value <= *rule.max_cstate) {
      pass(r, "the C-state limit in force (" + limit.source + ": " + limit.explanation + ")",
           std::to_string(*limit.value), limit.source);
    } else {
      fail(r, "the C-state limit in force (" + limit.source + ": " + limit.explanation + ")",
           std::to_string(*limit.value), limit.source, max_cstate_fix(c.f, *rule.max_cstate, limit));
      r.needs_reboot = true;
    }
  }
  if (rule.governor) {
    CheckResult& r = start(c, "cpu/governor", *rule.governor);
    if (!have) {
      not_checkable(r, "the snapshot has no cpu section", "");
    } else if (cpu.cpufreq.value != true || cpu.governors.empty()) {
      not_checkable(r,
                    "cpufreq is not active (no " + cpu.cpufreq.source +
                        "): the OS does not control the CPU frequency, so there is no governor",
                    cpu.cpufreq.source);
    } else {
      std::string off, source;
      for (const auto& [name, g] : cpu.governors)
        if (g.value != rule.governor) {
          off += (off.empty() ? "" : ", ") + name + " " + shown(g);
          if (source.empty()) source = g.source;
        }
      // cpufreq min = max: with a lower minimum even "performance" may be clocked down by the
      // hardware's own P-state logic; tuned's latency profiles pin it.
      std::string ranged, range_src;
      for (const auto& [name, range] : cpu.freq_range) {
        const auto mm = range.value ? words(*range.value) : std::vector<std::string>{};
        if (mm.size() == 2 && mm[0] != mm[1]) {
          ranged += (ranged.empty() ? "" : ", ") + name + " " + mm[0] + "-" + mm[1] + " kHz";
          if (range_src.empty()) range_src = range.source;
        }
      }
      if (off.empty() && !ranged.empty()) {
        fail_with(r, "cpufreq may still scale: " + ranged + " (" + range_src + "), profile wants " + *rule.governor +
                         " at one frequency (min = max)",
                  ranged, range_src,
                  "for d in /sys/devices/system/cpu/cpu*/cpufreq; do cat \"$d/scaling_max_freq\" > "
                  "\"$d/scaling_min_freq\"; done\n" +
                      note(style_of(c.f) == Style::kRhelSysv ? "and for every boot: the same loop in /etc/rc.d/rc.local"
                                                            : "and for every boot: tuned's latency-performance or "
                                                              "network-latency profile (min_perf_pct=100)"));
      } else if (off.empty()) {
        pass(r, "the governor of all " + std::to_string(cpu.governors.size()) + " CPUs", *rule.governor,
             cpu.governors.begin()->second.source);
      } else {
        const std::string g = sh_quote(*rule.governor);
        fail_with(r, "cpufreq governor is not " + *rule.governor + " on " + off + " (" + source + ")", off,
                  source,
                  "for f in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do echo " + g +
                      " > \"$f\"; done\n" +
                      (style_of(c.f) == Style::kRhelSysv
                           ? "# and for every boot: the same loop in /etc/rc.d/rc.local"
                           : note("and for every boot: cpupower frequency-set -g " + *rule.governor) +
                                 " from a unit, or the kernel's default governor"));
      }
    }
  }
}

}  // namespace labgate::checks::internal
