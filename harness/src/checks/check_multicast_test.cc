// Tests for [preconditions.interfaces.IF] multicast: the flag, the route of
// 224.0.0.0/4, rp_filter (the larger of conf/all and conf/IF), the forced
// IGMP version and igmp_max_memberships, with fixes per OS generation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_facts.h"

namespace labgate::checks {
namespace {

using namespace testing;  // NOLINT
using ::testing::HasSubstr;

profile::Preconditions mcast(profile::MulticastRule m) {
  profile::Preconditions p;
  profile::InterfaceRule eth1;
  eth1.name = "eth1";
  eth1.multicast = m;
  p.interfaces = {eth1};
  return p;
}

facts::Facts multicast_host(const std::string& all_rp, const std::string& if_rp) {
  facts::Facts f = tuned_rhel5();
  f.sysctl["net.ipv4.conf.all.rp_filter"] = text(all_rp, "/proc/sys/net/ipv4/conf/all/rp_filter");
  f.sysctl["net.ipv4.conf.eth1.rp_filter"] = text(if_rp, "/proc/sys/net/ipv4/conf/eth1/rp_filter");
  f.sysctl["net.ipv4.conf.all.force_igmp_version"] =
      text("0", "/proc/sys/net/ipv4/conf/all/force_igmp_version");
  f.sysctl["net.ipv4.conf.eth1.force_igmp_version"] =
      text("2", "/proc/sys/net/ipv4/conf/eth1/force_igmp_version");
  f.sysctl["net.ipv4.igmp_max_memberships"] = text("20", "/proc/sys/net/ipv4/igmp_max_memberships");
  f.interfaces["eth1"].multicast = {true, "ioctl SIOCGIFFLAGS eth1", "", false, ""};
  f.interfaces["eth1"].multicast_route = {false, "/proc/net/route:2", "", false,
                                          "224.0.0.0/4 goes via eth0 (route 0.0.0.0/0)"};
  return f;
}

TEST(Multicast, AStrictFilterFromEitherSideFailsWithBothFixes) {
  profile::MulticastRule m;
  m.rp_filter = "loose";
  const auto rs = check_host("b", multicast_host("1", "0"), mcast(m));
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].rule, "interfaces/eth1/multicast.rp_filter");
  EXPECT_EQ(rs[0].verdict, Verdict::kFail);
  EXPECT_EQ(rs[0].found, "strict (all 1, eth1 0)");
  EXPECT_THAT(rs[0].fix, HasSubstr("sysctl -w 'net.ipv4.conf.all.rp_filter=2'"));
  EXPECT_THAT(rs[0].fix, HasSubstr("sysctl -w 'net.ipv4.conf.eth1.rp_filter=2'"));
  EXPECT_EQ(check_host("b", multicast_host("0", "2"), mcast(m))[0].verdict, Verdict::kPass);
  EXPECT_EQ(check_host("b", multicast_host("0", "0"), mcast(m))[0].verdict, Verdict::kPass);  // off is looser
  m.rp_filter = "off";
  EXPECT_EQ(check_host("b", multicast_host("0", "2"), mcast(m))[0].verdict, Verdict::kFail);
}

TEST(Multicast, TheRouteOfTheGroupsNamesWhereTheyGo) {
  profile::MulticastRule m;
  m.route = true;
  m.flag = true;
  const auto rs = check_host("b", multicast_host("0", "0"), mcast(m));
  EXPECT_EQ(find(rs, "interfaces/eth1/multicast.flag").verdict, Verdict::kPass);
  const CheckResult& r = find(rs, "interfaces/eth1/multicast.route");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.message, HasSubstr("224.0.0.0/4 goes via eth0"));
  EXPECT_THAT(r.fix, HasSubstr("route add -net 224.0.0.0 netmask 240.0.0.0 dev 'eth1'"));
  EXPECT_THAT(r.fix, HasSubstr("/etc/sysconfig/network-scripts/route-eth1"));
  facts::Facts s = multicast_host("0", "0");
  s.services.init = text("systemd", "/proc/1/stat");
  EXPECT_THAT(find(check_host("b", s, mcast(m)), "interfaces/eth1/multicast.route").fix,
              HasSubstr("ip route replace 224.0.0.0/4 dev 'eth1'"));
}

TEST(Multicast, IgmpVersionAndMembershipsAndWhatCannotBeRead) {
  profile::MulticastRule m;
  m.force_igmp_version = 3;
  m.igmp_max_memberships = 100;
  const auto rs = check_host("b", multicast_host("0", "0"), mcast(m));
  EXPECT_EQ(rs[0].verdict, Verdict::kFail);
  EXPECT_EQ(rs[0].found, "2 (all 0, eth1 2)");
  EXPECT_EQ(rs[1].verdict, Verdict::kFail);
  EXPECT_THAT(rs[1].fix, HasSubstr("sysctl -w 'net.ipv4.igmp_max_memberships=100'"));
  facts::Facts f = multicast_host("0", "0");
  f.sysctl.erase("net.ipv4.igmp_max_memberships");
  EXPECT_EQ(check_host("b", f, mcast(m))[1].verdict, Verdict::kNotCheckable);
}

}  // namespace
}  // namespace labgate::checks
