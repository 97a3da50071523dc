// Tests of how profile tests expand into cases: one per direction, per jitter
// host, and for pairs = "mesh" one per pair of hosts, named by the pair.
#include "labgate/gate/test_cases.h"

#include <gtest/gtest.h>

#include "labgate/profile/load.h"

namespace labgate::gate {
namespace {

profile::Profile rac(const std::string& tests, const std::vector<std::string>& hosts = {"a", "b", "c"}) {
  std::string text = "[lab]\nname = \"rac\"\n";
  for (const std::string& h : hosts)
    text += std::string("[hosts.") + h + "]\naddress = \"10.0.0.1\"\ntest_address = \"192.168.1.1\"\n";
  auto r = profile::load_from_string(text + tests, "rac.toml");
  if (!r.profile) throw std::runtime_error(r.errors.empty() ? "no profile" : r.errors[0].str());
  return *r.profile;
}

std::vector<std::string> names(const std::vector<TestCase>& cases) {
  std::vector<std::string> out;
  for (const auto& c : cases) out.push_back(c.suite + "." + c.name());
  return out;
}

TEST(ExpandCases, FromToIsOneCase) {
  const auto p =
      rac("[[test]]\nname = \"rr\"\nkind = \"tcp_rr\"\nfrom = \"b\"\nto = \"a\"\n"
          "budget = { p99 = \"1ms\" }\n");
  const auto cases = expand_cases(p);
  ASSERT_EQ(names(cases), std::vector<std::string>{"Latency.rr/b->a"});
  EXPECT_EQ(cases[0].client, "b");
  EXPECT_EQ(cases[0].server, "a");
}

TEST(ExpandCases, AFeedIsOneCaseAndAToolsFeedPairsThePublisherWithItsSubscriber) {
  const auto p = rac(
      "[[test]]\nname = \"feed\"\nkind = \"udp_multicast\"\nfrom = \"a\"\nto = [\"b\", \"c\"]\n"
      "group = \"239.1.1.1:5000\"\nrate = \"1000/s\"\nbudget = { p99 = \"1ms\" }\n"
      "[[test]]\nname = \"sp\"\nkind = \"udp_multicast\"\ntool = \"sockperf\"\nfrom = \"a\"\nto = [\"c\"]\n"
      "group = \"239.1.1.1:5000\"\nbudget = { p99 = \"1ms\" }\n");
  const auto cases = expand_cases(p);
  ASSERT_EQ(names(cases), (std::vector<std::string>{"Multicast.feed/a", "Multicast.sp/a"}));
  EXPECT_EQ(cases[0].server, "");  // the built-in feed: every subscriber in one case
  // The tool's ping-pong: its client on the publisher, its server on the one subscriber.
  EXPECT_EQ(cases[1].client, "a");
  EXPECT_EQ(cases[1].server, "c");
  EXPECT_EQ(hosts_of(cases), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(ExpandCases, PathMtuAndPingFloodAreTheNetworkSuite) {
  const auto p = rac(
      "[[test]]\nname = \"mtu\"\nkind = \"path_mtu\"\nfrom = \"a\"\nto = \"b\"\nmtu = 1500\n"
      "[[test]]\nname = \"flood\"\nkind = \"ping_flood\"\nfrom = \"a\"\nto = \"b\"\n"
      "budget = { max_loss = \"0%\" }\n");
  const auto cases = expand_cases(p);
  ASSERT_EQ(names(cases), (std::vector<std::string>{"Network.mtu/a->b", "Network.flood/a->b"}));
  EXPECT_EQ(cases[0].label, "network");
  EXPECT_EQ(cases[1].label, "network");
}

TEST(ExpandCases, MeshBothDirectionsIsEveryOrderedPair) {
  const auto p =
      rac("[[test]]\nname = \"tcp_rr_64\"\nkind = \"tcp_rr\"\npairs = \"mesh\"\n"
          "budget = { p99 = \"1ms\" }\n");
  const auto cases = expand_cases(p);
  EXPECT_EQ(names(cases), (std::vector<std::string>{"Latency.tcp_rr_64/a->b", "Latency.tcp_rr_64/a->c",
                                                    "Latency.tcp_rr_64/b->a", "Latency.tcp_rr_64/b->c",
                                                    "Latency.tcp_rr_64/c->a", "Latency.tcp_rr_64/c->b"}));
  for (const auto& c : cases) {
    EXPECT_EQ(c.pair, c.client + "->" + c.server);
    EXPECT_NE(c.client, c.server);
  }
  EXPECT_EQ(hosts_of(cases), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(ExpandCases, MeshOneDirectionFollowsTheListedOrder) {
  const auto p =
      rac("[[test]]\nname = \"up\"\nkind = \"udp_stream\"\npairs = \"mesh\"\ndirections = \"one\"\n"
          "hosts = [\"c\", \"a\", \"b\"]\nbudget = { max_loss = \"1%\" }\n");
  EXPECT_EQ(names(expand_cases(p)),
            (std::vector<std::string>{"Throughput.up/c->a", "Throughput.up/c->b", "Throughput.up/a->b"}));
}

TEST(ExpandCases, MeshOfASweepCarriesTheValueAndThePair) {
  const auto p =
      rac("[[test]]\nname = \"s\"\nkind = \"tcp_rr\"\npairs = \"mesh\"\ndirections = \"one\"\n"
          "hosts = [\"a\", \"b\"]\nmessage_size = [64, 1024]\nbudget = { p99 = \"1ms\" }\n");
  EXPECT_EQ(names(expand_cases(p)),
            (std::vector<std::string>{"Latency.s/message_size=64/a->b", "Latency.s/message_size=1024/a->b"}));
}

TEST(ExpandCases, ADisjointMeshComesRoundByRoundWithItsRound) {
  const auto p =
      rac("[[test]]\nname = \"m\"\nkind = \"tcp_rr\"\npairs = \"mesh\"\nmesh_schedule = \"disjoint\"\n"
          "budget = { p99 = \"1ms\" }\n",
          {"a", "b", "c", "d"});
  const auto cases = expand_cases(p);
  ASSERT_EQ(cases.size(), 12u);  // 4 x 3 ordered pairs, 6 rounds of 2
  EXPECT_EQ(names(cases), (std::vector<std::string>{"Latency.m/a->d", "Latency.m/b->c", "Latency.m/a->c",
                                                    "Latency.m/b->d", "Latency.m/a->b", "Latency.m/c->d",
                                                    "Latency.m/c->b", "Latency.m/d->a", "Latency.m/c->a",
                                                    "Latency.m/d->b", "Latency.m/b->a", "Latency.m/d->c"}));
  for (std::size_t i = 0; i < cases.size(); ++i) EXPECT_EQ(cases[i].round, static_cast<int>(i / 2 + 1));
  // Sequential (the default) stays the one-after-another order, outside any round.
  for (const auto& c : expand_cases(rac("[[test]]\nname = \"s\"\nkind = \"tcp_rr\"\npairs = \"mesh\"\n"
                                        "budget = { p99 = \"1ms\" }\n")))
    EXPECT_EQ(c.round, 0);
}

TEST(ExpandCases, OnlyRestrictsToOneTestWithAllItsPairs) {
  const auto p =
      rac("[[test]]\nname = \"m\"\nkind = \"tcp_rr\"\npairs = \"mesh\"\ndirections = \"one\"\n"
          "budget = { p99 = \"1ms\" }\n[[test]]\nname = \"j\"\nkind = \"jitter\"\non = [\"a\", \"c\"]\n"
          "budget = { max = \"1ms\" }\n");
  EXPECT_EQ(expand_cases(p, "m").size(), 3u);
  EXPECT_EQ(names(expand_cases(p, "j")), (std::vector<std::string>{"Jitter.j/a", "Jitter.j/c"}));
}

TEST(ExpandCases, TheSixNodeRacExampleSpansEveryPair) {
  const auto p = profile::load_or_throw(std::string(LABGATE_SOURCE_DIR) + "/profiles/example-rac-mesh.toml");
  EXPECT_EQ(expand_cases(p, "tcp_rr_64").size(), 30u);     // 6 x 5, both directions
  EXPECT_EQ(expand_cases(p, "udp_rr_64").size(), 15u);     // directions = "one"
  EXPECT_EQ(expand_cases(p, "udp_stream_8k").size(), 6u);  // hosts = the first three
  EXPECT_EQ(names(expand_cases(p, "tcp_rr_64_rac1_rac2")),
            std::vector<std::string>{"Latency.tcp_rr_64_rac1_rac2/rac1->rac2"});  // its own from/to
  EXPECT_EQ(expand_cases(p, "timer_jitter").size(), 6u);
}

}  // namespace
}  // namespace labgate::gate
