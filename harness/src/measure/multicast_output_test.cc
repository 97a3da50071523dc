// The mcast probe's outputs (recorded on the mesh lab: one publisher, five
// subscribers) become one Measurement per subscriber and the worst's.
#include "labgate/measure/multicast_output.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/measure/figures.h"
#include "labgate/measure/probe_output.h"
#include "measure/multicast_recorded.h"

namespace labgate::measure {
namespace {

using ::testing::HasSubstr;

using test_util::five_subscribers;
using test_util::kMeshSubscribers;
std::string testdata(const std::string& name) { return test_util::mcast_recorded(name); }
const std::vector<std::string>& kAddresses = kMeshSubscribers;
std::vector<SubscriberCounts> five_clean() { return five_subscribers("mcast-subscriber.txt"); }

TEST(MulticastOutput, ASubscribersOwnCountsAreRead) {
  const SubscriberCounts s = read_subscriber(testdata("mcast-subscriber.txt"), "m2");
  EXPECT_EQ(s.exit_reason, "end");
  EXPECT_TRUE(s.end_seen);
  EXPECT_EQ(s.expected, 20000u);
  EXPECT_EQ(s.received, 20000u);
  EXPECT_EQ(s.lost, 0u);
  EXPECT_EQ(s.warmup_received, 5000u);
  EXPECT_EQ(s.replies_sent, 2500u);
}

TEST(MulticastOutput, OneMeasurementPerSubscriberThenTheWorst) {
  const auto ms =
      multicast_measurements(testdata("mcast-publisher.json"), "m1", five_clean(), kAddresses, {});
  ASSERT_EQ(ms.size(), 6u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(ms[i].peer, "m" + std::to_string(i + 2));
    EXPECT_EQ(ms[i].host, "m1");
    EXPECT_EQ(ms[i].histogram.count(), 2000u) << ms[i].peer;
    const JudgedFigures j = judge_figures(ms[i]);
    EXPECT_TRUE(j.accounting.pass) << j.accounting.message;
    EXPECT_EQ(j.figures.value("loss"), 0.0);
    EXPECT_EQ(j.figures.value("longest_gap"), 0.0);
  }
  const Measurement& w = ms.back();
  EXPECT_EQ(w.peer, "worst");
  double top = 0;
  for (int i = 0; i < 5; ++i) top = std::max(top, *ms[i].stat("p99"));
  EXPECT_EQ(w.stat("p99"), top);
  EXPECT_TRUE(judge_figures(w).accounting.pass);
}

TEST(MulticastOutput, LossAndTheGapAreTheSubscribersOwnAndTheWorstNamesIt) {
  auto subs = five_clean();
  subs[2].received -= 40;
  subs[2].lost = 40;
  subs[2].longest_gap = 25;
  subs[2].gaps = 2;
  const auto ms = multicast_measurements(testdata("mcast-publisher.json"), "m1", subs, kAddresses, {});
  EXPECT_EQ(ms[2].stat("longest_gap"), 25.0);
  EXPECT_EQ(ms[2].stat("dropped"), 40.0);
  EXPECT_DOUBLE_EQ(*ms[2].stat("max_loss"), 40.0 / 20000.0);
  EXPECT_EQ(ms[1].stat("longest_gap"), 0.0);
  EXPECT_EQ(ms.back().stat("max_gap"), 25.0);
  EXPECT_EQ(ms.back().parameters.at("worst.longest_gap"), "m4");
}

TEST(MulticastOutput, ASubscriberThatReceivedNothingFailsWithTheLikelyCause) {
  auto subs = five_clean();
  subs[1].received = 0;  // as a subscriber that never saw a message prints it: nothing counted
  subs[1].expected = subs[1].lost = subs[1].longest_gap = subs[1].gaps = 0;
  const auto ms = multicast_measurements(testdata("mcast-publisher.json"), "m1", subs, kAddresses,
                                         {{"m3", "rp_filter is strict on ic0"}});
  const JudgedFigures j = judge_figures(ms[1]);
  EXPECT_FALSE(j.accounting.pass);
  EXPECT_THAT(j.accounting.message, HasSubstr("rp_filter is strict on ic0"));
  EXPECT_EQ(ms[1].stat("max_loss"), 1.0) << "it lost every message sent";
  EXPECT_EQ(ms[1].stat("max_gap"), 20000.0);
  EXPECT_EQ(ms.back().parameters.at("worst.loss"), "m3");
}

TEST(MulticastOutput, APublisherBehindItsRateFailsTheAccounting) {
  std::string pub = testdata("mcast-publisher.json");
  const std::string sent = "\"sent\":20000}";
  ASSERT_NE(pub.find(sent), std::string::npos);
  pub.replace(pub.find(sent), sent.size(), "\"sent\":20000,\"not_sent\":5000}");
  const auto ms = multicast_measurements(pub, "m1", five_clean(), kAddresses, {});
  const JudgedFigures j = judge_figures(ms[0]);
  EXPECT_FALSE(j.accounting.pass);
  EXPECT_THAT(j.accounting.message, HasSubstr("could not keep its rate: 5000 messages"));
}

TEST(MulticastOutput, BrokenOutputsAreRefusedNamingTheHost) {
  EXPECT_THROW(
      read_subscriber(R"({"format":"labgate-probe-1","probe":"mcast","role":"subscriber","event":"joined"})",
                      "m2"),
      ProbeOutputError);
  try {
    read_subscriber(
        R"({"format":"labgate-probe-1","probe":"mcast","role":"subscriber","status":"error","error":"IP_ADD_MEMBERSHIP: No such device"})",
        "m2");
    FAIL();
  } catch (const ProbeOutputError& e) {
    EXPECT_TRUE(e.probe_failed());
    EXPECT_THAT(e.what(), HasSubstr("m2"));
    EXPECT_THAT(e.what(), HasSubstr("No such device"));
  }
  EXPECT_THROW(multicast_measurements(testdata("mcast-publisher.json"), "m1", five_clean(),
                                      {"198.19.200.2", "198.19.200.9"}, {}),
               ProbeOutputError);
}

}  // namespace
}  // namespace labgate::measure
