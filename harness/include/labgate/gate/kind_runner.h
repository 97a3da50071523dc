// The gate layer's registry of test kinds: how a kind is reported (suite, label,
// the "measuring" line), into which cases a test of it expands, and which runner
// measures a case. Each kind registers itself from its own file,
// harness/src/kinds/<kind>.cc (beside its profile traits, labgate/profile/kind_traits.h);
// kinds.cc, test_cases.cc, case_runner.cc and counter_watch.cc read it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "labgate/gate/case_runner.h"
#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"

namespace labgate::gate {

struct KindRunner {
  profile::TestKind kind;
  const char* suite;  ///< the GoogleTest suite: "Command"
  const char* label;  ///< the CTest label and `labgate run -L` name: "command"
  /// What the case does while it measures (the "measuring" line); an empty string:
  /// the tool's or the built-in probe's usual wording.
  std::string (*measuring)(const profile::TestSpec&) = nullptr;
  /// The test's cases, where they are not one per (from, to) pair or mesh pair;
  /// the caller sets their suite and label.
  std::vector<TestCase> (*expand)(const profile::TestSpec&) = nullptr;
  /// Measures one case (throws Failure naming host and step when it cannot).
  CaseRun (*run)(GateSession&, const TestCase&, CaseRun&) = nullptr;
  /// /proc counters snapshotted around the case (network traffic between two hosts).
  bool watches_counters = false;
  /// A record per measurement, named "<pair>/<peer>" (udp_multicast: each
  /// subscriber's and the worst's); otherwise the case's pair names its records.
  bool record_per_peer = false;
  /// The records' metric ("round-trip time (ping -f)"); nullptr: the measurement's.
  const char* metric = nullptr;
};

/// Adds a kind (from a kinds/ file's static registration, before main).
void register_runner(KindRunner runner);
/// The kind's runner; nullptr for a kind not (yet) registered from harness/src/kinds/.
const KindRunner* find_runner(profile::TestKind k);
/// How many times `k` was registered (the kinds test wants 1 for each).
int runner_registrations(profile::TestKind k);
/// Every registered runner, in registration order.
const std::vector<KindRunner>& registered_runners();

/// A kinds/ file's registration: `const gate::RunnerRegistration kRun{{...}};`
struct RunnerRegistration {
  explicit RunnerRegistration(KindRunner runner) { register_runner(std::move(runner)); }
};

/// The cases of a test that runs on each host of `on` (one case per host, named by it).
std::vector<TestCase> cases_on_hosts(const profile::TestSpec& t);

}  // namespace labgate::gate
