// A feed's one-way delay, publisher -> subscriber, from outputs recorded on the
// mesh lab (m1 to m2..m6, one clock: every subscriber's true offset is 0): the
// record per subscriber holds the truth within its bound and its forward
// figures; the worst's names whose each figure is; what cannot be estimated
// says why and leaves the worst unknown; a budget on it is never passed silently.
#include "labgate/measure/multicast_one_way.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "labgate/measure/one_way.h"
#include "labgate/measure/probe_output.h"
#include "measure/multicast_recorded.h"

namespace labgate::measure {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

std::string feed_testdata(const std::string& name) { return test_util::mcast_recorded(name); }
const std::vector<std::string>& kFive = test_util::kMeshSubscribers;
std::vector<SubscriberCounts> five_stamped() {
  return test_util::five_subscribers("mcast-subscriber-one-way.txt");
}

std::vector<json> feed_records(std::optional<std::chrono::nanoseconds> max_error,
                               const std::vector<SubscriberCounts>& subs = five_stamped()) {
  return multicast_one_way(feed_testdata("mcast-publisher-one-way.json"), "m1", subs, kFive, max_error);
}

TEST(MulticastOneWay, EachSubscribersOffsetHoldsTheSharedClockWithinItsBound) {
  const SubscriberCounts s = read_subscriber(feed_testdata("mcast-subscriber-one-way.txt"), "m2");
  ASSERT_TRUE(s.anchor_delta_ns && s.anchor_error_ns);
  const json pub = json::parse(feed_testdata("mcast-publisher-one-way.json"));
  const std::vector<json> rs = feed_records(1ms);
  ASSERT_EQ(rs.size(), 6u);
  for (std::size_t i = 0; i < 5; ++i) {
    const json& r = rs[i];
    SCOPED_TRACE(r.dump().substr(0, 300));
    EXPECT_EQ(r["client"], "m1");
    EXPECT_EQ(r["server"], "m" + std::to_string(i + 2));
    ASSERT_TRUE(r["reported"].get<bool>());
    EXPECT_TRUE(r["consistent"].get<bool>());
    // One clock: the truth is the subscriber's tie minus the publisher's.
    const std::int64_t truth =
        *s.anchor_delta_ns - pub["subscribers"][i]["one_way"]["anchor"]["delta_ns"].get<std::int64_t>();
    EXPECT_EQ(truth, 0);
    EXPECT_LE(std::llabs(r["offset_ns"].get<std::int64_t>() - truth), r["bound_ns"].get<std::int64_t>());
    EXPECT_FALSE(r.contains("b_to_a"));    // the way back is a unicast reply, not the feed
    EXPECT_EQ(r["a_to_b"]["count"], 400);  // the answered messages: 1 in 10 of 4000
    EXPECT_LE(r["a_to_b"]["p50_ns"].get<std::int64_t>(), r["a_to_b"]["max_ns"].get<std::int64_t>());
    EXPECT_THAT(r["sampled"].get<std::string>(), HasSubstr("1 in 10"));
    EXPECT_THAT(one_way_line(r), HasSubstr("one-way m1->m" + std::to_string(i + 2) + " p50 "));
  }
  const json& w = rs[5];
  ASSERT_TRUE(w["reported"].get<bool>());
  EXPECT_EQ(w["server"], "worst");
  for (const char* stat : {"p50_ns", "p99_ns", "max_ns"}) {
    std::int64_t top = 0;
    for (std::size_t i = 0; i < 5; ++i) top = std::max(top, rs[i]["a_to_b"][stat].get<std::int64_t>());
    EXPECT_EQ(w["a_to_b"][stat], top) << stat;
    const std::string who = w["worst"][stat];
    EXPECT_EQ(rs[std::stoul(who.substr(1)) - 2]["a_to_b"][stat], top) << stat;
  }
  std::int64_t widest = 0;
  for (std::size_t i = 0; i < 5; ++i) widest = std::max(widest, rs[i]["bound_ns"].get<std::int64_t>());
  EXPECT_EQ(w["bound_ns"], widest);
  const OneWayFigure f = one_way_figure(w, profile::Stat::kOneWayMaxForward);
  EXPECT_EQ(f.why_not, "");
  EXPECT_EQ(f.value_ns, w["a_to_b"]["max_ns"].get<double>());
  EXPECT_EQ(f.direction, "m1->worst");
}

TEST(MulticastOneWay, ABoundOverTheLimitReportsNoFigureAndSaysWhy) {
  const std::vector<json> rs = feed_records(1ns);
  for (const json& r : rs) {
    EXPECT_FALSE(r["reported"].get<bool>());
    EXPECT_FALSE(r.contains("a_to_b"));
  }
  EXPECT_THAT(rs[0]["why_not"].get<std::string>(), HasSubstr("exceeds one_way_max_error 1ns"));
  EXPECT_THAT(rs[5]["why_not"].get<std::string>(), HasSubstr("not known for m2: offset bound "));
  const OneWayFigure f = one_way_figure(rs[5], profile::Stat::kOneWayP99Forward);
  EXPECT_FALSE(f.value_ns);
  EXPECT_THAT(f.why_not, HasSubstr("not known for m2"));
}

TEST(MulticastOneWay, ASilentOrOlderSubscriberIsNamedAndTheWorstIsUnknown) {
  std::vector<SubscriberCounts> subs = five_stamped();
  subs[2].anchor_delta_ns.reset();  // m4: a subscriber older than the stamps
  subs[2].anchor_error_ns.reset();
  json pub = json::parse(feed_testdata("mcast-publisher-one-way.json"));
  pub["subscribers"][0]["one_way"]["stamped"] = 0;  // m2: nothing came back
  pub["subscribers"][1].erase("one_way");           // m3: an older publisher's entry
  const std::vector<json> rs = multicast_one_way(pub.dump(), "m1", subs, kFive, 1ms);
  EXPECT_THAT(rs[0]["why_not"].get<std::string>(), HasSubstr("no reply came back from m2"));
  EXPECT_THAT(rs[1]["why_not"].get<std::string>(), HasSubstr("the publisher printed no one_way for m3"));
  EXPECT_THAT(rs[2]["why_not"].get<std::string>(), HasSubstr("m4 printed no clock anchor"));
  EXPECT_TRUE(rs[3]["reported"].get<bool>());
  EXPECT_FALSE(rs[5]["reported"].get<bool>());
  EXPECT_THAT(rs[5]["why_not"].get<std::string>(), HasSubstr("not known for m2: no reply came back"));
  EXPECT_THAT(one_way_line(rs[5]), HasSubstr("one-way not reported: not known for m2"));
}

// A realtime step during the run (the tie moved 500 us between start and end).
// A subscriber's stamps are one clock either way (the kernel's realtime as it
// is, or its monotonic carried over with its tie of the start): its step
// changes nothing. The publisher's send times go through its tie and its
// replies' kernel stamps do not: its step spoils the figures, said, never shown.
json stepped_anchor(json a) {
  a["end_delta_ns"] = a["delta_ns"].get<std::int64_t>() + 500'000;
  a["end_error_ns"] = 20;
  return a;
}

TEST(MulticastOneWay, ASubscribersClockStepChangesNothing) {
  const std::string recorded = feed_testdata("mcast-subscriber-one-way.txt");
  const std::string anchor = "\"anchor\":{\"clock\":\"realtime\",\"delta_ns\":1796397280836222981,\"error_ns\":20}";
  const std::size_t at = recorded.find(anchor);
  ASSERT_NE(at, std::string::npos);
  for (const std::string stamps : {"kernel_ns", "user"}) {
    std::string out = recorded;
    out.replace(at, anchor.size(),
                "\"anchor\":" + stepped_anchor(json::parse(anchor.substr(9))).dump() +
                    ",\"receive_stamps\":\"" + stamps + "\"");
    std::vector<SubscriberCounts> subs = five_stamped();
    subs[0] = read_subscriber(out, "m2");
    const json r = feed_records(1ms, subs)[0];
    EXPECT_TRUE(r["reported"].get<bool>()) << stamps << ": " << r.dump().substr(0, 300);
    EXPECT_EQ(r["offset_ns"], feed_records(1ms)[0]["offset_ns"]) << stamps;
  }
}

TEST(MulticastOneWay, APublishersClockStepSpoilsWhatMixesItsTieWithKernelStamps) {
  json pub = json::parse(feed_testdata("mcast-publisher-one-way.json"));
  for (json& e : pub["subscribers"]) e["one_way"]["anchor"] = stepped_anchor(e["one_way"]["anchor"]);
  // Replies stamped in user space (the recorded publisher's): one clock, standing.
  pub["receive_stamps"] = "user";
  EXPECT_TRUE(multicast_one_way(pub.dump(), "m1", five_stamped(), kFive, 1ms)[0]["reported"].get<bool>());
  pub["receive_stamps"] = "kernel_ns";
  const std::vector<json> rs = multicast_one_way(pub.dump(), "m1", five_stamped(), kFive, 1ms);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_FALSE(rs[i]["reported"].get<bool>());
    EXPECT_FALSE(rs[i].contains("a_to_b"));
    EXPECT_THAT(rs[i]["why_not"].get<std::string>(),
                HasSubstr("m1's realtime clock was stepped forward by 500us during the run"));
  }
  EXPECT_FALSE(rs[5]["reported"].get<bool>());
  // The round trips mix them too: each subscriber's measurement says so.
  const std::vector<Measurement> ms = multicast_measurements(pub.dump(), "m1", five_stamped(), kFive, {});
  ASSERT_EQ(ms.size(), 6u);
  EXPECT_THAT(ms[0].warnings,
              ::testing::Contains(HasSubstr("round trips of replies after the step are off by it")));
}

TEST(MulticastOneWay, APublisherThatDidNotMeasureIsAnError) {
  EXPECT_THROW(multicast_one_way("{\"format\":\"labgate-probe-1\",\"probe\":\"mcast\",\"status\":\"error\","
                                 "\"error\":\"x\"}\n",
                                 "m1", five_stamped(), kFive, 1ms),
               ProbeOutputError);
}

}  // namespace
}  // namespace labgate::measure
