// One case of a gate run, whatever its kind: a single case as run_in_gate runs
// it, a pair of a disjoint mesh round measured with its round (mesh_rounds.h).
// The one model every runner of the cases calls (GoogleTest's, for `labgate run`
// and each CTest step): the runner only shows the outcome.
#pragma once

#include <string>
#include <vector>

#include "labgate/gate/case_step.h"
#include "labgate/gate/mesh_rounds.h"

namespace labgate::gate {

/// Runs `c` in `run`. A pair of a round (c.round > 0) already measured with its
/// round reports what it measured, even when the run stopped since; the first
/// pair asked for measures its whole round (the pairs that `runs`) at once, after
/// begin_in_gate, and each pair's record is written as it is taken (run.json once,
/// with the round's last). Any other case: run_in_gate.
CaseOutcome run_case_in_gate(GateRun& run, const TestCase& c, const std::vector<std::string>& hosts,
                             MeshRounds& rounds, const MeshRounds::Runs& runs = {});

}  // namespace labgate::gate
