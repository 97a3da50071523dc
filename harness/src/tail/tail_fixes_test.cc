// The tail's fix script: from the attribution of the recorded hog run
// (testdata/) and from run.json tail documents, each fix line under its evidence.
#include "labgate/tail/tail_fixes.h"

#include <gtest/gtest.h>

#include "labgate/tail/attribute.h"
#include "tail_test_util.h"

namespace labgate::tail {
namespace {

using nlohmann::json;

/// run.json's "tail" of the recorded hog run (tailhog busy on CPU 1 of host a).
json recorded_hog_tail() { return to_json(recorded_hog_run().attribution); }

TEST(TailFixes, RecordedHogRunMovesTheHogOffTheTestCpuAndAddsItToIsolated) {
  const json tail = recorded_hog_tail();
  std::map<std::string, HostTuning> hosts;
  hosts["a"].isolated = "2-3";
  const std::string script = tail_fix_script({{"udp_rr a->b", tail}}, hosts, "lab.toml, run 1");
  ASSERT_FALSE(script.empty());
  EXPECT_EQ(script.rfind("#!/bin/sh\n", 0), 0u);
  EXPECT_NE(script.find("# --- host a, CPU 1: tailhog (pid 14260)\n# tailhog (pid 14260) ran "),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("outliers of udp_rr a->b (" + std::to_string(tail["outliers"].size()) + " outliers)"),
            std::string::npos)
      << script;
  EXPECT_NE(
      script.find("m=$(taskset -p 14260 | sed 's/.*: //'); taskset -p $(printf '%x' $((0x$m & ~(1 << 1)))) "
                  "14260 || echo 'pid 14260 (tailhog) is gone'\n"),
      std::string::npos)
      << script;
  EXPECT_NE(script.find("#   [preconditions.cpu] isolated = \"1-3\"\n"), std::string::npos) << script;
  expect_every_line_has_evidence(script);
  // How many of the worst it explains: the count is per outlier, whatever its other evidence.
  std::size_t hog = 0;
  for (const json& o : tail["outliers"])
    for (const json& e : o["evidence"])
      if (e.value("comm", "") == "tailhog" && e.value("cpu", -1) == 1) ++hog;
  EXPECT_NE(script.find("# seen in " + std::to_string(hog) + " outliers of udp_rr"), std::string::npos)
      << script;
}

json irq_tail(const std::string& irq, int cpu, int outliers) {
  json t = {{"outliers", json::array()}};
  for (int i = 0; i < outliers; ++i)
    t["outliers"].push_back({{"seq", i},
                             {"evidence",
                              {{{"kind", "irq"},
                                {"host", "b"},
                                {"cpu", cpu},
                                {"irq", irq},
                                {"text", "IRQ " + irq + " x12 on CPU " + std::to_string(cpu) +
                                             " of host b (usually 0 in as long)"}}}}});
  t["outliers"].push_back(
      {{"seq", 99}, {"evidence", json::array()}});  // unexplained: counts in the total only
  return t;
}

TEST(TailFixes, AnIrqOnTheTestCpuGetsTheProfilesIrqCpusOrTheLineToAdd) {
  std::map<std::string, HostTuning> hosts;
  hosts["b"].irq_cpus["eth2"] = "0-1";
  std::string script = tail_fix_script({{"tcp_rr a->b", irq_tail("57 eth2-rx-0", 3, 4)}}, hosts, "p");
  EXPECT_NE(script.find("# IRQ 57 eth2-rx-0 x12 on CPU 3 of host b (usually 0 in as long)\n"
                        "# seen in 4 outliers of tcp_rr a->b (5 outliers)\n"
                        "# the profile's irq_cpus of eth2 is 0-1: what its rule writes\n"
                        "echo 3 > /proc/irq/57/smp_affinity\n"),
            std::string::npos)
      << script;
  expect_every_line_has_evidence(script);
  // The profile lets it fire on the test CPU: the rule to change, and CPU 1 out of its mask until then.
  script = tail_fix_script({{"tcp_rr a->b", irq_tail("57 eth2-rx-0", 1, 2)}}, hosts, "p");
  EXPECT_NE(script.find("irq_cpus of eth2 (0-1) allows CPU 1: change it in [preconditions.interfaces.eth2]"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("printf '%x\\n' $((0x$m & ~(1 << 1))) > /proc/irq/57/smp_affinity\n"),
            std::string::npos)
      << script;
  // No rule for the device: the profile line to add.
  script = tail_fix_script({{"tcp_rr a->b", irq_tail("33 mlx5_comp2", 1, 2)}}, hosts, "p");
  EXPECT_NE(script.find("add irq_cpus = \"<CPUs without 1>\""), std::string::npos) << script;
  // A per-CPU interrupt has no affinity: evidence, and no command.
  script = tail_fix_script({{"tcp_rr a->b", irq_tail("LOC", 1, 2)}}, hosts, "p");
  EXPECT_NE(script.find("(no fix line: LOC is a per-CPU interrupt"), std::string::npos) << script;
  EXPECT_EQ(script.find("/proc/irq/"), std::string::npos) << script;
}

TEST(TailFixes, CausesNoRuleCoversGiveNoScript) {
  json t = {
      {"outliers",
       {{{"seq", 1},
         {"evidence",
          {{{"kind", "steal"}, {"host", "a"}, {"cpu", 1}, {"text", "steal 10.0 ms (hypervisor) on CPU 1"}},
           {{"kind", "wire"}, {"host", ""}, {"text", "nothing on either host: wire or NIC"}},
           {{"kind", "preempted"}, {"host", "a"}, {"text", "an old run.json without the task's pid"}}}}}}}};
  EXPECT_EQ(tail_fix_script({{"tcp_rr a->b", t}, {"udp_rr a->b", json()}}, {}, "p"), "");
}

/// A tail of one outlier, preempted by `comm` (pid) on `cpu` of host a.
json one_preempted(int cpu, int pid, const std::string& comm, const std::string& ran) {
  const std::string who = comm + " (pid " + std::to_string(pid) + ")";
  return {{"outliers",
           {{{"seq", 1},
             {"evidence",
              {{{"kind", "preempted"},
                {"host", "a"},
                {"cpu", cpu},
                {"pid", pid},
                {"comm", comm},
                {"text", who + " ran " + ran + " on CPU " + std::to_string(cpu) + " of host a"}}}}}}}};
}

TEST(TailFixes, APerCpuKernelThreadIsNotMovedAndAnIsolatedCpuSaysSo) {
  const json t = one_preempted(2, 88, "kworker/2:1", "410 us");
  std::map<std::string, HostTuning> hosts;
  hosts["a"].isolated = "2-15";
  const std::string script = tail_fix_script({{"tcp_rr a->b", t}}, hosts, "p");
  EXPECT_NE(script.find("(no fix line: kworker/2:1 is a per-CPU kernel thread of CPU 2"), std::string::npos)
      << script;
  EXPECT_EQ(script.find("taskset -p"), std::string::npos) << script;
  EXPECT_NE(script.find("# CPU 2 is in the profile's isolated (2-15) already"), std::string::npos) << script;
}

/// A sockperf case's tail (gate/tool_tail.h): no outliers of its own, the
/// task that ran on the client's CPU over the run among its causes.
json tool_tail() {
  return {{"join", "whole run only: sockperf prints percentiles and the max of the whole run"},
          {"over_run", json::object()},
          {"causes",
           {{{"kind", "shared_cpu"},
             {"host", "a"},
             {"cpu", 1},
             {"pid", 4242},
             {"comm", "tailhog"},
             {"key", "tailhog (pid 4242) on CPU 1 of host a"},
             {"text", "tailhog (pid 4242) ran 600.0 ms of the run's 3.0 s on CPU 1 of host a, the client's CPU"}},
            {{"kind", "steal"}, {"host", "b"}, {"cpu", 0}, {"text", "steal 10.0 ms (hypervisor) over the run"}}}},
          {"top", "over the whole run (sockperf gives no moment for its max): tailhog ..."}};
}

TEST(TailFixes, AToolCasesRunLevelTaskIsMovedOffItsCpuUnderItsEvidence) {
  std::map<std::string, HostTuning> hosts;
  hosts["a"].isolated = "2-3";
  const std::string script = tail_fix_script({{"sockperf_tail a->b", tool_tail()}}, hosts, "p");
  EXPECT_NE(script.find("# --- host a, CPU 1: tailhog (pid 4242)\n# tailhog (pid 4242) ran 600.0 ms"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("# seen in the tool case sockperf_tail a->b over the whole run (a tool keeps no "
                        "samples of its own)\n"),
            std::string::npos)
      << script;
  EXPECT_EQ(script.find("outliers of"), std::string::npos) << script;
  EXPECT_NE(script.find("taskset -p $(printf '%x' $((0x$m & ~(1 << 1)))) 4242"), std::string::npos) << script;
  EXPECT_NE(script.find("#   [preconditions.cpu] isolated = \"1-3\"\n"), std::string::npos) << script;
  EXPECT_EQ(script.find("steal"), std::string::npos) << script;  // no rule covers it
  expect_every_line_has_evidence(script);
}

TEST(TailFixes, AJitterCasesCausesAreReadPerCpu) {
  const json cpu1 = one_preempted(1, 21493, "tailhog", "900.0 ms");
  const json t = {{"per_cpu", {{"1", cpu1}, {"0", {{"outliers", json::array()}}}}}};
  const std::string script = tail_fix_script({{"jitter a", t}}, {}, "p");
  EXPECT_NE(script.find("# --- host a, CPU 1: tailhog (pid 21493)"), std::string::npos) << script;
  EXPECT_NE(script.find("# seen in 1 outliers of jitter a (1 outliers)"), std::string::npos) << script;
  expect_every_line_has_evidence(script);
}

}  // namespace
}  // namespace labgate::tail
