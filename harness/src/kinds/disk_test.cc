// Tests of kinds/disk.cc through the layers that read it: the three kinds'
// spellings, keys, checks and statistics (the probe's and sysbench's), the
// probe, the case on the host of `on`, the suite and label, the "measuring" line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kinds/kind_profile_test_util.h"
#include "labgate/measure/probe_command.h"

namespace labgate::kinds {
namespace {

TEST(DiskKinds, ThreeSpellingsOneProbeAndSysbenchsFewerFigures) {
  for (TestKind k : {TestKind::kDiskRandomRead, TestKind::kDiskRandomWrite, TestKind::kDiskRandomRw}) {
    EXPECT_EQ(profile::parse_test_kind(profile::to_string(k)), k);
    EXPECT_STREQ(measure::probe_for(k), "disk");
    EXPECT_TRUE(profile::tool_runs(Tool::kSysbench, k));
    EXPECT_FALSE(profile::tool_runs(Tool::kIperf3, k));
    EXPECT_TRUE(profile::produces(Tool::kBuiltin, k, Stat::kP99_9));
    EXPECT_TRUE(profile::produces(Tool::kSysbench, k, Stat::kMinIops));
    EXPECT_FALSE(profile::produces(Tool::kSysbench, k, Stat::kP99_9));  // its one percentile is p99
    EXPECT_FALSE(profile::produces(Tool::kBuiltin, k, Stat::kMaxRetransmits));
  }
  EXPECT_STREQ(profile::to_string(TestKind::kDiskRandomRw), "disk_random_rw");
}

TEST(DiskKinds, ATestIsOneCaseOnItsHostWithItsFileBelowTheDirectory) {
  const profile::LoadResult r = load_tests(R"([[test]]
name = "reads"
kind = "disk_random_read"
on = "b"
dir = "/var/tmp"
duration = "5s"
warmup = "1s"
budget = { min_iops = 100 }
)");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  EXPECT_EQ(r.profile->tests[0].disk.path, "/var/tmp/labgate-reads.dat");
  const auto cases = gate::expand_cases(*r.profile);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].name(), "reads/b");
  EXPECT_EQ(cases[0].suite, "Storage");
  EXPECT_EQ(cases[0].label, "storage");
  EXPECT_EQ(gate::measuring_description(*cases[0].spec), "random I/O for 5s after a 1s warm-up (excluded)");
}

TEST(DiskKinds, ReadMixIsTheMixedKindsOnlyAndTheFileStaysBelowTheDirectory) {
  expect_errors(R"([[test]]
name = "reads"
kind = "disk_random_read"
on = "a"
dir = "/var/tmp"
path = "/etc/passwd"
read_mix = "50%"
budget = { min_iops = 100 }
[[test]]
name = "rr"
kind = "tcp_rr"
from = "a"
to = "b"
block_size = "4KiB"
budget = { p99 = "1ms" }
)",
                {"test[reads].read_mix: does not apply to a disk_random_read test: `read_mix` is the "
                 "share of reads of a disk_random_rw test",
                 "\"/etc/passwd\" is not below the configured directory \"/var/tmp\"",
                 "test[rr].block_size: does not apply to a tcp_rr test: `block_size` is a disk test's"});
}

}  // namespace
}  // namespace labgate::kinds
