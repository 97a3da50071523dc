// The preload rule: both probes must report the library mapped in their own
// process; a missing library (ld.so's complaint), a stripped LD_PRELOAD or a
// static probe fail the case and say which end and why.
#include "labgate/gate/preload_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;

// What probes/common/dyn/lg_preload_report.c and glibc's ld.so print.
const char* kMapped =
    "labgate-preload: mapped /opt/t/liblg_count_preload.so as /opt/t/liblg_count_preload.so\n";
const char* kMissing =
    "ERROR: ld.so: object '/opt/t/liblg_count_preload.so' from LD_PRELOAD cannot be preloaded (cannot open "
    "shared "
    "object file): ignored.\nlabgate-preload: not mapped /opt/t/liblg_count_preload.so\n";
const char* kStripped = "labgate-preload: LD_PRELOAD is not set\n";
const std::string kLib = "/opt/t/liblg_count_preload.so";

TEST(PreloadCheck, MappedInBothProbesPasses) {
  const RuleVerdict v = judge_preload(kLib, "a", std::string("{\"progress\":1}\n") + kMapped, "b", kMapped);
  EXPECT_TRUE(v.pass) << v.message;
  EXPECT_EQ(v.observed, 2);
  EXPECT_EQ(v.unit, "ends");
  EXPECT_THAT(v.message, HasSubstr("client on a (/opt/t/liblg_count_preload.so)"));
}

TEST(PreloadCheck, AnEndWithoutItFailsSayingWhy) {
  const RuleVerdict missing = judge_preload(kLib, "a", kMissing, "b", kMapped);
  EXPECT_FALSE(missing.pass);
  EXPECT_EQ(missing.observed, 1);
  EXPECT_THAT(missing.message, HasSubstr("the client on a ran without /opt/t/liblg_count_preload.so mapped "
                                         "(ERROR: ld.so: object"));
  EXPECT_THAT(missing.message, HasSubstr("these figures are the kernel's, not the stack's"));
  const RuleVerdict stripped = judge_preload(kLib, "a", kMapped, "b", kStripped);
  EXPECT_FALSE(stripped.pass);
  EXPECT_THAT(stripped.message, HasSubstr("the server on b ran without"));
  EXPECT_THAT(stripped.message, HasSubstr("LD_PRELOAD did not reach it"));
  const RuleVerdict static_probe = judge_preload(kLib, "a", "", "b", "");
  EXPECT_EQ(static_probe.observed, 0);
  EXPECT_THAT(static_probe.message, HasSubstr("not the dynamically linked probe"));
  // Another library's line is not this one's.
  EXPECT_FALSE(judge_preload("libxlio.so", "a", kMapped, "b", kMapped).pass);
}

}  // namespace
}  // namespace labgate::gate
