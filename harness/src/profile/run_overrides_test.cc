// Tests of labgate run's overrides (--duration, --warmup, --message-size): they
// win over the profile for every test that has the parameter, a sweep over one
// becomes that one value, bad values are refused naming the flag, and what each
// replaced is recorded.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

const std::string kProfile = R"([lab]
name = "pair"
[hosts.a]
address = "10.0.0.1"
test_address = "192.168.1.1"
[hosts.b]
address = "10.0.0.2"
test_address = "192.168.1.2"
[defaults.test]
from = "a"
to = "b"
warmup = "1s"
[[test]]
name = "tcp_rr_64"
kind = "tcp_rr"
duration = "10s"
budget = { p99 = "100us" }
[[test]]
name = "udp_rr"
kind = "udp_rr"
budget = { p99 = "100us" }
[[test]]
name = "sizes"
kind = "tcp_stream"
duration = "5s"
message_size = [64, 1024, "16KiB"]
budget = { min_throughput = "1Gbit/s" }
[test.budget_by.message_size."64"]
min_throughput = "100Mbit/s"
[test.budget_by.message_size."16384"]
min_throughput = "5Gbit/s"
[[test]]
name = "mtu"
kind = "path_mtu"
mtu = 1500
[[test]]
name = "dig"
kind = "command"
on = "a"
argv = ["true"]
count = 10
budget = { p99 = "1s" }
[[test]]
name = "dig_for"
kind = "command"
on = "a"
argv = ["true"]
duration = "3s"
budget = { p99 = "1s" }
)";

LoadResult load_with(std::vector<RunOverride> o) { return load_from_string(kProfile, "pair.toml", o); }

const TestSpec& test_named(const Profile& p, const std::string& name) {
  const TestSpec* t = p.find_test(name);
  if (!t) throw std::runtime_error("no test " + name);
  return *t;
}

TEST(RunOverrides, NoneLeavesTheProfileAsWritten) {
  const auto r = load_with({});
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  EXPECT_EQ(test_named(*r.profile, "tcp_rr_64").duration, 10s);
  EXPECT_EQ(r.profile->tests.size(), 8u);  // the sweep gives three cases
  EXPECT_TRUE(r.profile->overrides.empty());
}

TEST(RunOverrides, DurationWinsInEveryTestThatHasOneAndRecordsWhatItReplaced) {
  const auto r = load_with({{"duration", "2s"}});
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  const Profile& p = *r.profile;
  EXPECT_EQ(test_named(p, "tcp_rr_64").duration, 2s);
  EXPECT_EQ(test_named(p, "udp_rr").duration, 2s);
  EXPECT_EQ(test_named(p, "sizes/message_size=1024").duration, 2s);
  EXPECT_EQ(test_named(p, "dig_for").duration, 2s);
  EXPECT_EQ(test_named(p, "dig").command.count, 10u);  // run `count` times: it has no duration
  ASSERT_EQ(p.overrides.size(), 1u);
  const AppliedOverride& o = p.overrides[0];
  EXPECT_EQ(o.parameter, "duration");
  EXPECT_EQ(o.value, "2s");
  std::vector<std::string> names;
  for (const ReplacedValue& v : o.replaced) names.push_back(v.test);
  EXPECT_EQ(names, (std::vector<std::string>{"tcp_rr_64", "udp_rr", "sizes", "dig_for"}));  // not mtu, not dig
  EXPECT_THAT(o.replaced[0].was, HasSubstr("\"10s\" at pair.toml:"));
  EXPECT_EQ(o.replaced[1].was, "labgate's default 120s");
}

TEST(RunOverrides, InheritedValuesSayTheyCameFromTheDefaults) {
  const auto r = load_with({{"warmup", "500ms"}});
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  EXPECT_EQ(test_named(*r.profile, "tcp_rr_64").warmup, 500ms);
  const AppliedOverride& o = r.profile->overrides.at(0);
  ASSERT_FALSE(o.replaced.empty());
  EXPECT_THAT(o.replaced[0].was, HasSubstr("\"1s\" from [defaults.test] at pair.toml:"));
  for (const ReplacedValue& v : o.replaced) EXPECT_NE(v.test, "dig_for");  // a command has no warm-up
}

TEST(RunOverrides, ASweepOverTheParameterBecomesTheOneValueWithItsOwnBudget) {
  const auto r = load_with({{"message_size", "16KiB"}});
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  const Profile& p = *r.profile;
  std::vector<std::string> sizes;
  for (const TestSpec& t : p.tests)
    if (t.sweep_of == "sizes") sizes.push_back(t.name);
  EXPECT_EQ(sizes, (std::vector<std::string>{"sizes/message_size=16KiB"}));
  const TestSpec& s = test_named(p, "sizes/message_size=16KiB");
  EXPECT_EQ(s.message_size, 16384u);
  // budget_by."16384" matched "16KiB" by meaning and still applies; "64" was dropped.
  ASSERT_EQ(s.budget.size(), 1u);
  EXPECT_EQ(s.budget[0].as_written, "5Gbit/s");
  EXPECT_EQ(test_named(p, "tcp_rr_64").message_size, 16384u);
  EXPECT_THAT(p.overrides.at(0).replaced.at(2).was, HasSubstr("[64, 1024, \"16KiB\"] (a sweep)"));
}

TEST(RunOverrides, BareBytesAreAMessageSize) {
  const auto r = load_with({{"message_size", "1024"}});
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  EXPECT_EQ(test_named(*r.profile, "udp_rr").message_size, 1024u);
  EXPECT_TRUE(r.profile->find_test("sizes/message_size=1024"));
}

TEST(RunOverrides, BadValuesAreRefusedNamingTheFlag) {
  auto r = load_with({{"duration", "two minutes"}});
  EXPECT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r), HasSubstr("command line (--duration two minutes): --duration"));
  r = load_with({{"message_size", "0"}});
  EXPECT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r), HasSubstr("--message-size: must be at least 1 byte"));
  r = load_with({{"message_size", "64 bytes"}});
  EXPECT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r), HasSubstr("--message-size"));
}

TEST(RunOverrides, AnOverrideIsCheckedLikeTheProfileValueItReplaces) {
  // A warm-up as long as the shortened duration is the profile's own error,
  // pointing at the command line.
  const auto r = load_with({{"duration", "1s"}});
  EXPECT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r), HasSubstr("warmup"));
  EXPECT_THAT(test_util::error_lines(r), HasSubstr("must be shorter than the duration"));
  EXPECT_TRUE(load_with({{"duration", "1s"}, {"warmup", "200ms"}}).profile);
}

TEST(RunOverrides, OnlyTheSeedsParametersCanBeOverridden) {
  const auto r = load_with({{"rate", "1000/s"}});
  EXPECT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r), HasSubstr("overrides only duration, warmup and message_size"));
}

}  // namespace
}  // namespace labgate::profile
