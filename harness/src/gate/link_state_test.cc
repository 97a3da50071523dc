// The link state read after "no reply from the server": the interface holding
// the host's test address, down with or without carrier, up; nothing when no
// interface holds it. And the case's message names it on both hosts.
#include "labgate/gate/link_state.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fake_lab_test_util.h"

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;
using transport::FakeTransport;
namespace lt = testing;

// What the script prints on a lab host (veth ic0 down on this side).
const std::string kDown =
    "link ic0 down 0\nlink lo unknown 1\nlink mgmt0 up 1\n"
    "1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n"
    "3: ic0    inet 198.19.3.2/24 brd 198.19.3.255 scope global ic0\\       valid_lft forever\n"
    "4: mgmt0    inet 198.18.0.22/30 scope global mgmt0\\       valid_lft forever\n";

TEST(LinkState, TheInterfaceHoldingTheAddressIsNamedWithItsState) {
  EXPECT_EQ(link_state_of(kDown, "198.19.3.2"), "ic0 down (no carrier)");
  EXPECT_EQ(link_state_of(kDown, "198.18.0.22"), "mgmt0 up");
  EXPECT_EQ(link_state_of(kDown, "127.0.0.1"), "lo up");
  EXPECT_EQ(link_state_of(kDown, "198.19.3.1"), "") << "no interface holds it";
  // Administratively down: no carrier file to read.
  EXPECT_EQ(link_state_of("link eth1 down \n2: eth1    inet 10.1.1.1/24 scope global eth1\n", "10.1.1.1"),
            "eth1 down (no carrier)");
}

class LinkStateCase : public lt::FakeLabTest {};

TEST_F(LinkStateCase, ANoReplyFailureNamesTheInterconnectOnBothHosts) {
  const TestCase c = open_case(lt::kRecordedRr + "budget = { p50 = \"1ms\" }\n", {"a", "b"});
  lab_.host("b").on({"$RUN/pingpong", "server"},
                    FakeTransport::ok(lt::testdata("harness/src/measure/testdata/pingpong-server-tcp.txt")));
  transport::RunResult failed = FakeTransport::exit_with(3);
  failed.out =
      "{\"format\":\"labgate-probe-1\",\"probe\":\"pingpong\",\"status\":\"error\","
      "\"error\":\"no reply from the server for 3.000 s (server stalled or gone)\"}\n";
  lab_.host("a").on({"$RUN/pingpong", "client"}, failed);
  lab_.host("a").on(link_state_argv(),
                    FakeTransport::ok("link ic0 up 1\n3: ic0    inet 192.168.1.1/24 scope global ic0\n"));
  lab_.host("b").on(link_state_argv(),
                    FakeTransport::ok("link ic0 down 0\n3: ic0    inet 192.168.1.2/24 scope global ic0\n"));
  const std::string why = could_not_run(c);
  EXPECT_THAT(
      why, HasSubstr("no reply from the server for 3.000 s (server stalled or gone); the interconnect now: "
                     "ic0 on host a up, ic0 on host b down (no carrier)"));
  EXPECT_EQ(lt::occurrences(why, "pingpong client"), 1) << why;
}

}  // namespace
}  // namespace labgate::gate
