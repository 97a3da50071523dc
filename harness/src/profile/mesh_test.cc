// Tests of pairs = "mesh": the keys read from [[test]] and [defaults.test], the
// mesh's hosts (listed or every host with a test address), and each mistake an
// error at file:line naming the key, with a suggestion for a typo.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/profile/load.h"
#include "profile_test_util.h"

namespace labgate::profile {
namespace {

using ::testing::HasSubstr;

// Three RAC nodes with interconnect addresses and one management-only host.
const std::string kMeshHead = R"(
[lab]
name = "rac"
[hosts.rac1]
address = "10.0.0.1"
test_address = "192.168.10.1"
[hosts.rac2]
address = "10.0.0.2"
test_address = "192.168.10.2"
[hosts.rac3]
address = "10.0.0.3"
test_address = "192.168.10.3"
[hosts.ops]
address = "10.0.0.9"
)";

LoadResult load_tests(const std::string& tests) { return load_from_string(kMeshHead + tests, "rac.toml"); }

TEST(Mesh, DefaultsToEveryHostWithATestAddressBothDirections) {
  auto r = load_tests(R"(
[[test]]
name = "tcp_rr_64"
kind = "tcp_rr"
pairs = "mesh"
budget = { p99 = "100us" }
)");
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  const TestSpec& t = r.profile->tests.at(0);
  ASSERT_TRUE(t.mesh);
  EXPECT_EQ(t.mesh->hosts, (std::vector<std::string>{"rac1", "rac2", "rac3"}));  // not ops
  EXPECT_TRUE(t.mesh->both_directions);
  EXPECT_TRUE(t.from.empty());
}

TEST(Mesh, ListedHostsAndOneDirection) {
  auto r = load_tests(R"(
[[test]]
name = "udp_rr_64"
kind = "udp_rr"
pairs = "mesh"
hosts = ["rac3", "rac1"]
directions = "one"
budget = { p99 = "100us" }
)");
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  const TestSpec& t = r.profile->tests.at(0);
  ASSERT_TRUE(t.mesh);
  EXPECT_EQ(t.mesh->hosts, (std::vector<std::string>{"rac3", "rac1"}));
  EXPECT_FALSE(t.mesh->both_directions);
}

TEST(Mesh, DefaultsMeshAppliesToNetworkTestsThatNameNoPair) {
  auto r = load_tests(R"(
[defaults.test]
pairs = "mesh"
directions = "one"
[[test]]
name = "mesh_rr"
kind = "tcp_rr"
budget = { p99 = "100us" }
[[test]]
name = "one_pair"
kind = "tcp_rr"
from = "rac2"
to = "rac1"
budget = { p99 = "100us" }
[[test]]
name = "jitter"
kind = "jitter"
on = ["rac1"]
budget = { max = "1ms" }
)");
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  const auto& tests = r.profile->tests;
  ASSERT_TRUE(tests.at(0).mesh);
  EXPECT_FALSE(tests.at(0).mesh->both_directions);
  EXPECT_FALSE(tests.at(1).mesh);  // its own from/to win
  EXPECT_EQ(tests.at(1).from, "rac2");
  EXPECT_FALSE(tests.at(2).mesh);  // not a network test
}

TEST(Mesh, UnknownValuesAreErrorsWithASuggestion) {
  auto r = load_tests(R"(
[[test]]
name = "t"
kind = "tcp_rr"
pairs = "mesch"
directions = "bothh"
budget = { p99 = "100us" }
)");
  ASSERT_FALSE(r.profile);
  const std::string e = test_util::error_lines(r);
  EXPECT_THAT(e, HasSubstr("rac.toml:19:9: test[t].pairs: unknown value \"mesch\"; did you mean \"mesh\"?"));
  EXPECT_THAT(e,
              HasSubstr("rac.toml:20:14: test[t].directions: unknown value \"bothh\"; did you mean \"both\"? "
                        "Expected one of: one, both"));
  EXPECT_EQ(r.errors.size(), 2u) << e;  // a mistyped mesh is not also a test missing from/to
}

TEST(Mesh, BadHostsAreErrorsAtTheirLine) {
  auto r = load_tests(R"(
[[test]]
name = "t"
kind = "tcp_rr"
pairs = "mesh"
hosts = ["rac1", "rac22", "ops", "rac1"]
budget = { p99 = "100us" }
)");
  ASSERT_FALSE(r.profile);
  const std::string e = test_util::error_lines(r);
  EXPECT_THAT(e, HasSubstr("rac.toml:20:9: test[t].hosts: \"rac22\" is not a defined host"));
  EXPECT_THAT(e, HasSubstr("did you mean \"rac2\"?"));
  EXPECT_THAT(e, HasSubstr("host \"ops\" has no test_address"));
  EXPECT_THAT(e, HasSubstr("\"rac1\" is listed twice"));
}

TEST(Mesh, OneHostIsNoMesh) {
  auto r = load_tests(R"(
[[test]]
name = "t"
kind = "tcp_rr"
pairs = "mesh"
hosts = ["rac1"]
budget = { p99 = "100us" }
)");
  ASSERT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r),
              HasSubstr("test[t].hosts: a mesh needs at least two hosts; found 1"));
}

