// The `one_way_max_error` key of a round-trip test or a multicast feed (issue
// 24): a duration above 0, for tcp_rr/udp_rr and udp_multicast only, and the
// one-way budget keys each kind can judge, each mistake named at its line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

LoadResult with_one_way_test(const std::string& kind, const std::string& value) {
  return load_from_string(
      test_util::kTwoHosts + ("[[test]]\nname = \"t\"\nkind = \"" + kind +
                              "\"\nfrom = \"a\"\nto = \"b\"\nbudget = { max = \"1ms\" }\n" + value),
      "/tmp/p.toml");
}

TEST(OneWayMaxErrorKey, ARoundTripTestKeepsItsLimit) {
  const LoadResult r = with_one_way_test("udp_rr", "one_way_max_error = \"5us\"\n");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  EXPECT_EQ(r.profile->find_test("t")->one_way_max_error, std::chrono::microseconds(5));
  const LoadResult unset = with_one_way_test("tcp_rr", "");
  ASSERT_TRUE(unset.profile);
  EXPECT_FALSE(unset.profile->find_test("t")->one_way_max_error);
}

TEST(OneWayMaxErrorKey, ZeroAndOtherKindsAreRefusedAtTheirLine) {
  LoadResult r = with_one_way_test("tcp_rr", "one_way_max_error = \"0us\"\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].pos.line, 15);
  EXPECT_THAT(r.errors[0].message, ::testing::HasSubstr("must be above 0"));
  r = with_one_way_test("tcp_stream", "one_way_max_error = \"5us\"\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].pos.line, 15);
  EXPECT_THAT(r.errors[0].message, ::testing::HasSubstr("tcp_rr/udp_rr"));
}

TEST(OneWayBudgetKeys, TheBuiltInRoundTripWithALimitOnTheErrorTakesThem) {
  const LoadResult ok = load_from_string(
      test_util::kTwoHosts +
          std::string("[[test]]\nname = \"t\"\nkind = \"tcp_rr\"\nfrom = \"a\"\nto = \"b\"\n"
                      "one_way_max_error = \"5us\"\nbudget = { one_way_p50_forward = \"8us\", "
                      "one_way_p99_forward = \"9us\", one_way_max_forward = \"20us\", one_way_p50_reverse = "
                      "\"8us\", one_way_p99_reverse = \"9us\", one_way_max_reverse = \"20us\" }\n"),
      "/tmp/p.toml");
  ASSERT_TRUE(ok.profile) << (ok.errors.empty() ? "" : ok.errors[0].str());
  const TestSpec& t = *ok.profile->find_test("t");
  ASSERT_EQ(t.budget.size(), 6u);
  EXPECT_EQ(t.find_bound(Stat::kOneWayP99Reverse)->limit, 9'000);
}

TEST(OneWayBudgetKeys, KindsAndToolsThatCannotMeasureItAreRefusedAtTheKey) {
  const auto one_error = [](const std::string& test) {
    const LoadResult r = load_from_string(test_util::kTwoHosts + test, "/tmp/p.toml");
    EXPECT_FALSE(r.profile);
    return r.errors.size() == 1 ? r.errors[0] : ProfileError{};
  };
  ProfileError e = one_error(
      "[[test]]\nname = \"s\"\nkind = \"udp_stream\"\nfrom = \"a\"\nto = \"b\"\n"
      "budget = { one_way_p99_forward = \"20us\" }\n");
  EXPECT_EQ(
      e.str(),
      "/tmp/p.toml:14:34: test[s].budget.one_way_p99_forward: a udp_stream test run by builtin does not "
      "produce one_way_p99_forward; it produces: p50, p90, p99, p99_9, p99_99, max, mean, stddev, "
      "min_throughput, max_loss, max_retransmits, max_rx_drops, max_rx_errors, max_udp_rcvbuf_errors "
      "(one-way delay: tcp_rr/udp_rr run by the built-in probe, both ways; udp_multicast "
      "publisher->subscriber only, *_forward)");
  EXPECT_EQ(e.key, "test[s].budget.one_way_p99_forward");
  e = one_error(
      "[[test]]\nname = \"n\"\nkind = \"tcp_rr\"\ntool = \"netperf\"\nfrom = \"a\"\nto = \"b\"\n"
      "one_way_max_error = \"5us\"\nbudget = { one_way_max_reverse = \"20us\" }\n");
  EXPECT_THAT(e.message, ::testing::HasSubstr("run by netperf does not produce one_way_max_reverse"));
  EXPECT_THAT(e.message, ::testing::EndsWith("udp_multicast publisher->subscriber only, *_forward)"));
  e = one_error(
      "[[test]]\nname = \"u\"\nkind = \"udp_rr\"\nfrom = \"a\"\nto = \"b\"\n"
      "budget = { one_way_p50_reverse = \"20us\" }\n");
  EXPECT_EQ(e.key, "test[u].budget.one_way_p50_reverse");
  EXPECT_THAT(e.message, ::testing::HasSubstr("needs one_way_max_error"));
}

// A feed's one-way delay is publisher->subscriber only: the forward keys load,
// a reverse key is refused at its line saying so, and without a limit on the
// error bound no one-way key loads.
LoadResult feed_with(const std::string& keys) {
  return load_from_string(
      test_util::kTwoHosts + ("[[test]]\nname = \"f\"\nkind = \"udp_multicast\"\n"
                              "from = \"a\"\nto = [\"b\"]\ngroup = \"239.1.1.1:5000\"\nrate = \"1000/s\"\n" +
                              keys),
      "/tmp/p.toml");
}

TEST(OneWayBudgetKeys, AMulticastFeedTakesTheForwardKeysOnly) {
  const LoadResult ok = feed_with(
      "one_way_max_error = \"5us\"\nbudget = { one_way_p50_forward = \"8us\", one_way_p99_forward = \"9us\", "
      "one_way_max_forward = \"20us\" }\n");
  ASSERT_TRUE(ok.profile) << (ok.errors.empty() ? "" : ok.errors[0].str());
  const TestSpec& t = *ok.profile->find_test("f");
  EXPECT_EQ(t.one_way_max_error, std::chrono::microseconds(5));
  EXPECT_EQ(t.find_bound(Stat::kOneWayMaxForward)->limit, 20'000);

  LoadResult r = feed_with("one_way_max_error = \"5us\"\nbudget = { one_way_p99_reverse = \"9us\" }\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].key, "test[f].budget.one_way_p99_reverse");
  EXPECT_EQ(r.errors[0].pos.line, 17);
  EXPECT_THAT(r.errors[0].message, ::testing::HasSubstr("udp_multicast publisher->subscriber only"));
  r = feed_with("budget = { one_way_p99_forward = \"9us\" }\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_THAT(r.errors[0].message, ::testing::HasSubstr("needs one_way_max_error"));
}

}  // namespace
}  // namespace labgate::profile
