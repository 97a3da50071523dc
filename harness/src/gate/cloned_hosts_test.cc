// Hosts with one host key are named once per group, in the profile's order;
// hosts the transport cannot identify are never taken for clones.
#include "labgate/gate/cloned_hosts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace labgate::gate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(ClonedHosts, EachGroupSharingAKeyIsNamedOnce) {
  const auto w = cloned_host_warnings({{"a", "hk-1111"},
                                       {"b", "hk-1111"},
                                       {"c", "hk-2222"},
                                       {"d", "hk-3333"},
                                       {"e", "hk-3333"},
                                       {"f", "hk-3333"}});
  ASSERT_EQ(w.size(), 2u);
  EXPECT_THAT(w[0], HasSubstr("hosts a and b present the same host key (hk-1111): cloned image?"));
  EXPECT_THAT(w[1], HasSubstr("hosts d, e and f present the same host key (hk-3333)"));
}

TEST(ClonedHosts, DistinctOrUnknownKeysAreNotClones) {
  EXPECT_THAT(cloned_host_warnings({{"a", "hk-1"}, {"b", "hk-2"}}), IsEmpty());
  EXPECT_THAT(cloned_host_warnings({{"a", ""}, {"b", ""}}), IsEmpty());
  EXPECT_THAT(cloned_host_warnings({}), ElementsAre());
}

}  // namespace
}  // namespace labgate::gate
