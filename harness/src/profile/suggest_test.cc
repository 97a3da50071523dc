// Tests of the edit distance and the "did you mean" choice.
#include "suggest.h"

#include <gtest/gtest.h>

namespace labgate::profile::detail {
namespace {

TEST(EditDistance, Basics) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("sysctls", "sysctl"), 1u);
  EXPECT_EQ(edit_distance("adress", "address"), 1u);
  EXPECT_EQ(edit_distance("tpc_rr", "tcp_rr"), 1u);  // a swap costs one
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("p99.9", "p99_9"), 1u);
}

TEST(Closest, PicksAPlausibleTypo) {
  const std::vector<std::string> keys{"sysctl", "modules", "interfaces", "services", "cpu", "hosts"};
  EXPECT_EQ(closest("sysctls", keys), "sysctl");
  EXPECT_EQ(closest("modulse", keys), "modules");
  EXPECT_EQ(closest("CPU", keys), "cpu");  // case alone
  EXPECT_EQ(closest("interface", keys), "interfaces");
  EXPECT_EQ(closest("zzzzzz", keys), std::nullopt);
  EXPECT_EQ(closest("sysctl", keys), std::nullopt);  // not a typo
}

TEST(Closest, ShortWordsAreNotRewritten) {
  EXPECT_EQ(closest("c", {"a", "b"}), std::nullopt);
  EXPECT_EQ(closest("tx", {"to", "on"}), "to");
  EXPECT_EQ(closest("x", {}), std::nullopt);
}

TEST(Join, Commas) {
  EXPECT_EQ(join({}), "");
  EXPECT_EQ(join({"a"}), "a");
  EXPECT_EQ(join({"a", "b", "c"}), "a, b, c");
}

}  // namespace
}  // namespace labgate::profile::detail
