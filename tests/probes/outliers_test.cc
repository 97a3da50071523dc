// The probes' outlier store (probes/common/lg_outliers.c): the K worst and the
// samples over the threshold kept in fixed memory, each once in the output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

extern "C" {
#include "lg_outliers.h"
}

#include "printed.h"

namespace {

lg_outlier sample(uint64_t seq, uint64_t value) {
  lg_outlier r{};
  r.seq = seq;
  r.at_ns = 1000 * (seq + 1);
  r.value_ns = value;
  r.sock_wait_ns = LG_UNKNOWN;
  r.cpu_before = r.cpu_after = 2;
  r.vcsw = 1;
  r.ivcsw = LG_UNKNOWN;
  r.ctx_from_seq = seq;
  return r;
}

// Feeds values through wants()/add() as a probe does; returns how many were wanted.
int feed(lg_outliers* o, const std::vector<uint64_t>& values) {
  int wanted = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!lg_outliers_wants(o, values[i])) continue;
    ++wanted;
    const lg_outlier r = sample(i, values[i]);
    lg_outliers_add(o, &r);
  }
  return wanted;
}

std::string json_of(const lg_outliers* o) {
  return labgate::probes_test::printed([o](FILE* f) { lg_outliers_write_json(o, f); });
}

TEST(Outliers, KeepsTheKWorstWhateverTheOrder) {
  lg_outliers o;
  ASSERT_EQ(lg_outliers_init(&o, 3, 0, 0), 0);
  feed(&o, {5, 90, 7, 60, 3, 80, 1, 70, 2});
  ASSERT_EQ(o.worst_len, 3u);
  std::vector<uint64_t> kept;
  for (std::size_t i = 0; i < o.worst_len; ++i) kept.push_back(o.worst[i].value_ns);
  std::sort(kept.begin(), kept.end());
  EXPECT_EQ(kept, (std::vector<uint64_t>{70, 80, 90}));
  EXPECT_EQ(lg_outliers_floor(&o), 70u) << "every sample not kept was at most the mildest kept";
  EXPECT_FALSE(lg_outliers_wants(&o, 70)) << "no better than the mildest kept: not wanted";
  EXPECT_TRUE(lg_outliers_wants(&o, 71));
  lg_outliers_free(&o);
}

TEST(Outliers, KeepsEverySampleOverTheThresholdUpToTheCapAndCountsTheRest) {
  lg_outliers o;
  ASSERT_EQ(lg_outliers_init(&o, 2, 3, 100), 0);
  feed(&o, {10, 150, 20, 120, 101, 30, 500, 110, 100});
  EXPECT_EQ(o.over_seen, 5u) << "150 120 101 500 110 are over 100; 100 is not";
  ASSERT_EQ(o.over_len, 3u) << "the cap";
  EXPECT_EQ(o.over[0].value_ns, 150u);
  EXPECT_EQ(o.over[1].value_ns, 120u);
  EXPECT_EQ(o.over[2].value_ns, 101u) << "kept in arrival order";
  lg_outliers_free(&o);
}

// A sample over the threshold once that log is full, and milder than the worst
// kept, is still wanted (it counts) but not stored: its circumstances, which
// cost system calls to read, are not worth reading.
TEST(Outliers, OnlyASampleThatWillBeStoredIsWorthItsCircumstances) {
  lg_outliers o;
  ASSERT_EQ(lg_outliers_init(&o, 2, 2, 100), 0);
  feed(&o, {500, 600, 150, 120});  // worst: 500 600; over: 500 600 (log full)
  ASSERT_EQ(o.over_len, 2u);
  EXPECT_TRUE(lg_outliers_wants(&o, 130)) << "over the threshold: counted";
  EXPECT_FALSE(lg_outliers_stores(&o, 130)) << "log full, milder than 500: not stored";
  EXPECT_TRUE(lg_outliers_stores(&o, 700)) << "among the worst";
  EXPECT_FALSE(lg_outliers_stores(&o, 50));
  lg_outliers store_room;
  ASSERT_EQ(lg_outliers_init(&store_room, 2, 4, 100), 0);
  EXPECT_TRUE(lg_outliers_stores(&store_room, 130)) << "room in the log: stored";
  feed(&store_room, {10, 20});  // the worst are now full with 10 and 20
  EXPECT_TRUE(lg_outliers_stores(&store_room, 101));
  EXPECT_TRUE(lg_outliers_stores(&store_room, 15)) << "milder than 101 but above the mildest worst (10)";
  EXPECT_FALSE(lg_outliers_stores(&store_room, 5));
  lg_outliers_free(&o);
  lg_outliers_free(&store_room);
}

