// The `outlier` key of a round-trip test (issue 25): a duration above 0, for
// tcp_rr/udp_rr only, each mistake named at its line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

LoadResult with_outlier_test(const std::string& test) {
  return load_from_string(test_util::kTwoHosts + test, "/tmp/p.toml");
}

TEST(OutlierKey, ARoundTripTestKeepsItsThreshold) {
  const LoadResult r = with_outlier_test(
      "[[test]]\nname = \"t\"\nkind = \"udp_rr\"\nfrom = \"a\"\nto = \"b\"\nbudget = { max = \"1ms\" "
      "}\noutlier = \"200us\"\n");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  EXPECT_EQ(r.profile->find_test("t")->outlier, std::chrono::microseconds(200));
  const LoadResult unset = with_outlier_test(
      "[[test]]\nname = \"t\"\nkind = \"tcp_rr\"\nfrom = \"a\"\nto = \"b\"\nbudget = { max = \"1ms\" }\n");
  ASSERT_TRUE(unset.profile);
  EXPECT_FALSE(unset.profile->find_test("t")->outlier);
}

TEST(OutlierKey, ZeroAndOtherKindsAreRefusedAtTheirLine) {
  LoadResult r = with_outlier_test(
      "[[test]]\nname = \"t\"\nkind = \"tcp_rr\"\nfrom = \"a\"\nto = \"b\"\nbudget = { max = \"1ms\" "
      "}\noutlier = \"0us\"\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].pos.line, 15);
  EXPECT_THAT(r.errors[0].message, ::testing::HasSubstr("must be above 0"));
  r = with_outlier_test(
      "[[test]]\nname = \"t\"\nkind = \"tcp_stream\"\nfrom = \"a\"\nto = \"b\"\nbudget = { max = \"1ms\" "
      "}\noutlier = \"1ms\"\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].pos.line, 15);
  EXPECT_THAT(r.errors[0].message, ::testing::HasSubstr("tcp_rr/udp_rr"));
}

}  // namespace
}  // namespace labgate::profile
