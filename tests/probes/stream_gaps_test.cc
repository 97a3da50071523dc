// The stream receiver's tail (probes/stream/st_gaps.c): the worst receive gaps
// of the measured phase in fixed memory, warm-up left out, and for UDP the
// sequence gaps with the longest pause before each. Times are given, not read.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

extern "C" {
#include "st_gaps.h"
}

#include "printed.h"

namespace {

nlohmann::json summary(const st_gaps* g) {
  // The writer prints members of the server's summary: wrap them in an object.
  const std::string s = labgate::probes_test::printed([g](FILE* f) {
    std::fputs("{\"x\":0", f);
    st_gaps_write_json(g, f);
    std::fputc('}', f);
  });
  return nlohmann::json::parse(s);
}

TEST(StreamGaps, TcpLeavesTheWarmupOutAndKeepsTheKWorstWithTheirByteOffset) {
  st_gaps g;
  ASSERT_EQ(st_gaps_init(&g, 0, 2), 0);
  st_gaps_session(&g, -1, 1000);
  st_gaps_tcp(&g, 100, 10);   // the first byte: measuring from 1100
  st_gaps_tcp(&g, 900, 10);   // a warm-up gap of 800: not counted
  st_gaps_tcp(&g, 1050, 10);  // 150, begun in the warm-up: not counted
  st_gaps_tcp(&g, 1200, 10);  // 150, begun at 1050 < 1100: not counted
  st_gaps_tcp(&g, 1230, 10);  // 30
  st_gaps_tcp(&g, 1730, 10);  // 500
  st_gaps_tcp(&g, 1740, 10);  // 10
  st_gaps_tcp(&g, 2040, 10);  // 300
  st_gaps_tcp(&g, 2060, 5);   // 20
  EXPECT_EQ(g.hist->total, 5u) << "only the gaps that began after the warm-up";
  EXPECT_EQ(g.hist->max, 500u);
  const nlohmann::json j = summary(&g);
  const nlohmann::json& items = j["gap_outliers"]["items"];
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0]["value_ns"], 500);  // time order
  EXPECT_EQ(items[0]["at_ns"], 1730);
  EXPECT_EQ(items[0]["seq"], 59) << "the offset of the last byte the gap-ending read returned";
  EXPECT_EQ(items[1]["value_ns"], 300);
  EXPECT_EQ(items[1]["seq"], 79);
  EXPECT_EQ(items[1]["ctx_from_seq"], 60) << "the switch window starts with the read after the previous outlier";
  EXPECT_TRUE(items[0]["sock_wait_ns"].is_null());
  EXPECT_EQ(j["gap_outliers"]["floor_ns"], 300);
  EXPECT_EQ(j["receive_gaps"]["count"], 5);
  EXPECT_EQ(j["receive_gaps"]["proto"], "tcp");
  EXPECT_NE(j["receive_gaps"]["what"].get<std::string>().find("not a packet boundary"), std::string::npos);
  EXPECT_EQ(j["outlier_sources"]["sock_wait"],
            "not available: the kernel keeps no per-socket receive stamp for TCP");
  EXPECT_FALSE(j["receive_gaps"].contains("lost")) << "TCP loses nothing the receiver could count";
  // A second session: the pause between the sessions is no gap.
  st_gaps_session(&g, -1, 0);
  st_gaps_tcp(&g, 90000, 10);
  st_gaps_tcp(&g, 90010, 10);
  EXPECT_EQ(g.hist->total, 6u);
  EXPECT_EQ(g.hist->max, 500u);
  st_gaps_free(&g);
}

TEST(StreamGaps, UdpCountsTheMeasuredPhaseItsLossBurstsAndThePauseBeforeEach) {
  st_gaps g;
  ASSERT_EQ(st_gaps_init(&g, 1, 4), 0);
  st_gaps_session(&g, -1, 0);
  st_gaps_udp(&g, 100, 0, 0);
  st_gaps_udp(&g, 5000, 1, 0);   // warm-up: no gap
  st_gaps_udp(&g, 5100, 3, 1);   // the first measured datagram: no gap, no loss counted
  st_gaps_udp(&g, 5110, 4, 1);   // 10
  st_gaps_udp(&g, 9110, 5, 1);   // 4000: the receiver paused
  st_gaps_udp(&g, 9115, 6, 1);   // 5: what the buffer held
  st_gaps_udp(&g, 9120, 16, 1);  // 5, 9 datagrams missing: the pause of 4000 before it
  st_gaps_udp(&g, 9130, 12, 1);  // 10, older than one read: reordered, not lost
  st_gaps_udp(&g, 9140, 18, 1);  // 10, 1 missing; the longest since the last burst: 10
  EXPECT_EQ(g.hist->total, 6u);
  EXPECT_EQ(g.loss_bursts, 2u);
  EXPECT_EQ(g.lost, 10u);
  EXPECT_EQ(g.reordered, 1u);
  const nlohmann::json j = summary(&g);
  const nlohmann::json& bursts = j["receive_gaps"]["largest_seq_gaps"];
  ASSERT_EQ(bursts.size(), 2u);
  EXPECT_EQ(bursts[0]["seq"], 16);
  EXPECT_EQ(bursts[0]["lost"], 9);
  EXPECT_EQ(bursts[0]["pause_ns"], 4000);
  EXPECT_EQ(bursts[0]["pause_end_ns"], 9110);
  EXPECT_EQ(bursts[1]["lost"], 1);
  EXPECT_EQ(bursts[1]["pause_ns"], 10);
  EXPECT_EQ(j["receive_gaps"]["lost"], 10);
  const nlohmann::json& items = j["gap_outliers"]["items"];
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[1]["value_ns"], 4000);
  EXPECT_EQ(items[1]["seq"], 5);
  st_gaps_free(&g);
}

TEST(StreamGaps, UdpKeepsTheLargestLossBurstsInFixedMemory) {
  st_gaps g;
  ASSERT_EQ(st_gaps_init(&g, 1, 1), 0);
  st_gaps_session(&g, -1, 0);
  uint64_t seq = 0, t = 1000;
  st_gaps_udp(&g, t, seq, 1);
  // 100 bursts losing 1..100 datagrams (in a scrambled order).
  for (uint64_t k = 0; k < 100; ++k) {
    const uint64_t lost = (k * 37) % 100 + 1;
    seq += lost + 1;
    t += 10;
    st_gaps_udp(&g, t, seq, 1);
  }
  EXPECT_EQ(g.loss_bursts, 100u);
  EXPECT_EQ(g.loss_len, static_cast<unsigned>(ST_LOSS_KEPT));
  uint64_t least = UINT64_MAX;
  for (unsigned i = 0; i < g.loss_len; ++i) least = std::min(least, g.loss[i].lost);
  EXPECT_EQ(least, 100u - ST_LOSS_KEPT + 1) << "the largest bursts are the ones kept";
  st_gaps_free(&g);
}

}  // namespace
