// The DF search, the flood ping and the counter deltas on real packets: two
// namespaces joined by a veth, one side's MTU lowered to 1400 as a narrower hop
// would be. Needs root (skipped with the reason otherwise, or LABGATE_SKIP_LAB=1).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

#include "labgate/counters/delta.h"
#include "labgate/netpath/congestion.h"
#include "labgate/netpath/path_mtu.h"
#include "labgate/netpath/ping_flood.h"
#include "netns_pair.h"

namespace labgate::netpath {
namespace {

using probes_test::NetnsPair;
using ::testing::HasSubstr;

class NetpathLab : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (std::getenv("LABGATE_SKIP_LAB")) GTEST_SKIP() << "LABGATE_SKIP_LAB is set";
    if (!probes_test::lab_possible(&why)) GTEST_SKIP() << why;
    pair_ = std::make_unique<NetnsPair>();
  }
  // The veth names NetnsPair gives (lgp<pid>a / lgp<pid>b).
  static std::string veth(char side) { return "lgp" + std::to_string(getpid()) + side; }
  void set_mtu(transport::Transport& host, char side, int mtu) {
    transport::require_ok(host.run({"ip", "link", "set", "dev", veth(side), "mtu", std::to_string(mtu)}, {}),
                          host.host_name(), {"ip", "link", "set", "mtu"});
  }
  MtuSearch search(transport::Transport& from, const std::string& to_address, std::pair<int, int> range,
                   int attempts = 2) {
    auto probe = [&](int mtu, std::string* detail) {
      transport::RunOptions o;
      o.timeout = std::chrono::seconds(5);
      const transport::RunResult r = from.run(df_probe_command(to_address, mtu), o);
      return read_df_probe(r.exit_status, r.out, r.err, detail);
    };
    return find_path_mtu(range.first, range.second, probe, attempts, 1500);
  }
  counters::Snapshot snapshot(transport::Transport& host) {
    const transport::RunResult r = host.run(counters::snapshot_command(), {});
    transport::require_ok(r, host.host_name(), counters::snapshot_command());
    return counters::parse_snapshot(r.out, "counters on " + host.host_name());
  }
  std::unique_ptr<NetnsPair> pair_;
};

TEST_F(NetpathLab, PathMtuMatchesOrNamesBothSides) {
  const MtuSearch same = search(pair_->a(), NetnsPair::kAddrB, search_range(1500));
  ASSERT_TRUE(same.error.empty()) << same.error;
  EXPECT_EQ(same.mtu, 1500);
  set_mtu(pair_->a(), 'a', 1400);
  set_mtu(pair_->b(), 'b', 1400);
  const MtuSearch forward = search(pair_->a(), NetnsPair::kAddrB, search_range(1500));
  const MtuSearch reverse = search(pair_->b(), NetnsPair::kAddrA, search_range(1500));
  EXPECT_EQ(forward.mtu, 1400);
  EXPECT_EQ(reverse.mtu, 1400);
  const MtuVerdict v = judge_path_mtu(1500, "a", "b", forward, reverse);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.message, HasSubstr("a->b carries 1400 bytes and b->a carries 1400 bytes; expected 1500"));
  EXPECT_TRUE(judge_path_mtu(1400, "a", "b", forward, reverse).pass);
  std::printf("path MTU search over [68, 9216]: %zu probes each way\n", forward.steps.size());
}

TEST_F(NetpathLab, ANarrowerFarSideDropsWhatTheNearSideSends) {
  set_mtu(pair_->b(), 'b', 1400);
  // Only b is narrower: a sends 1500-byte packets that b drops ("no reply"), so
  // the search times each one out; a narrow range keeps that short. A veth
  // accepts 4 bytes over its MTU (room for a VLAN tag): 1400..1404 passes.
  const MtuSearch forward = search(pair_->a(), NetnsPair::kAddrB, {1300, 1500}, 1);
  ASSERT_TRUE(forward.mtu);
  EXPECT_GE(*forward.mtu, 1400);
  EXPECT_LE(*forward.mtu, 1404);
  EXPECT_THAT(
      forward.steps.back().detail.empty() ? forward.steps.front().detail : forward.steps.back().detail,
      ::testing::AnyOf(::testing::IsEmpty(), HasSubstr("no reply")));
  const MtuSearch reverse = search(pair_->b(), NetnsPair::kAddrA, search_range(1500));
  EXPECT_EQ(reverse.mtu, 1400);  // refused at b itself: "message too long, mtu=1400"
  EXPECT_FALSE(judge_path_mtu(1500, "a", "b", forward, reverse).pass);
}

TEST_F(NetpathLab, FloodPingParsesAndTheCountersSeeIt) {
  profile::TestSpec spec;
  spec.kind = profile::TestKind::kPingFlood;
  spec.ping.count = 500;
  spec.ping.size = 1024;
  spec.duration = std::chrono::seconds(10);
  const PingInvocation inv = ping_flood_command(spec, NetnsPair::kAddrB);
  const counters::Snapshot before = snapshot(pair_->b());
  transport::RunOptions o;
  o.timeout = inv.timeout;
  const transport::RunResult r = pair_->a().run(inv.argv, o);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  const measure::Measurement m = parse_ping_summary(r.out + r.err, "ping on a");
  // With -w, iputils ping stops when -c replies have come, not when -c requests
  // have gone: a flood whose last reply is still in flight sends one more (a
  // fresh clone's CI saw "501 transmitted, 501 received"). So 500 answered is the
  // invariant on a lossless veth, and anything unanswered is only what ping sent
  // beyond its count while it waited.
  EXPECT_GE(m.sent, 500u);
  EXPECT_GE(m.received, 500u);
  EXPECT_LE(m.dropped, m.sent - 500u);
  ASSERT_TRUE(m.stat("mdev").has_value());
  EXPECT_GT(*m.stat("max"), 0.0);
  const counters::Delta d = counters::delta(before, snapshot(pair_->b()), {veth('b')});
  EXPECT_GE(d.changed.at("Icmp.InEchos"), 500);
  EXPECT_GE(d.changed.at("dev." + veth('b') + ".rx_packets"), 500);
  EXPECT_EQ(d.rx_drops, 0);
  EXPECT_TRUE(counters::trouble(d).empty());
  std::printf("flood ping 500 x 1024 B: rtt mean %.1f us, max %.1f us, mdev %.1f us\n", *m.stat("mean") / 1e3,
              *m.stat("max") / 1e3, *m.stat("mdev") / 1e3);
}

TEST_F(NetpathLab, CongestionControlListComesFromTheKernel) {
  const transport::RunResult r = pair_->a().run({"cat", congestion_sources()[0]}, {});
  ASSERT_TRUE(r.ok()) << r.err;
  const std::vector<std::string> available = parse_congestion_list(r.out);
  EXPECT_THAT(available, ::testing::Contains("reno"));
  EXPECT_EQ(congestion_error("a", available.front(), available), std::nullopt);
  EXPECT_THAT(*congestion_error("a", "no_such_cc", available), HasSubstr("it has: "));
}

}  // namespace
}  // namespace labgate::netpath
