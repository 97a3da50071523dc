// A host's test_address must be a numeric IPv4 address: the probes bind and
// connect to it and never resolve names (docs/security.md, 3).
#include <gtest/gtest.h>

#include "labgate/profile/load.h"

namespace labgate::profile {
namespace {

LoadResult with_test_address(const std::string& value) {
  return load_from_string("[lab]\nname = \"x\"\n[hosts.a]\naddress = \"10.0.0.1\"\ntest_address = \"" + value +
                              "\"\n",
                          "/tmp/inline.toml");
}

TEST(TestAddress, ANumericIpv4AddressIsKept) {
  const LoadResult r = with_test_address("198.19.9.2");
  ASSERT_TRUE(r.profile) << r.errors.at(0).str();
  EXPECT_EQ(r.profile->hosts.at(0).test_address, "198.19.9.2");
}

TEST(TestAddress, AnythingElseIsRefusedNamingTheKey) {
  for (const char* bad : {"198.19.9.2$(touch${IFS}/tmp/x)", "198.19.9.2;id", "`id`", "host.example", "::1",
                          "198.19.9", "198.19.9.256"}) {
    const LoadResult r = with_test_address(bad);
    ASSERT_FALSE(r.profile) << bad;
    ASSERT_FALSE(r.errors.empty()) << bad;
    EXPECT_EQ(r.errors[0].key, "hosts.a.test_address") << bad;
    EXPECT_NE(r.errors[0].str().find("/tmp/inline.toml:5:"), std::string::npos) << r.errors[0].str();
  }
}

}  // namespace
}  // namespace labgate::profile
