// The fix script's transparent_hugepage rule: only where a cause (khugepaged,
// or kcompactd on a host with huge pages always on) or the host's facts
// (always) show it, never from nothing.
#include <gtest/gtest.h>

#include "labgate/tail/tail_fixes.h"
#include "tail_test_util.h"

namespace labgate::tail {
namespace {

using nlohmann::json;

constexpr const char* kThp = "/sys/kernel/mm/transparent_hugepage/enabled";

/// A tail of `n` outliers on host a, the first `with` of them with `comm`
/// (pid 40) among their causes; the rest unexplained.
json task_tail(const std::string& comm, int n, int with) {
  json t = {{"outliers", json::array()}};
  for (int i = 0; i < n; ++i) {
    json ev = json::array();
    if (i < with)
      ev.push_back({{"kind", "preempted"},
                    {"host", "a"},
                    {"cpu", 1},
                    {"pid", 40},
                    {"comm", comm},
                    {"text", comm + " (pid 40) ran 3.1 ms on CPU 1 of host a"}});
    t["outliers"].push_back({{"seq", i}, {"evidence", ev}});
  }
  return t;
}

TEST(TailFixesThp, KhugepagedAmongTheCausesGetsTheRuleUnderItsEvidenceAndTheFact) {
  std::map<std::string, HostTuning> hosts;
  hosts["a"].thp_mode = "always";
  hosts["a"].thp_source = kThp;
  const std::string script = tail_fix_script({{"udp_rr a->b", task_tail("khugepaged", 3, 2)}}, hosts, "p");
  EXPECT_NE(
      script.find("# --- host a: transparent huge pages\n"
                  "# khugepaged (pid 40) ran 3.1 ms on CPU 1 of host a\n"
                  "# seen in 2 outliers of udp_rr a->b (3 outliers)\n"
                  "# the facts of host a: transparent huge pages always "
                  "(/sys/kernel/mm/transparent_hugepage/enabled)\n"
                  "echo never > /sys/kernel/mm/transparent_hugepage/enabled\n"
                  "# the profile, so that labgate check fails a host where it is not (its fix gives the "
                  "boot argument):\n"
                  "#   [preconditions.cpu] transparent_hugepage = \"never\"\n"),
      std::string::npos)
      << script;
  EXPECT_NE(script.find("taskset -p"), std::string::npos) << "khugepaged off the CPU now, as any task";
  expect_every_line_has_evidence(script);
  // Without facts khugepaged is still THP's: the default file and never.
  const std::string bare = tail_fix_script({{"udp_rr a->b", task_tail("khugepaged", 3, 1)}}, {}, "p");
  EXPECT_NE(bare.find("# seen in 1 outliers of udp_rr a->b (3 outliers)\n"
                      "echo never > /sys/kernel/mm/transparent_hugepage/enabled\n"),
            std::string::npos)
      << bare;
}

TEST(TailFixesThp, TheProfilesModeAndTheHostsFileAreWhatTheRuleWrites) {
  // RHEL 6's file, and a profile that wants madvise.
  std::map<std::string, HostTuning> hosts;
  hosts["a"].thp_mode = "always";
  hosts["a"].thp_source = "/sys/kernel/mm/redhat_transparent_hugepage/enabled";
  hosts["a"].transparent_hugepage = "madvise";
  std::string script = tail_fix_script({{"udp_rr a->b", task_tail("kcompactd0", 2, 2)}}, hosts, "p");
  EXPECT_NE(script.find("echo madvise > /sys/kernel/mm/redhat_transparent_hugepage/enabled\n"
                        "# the profile's [preconditions.cpu] transparent_hugepage is madvise: labgate check "
                        "fails the host until it holds"),
            std::string::npos)
      << script;
  expect_every_line_has_evidence(script);
  // The host has what the profile wants: evidence, no command.
  hosts["a"].thp_mode = "madvise";
  script = tail_fix_script({{"udp_rr a->b", task_tail("khugepaged", 2, 2)}}, hosts, "p");
  EXPECT_NE(script.find("(no fix line: the profile's transparent_hugepage is madvise already"),
            std::string::npos)
      << script;
  EXPECT_EQ(script.find("echo madvise"), std::string::npos) << script;
}

TEST(TailFixesThp, AlwaysInTheFactsIsEvidenceWhenTheRunHadOutliers) {
  // Nothing on host a named THP, but its facts say always: direct compaction
  // in the test's own thread is invisible to the watch.
  std::map<std::string, HostTuning> hosts;
  hosts["a"].thp_mode = "always";
  hosts["a"].thp_source = kThp;
  std::string script = tail_fix_script({{"udp_rr a->b", task_tail("", 4, 0)}}, hosts, "p");
  EXPECT_NE(
      script.find("# --- host a: transparent huge pages\n"
                  "# seen in the facts of host a: transparent huge pages always "
                  "(/sys/kernel/mm/transparent_hugepage/enabled)\n"
                  "# no outlier was put down to khugepaged or compaction, but with always a page fault"),
      std::string::npos)
      << script;
  EXPECT_NE(script.find("echo never > /sys/kernel/mm/transparent_hugepage/enabled\n"), std::string::npos)
      << script;
  expect_every_line_has_evidence(script);
  // No outliers at all: nothing to explain, no script.
  EXPECT_EQ(tail_fix_script({{"udp_rr a->b", task_tail("", 0, 0)}}, hosts, "p"), "");
}

TEST(TailFixesThp, NeverWithoutACauseOrAFact) {
  // madvise on the host: kcompactd is compaction for anything, not THP's; an
  // ordinary task is not THP's; no facts and no THP task: no rule.
  std::map<std::string, HostTuning> hosts;
  hosts["a"].thp_mode = "madvise";
  hosts["a"].thp_source = kThp;
  for (const std::string comm : {"kcompactd0", "stress-ng"}) {
    const std::string script = tail_fix_script({{"udp_rr a->b", task_tail(comm, 3, 3)}}, hosts, "p");
    EXPECT_EQ(script.find("transparent"), std::string::npos) << comm << "\n" << script;
  }
  const std::string script = tail_fix_script({{"udp_rr a->b", task_tail("kcompactd0", 3, 3)}}, {}, "p");
  EXPECT_EQ(script.find("transparent"), std::string::npos) << script;
  EXPECT_EQ(tail_fix_script({{"udp_rr a->b", task_tail("", 3, 0)}}, hosts, "p"), "");
}

}  // namespace
}  // namespace labgate::tail
