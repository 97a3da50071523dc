// ProxyJump parsing: the forms OpenSSH accepts, and errors naming the bad hop.
#include "labgate/profile/proxy_jump.h"

#include <gtest/gtest.h>

namespace labgate::profile {
namespace {

TEST(ProxyJump, TwoHopsWithAndWithoutUserAndPort) {
  const ParsedJumps j = parse_proxy_jump("perfops@bastion.example.net:2222,inner");
  ASSERT_EQ(j.error, "");
  ASSERT_EQ(j.hops.size(), 2u);
  EXPECT_EQ(j.hops[0].user, "perfops");
  EXPECT_EQ(j.hops[0].host, "bastion.example.net");
  EXPECT_EQ(j.hops[0].port, 2222);
  EXPECT_FALSE(j.hops[1].user);
  EXPECT_EQ(j.hops[1].host, "inner");
  EXPECT_FALSE(j.hops[1].port);
  EXPECT_EQ(describe_hop(j.hops[0]), "perfops@bastion.example.net:2222");
  EXPECT_EQ(describe_hop(j.hops[1]), "inner");
}

TEST(ProxyJump, Ipv6UriAndNone) {
  ParsedJumps j = parse_proxy_jump("ops@[fd00::1]:22,ssh://u@h:2200,fd00::2");
  ASSERT_EQ(j.error, "");
  ASSERT_EQ(j.hops.size(), 3u);
  EXPECT_EQ(j.hops[0].host, "fd00::1");
  EXPECT_EQ(j.hops[0].port, 22);
  EXPECT_EQ(describe_hop(j.hops[0]), "ops@[fd00::1]:22");
  EXPECT_EQ(j.hops[1].user, "u");
  EXPECT_EQ(j.hops[1].port, 2200);
  EXPECT_EQ(j.hops[2].host, "fd00::2");
  EXPECT_TRUE(parse_proxy_jump("none").hops.empty());
  EXPECT_EQ(parse_proxy_jump("none").error, "");
}

TEST(ProxyJump, ErrorsNameTheHop) {
  EXPECT_NE(parse_proxy_jump("a,,b").error.find("jump host 2: an empty hop"), std::string::npos);
  EXPECT_NE(parse_proxy_jump("a,b:99999").error.find("jump host 2: \"99999\" is not a port"),
            std::string::npos);
  EXPECT_NE(parse_proxy_jump("a:").error.find("is not a port"), std::string::npos);
  EXPECT_NE(parse_proxy_jump("@h").error.find("empty user"), std::string::npos);
  EXPECT_NE(parse_proxy_jump("u@bas tion").error.find("may not hold spaces"), std::string::npos);
  EXPECT_NE(parse_proxy_jump("").error.find("empty"), std::string::npos);
  EXPECT_TRUE(parse_proxy_jump("a,,b").hops.empty());
}

}  // namespace
}  // namespace labgate::profile
