// Tests of the kinds table and of what the "measuring" line says each runner does.
#include "labgate/gate/kinds.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace labgate::gate {
namespace {

using profile::TestKind;
using profile::Tool;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(Kinds, EveryKindHasASuiteAndALabelThatRunAccepts) {
  const TestKind all[] = {TestKind::kTcpRr,    TestKind::kUdpRr,     TestKind::kTcpStream,
                          TestKind::kUdpStream, TestKind::kJitter,   TestKind::kPathMtu,
                          TestKind::kPingFlood, TestKind::kCommand,  TestKind::kDiskRandomRead,
                          TestKind::kDiskRandomWrite, TestKind::kDiskRandomRw};
  for (TestKind k : all) {
    KindInfo info = kind_info(k);
    ASSERT_NE(info.suite, nullptr);
    ASSERT_NE(info.label, nullptr);
    bool known = false;
    for (const auto& l : all_labels()) known = known || l == info.label;
    EXPECT_TRUE(known) << info.label;
  }
  EXPECT_STREQ(kind_info(TestKind::kUdpRr).suite, "Latency");
  EXPECT_STREQ(kind_info(TestKind::kUdpStream).label, "throughput");
  EXPECT_STREQ(kind_info(TestKind::kPingFlood).suite, "Network");
  EXPECT_STREQ(kind_info(TestKind::kDiskRandomRw).label, "storage");
  EXPECT_EQ(all_labels().front(), "preconditions");
}

TEST(Kinds, MeasuringSaysWhatTheToolDoesAndClaimsNoWarmUpItDoesNotExclude) {
  profile::TestSpec t;
  t.warmup = std::chrono::milliseconds(500);

  t.kind = TestKind::kTcpRr;
  t.tool = Tool::kNetperf;
  std::string netperf = measuring_description(t);
  EXPECT_TRUE(contains(netperf, "netperf")) << netperf;
  EXPECT_FALSE(contains(netperf, "warm-up (excluded)")) << netperf;

  t.tool = Tool::kSockperf;
  const std::string sockperf = measuring_description(t);
  EXPECT_FALSE(contains(sockperf, "warm-up (excluded)")) << sockperf;
  EXPECT_TRUE(contains(sockperf, "fixed 2-s pause")) << sockperf;

  t.kind = TestKind::kTcpStream;
  t.tool = Tool::kIperf3;  // --omit takes whole seconds: 500 ms is 1 s
  EXPECT_TRUE(contains(measuring_description(t), "after a 1s warm-up it sends but does not count (--omit)"))
      << measuring_description(t);
  t.kind = TestKind::kTcpRr;

  t.tool = Tool::kBuiltin;
  t.kind = TestKind::kPingFlood;
  t.ping.count = 1000;
  std::string ping = measuring_description(t);
  EXPECT_TRUE(contains(ping, "ping -f -c 1000")) << ping;
  EXPECT_FALSE(contains(ping, "warm-up (excluded)")) << ping;

  t.kind = TestKind::kPathMtu;
  EXPECT_FALSE(contains(measuring_description(t), "warm-up (excluded)"));

  t.kind = TestKind::kCommand;
  t.command.count = 7;
  std::string command = measuring_description(t);
  EXPECT_TRUE(contains(command, "7 times")) << command;
  EXPECT_FALSE(contains(command, "warm-up (excluded)")) << command;

  for (TestKind k : {TestKind::kTcpRr, TestKind::kUdpStream, TestKind::kJitter, TestKind::kDiskRandomRead}) {
    t.kind = k;
    EXPECT_TRUE(contains(measuring_description(t), "warm-up (excluded)")) << measuring_description(t);
  }
  t.kind = TestKind::kUdpStream;
  EXPECT_TRUE(contains(measuring_description(t), "unpaced")) << measuring_description(t);
  t.rate_per_sec = 2000;
  EXPECT_TRUE(contains(measuring_description(t), "open loop at 2000/s")) << measuring_description(t);
  t.rate_per_sec.reset();
  t.kind = TestKind::kTcpRr;
  EXPECT_TRUE(contains(measuring_description(t), "closed loop")) << measuring_description(t);
  t.warmup = profile::Nanos{0};
  EXPECT_FALSE(contains(measuring_description(t), "warm-up (excluded)"));
}

}  // namespace
}  // namespace labgate::gate
