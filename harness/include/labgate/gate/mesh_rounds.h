// mesh_schedule = "disjoint" at run time: the first case of a round asked for
// measures every pair of that round at the same time (a thread per pair, each on
// its own hosts, no host in two pairs), waits for all of them, and then each
// case takes its own result, so every pair keeps its own GoogleTest case, JUnit
// testcase and record. One pair's failure is only that pair's result.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "labgate/gate/case_step.h"
#include "labgate/gate/test_cases.h"

namespace labgate::gate {

class MeshRounds {
 public:
  /// How one case is measured (gate::measure_case on the session); called on a
  /// thread of its own, at the same time as the round's other pairs.
  using Measure = std::function<MeasuredCase(const TestCase&)>;
  /// What must happen one case after another before a round starts (installing
  /// the probes); called for each case of the round, on the caller's thread.
  using Prepare = std::function<void(const TestCase&)>;
  /// Whether a case will be asked for at all (a filtered-out case is not measured).
  using Runs = std::function<bool(const TestCase&)>;

  /// `cases`: every case the run may ask for, those of a round among them;
  /// each round is told to `reporter` as it starts.
  explicit MeshRounds(std::vector<TestCase> cases, Reporter& reporter = console_reporter());

  /// c's measurement. A case of a round (c.round > 0) not measured yet starts its
  /// whole round (every case of the same test and round that `runs`), returns
  /// when all of them have finished, and keeps the others' results for them; a
  /// case outside any round is measured on its own.
  MeasuredCase take(const TestCase& c, const Measure& measure, const Prepare& prepare = {}, const Runs& runs = {});

  /// True when c's round was measured and c's result waits to be taken.
  bool holds(const TestCase& c) const;
  /// True while any result of c's round waits to be taken.
  bool round_pending(const TestCase& c) const;

  /// The cases of c's round that `runs` (c included), in registration order.
  std::vector<TestCase> round_of(const TestCase& c, const Runs& runs = {}) const;

 private:
  std::vector<TestCase> cases_;
  Reporter& reporter_;
  std::map<std::string, MeasuredCase> held_;  ///< by "test/pair"
};

}  // namespace labgate::gate
