// The multicast subscriber's own accounting (probes/mcast/mc_track.c): loss,
// duplicates, reordering and the longest gap in fixed memory, warm-up apart.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

extern "C" {
#include "mc_track.h"
}

namespace {

struct Track {
  mc_track t{};
  Track(unsigned bits, uint64_t first) { EXPECT_EQ(mc_track_init(&t, bits, first), 0); }
  ~Track() { mc_track_free(&t); }
  void see(const std::vector<uint64_t>& seqs) {
    for (uint64_t s : seqs) mc_track_seen(&t, s);
  }
};

TEST(McTrack, EveryMessageInOrderIsNoLossAndNoGap) {
  Track k(4, 3);
  for (uint64_t s = 0; s < 100; ++s) mc_track_seen(&k.t, s);
  mc_track_finish(&k.t, 100);
  EXPECT_EQ(k.t.warmup_received, 3u);
  EXPECT_EQ(k.t.received, 97u);
  EXPECT_EQ(k.t.lost, 0u);
  EXPECT_EQ(k.t.longest_gap, 0u);
  EXPECT_EQ(k.t.gaps, 0u);
}

TEST(McTrack, TheLongestRunOfLostNumbersIsTheGapAcrossTheRing) {
  Track k(3, 0);  // a ring of 8: the runs below are judged as they leave it
  for (uint64_t s = 0; s < 60; ++s)
    if (!(s >= 10 && s < 13) && !(s >= 30 && s < 50)) mc_track_seen(&k.t, s);
  mc_track_finish(&k.t, 60);
  EXPECT_EQ(k.t.lost, 23u);
  EXPECT_EQ(k.t.longest_gap, 20u);
  EXPECT_EQ(k.t.gaps, 2u);
  EXPECT_EQ(k.t.received, 37u);
}

TEST(McTrack, ReorderedAndDuplicatedAreToldApartFromLoss) {
  Track k(4, 0);
  k.see({0, 1, 3, 2, 3, 4, 4, 6, 5});
  mc_track_finish(&k.t, 7);
  EXPECT_EQ(k.t.received, 7u);
  EXPECT_EQ(k.t.out_of_order, 2u);
  EXPECT_EQ(k.t.duplicated, 2u);
  EXPECT_EQ(k.t.lost, 0u);
}

TEST(McTrack, TrailingLossCountsOnlyOnceTheEndIsKnown) {
  Track k(4, 0);
  k.see({0, 1, 2});
  Track unknown(4, 0);
  unknown.see({0, 1, 2});
  mc_track_finish(&k.t, 10);
  mc_track_finish(&unknown.t, 0);
  EXPECT_EQ(k.t.lost, 7u);
  EXPECT_EQ(k.t.longest_gap, 7u);
  EXPECT_EQ(unknown.t.lost, 0u);
}

TEST(McTrack, AGapLongerThanTheRingIsCountedWhole) {
  Track k(2, 0);
  k.see({0, 1, 1000, 1001});
  mc_track_finish(&k.t, 1002);
  EXPECT_EQ(k.t.lost, 998u);
  EXPECT_EQ(k.t.longest_gap, 998u);
  EXPECT_EQ(k.t.gaps, 1u);
  k.see({500});  // judged lost already: too late, stays lost
  EXPECT_EQ(k.t.too_late, 1u);
}

TEST(McTrack, AMissingFirstMeasuredMessageIsLost) {
  Track k(4, 5);
  k.see({3, 4, 8, 9});
  mc_track_finish(&k.t, 10);
  EXPECT_EQ(k.t.warmup_received, 2u);
  EXPECT_EQ(k.t.lost, 3u);
  EXPECT_EQ(k.t.longest_gap, 3u);
}

}  // namespace
