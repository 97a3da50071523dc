// Tests of the test enums' spellings and the tool/kind/statistic tables.
#include "labgate/profile/test_spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace labgate::profile {
namespace {

TEST(TestSpecEnums, SpellingsRoundTrip) {
  for (TestKind k : all_test_kinds()) EXPECT_EQ(parse_test_kind(to_string(k)), k);
  for (Tool t : all_tools()) EXPECT_EQ(parse_tool(to_string(t)), t);
  for (Stat s : all_stats()) EXPECT_EQ(parse_stat(to_string(s)), s);
  EXPECT_EQ(all_stats().size(), 25u);
  // The kinds shipped are all registered (the registry is the list: a new
  // kind's file adds one without touching this test).
  std::vector<std::string> names;
  for (TestKind k : all_test_kinds()) names.push_back(to_string(k));
  for (const char* shipped :
       {"tcp_rr", "udp_rr", "tcp_stream", "udp_stream", "jitter", "command", "disk_random_read",
        "disk_random_write", "disk_random_rw", "ping_flood", "path_mtu", "udp_multicast"})
    EXPECT_NE(std::find(names.begin(), names.end(), shipped), names.end()) << shipped;
  EXPECT_EQ(parse_tool("sysbench"), Tool::kSysbench);
  EXPECT_EQ(parse_test_kind("TCP_RR"), std::nullopt);
  EXPECT_EQ(parse_tool(""), std::nullopt);
  EXPECT_EQ(parse_stat("p99.9"), std::nullopt);
}

TEST(TestSpecTables, WhichToolRunsWhichKind) {
  for (TestKind k : all_test_kinds()) EXPECT_TRUE(tool_runs(Tool::kBuiltin, k));
  EXPECT_TRUE(tool_runs(Tool::kSockperf, TestKind::kUdpRr));
  EXPECT_FALSE(tool_runs(Tool::kSockperf, TestKind::kTcpStream));
  EXPECT_TRUE(tool_runs(Tool::kIperf3, TestKind::kUdpStream));
  EXPECT_FALSE(tool_runs(Tool::kIperf3, TestKind::kTcpRr));
  EXPECT_TRUE(tool_runs(Tool::kNetperf, TestKind::kTcpStream));
  EXPECT_FALSE(tool_runs(Tool::kNetperf, TestKind::kJitter));
}

TEST(TestSpecTables, WhichStatisticsEachProduces) {
  EXPECT_TRUE(produces(Tool::kBuiltin, TestKind::kUdpRr, Stat::kDropped));
  EXPECT_FALSE(produces(Tool::kBuiltin, TestKind::kTcpRr, Stat::kDropped));
  EXPECT_TRUE(produces(Tool::kBuiltin, TestKind::kUdpStream, Stat::kMaxLoss));
  EXPECT_FALSE(produces(Tool::kBuiltin, TestKind::kTcpStream, Stat::kMaxLoss));
  EXPECT_TRUE(produces(Tool::kBuiltin, TestKind::kTcpStream, Stat::kMinThroughput));
  EXPECT_FALSE(produces(Tool::kBuiltin, TestKind::kUdpRr, Stat::kMinThroughput));
  EXPECT_TRUE(produces(Tool::kBuiltin, TestKind::kJitter, Stat::kP99_99));
  EXPECT_FALSE(produces(Tool::kBuiltin, TestKind::kJitter, Stat::kDropped));
  EXPECT_FALSE(produces(Tool::kIperf3, TestKind::kTcpStream, Stat::kP99));
  EXPECT_TRUE(produces(Tool::kIperf3, TestKind::kUdpStream, Stat::kMaxLoss));
  EXPECT_TRUE(produces(Tool::kNetperf, TestKind::kTcpRr, Stat::kP99));
  EXPECT_FALSE(produces(Tool::kNetperf, TestKind::kTcpRr, Stat::kP99_9));
  EXPECT_TRUE(produces(Tool::kSockperf, TestKind::kUdpRr, Stat::kDropped));
  EXPECT_FALSE(produces(Tool::kSockperf, TestKind::kTcpStream, Stat::kMinThroughput));
}

// The built-in round trips both ways; the built-in feed publisher->subscriber only.
TEST(TestSpecTables, OnlyTheBuiltInRoundTripsAndFeedProduceOneWayFigures) {
  for (Stat s : all_stats()) {
    SCOPED_TRACE(to_string(s));
    if (!is_one_way(s)) continue;
    EXPECT_EQ(unit_of(s), StatUnit::kNanos);
    EXPECT_TRUE(produces(Tool::kBuiltin, TestKind::kTcpRr, s));
    EXPECT_TRUE(produces(Tool::kBuiltin, TestKind::kUdpRr, s));
    for (Tool t : {Tool::kSockperf, Tool::kNetperf, Tool::kSfntPingpong})
      EXPECT_FALSE(produces(t, TestKind::kUdpRr, s)) << to_string(t);
    for (TestKind k : {TestKind::kUdpStream, TestKind::kTcpStream, TestKind::kJitter, TestKind::kPingFlood,
                       TestKind::kCommand, TestKind::kDiskRandomRead})
      EXPECT_FALSE(produces(Tool::kBuiltin, k, s)) << to_string(k);
    const bool forward =
        s == Stat::kOneWayP50Forward || s == Stat::kOneWayP99Forward || s == Stat::kOneWayMaxForward;
    EXPECT_EQ(produces(Tool::kBuiltin, TestKind::kUdpMulticast, s), forward);
  }
  EXPECT_EQ(parse_stat("one_way_p99_forward"), Stat::kOneWayP99Forward);
  EXPECT_EQ(parse_stat("one_way_max_reverse"), Stat::kOneWayMaxReverse);
  EXPECT_FALSE(is_one_way(Stat::kP99));
}

TEST(TestSpecTables, UnitsAndDirections) {
  EXPECT_EQ(unit_of(Stat::kP99), StatUnit::kNanos);
  EXPECT_EQ(unit_of(Stat::kDropped), StatUnit::kCount);
  EXPECT_EQ(unit_of(Stat::kMinThroughput), StatUnit::kBitsPerSec);
  EXPECT_EQ(unit_of(Stat::kMaxLoss), StatUnit::kFraction);
  EXPECT_TRUE(is_floor(Stat::kMinThroughput));
  EXPECT_FALSE(is_floor(Stat::kMax));
}

}  // namespace
}  // namespace labgate::profile
