// The probe server's peer filter on the command line: the gate names the
// client's test address, a hand-driven probe may leave it out.
#include <gtest/gtest.h>

#include <algorithm>

#include "labgate/measure/probe_command.h"

namespace labgate::measure {
namespace {

using profile::TestKind;
using Argv = std::vector<std::string>;

// Only the kind matters here: the peer flag does not depend on any other field.
profile::TestSpec of_kind(TestKind kind) {
  profile::TestSpec s;
  s.kind = kind;
  return s;
}

TEST(ProbeCommandPeer, EveryServerKindGetsThePeerAsOneArgument) {
  for (TestKind k : {TestKind::kTcpRr, TestKind::kUdpRr, TestKind::kTcpStream, TestKind::kUdpStream}) {
    const Argv a = probe_server_argv(of_kind(k), "/p", "198.19.9.2", "198.19.9.1");
    const auto it = std::find(a.begin(), a.end(), "--peer");
    ASSERT_NE(it, a.end()) << profile::to_string(k);
    ASSERT_NE(it + 1, a.end());
    EXPECT_EQ(*(it + 1), "198.19.9.1");
    EXPECT_EQ(std::count(a.begin(), a.end(), "--peer"), 1);
  }
}

TEST(ProbeCommandPeer, NoPeerMeansNoFilterFlag) {
  const Argv a = probe_server_argv(of_kind(TestKind::kTcpRr), "/p", "198.19.9.2");
  EXPECT_EQ(std::count(a.begin(), a.end(), "--peer"), 0);
}

TEST(ProbeCommandPeer, TheClientNeverGetsIt) {
  const Argv c = probe_client_argv(of_kind(TestKind::kUdpRr), "/p", "198.19.9.2", 7);
  EXPECT_EQ(std::count(c.begin(), c.end(), "--peer"), 0) << "--peer is a server option";
}

}  // namespace
}  // namespace labgate::measure
