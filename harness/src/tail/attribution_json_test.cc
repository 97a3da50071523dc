// The attribution's run.json record: every outlier with its cause or
// "unexplained", the ranking and the limits, as the report and compare read them.
#include <gtest/gtest.h>

#include "labgate/tail/attribute.h"

namespace labgate::tail {
namespace {

TEST(AttributionJson, OutliersRankingAndLimits) {
  Attribution a;
  a.outliers.push_back(
      {7,
       412000,
       1000,
       {{"server_turnaround", "b", "server turnaround on host b", "server turnaround 380 us on host b"}},
       "server turnaround 380 us on host b"});
  a.outliers.push_back({9, 300000, 2000, {}, ""});
  a.unexplained = 1;
  a.ranked.push_back({"server turnaround on host b", "server_turnaround", 1});
  a.limits = {"host a: not available: /dev/cpu/1/msr: No such file or directory"};
  a.top = "1 of 2 outliers: server turnaround on host b";
  const nlohmann::json j = to_json(a);
  EXPECT_EQ(j["top"], a.top);
  EXPECT_EQ(j["outliers_total"], 2);
  EXPECT_EQ(j["unexplained"], 1);
  EXPECT_EQ(j["outliers"][0]["cause"], "server turnaround 380 us on host b");
  EXPECT_EQ(j["outliers"][0]["evidence"][0]["host"], "b");
  EXPECT_EQ(j["outliers"][1]["cause"], "unexplained");
  EXPECT_TRUE(j["outliers"][1]["evidence"].empty());
  EXPECT_EQ(j["ranked"][0]["count"], 1);
  EXPECT_EQ(j["limits"][0], a.limits[0]);
}

}  // namespace
}  // namespace labgate::tail
