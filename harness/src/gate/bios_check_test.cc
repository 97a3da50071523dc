// Tests of BIOS verdicts as precondition results (what the suite and `labgate
// check` show): pass, fail with the RBSU fix, and not checkable with the reason.
#include "labgate/gate/bios_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/gate/records.h"

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;

std::vector<profile::BiosExpectation> rules() {
  profile::BiosExpectation ht{"Intel_Hyperthreading", "Disabled", {}};
  ht.pos.file = "p.toml";
  ht.pos.line = 40;
  ht.pos.column = 1;
  return {ht, {"HP_Power_Profile", "Maximum_Performance", {}}};
}

const char kXml[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Conrep version=\"3.40\" originating_platform=\"ProLiant "
    "DL380 G7\">\n"
    "  <Section name=\"Intel_Hyperthreading\" helptext=\"...\">Enabled</Section>\n"
    "  <Section name=\"HP_Power_Profile\" helptext=\"...\">Maximum_Performance</Section>\n"
    "</Conrep>\n";

TEST(BiosCheck, SettingsReadAreJudgedAsPreconditionRules) {
  const auto read = bios::read_conrep_run("b", 0, kXml, "");
  const auto v = bios::check_bios("b", rules(), read);
  ASSERT_EQ(v.size(), 2u);
  const checks::CheckResult ht = to_check_result("b", v[0]);
  EXPECT_EQ(ht.test_name(), "b/bios/Intel_Hyperthreading");
  EXPECT_EQ(ht.verdict, checks::Verdict::kFail);
  EXPECT_EQ(ht.found, "Enabled");
  EXPECT_EQ(ht.expected, "Disabled");
  EXPECT_THAT(ht.message, HasSubstr("b: Intel_Hyperthreading is Enabled, expected Disabled [p.toml:40"));
  EXPECT_THAT(ht.fix, HasSubstr("RBSU"));
  EXPECT_TRUE(ht.needs_reboot);
  const checks::CheckResult power = to_check_result("b", v[1]);
  EXPECT_EQ(power.verdict, checks::Verdict::kPass);
  EXPECT_TRUE(power.fix.empty());
}

TEST(BiosCheck, NoConrepIsNotCheckableWithTheReasonNeverPassed) {
  const auto read = bios::read_conrep_run("a", 127, "", "");
  for (const auto& v : bios::check_bios("a", rules(), read)) {
    const checks::CheckResult r = to_check_result("a", v);
    EXPECT_EQ(r.verdict, checks::Verdict::kNotCheckable);
    EXPECT_EQ(r.found, "(not read)");
    EXPECT_THAT(r.reason, HasSubstr("conrep is not installed on a"));
    // The run record (what the suite's GTEST_SKIP prints) carries the reason.
    EXPECT_THAT(to_record(r).message, HasSubstr("conrep is not installed on a"));
  }
}

}  // namespace
}  // namespace labgate::gate
