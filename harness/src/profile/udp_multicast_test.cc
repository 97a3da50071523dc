// kind = "udp_multicast" (issue 24, item 1): its keys load typed, and each bad
// value is refused naming file:line and the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using ::testing::HasSubstr;

const std::string kFeedHosts =
    "[lab]\nname = \"x\"\n"
    "[hosts.a]\naddress = \"10.0.0.1\"\ntest_address = \"198.19.200.1\"\n"
    "[hosts.b]\naddress = \"10.0.0.2\"\ntest_address = \"198.19.200.2\"\n"
    "[hosts.c]\naddress = \"10.0.0.3\"\ntest_address = \"198.19.200.3\"\n"
    "[hosts.d]\naddress = \"10.0.0.4\"\n";  // line 12: no test address

LoadResult with_feed(const std::string& keys) {
  return load_from_string(kFeedHosts + "[[test]]\nname = \"feed\"\nkind = \"udp_multicast\"\n" + keys,
                          "/tmp/feed.toml");
}

// The errors of a feed that must not load, one per line.
std::string refused(const std::string& keys) {
  const LoadResult r = with_feed(keys);
  EXPECT_FALSE(r.profile);
  return test_util::error_lines(r);
}

TEST(UdpMulticast, LoadsPublisherSubscribersAndTheFeed) {
  const LoadResult r = with_feed(
      "from = \"a\"\nto = [\"b\", \"c\"]\ngroup = \"239.1.1.1:5000\"\nsource = \"198.19.200.1\"\n"
      "rate = \"10000/s\"\nmessage_size = 64\nttl = 2\nreply_every = 50\nduration = \"2s\"\nwarmup = "
      "\"500ms\"\nsocket_buffer = \"4MiB\"\n"
      "budget = { p99 = \"500us\", max_gap = 0, max_loss = \"0%\" }\n");
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  const TestSpec& t = r.profile->tests.at(0);
  EXPECT_EQ(t.kind, TestKind::kUdpMulticast);
  EXPECT_EQ(t.from, "a");
  EXPECT_EQ(t.multicast.subscribers, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(t.multicast.group, "239.1.1.1");
  EXPECT_EQ(t.multicast.port, 5000);
  EXPECT_EQ(t.multicast.source, "198.19.200.1");
  EXPECT_EQ(t.multicast.ttl, 2);
  EXPECT_EQ(t.multicast.reply_every, 50u);
  EXPECT_EQ(t.rate_per_sec, 10000.0);
  EXPECT_EQ(t.socket_buffer, 4194304u);
  ASSERT_TRUE(t.find_bound(Stat::kMaxGap));
  EXPECT_EQ(t.find_bound(Stat::kMaxGap)->limit, 0.0);
}

TEST(UdpMulticast, BadValuesNameTheLineAndKey) {
  const LoadResult r = with_feed(
      "from = \"a\"\nto = [\"b\", \"a\", \"b\"]\ngroup = \"10.1.1.1:5000\"\nsource = \"nowhere\"\n"
      "rate = \"1000/s\"\nmessage_size = 16\nbudget = { p99 = \"1ms\", min_throughput = \"1Gbit/s\" }\n");
  ASSERT_FALSE(r.profile);
  const std::string e = test_util::error_lines(r);
  EXPECT_THAT(e, HasSubstr("/tmp/feed.toml:18:6: test[feed].to: \"a\" is the publisher"));
  EXPECT_THAT(e, HasSubstr("test[feed].to: \"b\" is listed twice"));
  EXPECT_THAT(
      e,
      HasSubstr("/tmp/feed.toml:19:9: test[feed].group: \"10.1.1.1:5000\" is not an IPv4 multicast group"));
  EXPECT_THAT(e, HasSubstr("/tmp/feed.toml:20:10: test[feed].source: \"nowhere\" is not an IPv4 address"));
  EXPECT_THAT(e, HasSubstr("/tmp/feed.toml:22:16: test[feed].message_size: must be 32..65507 bytes"));
  EXPECT_THAT(e, HasSubstr("does not produce min_throughput"));
}

TEST(UdpMulticast, MissingKeysAndHostsWithoutATestAddressAreRefused) {
  const LoadResult r = with_feed("from = \"a\"\nto = \"b\"\nbudget = { p99 = \"1ms\" }\n");
  ASSERT_FALSE(r.profile);
  const std::string e = test_util::error_lines(r);
  EXPECT_THAT(e, HasSubstr("test[feed].group: missing"));
  EXPECT_THAT(e, HasSubstr("test[feed].rate: missing"));
  EXPECT_THAT(e, HasSubstr("test[feed].to: must be a list of subscribers, e.g. to = [\"b\"]"));
  const LoadResult d = with_feed(
      "from = \"a\"\nto = [\"d\"]\ngroup = \"239.1.1.1:5000\"\nrate = \"100/s\"\n"
      "budget = { p99 = \"1ms\" }\n");
  ASSERT_FALSE(d.profile);
  EXPECT_THAT(test_util::error_lines(d),
              HasSubstr("/tmp/feed.toml:12:1: hosts.d.test_address: missing; a udp_multicast test"));
}

TEST(UdpMulticast, ItsKeysDoNotApplyElsewhereNorAListOfTo) {
  const LoadResult r = load_from_string(kFeedHosts +
                                            "[[test]]\nname = \"rr\"\nkind = \"udp_rr\"\nfrom = \"a\"\n"
                                            "to = [\"b\", \"c\"]\ngroup = \"239.1.1.1:5000\"\n"
                                            "budget = { p99 = \"1ms\" }\n",
                                        "/tmp/rr.toml");
  ASSERT_FALSE(r.profile);
  const std::string e = test_util::error_lines(r);
  EXPECT_THAT(e,
              HasSubstr("/tmp/rr.toml:18:6: test[rr].to: a list of hosts is for udp_multicast subscribers"));
  EXPECT_THAT(e, HasSubstr("/tmp/rr.toml:19:9: test[rr].group: does not apply to a udp_rr test"));
}

TEST(UdpMulticast, AToolPingsOneSubscriber) {
  for (const char* tool : {"sockperf", "sfnt-pingpong"}) {
    SCOPED_TRACE(tool);
    const LoadResult r = with_feed(std::string("tool = \"") + tool +
                                   "\"\nfrom = \"a\"\nto = [\"b\"]\ngroup = \"239.1.1.1:5000\"\n"
                                   "message_size = 16\nbudget = { p99 = \"1ms\", max = \"5ms\" }\n");
    ASSERT_TRUE(r.profile) << test_util::error_lines(r);
    EXPECT_EQ(r.profile->tests.at(0).tool, tool == std::string("sockperf") ? Tool::kSockperf : Tool::kSfntPingpong);
  }
}

TEST(UdpMulticast, AToolWithSeveralSubscribersIsRefusedSayingWhy) {
  const std::string e = refused(
      "tool = \"sockperf\"\nfrom = \"a\"\nto = [\"b\", \"c\"]\ngroup = \"239.1.1.1:5000\"\n"
      "reply_every = 10\nbudget = { p99 = \"1ms\", max_gap = 0 }\n");
  EXPECT_THAT(e, HasSubstr("/tmp/feed.toml:19:6: test[feed].to: sockperf measures multicast as a ping-pong with "
                           "one subscriber; found 2"));
  EXPECT_THAT(e, HasSubstr("sockperf issue #220"));
  EXPECT_THAT(e, HasSubstr("tool = \"builtin\" for a feed to several subscribers"));
  EXPECT_THAT(e, HasSubstr("/tmp/feed.toml:21:15: test[feed].reply_every: does not apply to sockperf"));
  // A feed's loss and gap are the built-in probe's; the tool counts its own drops.
  EXPECT_THAT(e, HasSubstr("does not produce max_gap"));
}

TEST(UdpMulticast, WhatEachToolCannotDoIsRefused) {
  const std::string e = refused(
      "tool = \"sfnt-pingpong\"\nfrom = \"a\"\nto = [\"b\"]\ngroup = \"239.1.1.1:5000\"\n"
      "source = \"198.19.200.1\"\nrate = \"1000/s\"\nbudget = { p99 = \"1ms\", one_way_p99_forward = \"1ms\" }\n"
      "one_way_max_error = \"5us\"\nsocket_buffer = \"1MiB\"\n");
  EXPECT_THAT(e, HasSubstr("test[feed].source: sfnt-pingpong joins the group from any source"));
  EXPECT_THAT(e, HasSubstr("test[feed].rate: sfnt-pingpong runs a closed ping-pong loop"));
  EXPECT_THAT(e, HasSubstr("test[feed].socket_buffer: sfnt-pingpong has no option for the socket buffer"));
  EXPECT_THAT(e, HasSubstr("does not produce one_way_p99_forward"));
}

}  // namespace
}  // namespace labgate::profile
