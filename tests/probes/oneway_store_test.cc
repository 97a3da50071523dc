// The pingpong client's one-way store (probes/pingpong/pp_oneway.c over the
// shared probes/common/lg_owest.c): the 16 fastest exchanges kept in fixed
// memory, the intersection of every exchange's offset interval, plain echoes
// told apart, and per-direction histograms that hold every measured exchange at
// or above 0 while the offset holds still.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

extern "C" {
#include "pp_oneway.h"
}

#include "printed.h"

namespace {

/// A reply carrying the server's realtime receive stamp in bytes 8..15.
struct Reply {
  unsigned char bytes[64]{};
  explicit Reply(std::uint64_t stamp) { std::memcpy(bytes + 8, &stamp, 8); }
};

/// Books one exchange: sent at client monotonic `t1`, `ab` there and `ba` back,
/// the server's realtime clock `offset` ahead of the client's.
void book(pp_oneway* o, std::uint64_t seq, std::uint64_t t1, std::int64_t offset, std::uint64_t ab,
          std::uint64_t ba, int measured) {
  const std::uint64_t server_real =
      static_cast<std::uint64_t>(static_cast<std::int64_t>(lg_anchor_real(&o->anchor, t1 + ab)) + offset);
  pp_ow_book(o, seq, t1, t1 + ab + ba, Reply(server_real).bytes, measured);
}

nlohmann::json written(const pp_oneway* o) {
  return nlohmann::json::parse(labgate::probes_test::printed([o](FILE* f) { pp_ow_write_json(o, f); }));
}

// Gives the store's histograms back at the end of the test, however it ends.
struct Freed {
  pp_oneway* o;
  ~Freed() { pp_ow_free(o); }
};

TEST(OneWayStore, KeepsTheSixteenFastestAndEveryMeasuredExchangeInBothHistograms) {
  pp_oneway o;
  ASSERT_EQ(pp_ow_init(&o), 0);
  const Freed freed{&o};  // an ASSERT that returns early frees too
  const std::int64_t offset = -3'000'000;  // the server 3 ms behind
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<std::uint64_t> extra(0, 40'000);
  for (std::uint64_t seq = 0; seq < 5000; ++seq) {
    // Exchanges 1000..1015 are the fastest (2 us each way); the rest wait longer.
    const bool fast = seq >= 1000 && seq < 1016;
    book(&o, seq, 1'000'000 + seq * 100'000, offset, fast ? 2'000 : 5'000 + extra(rng),
         fast ? 2'000 : 5'000 + extra(rng), seq >= 100);
  }
  const nlohmann::json j = written(&o);
  EXPECT_EQ(j["stamped"], 5000);
  EXPECT_EQ(j["unstamped"], 0);
  ASSERT_EQ(j["kept"].size(), 16u);
  for (const auto& e : j["kept"]) {
    EXPECT_GE(e["seq"].get<std::uint64_t>(), 1000u);
    EXPECT_LT(e["seq"].get<std::uint64_t>(), 1016u);
    EXPECT_EQ(e["t4"].get<std::int64_t>() - e["t1"].get<std::int64_t>(), 4'000);
  }
  // The truth lies in every exchange's interval, so in their intersection.
  EXPECT_LE(j["intersection"]["lo_ns"].get<std::int64_t>(), offset);
  EXPECT_GE(j["intersection"]["hi_ns"].get<std::int64_t>(), offset);
  EXPECT_EQ(j["out_of_range"], 0);
  EXPECT_EQ(j["a_to_b"]["total"], 4900);  // the measured ones only
  EXPECT_EQ(j["b_to_a"]["total"], 4900);
  EXPECT_EQ(j["anchor"]["clock"], "realtime");
}

TEST(OneWayStore, APlainEchoIsCountedNotBooked) {
  pp_oneway o;
  ASSERT_EQ(pp_ow_init(&o), 0);
  const Freed freed{&o};  // an ASSERT that returns early frees too
  // A server that only echoes returns the client's own send stamp.
  pp_ow_book(&o, 1, 777'000, 800'000, Reply(777'000).bytes, 1);
  const nlohmann::json j = written(&o);
  EXPECT_EQ(j["stamped"], 0);
  EXPECT_EQ(j["unstamped"], 1);
  EXPECT_TRUE(j["intersection"].is_null());
  EXPECT_TRUE(j["reference"].is_null());
  EXPECT_EQ(j["kept"].size(), 0u);
}

TEST(OneWayStore, AClockThatJumpsEmptiesTheIntersection) {
  pp_oneway o;
  ASSERT_EQ(pp_ow_init(&o), 0);
  const Freed freed{&o};  // an ASSERT that returns early frees too
  book(&o, 1, 1'000'000, 0, 5'000, 5'000, 1);
  book(&o, 2, 2'000'000, 100'000, 5'000, 5'000, 1);  // the server's clock 100 us ahead now
  const nlohmann::json j = written(&o);
  EXPECT_GT(j["intersection"]["lo_ns"].get<std::int64_t>(), j["intersection"]["hi_ns"].get<std::int64_t>());
}

}  // namespace
