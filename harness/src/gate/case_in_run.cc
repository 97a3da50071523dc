// One case of a gate run, mesh rounds included.
#include "labgate/gate/case_in_run.h"


#include "labgate/measure/probe_command.h"

namespace labgate::gate {
namespace {

// Before a round's pairs start on their threads: each host's probe installed
// one host after another (the session's own bookkeeping is not shared between
// threads). A failure here shows again, with its reason, in the pair's measurement.
void install_probes(GateSession& session, const TestCase& c) {
  if (c.spec->tool != profile::Tool::kBuiltin) return;
  for (const std::string& h : {c.client, c.server}) {
    try {
      session.probe(h, measure::probe_for(c.spec->kind));
    } catch (const std::exception& e) {
      session.reporter().debug(c.name() + ": installing the probe on " + h + " before the round: " + e.what());
    }
  }
}

}  // namespace

CaseOutcome run_case_in_gate(GateRun& run, const TestCase& c, const std::vector<std::string>& hosts,
                             MeshRounds& rounds, const MeshRounds::Runs& runs) {
  if (c.round <= 0) return run_in_gate(run, c, hosts);
  // A pair of a round already measured (its round started with an earlier
  // case) reports what it measured, even when the run stopped since.
  if (rounds.holds(c))
    return record_case(*run.session(hosts), run.book(), c, rounds.take(c, {}), !rounds.round_pending(c));
  CaseOutcome out;
  GateSession* session = begin_in_gate(run, c, hosts, out);
  if (!session) return out;
  // Each pair keeps its own files on its thread; run.json is written here, after the round.
  const results::Conformance conformance = run.book().run().conformance();
  const auto measure = [session, conformance, &run](const TestCase& x) {
    MeasuredCase m = measure_case(*session, x);
    if (x.round > 0) keep_case(run.book().dir(), conformance, x, m, run.reporter());
    return m;
  };
  const auto prepare = [session](const TestCase& x) { install_probes(*session, x); };
  MeasuredCase m = rounds.take(c, measure, prepare, runs);
  // A round's results are published once, with its last pair's.
  return record_case(*session, run.book(), c, std::move(m), !rounds.round_pending(c));
}

}  // namespace labgate::gate
