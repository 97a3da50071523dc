// A host's test_address: a numeric IPv4 or IPv6 address or a host name (resolved
// on the host at run time); anything else is refused naming the key, and a refused
// address is never also reported missing.
#include <gtest/gtest.h>

#include "labgate/profile/load.h"
#include "labgate/profile/test_address.h"

namespace labgate::profile {
namespace {

LoadResult with_test_address(const std::string& value, const std::string& tests = "") {
  return load_from_string("[lab]\nname = \"x\"\n[hosts.a]\naddress = \"10.0.0.1\"\ntest_address = \"" + value +
                              "\"\n[hosts.b]\naddress = \"10.0.0.2\"\ntest_address = \"fd00::2\"\n" + tests,
                          "/tmp/inline.toml");
}

TEST(TestAddress, NumericIpv4AndIpv6AddressesAndHostNamesAreKept) {
  for (const char* good : {"198.19.9.2", "fd4c:6762:0:19::1", "2001:db8::7", "ic-a", "ic-a.lab.example"}) {
    const LoadResult r = with_test_address(good);
    ASSERT_TRUE(r.profile) << good << ": " << r.errors.at(0).str();
    EXPECT_EQ(r.profile->hosts.at(0).test_address, good);
  }
  std::string why;
  EXPECT_EQ(classify_address("198.19.9.2", &why), AddressKind::kIpv4);
  EXPECT_EQ(classify_address("fd00::2", &why), AddressKind::kIpv6);
  EXPECT_EQ(classify_address("ic-b", &why), AddressKind::kName);
}

TEST(TestAddress, AnythingElseIsRefusedNamingTheKeyAndWhy) {
  const std::pair<const char*, const char*> cases[] = {
      {"198.19.9.2$(touch${IFS}/tmp/x)", "host name"},
      {"198.19.9.2;id", "host name"},
      {"`id`", "host name"},
      {"-oProxyCommand=x", "host name"},
      {"198.19.9", "IPv4"},
      {"198.19.9.256", "IPv4"},
      {"[fd00::2]", "IPv6"},
      {"fd00::2%ic0", "IPv6"},
      {"fe80::1", "link-local"},
      {"a..b", "host name"}};
  for (const auto& [bad, why] : cases) {
    const LoadResult r = with_test_address(
        bad, "[[test]]\nname = \"t\"\nkind = \"tcp_rr\"\nfrom = \"a\"\nto = \"b\"\nbudget = { max = \"1s\" }\n");
    ASSERT_FALSE(r.profile) << bad;
    ASSERT_EQ(r.errors.size(), 1u) << bad << ": a refused address is not also \"missing\": "
                                   << r.errors.back().str();
    EXPECT_EQ(r.errors[0].key, "hosts.a.test_address") << bad;
    EXPECT_NE(r.errors[0].str().find("/tmp/inline.toml:5:"), std::string::npos) << r.errors[0].str();
    EXPECT_NE(r.errors[0].str().find(why), std::string::npos) << r.errors[0].str();
  }
}

TEST(TestAddress, CanonicalFormsAndBrackets) {
  EXPECT_EQ(canonical_address("FD00:0:0::02"), "fd00::2");
  EXPECT_EQ(canonical_address("198.19.1.2"), "198.19.1.2");
  EXPECT_EQ(bracketed("fd00::2"), "[fd00::2]");
  EXPECT_EQ(bracketed("198.19.1.2"), "198.19.1.2");
  EXPECT_TRUE(is_ipv6("::1"));
  EXPECT_FALSE(is_ipv6("ic-b"));
}

}  // namespace
}  // namespace labgate::profile
