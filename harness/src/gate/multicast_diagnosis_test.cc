// A joined subscriber that received nothing is named with its likely cause,
// read from the step's output as iproute and /proc print it.
#include "labgate/gate/multicast_diagnosis.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string output(int rp_all, int rp_ic0, const std::string& back_dev, const std::string& flags) {
  return "@@rp_filter\nrp_filter /proc/sys/net/ipv4/conf/all/rp_filter " + std::to_string(rp_all) +
         "\nrp_filter /proc/sys/net/ipv4/conf/ic0/rp_filter " + std::to_string(rp_ic0) +
         "\nrp_filter /proc/sys/net/ipv4/conf/mg0/rp_filter 0\n"
         "@@addr\n1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n"
         "2: mg0    inet 198.18.2.10/30 scope global mg0\\       valid_lft forever preferred_lft forever\n"
         "3: ic0    inet 198.19.200.3/24 brd 198.19.200.255 scope global ic0\\       valid_lft forever\n"
         "@@link\n2: mg0@if9: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP\n"
         "3: ic0@if12: <" +
         flags +
         "> mtu 1500 qdisc noqueue state UP\n"
         "@@back\n198.19.200.1 via 198.18.2.9 dev " +
         back_dev +
         " src 198.18.2.10 uid 0 \n    cache \n"
         "@@group\nmulticast 239.1.1.1 dev ic0 src 198.19.200.3 uid 0 \n    cache <mc> \n";
}

std::string diagnose(const std::string& out) {
  return diagnose_silent_subscriber(out, "m3", "198.19.200.3", "198.19.200.1", "239.1.1.1");
}

TEST(MulticastDiagnosis, StrictRpFilterWithTheRouteBackElsewhereIsNamed) {
  const std::string d = diagnose(output(0, 1, "mg0", "BROADCAST,MULTICAST,UP,LOWER_UP"));
  EXPECT_THAT(d, HasSubstr("m3 joined 239.1.1.1 on 198.19.200.3 but received nothing"));
  EXPECT_THAT(
      d, HasSubstr(
             "rp_filter is strict (1) on ic0 and the route back to the publisher 198.19.200.1 goes via mg0"));
}

TEST(MulticastDiagnosis, TheHigherOfAllAndTheInterfaceApplies) {
  EXPECT_THAT(diagnose(output(1, 0, "mg0", "BROADCAST,MULTICAST,UP")),
              HasSubstr("rp_filter is strict (1) on ic0"));
  EXPECT_THAT(diagnose(output(2, 0, "mg0", "BROADCAST,MULTICAST,UP")), Not(HasSubstr("strict")));
}

TEST(MulticastDiagnosis, TheMulticastFlagOffComesFirst) {
  EXPECT_THAT(diagnose(output(1, 1, "mg0", "BROADCAST,UP,LOWER_UP")),
              HasSubstr("the MULTICAST flag is off on ic0"));
}

TEST(MulticastDiagnosis, NothingOnTheHostPointsBeyondIt) {
  const std::string d = diagnose(output(0, 0, "ic0", "BROADCAST,MULTICAST,UP"));
  EXPECT_THAT(d, HasSubstr("rp_filter is 0 on ic0"));
  EXPECT_THAT(d, HasSubstr("IGMP snooping"));
  EXPECT_THAT(diagnose_silent_subscriber(output(0, 0, "ic0", "MULTICAST"), "m3", "198.19.200.9",
                                         "198.19.200.1", "239.1.1.1"),
              HasSubstr("no interface holds 198.19.200.9"));
}

}  // namespace
}  // namespace labgate::gate