TEST(Mesh, MeshAndFromToTogetherIsAnError) {
  auto r = load_tests(R"(
[[test]]
name = "t"
kind = "tcp_rr"
pairs = "mesh"
from = "rac1"
to = "rac2"
budget = { p99 = "100us" }
)");
  ASSERT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r),
              HasSubstr("rac.toml:20:8: test[t].from: a mesh test (pairs = \"mesh\") measures every pair"));
}

TEST(Mesh, MeshKeysWithoutAMeshAreErrors) {
  auto r = load_tests(R"(
[[test]]
name = "t"
kind = "tcp_rr"
from = "rac1"
to = "rac2"
directions = "one"
hosts = ["rac1", "rac2"]
budget = { p99 = "100us" }
[[test]]
name = "j"
kind = "jitter"
on = ["rac1"]
pairs = "mesh"
budget = { max = "1ms" }
)");
  ASSERT_FALSE(r.profile);
  const std::string e = test_util::error_lines(r);
  EXPECT_THAT(e, HasSubstr("test[t].directions: `directions` belongs to a mesh test; add pairs = \"mesh\""));
  EXPECT_THAT(e, HasSubstr("test[t].hosts: `hosts` belongs to a mesh test"));
  EXPECT_THAT(e, HasSubstr("test[j].pairs: does not apply to a jitter test"));
}

TEST(Mesh, AListIsNotASweepHere) {
  auto r = load_tests(R"(
[[test]]
name = "t"
kind = "tcp_rr"
pairs = ["mesh", "ring"]
budget = { p99 = "100us" }
)");
  ASSERT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r), HasSubstr("test[t].pairs: expected a string"));
}

TEST(Mesh, TypoOfTheKeyIsSuggested) {
  auto r = load_tests(R"(
[[test]]
name = "t"
kind = "tcp_rr"
pair = "mesh"
budget = { p99 = "100us" }
)");
  ASSERT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r),
              HasSubstr("rac.toml:19:1: unknown key test[t].pair; did you mean test[t].pairs?"));
}

TEST(MeshSchedule, SequentialByDefaultDisjointWhenWritten) {
  auto r = load_tests(R"(
[[test]]
name = "seq"
kind = "tcp_rr"
pairs = "mesh"
budget = { p99 = "100us" }
[[test]]
name = "rounds"
kind = "tcp_rr"
pairs = "mesh"
mesh_schedule = "disjoint"
budget = { p99 = "100us" }
)");
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  EXPECT_EQ(r.profile->tests.at(0).mesh->schedule, MeshSchedule::kSequential);
  EXPECT_EQ(r.profile->tests.at(1).mesh->schedule, MeshSchedule::kDisjoint);
  EXPECT_STREQ(to_string(MeshSchedule::kDisjoint), "disjoint");
}

TEST(MeshSchedule, InheritedFromDefaultsWithTheMesh) {
  auto r = load_tests(R"(
[defaults.test]
pairs = "mesh"
mesh_schedule = "disjoint"
[[test]]
name = "m"
kind = "udp_rr"
budget = { p99 = "100us" }
)");
  ASSERT_TRUE(r.profile) << test_util::error_lines(r);
  EXPECT_EQ(r.profile->tests.at(0).mesh->schedule, MeshSchedule::kDisjoint);
}

TEST(MeshSchedule, UnknownValueIsAnErrorAtItsLine) {
  auto r = load_tests(R"(
[[test]]
name = "t"
kind = "tcp_rr"
pairs = "mesh"
mesh_schedule = "parallel"
budget = { p99 = "100us" }
)");
  ASSERT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r),
              HasSubstr("rac.toml:20:17: test[t].mesh_schedule: unknown value \"parallel\""));
  EXPECT_THAT(test_util::error_lines(r), HasSubstr("Expected one of: sequential, disjoint"));
}

TEST(MeshSchedule, WithoutAMeshIsAnError) {
  auto r = load_tests(R"(
[[test]]
name = "t"
kind = "tcp_rr"
from = "rac1"
to = "rac2"
mesh_schedule = "disjoint"
budget = { p99 = "100us" }
)");
  ASSERT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r),
              HasSubstr("rac.toml:21:17: test[t].mesh_schedule: `mesh_schedule` belongs to a mesh test"));
}

TEST(MeshSchedule, InDefaultsWithoutAnyMeshIsAnError) {
  auto r = load_tests(R"(
[defaults.test]
mesh_schedule = "disjoint"
[[test]]
name = "t"
kind = "tcp_rr"
from = "rac1"
to = "rac2"
budget = { p99 = "100us" }
)");
  ASSERT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r),
              HasSubstr("rac.toml:17:17: defaults.test.mesh_schedule: no test of this profile is a mesh"));
}

TEST(MeshSchedule, OnAJitterTestDoesNotApply) {
  auto r = load_tests(R"(
[[test]]
name = "j"
kind = "jitter"
on = ["rac1"]
mesh_schedule = "disjoint"
budget = { max = "1ms" }
)");
  ASSERT_FALSE(r.profile);
  EXPECT_THAT(test_util::error_lines(r), HasSubstr("test[j].mesh_schedule: does not apply to a jitter test"));
}

}  // namespace
}  // namespace labgate::profile