TEST(Outliers, MemoryIsFixedWhateverTheRunLength) {
  lg_outliers o;
  ASSERT_EQ(lg_outliers_init(&o, 4, 8, 1000), 0);
  const lg_outlier* worst = o.worst;
  const lg_outlier* over = o.over;
  std::vector<uint64_t> values;
  for (uint64_t i = 0; i < 200000; ++i) values.push_back((i * 7919) % 5000);
  feed(&o, values);
  EXPECT_EQ(o.worst, worst);
  EXPECT_EQ(o.over, over);
  EXPECT_EQ(o.worst_len, 4u);
  EXPECT_EQ(o.over_len, 8u);
  EXPECT_EQ(lg_outliers_floor(&o), 4999u);
  lg_outliers_free(&o);
}

TEST(Outliers, AStoreInTheCallersMemoryStaysInsideItAndKeepsTheSame) {
  // The jitter probe's children keep theirs in the mapping the parent prints from.
  std::vector<unsigned char> block(lg_outliers_bytes(3, 2) + 64, 0xee);
  lg_outliers at, own;
  lg_outliers_init_at(&at, block.data(), 3, 2, 100);
  ASSERT_EQ(lg_outliers_init(&own, 3, 2, 100), 0);
  const std::vector<uint64_t> values{5, 300, 7, 150, 90, 400, 60, 101};
  feed(&at, values);
  feed(&own, values);
  const auto inside = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    return b >= block.data() && b + n <= block.data() + lg_outliers_bytes(3, 2);
  };
  EXPECT_TRUE(inside(at.worst, 4 * sizeof(lg_outlier)));
  EXPECT_TRUE(inside(at.over, 3 * sizeof(lg_outlier)));
  EXPECT_TRUE(inside(at.scratch, 6 * sizeof(lg_outlier)));
  EXPECT_TRUE(inside(at.flags, 6));
  for (std::size_t i = lg_outliers_bytes(3, 2); i < block.size(); ++i) ASSERT_EQ(block[i], 0xee) << i;
  EXPECT_EQ(lg_outliers_floor(&at), lg_outliers_floor(&own));
  EXPECT_EQ(at.over_seen, own.over_seen);
  std::vector<lg_outlier> a(6), b(6);
  std::vector<unsigned char> fa(6), fb(6);
  const std::size_t n = lg_outliers_collect(&at, a.data(), fa.data());
  ASSERT_EQ(n, lg_outliers_collect(&own, b.data(), fb.data()));
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(a[i].value_ns, b[i].value_ns);
    EXPECT_EQ(fa[i], fb[i]);
  }
  lg_outliers_free(&at);  // forgets the caller's block, frees nothing
  EXPECT_EQ(at.worst, nullptr);
  lg_outliers_free(&own);
}

TEST(Outliers, JsonListsEachKeptSampleOnceInTimeOrderWithUnknownsAsNull) {
  lg_outliers o;
  ASSERT_EQ(lg_outliers_init(&o, 2, 4, 100), 0);
  feed(&o, {500, 10, 150, 20, 900});  // 500 and 900 are worst and over; 150 over only
  const nlohmann::json j = nlohmann::json::parse(json_of(&o));
  EXPECT_EQ(j["threshold_ns"], 100);
  EXPECT_EQ(j["over_threshold"], 3);
  EXPECT_EQ(j["over_not_kept"], 0);
  EXPECT_EQ(j["worst_kept"], 2);
  ASSERT_EQ(j["items"].size(), 3u);
  EXPECT_EQ(j["items"][0]["seq"], 0);
  EXPECT_EQ(j["items"][0]["worst"], true);
  EXPECT_EQ(j["items"][0]["over"], true);
  EXPECT_EQ(j["items"][1]["seq"], 2);
  EXPECT_EQ(j["items"][1]["worst"], false);
  EXPECT_EQ(j["items"][2]["seq"], 4);
  EXPECT_EQ(j["items"][2]["value_ns"], 900);
  EXPECT_TRUE(j["items"][2]["sock_wait_ns"].is_null());
  EXPECT_TRUE(j["items"][2]["involuntary"].is_null());
  EXPECT_EQ(j["items"][2]["voluntary"], 1);
  EXPECT_EQ(j["items"][2]["cpu_after"], 2);
  lg_outliers_free(&o);
}

TEST(Outliers, ZeroCapacitiesKeepNothingAndStillWriteJson) {
  lg_outliers o;
  ASSERT_EQ(lg_outliers_init(&o, 0, 0, 0), 0);
  EXPECT_EQ(feed(&o, {1, 2, 3}), 0);
  const nlohmann::json j = nlohmann::json::parse(json_of(&o));
  EXPECT_TRUE(j["items"].empty());
  lg_outliers_free(&o);
}

}  // namespace
