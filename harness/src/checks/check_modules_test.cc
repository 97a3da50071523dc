// Tests for module rules: the seed's tg3 3.119 -> 3.125g story.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT
using ::testing::HasSubstr;

// tg3 3.119 as shipped: no parameters, no options line.
facts::Facts before() {
  facts::Facts f = tuned_rhel5();
  auto& tg3 = f.modules["tg3"];
  tg3.version = text("3.119", "/sys/module/tg3/version");
  tg3.parameters.clear();
  tg3.configured.clear();
  return f;
}

TEST(Modules, Tg3BeforeTheDriverUpdateFailsVersionParameterAndOption) {
  const auto rs = check_host("a", before(), only(&profile::Preconditions::modules));
  EXPECT_EQ(find(rs, "modules/tg3/loaded").verdict, Verdict::kPass);
  const auto& v = find(rs, "modules/tg3/version");
  EXPECT_EQ(v.message, "host a: /sys/module/tg3/version is 3.119, profile wants 3.125g");
  EXPECT_THAT(v.fix, HasSubstr("modprobe -r 'tg3' && modprobe 'tg3'"));
  const auto& p = find(rs, "modules/tg3/parameters/tg3_disable_eee");
  EXPECT_EQ(p.message,
            "host a: /sys/module/tg3/parameters/tg3_disable_eee does not exist: tg3 3.119 has no parameter "
            "tg3_disable_eee");
  EXPECT_THAT(p.fix, HasSubstr("(the profile wants 3.125g)"));
  const auto& c = find(rs, "modules/tg3/configured/tg3_disable_eee");
  EXPECT_EQ(c.message,
            "host a: no `options tg3 tg3_disable_eee=...` in /etc/modprobe.conf or /etc/modprobe.d");
  EXPECT_EQ(c.fix,
            "echo 'options tg3 tg3_disable_eee=1' >> /etc/modprobe.conf\n# Applies when tg3 is next loaded.");
}

TEST(Modules, AWrongOptionIsEditedOnItsLine) {
  facts::Facts f = tuned_rhel5();
  f.modules["tg3"].configured["tg3_disable_eee"] = text("0", "/etc/modprobe.conf:9");
  f.modules["tg3"].parameters["tg3_disable_eee"] = text("0", "/sys/module/tg3/parameters/tg3_disable_eee");
  const auto rs = check_host("a", f, only(&profile::Preconditions::modules));
  const auto& c = find(rs, "modules/tg3/configured/tg3_disable_eee");
  EXPECT_EQ(c.message, "host a: /etc/modprobe.conf:9: tg3_disable_eee is 0, profile wants 1");
  EXPECT_THAT(c.fix,
              HasSubstr("sed -i '9s/tg3_disable_eee=[^[:space:]]*/tg3_disable_eee=1/' '/etc/modprobe.conf'"));
  const auto& p = find(rs, "modules/tg3/parameters/tg3_disable_eee");
  EXPECT_EQ(p.message, "host a: /sys/module/tg3/parameters/tg3_disable_eee is 0, profile wants 1");
}

TEST(Modules, ConfiguredButNotReloadedSaysReload) {
  facts::Facts f = tuned_rhel5();
  f.modules["tg3"].parameters["tg3_disable_eee"] = text("0", "/sys/module/tg3/parameters/tg3_disable_eee");
  const auto rs = check_host("a", f, only(&profile::Preconditions::modules));
  const auto& p = find(rs, "modules/tg3/parameters/tg3_disable_eee");
  EXPECT_THAT(p.fix, ::testing::StartsWith("# /etc/modprobe.conf:9 already sets tg3_disable_eee=1: reload"));
  EXPECT_EQ(find(rs, "modules/tg3/configured/tg3_disable_eee").verdict, Verdict::kPass);
}

TEST(Modules, NotLoadedModulesSayWhy) {
  facts::Facts f = before();
  f.modules["tg3"].loaded = {false, "/proc/modules", "", false, ""};
  f.modules["tg3"].version = absent("/sys/module/tg3/version");
  const auto rs = check_host("a", f, only(&profile::Preconditions::modules));
  EXPECT_EQ(find(rs, "modules/tg3/loaded").message,
            "host a: tg3 (/proc/modules) is not loaded, profile wants loaded");
  EXPECT_EQ(find(rs, "modules/tg3/loaded").fix, "modprobe 'tg3'");
  EXPECT_EQ(find(rs, "modules/tg3/version").message, "host a: tg3 is not loaded (/proc/modules)");
  EXPECT_EQ(find(rs, "modules/tg3/parameters/tg3_disable_eee").message,
            "host a: tg3 is not loaded (/proc/modules)");
}

TEST(Modules, SystemdHostsGetAModprobeDFile) {
  facts::Facts f = before();
  f.services.init = text("systemd", "/proc/1/stat");
  const auto rs = check_host("a", f, only(&profile::Preconditions::modules));
  EXPECT_THAT(find(rs, "modules/tg3/configured/tg3_disable_eee").fix,
              HasSubstr("echo 'options tg3 tg3_disable_eee=1' >> /etc/modprobe.d/tg3.conf"));
}

}  // namespace
}  // namespace labgate::checks
