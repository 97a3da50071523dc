// The mcast publisher's booking of a subscriber's reply (probes/mcast/mc_book.c)
// and the reply's wire form (mc.h): a stamped reply measures the round trip and
// goes into the one-way store with the scheduled send in realtime, an
// unstamped one measures the round trip only, and what is not a reply, a
// duplicate or a warm-up answer is counted apart, never booked as a sample.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

extern "C" {
#include "mc.h"
#include "mc_book.h"
}

namespace {

struct McSub {
  mc_sub_stats s{};
  McSub() { EXPECT_EQ(mc_sub_stats_init(&s), 0); }
  ~McSub() { mc_sub_stats_free(&s); }
};

// 1000 messages at 1 ms from monotonic 5 s; 100 of warm-up.
const mc_sched kSched = {5'000'000'000ull, 1e6, 100, 1000};
// This publisher's realtime runs 1.7e18 ns ahead of its monotonic clock.
const lg_anchor kAnchor = {1'700'000'000'000'000'000ll, 25};

struct McReplyBytes {
  unsigned char b[MC_REPLY_LEN];
  McReplyBytes(std::uint64_t seq, std::int64_t stamp) {
    mc_hdr h{};
    h.seq = seq;
    h.ts = mc_sched_at(&kSched, seq);
    mc_put_reply(b, &h, stamp);
  }
};

TEST(McBook, AStampedReplyIsARoundTripAndAOneWayExchange) {
  McSub sub;
  const std::uint64_t due = mc_sched_at(&kSched, 500), arrival = due + 90'000;
  // The subscriber's clock 3 ms behind; it received 50 us after the schedule.
  const std::int64_t stamp = static_cast<std::int64_t>(lg_anchor_real(&kAnchor, due + 50'000)) - 3'000'000;
  const McReplyBytes r(500, stamp);
  mc_book_reply(&sub.s, &kSched, &kAnchor, r.b, MC_REPLY_LEN, arrival);
  EXPECT_EQ(sub.s.replies, 1u);
  EXPECT_EQ(sub.s.hist->total, 1u);
  EXPECT_EQ(sub.s.hist->max, 90'000u);
  ASSERT_EQ(sub.s.ow.stamped, 1u);
  ASSERT_EQ(sub.s.ow.kept_len, 1);
  const lg_ow_exchange& e = sub.s.ow.kept[0];
  EXPECT_EQ(e.seq, 500u);
  EXPECT_EQ(e.t1, static_cast<std::int64_t>(lg_anchor_real(&kAnchor, due)));
  EXPECT_EQ(e.t2, stamp);
  EXPECT_EQ(e.t4, static_cast<std::int64_t>(lg_anchor_real(&kAnchor, arrival)));
  // The offset (-3 ms) lies in [t2 - t4, t2 - t1].
  EXPECT_LE(e.t2 - e.t4, -3'000'000);
  EXPECT_GE(e.t2 - e.t1, -3'000'000);
  EXPECT_EQ(sub.s.ow.a_to_b->total, 1u);
}

TEST(McBook, AnUnstampedReplyStillMeasuresTheRoundTrip) {
  McSub sub;
  const McReplyBytes r(200, 0);
  mc_book_reply(&sub.s, &kSched, &kAnchor, r.b, MC_REPLY_MIN, mc_sched_at(&kSched, 200) + 1'000);
  EXPECT_EQ(sub.s.replies, 1u);
  EXPECT_EQ(sub.s.ow.stamped, 0u);
  EXPECT_EQ(sub.s.ow.unstamped, 1u);
  EXPECT_EQ(sub.s.ow.a_to_b->total, 0u);
}

TEST(McBook, NonRepliesDuplicatesAndWarmUpAreCountedApart) {
  McSub sub;
  const std::uint64_t t = 9'000'000'000ull;
  McReplyBytes bad(300, 1);
  std::memcpy(bad.b, "LGMC", 4);  // a feed message, not a reply
  mc_book_reply(&sub.s, &kSched, &kAnchor, bad.b, MC_REPLY_LEN, t);
  const McReplyBytes late(1000, 1);  // beyond the schedule
  mc_book_reply(&sub.s, &kSched, &kAnchor, late.b, MC_REPLY_LEN, t);
  const McReplyBytes ok(300,
                        static_cast<std::int64_t>(lg_anchor_real(&kAnchor, mc_sched_at(&kSched, 300) + 10)));
  mc_book_reply(&sub.s, &kSched, &kAnchor, ok.b, 23, t);  // too short
  EXPECT_EQ(sub.s.invalid, 3u);
  mc_book_reply(&sub.s, &kSched, &kAnchor, ok.b, MC_REPLY_LEN, t);
  mc_book_reply(&sub.s, &kSched, &kAnchor, ok.b, MC_REPLY_LEN, t);  // the same again
  EXPECT_EQ(sub.s.replies, 1u);
  EXPECT_EQ(sub.s.duplicated, 1u);
  const McReplyBytes warm(50,
                          static_cast<std::int64_t>(lg_anchor_real(&kAnchor, mc_sched_at(&kSched, 50) + 10)));
  mc_book_reply(&sub.s, &kSched, &kAnchor, warm.b, MC_REPLY_LEN, mc_sched_at(&kSched, 50) + 20);
  EXPECT_EQ(sub.s.warmup_replies, 1u);
  EXPECT_EQ(sub.s.hist->total, 1u);
  // The warm-up answer is among the fastest exchanges (the offset), not a figure.
  EXPECT_EQ(sub.s.ow.stamped, 2u);
  EXPECT_EQ(sub.s.ow.a_to_b->total, 1u);
}

TEST(McReply, WrittenAndReadBack) {
  mc_hdr h{};
  h.seq = 77;
  h.ts = 123;
  unsigned char b[MC_REPLY_LEN];
  mc_put_reply(b, &h, -42);
  mc_reply r{};
  ASSERT_EQ(mc_get_reply(b, MC_REPLY_LEN, &r), 0);
  EXPECT_EQ(r.seq, 77u);
  EXPECT_EQ(r.stamp, -42);
  EXPECT_TRUE(r.stamped);
  EXPECT_EQ(mc_get_reply(b, MC_REPLY_MIN - 1, &r), -1);
}

}  // namespace
