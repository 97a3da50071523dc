// The measuring probes' own C logic, compiled for the host: the sequence window
// that classifies UDP replies, the per-interval series, and the unit parsers.
#include <gtest/gtest.h>

extern "C" {
#include "lg_measure_util.h"
#include "lg_series.h"
#include "pp_seqwin.h"
}

namespace {

TEST(SeqWin, FreshLateDuplicateAndOutOfOrderReplies) {
  pp_seqwin w;
  ASSERT_EQ(pp_seqwin_init(&w, 4), 0);  // 16 slots
  for (int i = 0; i < 4; ++i) EXPECT_EQ(pp_seqwin_send(&w), static_cast<uint64_t>(i));
  int ooo = 0;
  EXPECT_EQ(pp_seqwin_reply(&w, 2, &ooo), PP_REPLY_OK);
  EXPECT_EQ(ooo, 0);
  EXPECT_EQ(pp_seqwin_reply(&w, 1, &ooo), PP_REPLY_OK);
  EXPECT_EQ(ooo, 1) << "1 answered after 2";
  EXPECT_EQ(pp_seqwin_reply(&w, 2, &ooo), PP_REPLY_DUP);
  uint64_t oldest = 99;
  ASSERT_EQ(pp_seqwin_oldest(&w, &oldest), 1);
  EXPECT_EQ(oldest, 0u);
  pp_seqwin_drop(&w, 0);
  EXPECT_EQ(pp_seqwin_reply(&w, 0, &ooo), PP_REPLY_LATE) << "a reply after its timeout stays a drop";
  EXPECT_EQ(pp_seqwin_reply(&w, 9, &ooo), PP_REPLY_UNKNOWN) << "never sent";
  ASSERT_EQ(pp_seqwin_oldest(&w, &oldest), 1);
  EXPECT_EQ(oldest, 3u);
  EXPECT_EQ(pp_seqwin_reply(&w, 3, &ooo), PP_REPLY_OK);
  EXPECT_EQ(pp_seqwin_oldest(&w, &oldest), 0) << "nothing outstanding";
  pp_seqwin_free(&w);
}

TEST(SeqWin, AFullWindowHoldsSendsAndOldNumbersAreNotOurs) {
  pp_seqwin w;
  ASSERT_EQ(pp_seqwin_init(&w, 2), 0);  // 4 slots
  for (int i = 0; i < 4; ++i) pp_seqwin_send(&w);
  EXPECT_FALSE(pp_seqwin_can_send(&w)) << "slot of request 4 still holds outstanding request 0";
  int ooo;
  EXPECT_EQ(pp_seqwin_reply(&w, 0, &ooo), PP_REPLY_OK);
  EXPECT_TRUE(pp_seqwin_can_send(&w));
  EXPECT_EQ(pp_seqwin_send(&w), 4u);
  EXPECT_EQ(pp_seqwin_reply(&w, 0, &ooo), PP_REPLY_UNKNOWN) << "0 fell out of the window";
  EXPECT_EQ(pp_seqwin_reply(&w, 4, &ooo), PP_REPLY_OK);
  pp_seqwin_free(&w);
}

TEST(Series, IntervalsIncludingEmptyOnesAndAPartialLast) {
  lg_series s;
  ASSERT_EQ(lg_series_init(&s, 1000, 3500), 0);
  lg_series_start(&s, 10000);
  lg_series_record(&s, 10100, 5);
  lg_series_record(&s, 10200, 7);
  lg_series_record(&s, 12500, 100);  // interval 1 had no sample
  lg_series_record(&s, 13200, 9);
  lg_series_finish(&s, 13500);
  ASSERT_EQ(s.len, 4u);
  EXPECT_EQ(s.items[0].count, 2u);
  EXPECT_EQ(s.items[0].max_ns, 7u);
  EXPECT_EQ(s.items[0].p50_ns, 5u);
  EXPECT_EQ(s.items[1].count, 0u);
  EXPECT_EQ(s.items[1].start_ns, 1000u);
  EXPECT_EQ(s.items[2].max_ns, 100u);
  EXPECT_EQ(s.items[3].start_ns, 3000u);
  EXPECT_EQ(s.items[3].length_ns, 500u);
  EXPECT_EQ(s.items[3].count, 1u);
  EXPECT_EQ(s.cur->total, 0u) << "the interval histogram is emptied at each close";
  lg_series_free(&s);
}

TEST(Series, ClosingAnIntervalLeavesNoStaleCounts) {
  lg_series s;
  ASSERT_EQ(lg_series_init(&s, 1000, 2000), 0);
  lg_series_start(&s, 0);
  for (uint64_t v : {3000u, 5000000u, 1u}) lg_series_record(&s, 10, v);
  lg_series_record(&s, 1500, 42);
  lg_series_finish(&s, 2000);
  ASSERT_EQ(s.len, 2u);
  EXPECT_EQ(s.items[1].count, 1u);
  EXPECT_EQ(s.items[1].p50_ns, 42u);
  EXPECT_EQ(s.items[1].p99_ns, 42u) << "nothing of interval 0 leaks into interval 1";
  lg_series_free(&s);
}

TEST(Series, OverrunIsCountedNotWritten) {
  lg_series s;
  ASSERT_EQ(lg_series_init(&s, 1000, 1000), 0);  // room for 1 + 2 spare
  lg_series_start(&s, 0);
  lg_series_roll(&s, 10000);
  EXPECT_EQ(s.len, 3u);
  EXPECT_EQ(s.not_kept, 7u);
  EXPECT_EQ(lg_series_capacity(1, 1000000000ull * 3600), 0u) << "1 ns intervals for an hour: refused";
  lg_series_free(&s);
}

TEST(Units, Durations) {
  uint64_t ns;
  EXPECT_EQ(lg_parse_duration_ns("250ns", &ns), 0);
  EXPECT_EQ(ns, 250u);
  EXPECT_EQ(lg_parse_duration_ns("1.5ms", &ns), 0);
  EXPECT_EQ(ns, 1500000u);
  EXPECT_EQ(lg_parse_duration_ns("2s", &ns), 0);
  EXPECT_EQ(ns, 2000000000u);
  EXPECT_EQ(lg_parse_duration_ns("5m", &ns), 0);
  EXPECT_EQ(ns, 300000000000u);
  EXPECT_EQ(lg_parse_duration_ns("0", &ns), 0);
  EXPECT_EQ(ns, 0u);
  for (const char* bad : {"", "2", "-1s", "1 s", "1sec", "s", "nan", "1e30s"})
    EXPECT_EQ(lg_parse_duration_ns(bad, &ns), -1) << bad;
}

TEST(Units, SizesRatesIntegers) {
  uint64_t size;
  EXPECT_EQ(lg_parse_size("64", &size), 0);
  EXPECT_EQ(size, 64u);
  EXPECT_EQ(lg_parse_size("16KiB", &size), 0);
  EXPECT_EQ(size, 16384u);
  EXPECT_EQ(lg_parse_size("1.5", &size), -1);
  EXPECT_EQ(lg_parse_size("16kb", &size), -1);
  double rate;
  EXPECT_EQ(lg_parse_rate("20000/s", &rate), 0);
  EXPECT_EQ(rate, 20000);
  EXPECT_EQ(lg_parse_rate("0/s", &rate), -1);
  EXPECT_EQ(lg_parse_rate("20000/m", &rate), -1);
  long v;
  EXPECT_EQ(lg_parse_long("42", 0, 100, &v), 0);
  EXPECT_EQ(lg_parse_long("420", 0, 100, &v), -1);
  EXPECT_EQ(lg_parse_long("4x", 0, 100, &v), -1);
}

}  // namespace
