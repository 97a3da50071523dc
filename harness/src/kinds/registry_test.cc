// Tests of the kinds registries: every kind moved to harness/src/kinds/ is
// registered once in the profile layer and once in the gate layer, and the
// kinds not yet moved are named here (so that a moved kind leaves the list).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "labgate/gate/kind_runner.h"
#include "labgate/profile/kind_traits.h"

namespace labgate::kinds {
namespace {

using profile::TestKind;

// The kinds still described by the switches of the profile and gate layers.
const std::vector<TestKind> kNotYetMoved{TestKind::kTcpRr, TestKind::kUdpRr, TestKind::kTcpStream,
                                         TestKind::kUdpStream};

bool not_yet_moved(TestKind k) {
  return std::find(kNotYetMoved.begin(), kNotYetMoved.end(), k) != kNotYetMoved.end();
}

TEST(KindsRegistry, EveryKindIsRegisteredOnceInEachLayerOrListedAsNotYetMoved) {
  for (TestKind k : profile::all_test_kinds()) {
    const int traits = profile::kind_registrations(k), runners = gate::runner_registrations(k);
    if (not_yet_moved(k)) {
      EXPECT_EQ(traits, 0) << profile::to_string(k) << " is registered: take it out of kNotYetMoved";
      EXPECT_EQ(runners, 0) << profile::to_string(k) << " is registered: take it out of kNotYetMoved";
      continue;
    }
    EXPECT_EQ(traits, 1) << "kind #" << static_cast<int>(k) << " (" << profile::to_string(k)
                         << "): profile traits registered " << traits << " times";
    EXPECT_EQ(runners, 1) << "kind #" << static_cast<int>(k) << " (" << profile::to_string(k)
                          << "): gate runner registered " << runners << " times";
  }
}

TEST(KindsRegistry, ARegisteredKindIsComplete) {
  for (TestKind k : profile::all_test_kinds()) {
    const profile::KindTraits* t = profile::find_kind(k);
    const gate::KindRunner* r = gate::find_runner(k);
    if (!t || !r) continue;
    EXPECT_NE(std::string(t->name), "");
    EXPECT_EQ(profile::parse_test_kind(t->name), k) << t->name;
    EXPECT_NE(t->tool_runs, nullptr) << t->name;
    EXPECT_NE(t->produces, nullptr) << t->name;
    EXPECT_NE(r->run, nullptr) << t->name;
    EXPECT_NE(std::string(r->suite), "") << t->name;
    EXPECT_NE(std::string(r->label), "") << t->name;
  }
}

}  // namespace
}  // namespace labgate::kinds
