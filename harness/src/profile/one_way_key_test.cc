// The `one_way_max_error` key of a round-trip test (issue 24): a duration above
// 0, for tcp_rr/udp_rr only, each mistake named at its line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"

namespace labgate::profile {
namespace {

const char* const kHosts =
    "[lab]\nname = \"x\"\n[hosts.a]\naddress = \"a\"\ntest_address = \"198.18.1.1\"\n"
    "[hosts.b]\naddress = \"b\"\ntest_address = \"198.18.1.2\"\n";

LoadResult with_test(const std::string& kind, const std::string& value) {
  return load_from_string(kHosts + ("[[test]]\nname = \"t\"\nkind = \"" + kind +
                                    "\"\nfrom = \"a\"\nto = \"b\"\nbudget = { max = \"1ms\" }\n" + value),
                          "/tmp/p.toml");
}

TEST(OneWayMaxErrorKey, ARoundTripTestKeepsItsLimit) {
  const LoadResult r = with_test("udp_rr", "one_way_max_error = \"5us\"\n");
  ASSERT_TRUE(r.profile) << (r.errors.empty() ? "" : r.errors[0].str());
  EXPECT_EQ(r.profile->find_test("t")->one_way_max_error, std::chrono::microseconds(5));
  const LoadResult unset = with_test("tcp_rr", "");
  ASSERT_TRUE(unset.profile);
  EXPECT_FALSE(unset.profile->find_test("t")->one_way_max_error);
}

TEST(OneWayMaxErrorKey, ZeroAndOtherKindsAreRefusedAtTheirLine) {
  LoadResult r = with_test("tcp_rr", "one_way_max_error = \"0us\"\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].pos.line, 15);
  EXPECT_THAT(r.errors[0].message, ::testing::HasSubstr("must be above 0"));
  r = with_test("tcp_stream", "one_way_max_error = \"5us\"\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].pos.line, 15);
  EXPECT_THAT(r.errors[0].message, ::testing::HasSubstr("tcp_rr/udp_rr"));
}

}  // namespace
}  // namespace labgate::profile
