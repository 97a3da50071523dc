// Probe progress lines become console lines; anything else on stderr is ignored.
#include "labgate/gate/progress_line.h"

#include <gtest/gtest.h>

namespace labgate::gate {
namespace {

TEST(ProgressLine, PingPongLineShowsElapsedP99AndMaxSoFar) {
  const auto line = format_progress(
      "Latency.tcp_rr_64/a->b",
      R"({"progress":"tcp_rr","elapsed_s":3.000,"total_s":120.000,"count":9812,"p99_ns":44000,)"
      R"("max_ns":98200,"p99_ns_so_far":45100,"max_ns_so_far":120000})");
  ASSERT_TRUE(line);
  EXPECT_EQ(*line,
            "Latency.tcp_rr_64/a->b: 3.0/120.0 s, p99 so far 45.1 us, max so far 120 us "
            "(last interval: 9812 samples, p99 44.0 us, max 98.2 us)");
}

TEST(ProgressLine, JitterLineNamesItsCpu) {
  const auto line = format_progress(
      "Jitter.timer_jitter/a",
      R"({"progress":"jitter cpu 1","elapsed_s":1.0,"total_s":5.0,"count":100,"p99_ns":50,)"
      R"("max_ns":900,"p99_ns_so_far":60,"max_ns_so_far":12000000})");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->rfind("Jitter.timer_jitter/a (cpu 1): 1.0/5.0 s", 0), 0u) << *line;
  EXPECT_NE(line->find("max so far 12.0 ms"), std::string::npos) << *line;
}

TEST(ProgressLine, OtherStderrIsNotProgress) {
  EXPECT_FALSE(format_progress("x", ""));
  EXPECT_FALSE(format_progress("x", "pingpong: warning: cannot pin to cpu 3"));
  EXPECT_FALSE(format_progress("x", R"({"progress":"tcp_rr","elapsed_s":1.0)"));  // cut short
  EXPECT_FALSE(format_progress("x", R"({"error":"connect refused"})"));
  EXPECT_FALSE(format_progress("x", R"({"progress":"tcp_rr","elapsed_s":"soon"})"));
}

}  // namespace
}  // namespace labgate::gate
