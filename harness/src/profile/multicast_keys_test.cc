// multicast = { ... } in [preconditions.interfaces.IF] (issue 24, item 2): the
// five fields load typed, count as rules, and bad values name file:line and key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using ::testing::HasSubstr;

LoadResult with_multicast(const std::string& m) {
  return load_from_string(
      "[lab]\nname = \"x\"\n[hosts.a]\naddress = \"10.0.0.1\"\n"
      "[preconditions.interfaces.eth1]\nmulticast = " +
          m + "\n",
      "/tmp/mcast.toml");
}

TEST(MulticastKeys, LoadTheFiveFields) {
  const LoadResult r = with_multicast(
      "{ flag = true, route = true, rp_filter = \"loose\", force_igmp_version = 3, igmp_max_memberships = "
      "200 }");
  ASSERT_TRUE(r.profile) << r.errors.at(0).str();
  const auto& m = r.profile->preconditions.interfaces.at(0).multicast;
  ASSERT_TRUE(m);
  EXPECT_EQ(m->flag, true);
  EXPECT_EQ(m->route, true);
  EXPECT_EQ(m->rp_filter, "loose");
  EXPECT_EQ(m->force_igmp_version, 3);
  EXPECT_EQ(m->igmp_max_memberships, 200);
  EXPECT_EQ(r.profile->preconditions.rule_count(), 5);
}

TEST(MulticastKeys, BadValuesNameTheLineAndKey) {
  const LoadResult r = with_multicast("{ rp_filter = \"medium\", force_igmp_version = 4 }");
  ASSERT_FALSE(r.profile);
  const std::string e = test_util::error_lines(r);
  EXPECT_THAT(e, HasSubstr("/tmp/mcast.toml:6:"));
  EXPECT_THAT(e, HasSubstr("preconditions.interfaces.eth1.multicast.rp_filter"));
  EXPECT_THAT(e, HasSubstr("\"off\", \"loose\" or \"strict\", found \"medium\""));
  EXPECT_THAT(e, HasSubstr("preconditions.interfaces.eth1.multicast.force_igmp_version"));
}

}  // namespace
}  // namespace labgate::profile
