// Tests of the round-robin schedule: every ordered pair exactly once, no host
// twice in a round, the fewest rounds for even and odd meshes, a fixed order.
#include "labgate/mesh/schedule.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

namespace labgate::mesh {
namespace {

std::size_t fewest_rounds(std::size_t n) { return n % 2 == 0 ? n - 1 : n; }

TEST(RoundRobin, EveryOrderedPairExactlyOnceBothDirections) {
  for (std::size_t n = 2; n <= 9; ++n) {
    std::set<std::pair<std::size_t, std::size_t>> seen;
    std::size_t total = 0;
    for (const Round& r : round_robin(n, true))
      for (const Pair& p : r) {
        ++total;
        EXPECT_NE(p.client, p.server) << "n=" << n;
        EXPECT_LT(p.client, n);
        EXPECT_LT(p.server, n);
        EXPECT_TRUE(seen.emplace(p.client, p.server).second) << "n=" << n << " " << p.client << "->" << p.server;
      }
    EXPECT_EQ(total, n * (n - 1)) << "n=" << n;
    EXPECT_EQ(seen.size(), n * (n - 1)) << "n=" << n;
  }
}

TEST(RoundRobin, OneDirectionIsEachPairOnceWithTheEarlierHostAsClient) {
  for (std::size_t n = 2; n <= 9; ++n) {
    std::set<std::pair<std::size_t, std::size_t>> seen;
    for (const Round& r : round_robin(n, false))
      for (const Pair& p : r) {
        EXPECT_LT(p.client, p.server) << "n=" << n;
        EXPECT_TRUE(seen.emplace(p.client, p.server).second) << "n=" << n;
      }
    EXPECT_EQ(seen.size(), n * (n - 1) / 2) << "n=" << n;
  }
}

TEST(RoundRobin, NoHostTwiceInARound) {
  for (std::size_t n = 2; n <= 9; ++n)
    for (bool both : {false, true})
      for (const Round& r : round_robin(n, both)) {
        std::set<std::size_t> hosts;
        for (const Pair& p : r) {
          EXPECT_TRUE(hosts.insert(p.client).second) << "n=" << n << " host " << p.client << " twice";
          EXPECT_TRUE(hosts.insert(p.server).second) << "n=" << n << " host " << p.server << " twice";
        }
        // Full rounds: every host busy (even n) or exactly one resting (odd n).
        EXPECT_EQ(hosts.size(), n % 2 == 0 ? n : n - 1) << "n=" << n;
      }
}

TEST(RoundRobin, RoundsAreTheFewestPossibleForEvenAndOddMeshes) {
  for (std::size_t n = 2; n <= 9; ++n) {
    EXPECT_EQ(round_robin(n, false).size(), fewest_rounds(n)) << "n=" << n;
    EXPECT_EQ(round_robin(n, true).size(), 2 * fewest_rounds(n)) << "n=" << n;
  }
  // The RAC: six hosts, both directions -> 10 rounds of 3 pairs.
  const auto six = round_robin(6, true);
  ASSERT_EQ(six.size(), 10u);
  for (const Round& r : six) EXPECT_EQ(r.size(), 3u);
}

TEST(RoundRobin, TheReverseDirectionIsItsOwnRoundsInTheSameOrder) {
  const auto rounds = round_robin(5, true);
  ASSERT_EQ(rounds.size(), 10u);
  for (std::size_t r = 0; r < 5; ++r) {
    std::set<std::pair<std::size_t, std::size_t>> there, back;
    for (const Pair& p : rounds[r]) there.emplace(p.server, p.client);
    for (const Pair& p : rounds[r + 5]) back.emplace(p.client, p.server);
    EXPECT_EQ(there, back) << "round " << r;
  }
}

TEST(RoundRobin, DeterministicOrder) {
  EXPECT_EQ(round_robin(7, true), round_robin(7, true));
  // Four hosts: slot 0 fixed, the others turn.
  const std::vector<Round> four = {{{0, 3}, {1, 2}}, {{0, 2}, {1, 3}}, {{0, 1}, {2, 3}}};
  EXPECT_EQ(round_robin(4, false), four);
}

TEST(RoundRobin, FewerThanTwoHostsIsNoRound) {
  EXPECT_TRUE(round_robin(0, true).empty());
  EXPECT_TRUE(round_robin(1, true).empty());
  ASSERT_EQ(round_robin(2, true).size(), 2u);
  EXPECT_EQ(round_robin(2, true)[1], (Round{{1, 0}}));
}

}  // namespace
}  // namespace labgate::mesh
