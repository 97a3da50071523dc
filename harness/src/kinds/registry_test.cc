// Tests of the kinds registries: every kind of harness/src/kinds/ is registered
// once in the profile layer and once in the gate layer (the profile's registry is
// the list of kinds, so a runner without traits is caught from the gate's side).
#include <gtest/gtest.h>

#include "labgate/gate/kind_runner.h"
#include "labgate/profile/kind_traits.h"

namespace labgate::kinds {
namespace {

using profile::TestKind;

TEST(KindsRegistry, EveryKindIsRegisteredOnceInEachLayer) {
  for (const gate::KindRunner& r : gate::registered_runners())
    EXPECT_EQ(profile::kind_registrations(r.kind), 1)
        << r.suite << " runner #" << static_cast<int>(r.kind) << ": no profile traits registered";
  for (TestKind k : profile::all_test_kinds()) {
    const int traits = profile::kind_registrations(k), runners = gate::runner_registrations(k);
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
