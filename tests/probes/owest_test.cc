// The shared one-way store (probes/common/lg_owest.c), as the mcast publisher
// uses it: forward direction only, t1 from a schedule, clocks skewed and a path
// asymmetric. What it keeps must hold the truth: the offset inside every
// exchange's interval, and the forward histogram, shifted by any offset within
// the fastest exchange's bound, within that bound of the true delays.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <random>

extern "C" {
#include "lg_owest.h"
}

#include "printed.h"

namespace {

struct OwStore {
  lg_owest o{};
  explicit OwStore(int both) { EXPECT_EQ(lg_ow_init(&o, both), 0); }
  ~OwStore() { lg_ow_free(&o); }
  nlohmann::json json() const {
    lg_anchor a{123, 40};
    return nlohmann::json::parse(
        labgate::probes_test::printed([&](FILE* f) { lg_ow_write_json(&o, &a, f); }));
  }
};

TEST(OneWayShared, ASkewedClockAndAnAsymmetricPathStayInsideTheIntersectionAndTheShiftedHistogram) {
  OwStore s(0);
  const std::int64_t offset = 7'250'000;  // the far clock 7.25 ms ahead
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<std::int64_t> wait(0, 30'000);
  std::int64_t fastest_rt = INT64_MAX, fastest_a = 0, fastest_b = 0, min_true = INT64_MAX, max_true = 0;
  for (std::uint64_t seq = 0; seq < 3000; ++seq) {
    // The feed's way is slower (40 us + queueing) than the reply's (10 us + queueing).
    const std::int64_t t1 = 1'000'000'000 + static_cast<std::int64_t>(seq) * 50'000;
    const std::int64_t fwd = 40'000 + wait(rng), back = 10'000 + wait(rng);
    lg_ow_book(&s.o, seq, t1, t1 + fwd + offset, t1 + fwd + back, seq >= 200);
    if (seq >= 200) min_true = std::min(min_true, fwd), max_true = std::max(max_true, fwd);
    if (fwd + back < fastest_rt) {
      fastest_rt = fwd + back;
      fastest_a = fwd + offset;
      fastest_b = back - offset;
    }
  }
  const nlohmann::json j = s.json();
  EXPECT_EQ(j["stamped"], 3000);
  EXPECT_FALSE(j.contains("b_to_a"));  // the way back is not kept
  EXPECT_EQ(j["a_to_b"]["total"], 2800);
  EXPECT_EQ(j["out_of_range"], 0);
  EXPECT_EQ(j["anchor"]["delta_ns"], 123);
  EXPECT_LE(j["intersection"]["lo_ns"].get<std::int64_t>(), offset);
  EXPECT_GE(j["intersection"]["hi_ns"].get<std::int64_t>(), offset);
  ASSERT_EQ(j["kept"].size(), static_cast<std::size_t>(LG_OW_KEEP));
  EXPECT_EQ(j["kept"][0]["t4"].get<std::int64_t>() - j["kept"][0]["t1"].get<std::int64_t>(), fastest_rt);
  // The harness's estimate: the fastest exchange's midpoint, half its round trip.
  const std::int64_t est = (fastest_a - fastest_b) / 2, bound = (fastest_rt + 1) / 2;
  ASSERT_LE(std::llabs(est - offset), bound);  // asymmetric: off, but within the bound
  // Shifted back by the estimate, each forward value is the true delay plus the
  // estimate's error (offset - estimate), which the bound holds.
  const std::int64_t shift =
      est - j["reference"]["offset_ns"].get<std::int64_t>() + j["reference"]["bias_ns"].get<std::int64_t>();
  EXPECT_EQ(static_cast<std::int64_t>(s.o.a_to_b->min) - shift - min_true, offset - est);
  EXPECT_EQ(static_cast<std::int64_t>(s.o.a_to_b->max) - shift - max_true, offset - est);
}

TEST(OneWayShared, WarmUpFeedsTheFastestButNotTheHistogram) {
  OwStore s(1);
  lg_ow_book(&s.o, 1, 1'000, 3'000, 4'000, 0);  // warm-up, the fastest
  lg_ow_book(&s.o, 2, 10'000, 15'000, 20'000, 1);
  const nlohmann::json j = s.json();
  EXPECT_EQ(j["kept"].size(), 2u);
  EXPECT_EQ(j["kept"][0]["seq"], 1);
  EXPECT_EQ(j["a_to_b"]["total"], 1);
  EXPECT_EQ(j["b_to_a"]["total"], 1);
  // The reference is the fastest exchange, warm-up included: (2000 - 1000) / 2.
  EXPECT_EQ(j["reference"]["offset_ns"], 500);
}

}  // namespace
