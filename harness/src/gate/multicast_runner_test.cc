// A udp_multicast test is one case on the publisher whose hosts include every
// subscriber, and each end's probe command carries the profile's values.
#include "labgate/gate/multicast_runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/gate/kinds.h"
#include "labgate/gate/test_cases.h"
#include "labgate/profile/load.h"

namespace labgate::gate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

profile::Profile feed() {
  const auto r = profile::load_from_string(
      "[lab]\nname = \"x\"\n"
      "[hosts.a]\naddress = \"10.0.0.1\"\ntest_address = \"198.19.200.1\"\n"
      "[hosts.b]\naddress = \"10.0.0.2\"\ntest_address = \"198.19.200.2\"\n"
      "[hosts.c]\naddress = \"10.0.0.3\"\ntest_address = \"198.19.200.3\"\n"
      "[[test]]\nname = \"feed\"\nkind = \"udp_multicast\"\nfrom = \"a\"\nto = [\"b\", \"c\"]\n"
      "group = \"239.1.1.1:5000\"\nsource = \"198.19.200.1\"\nrate = \"2000/s\"\nttl = 3\nreply_every = 10\n"
      "duration = \"3s\"\nwarmup = \"500ms\"\nbudget = { p99 = \"1ms\", max_gap = 0 }\n",
      "/tmp/feed.toml");
  if (!r.profile) throw std::runtime_error(r.errors.at(0).str());
  return *r.profile;
}

TEST(MulticastCase, OneCaseOnThePublisherTouchingEverySubscriber) {
  const profile::Profile p = feed();
  const auto cases = expand_cases(p);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].name(), "feed/a");
  EXPECT_EQ(cases[0].client, "a");
  EXPECT_EQ(cases[0].suite, "Multicast");
  EXPECT_EQ(cases[0].label, "multicast");
  EXPECT_THAT(hosts_of(cases), ElementsAre("a", "b", "c"));
  EXPECT_THAT(measuring_description(*cases[0].spec), HasSubstr("to 2 subscriber(s), each answering 1 in 10"));
}

TEST(MulticastCase, EachEndsCommandCarriesTheProfilesValues) {
  const profile::Profile p = feed();
  const profile::TestSpec& t = p.tests.at(0);
  EXPECT_THAT(mcast_subscriber_argv(t, "/tmp/x", "198.19.200.2"),
              ElementsAre("/tmp/x/mcast", "subscribe", "--group", "239.1.1.1", "--port", "5000", "--bind",
                          "198.19.200.2", "--reply-every", "10", "--source", "198.19.200.1", "--idle-timeout",
                          "13500ms"));
  EXPECT_THAT(mcast_publisher_argv(t, "/tmp/x", "198.19.200.1", {"198.19.200.2", "198.19.200.3"}),
              ElementsAre("/tmp/x/mcast", "publish", "--group", "239.1.1.1", "--port", "5000", "--bind",
                          "198.19.200.1", "--reply-every", "10", "--size", "64", "--ttl", "3", "--rate", "2000/s",
                          "--duration", "3s", "--warmup", "500ms", "--linger", "300ms", "--subscriber",
                          "198.19.200.2", "--subscriber", "198.19.200.3"));
}

TEST(MulticastCase, SocketBufferSizesTheFeedsSocketOnEveryEnd) {
  profile::TestSpec t = feed().tests.at(0);
  t.socket_buffer = 4194304;
  for (const auto& argv : {mcast_subscriber_argv(t, "/tmp/x", "198.19.200.2"),
                           mcast_publisher_argv(t, "/tmp/x", "198.19.200.1", {"198.19.200.2"})})
    EXPECT_THAT(argv, ::testing::IsSupersetOf({"--socket-buffer", "4194304"}));
}

}  // namespace
}  // namespace labgate::gate
