// Test-address names are resolved on their own host (getent ahosts there): the
// run uses the numeric address, says which, and a name unknown there stops the
// run naming the host, the key and the command.
#include "labgate/gate/test_addresses.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/transport/fake_transport.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;
using transport::FakeTransport;

// `getent ahosts ic-b` as glibc prints it for an /etc/hosts entry with both families.
const char* kAhosts =
    "fd4c:6762:0:19::2 STREAM ic-b\n"
    "fd4c:6762:0:19::2 DGRAM  \n"
    "fd4c:6762:0:19::2 RAW    \n"
    "198.19.19.2     STREAM \n"
    "198.19.19.2     DGRAM  \n"
    "198.19.19.2     RAW    \n";

profile::Host host_b(const std::string& test_address) {
  profile::Host h;
  h.name = "b";
  h.address = "10.0.0.2";
  h.test_address = test_address;
  return h;
}

TEST(TestAddresses, ANameIsResolvedOnItsOwnHostAndTheFirstAddressUsed) {
  FakeTransport b("b");
  b.on({"getent", "ahosts", "ic-b"}, FakeTransport::ok(kAhosts));
  std::vector<ResolvedName> done;
  const profile::Host used = resolve_test_addresses(host_b("ic-b"), b, done);
  EXPECT_EQ(used.test_address, "fd4c:6762:0:19::2");
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].host, "b");
  EXPECT_EQ(done[0].key, "test_address");
  EXPECT_EQ(done[0].name, "ic-b");
  EXPECT_EQ(done[0].address, "fd4c:6762:0:19::2");
  ASSERT_EQ(b.calls().size(), 1u);
  EXPECT_TRUE(b.calls()[0].timeout.has_value()) << "every remote step has a timeout";
}

TEST(TestAddresses, NumericAddressesAreNotLookedUp) {
  FakeTransport b("b");  // any command would throw: none is scripted
  std::vector<ResolvedName> done;
  EXPECT_EQ(resolve_test_addresses(host_b("fd4c:6762:0:19::2"), b, done).test_address, "fd4c:6762:0:19::2");
  profile::Host nets = host_b("198.19.19.2");
  nets.networks = {{"direct", "198.19.19.2"}, {"switch", "fd00::2"}};
  EXPECT_EQ(resolve_test_addresses(nets, b, done).test_address_of("switch"), "fd00::2");
  EXPECT_TRUE(done.empty());
  EXPECT_TRUE(b.calls().empty());
}

TEST(TestAddresses, EachNetworksNameIsResolvedUnderItsOwnKey) {
  FakeTransport b("b");
  b.on({"getent", "ahosts", "ic-b"}, FakeTransport::ok(kAhosts));
  profile::Host h = host_b("ic-b");
  h.networks = {{"direct", "ic-b"}, {"mgmt", "198.19.1.2"}};
  std::vector<ResolvedName> done;
  const profile::Host used = resolve_test_addresses(h, b, done);
  EXPECT_EQ(used.test_address_of("direct"), "fd4c:6762:0:19::2");
  EXPECT_EQ(used.test_address, "fd4c:6762:0:19::2");
  EXPECT_EQ(used.test_address_of("mgmt"), "198.19.1.2");
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].key, "test_address.direct");
}

TEST(TestAddresses, AnUnknownNameOrAStrangeAnswerStopsTheRunNamingWhere) {
  FakeTransport b("b");
  b.on({"getent", "ahosts", "ic-x"}, FakeTransport::exit_with(2));
  b.on({"getent", "ahosts", "ic-y"}, FakeTransport::ok("$(id) STREAM ic-y\n"));
  std::vector<ResolvedName> done;
  try {
    resolve_test_addresses(host_b("ic-x"), b, done);
    FAIL() << "an unknown name was accepted";
  } catch (const Failure& e) {
    EXPECT_EQ(e.code(), ExitCode::kCouldNotRun);
    EXPECT_THAT(e.what(), HasSubstr("host b: hosts.b.test_address = \"ic-x\" does not resolve on b "
                                    "(`getent ahosts ic-x`: the name is not known there)"));
  }
  EXPECT_THROW(resolve_test_addresses(host_b("ic-y"), b, done), Failure);
  EXPECT_TRUE(done.empty());
}

TEST(TestAddresses, TheFirstAhostsWordMustBeAnAddress) {
  EXPECT_EQ(first_ahosts_address("198.19.19.2     STREAM ic-b\n"), "198.19.19.2");
  EXPECT_EQ(first_ahosts_address(""), std::nullopt);
  EXPECT_EQ(first_ahosts_address("ic-b STREAM\n"), std::nullopt);
}

}  // namespace
}  // namespace labgate::gate
