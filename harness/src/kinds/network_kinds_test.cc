// Tests of kinds/ping_flood.cc and kinds/path_mtu.cc through the layers that
// read them: spellings, keys, checks and statistics, a case per pair, the
// Network suite, the "measuring" line; path_mtu takes no budget.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kinds/kind_profile_test_util.h"
#include "labgate/gate/counter_watch.h"

namespace labgate::kinds {
namespace {

TEST(NetworkKinds, PingFloodReportsPingsFiguresAndTheCountersPathMtuNoBudget) {
  EXPECT_EQ(profile::parse_test_kind("ping_flood"), TestKind::kPingFlood);
  EXPECT_EQ(profile::parse_test_kind("path_mtu"), TestKind::kPathMtu);
  EXPECT_TRUE(profile::is_network(TestKind::kPingFlood));
  EXPECT_TRUE(profile::is_network(TestKind::kPathMtu));
  for (Stat s : {Stat::kMaxLoss, Stat::kMdev, Stat::kMax, Stat::kMaxRxDrops})
    EXPECT_TRUE(profile::produces(Tool::kBuiltin, TestKind::kPingFlood, s)) << profile::to_string(s);
  EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kPingFlood, Stat::kP99));
  EXPECT_TRUE(gate::watches_counters(TestKind::kPingFlood));
  EXPECT_FALSE(gate::watches_counters(TestKind::kPathMtu));
  for (Stat s : profile::all_stats()) EXPECT_FALSE(profile::produces(Tool::kBuiltin, TestKind::kPathMtu, s));
}

TEST(NetworkKinds, EachIsACasePerPairInTheNetworkSuite) {
  const profile::LoadResult r = load_tests(R"([[test]]
name = "flood"
kind = "ping_flood"
from = "a"
to = "b"
count = 500
size = 1024
budget = { max_loss = "0%" }
[[test]]
name = "mtu"
kind = "path_mtu"
from = "b"
to = "c"
mtu = 1500
)");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  const auto cases = gate::expand_cases(*r.profile);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].name(), "flood/a->b");
  EXPECT_EQ(cases[0].suite, "Network");
  EXPECT_EQ(cases[1].name(), "mtu/b->c");
  EXPECT_EQ(cases[1].label, "network");
  EXPECT_THAT(gate::measuring_description(*cases[0].spec), HasSubstr("ping -f -c 500 -s 1024"));
  EXPECT_THAT(gate::measuring_description(*cases[1].spec),
              HasSubstr("Don't Fragment, both directions (mtu 1500)"));
}

TEST(NetworkKinds, TheirKeysAndChecksNameTheKey) {
  expect_errors(R"([[test]]
name = "flood"
kind = "ping_flood"
from = "a"
to = "b"
size = 70000
message_size = 64
budget = { max_loss = "0%" }
[[test]]
name = "mtu"
kind = "path_mtu"
from = "a"
to = "b"
duration = "5s"
budget = { max = "1ms" }
[[test]]
name = "rr"
kind = "udp_rr"
from = "a"
to = "b"
size = 64
budget = { p99 = "1ms" }
)",
                {"test[flood].size: an ICMP echo carries at most 65507 bytes",
                 "test[flood].message_size: does not apply to a ping_flood test: it sends no messages",
                 "test[mtu].duration: does not apply to a path_mtu test: a path_mtu test searches",
                 "a path_mtu test is judged against the MTU it expects (mtu = 1500), not a budget",
                 "test[mtu].mtu: missing; a path_mtu test needs the MTU to expect",
                 "test[rr].size: does not apply to a udp_rr test: `size` is a ping_flood's"});
}

}  // namespace
}  // namespace labgate::kinds
