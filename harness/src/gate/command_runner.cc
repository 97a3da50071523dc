// kind = "command" in a gate run: the cmdrun probe times the argv on the host.
#include "labgate/cmdlatency/cmdrun_probe.h"
#include "labgate/gate/host_runners.h"
#include "labgate/measure/probe_output.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {

CaseRun run_command_case(GateSession& session, const TestCase& c, CaseRun& run) {
  const std::string probe = session.probe(c.client, "cmdrun");
  deploy::HostDeployment& host = session.deployment(c.client);
  // The run's private directory keeps the first failure's stderr (unlinked at once).
  const auto inv = cmdlatency::cmdrun_command(*c.spec, probe, host.dir());
  const std::string where = "host " + c.client + ": " + c.name() + ": ";
  run.raw_files.emplace_back("command.txt", c.client + ": " + transport::shell_join(inv.argv) + "\n");
  transport::RunOptions o;
  o.timeout = inv.timeout;
  o.output_limit = 64u << 20;  // [wall_ns, exit, timed_out] per run: ~2.5 million runs
  const auto r = host.run(inv.argv, o);
  run.raw_files.emplace_back("cmdrun.out", r.out);
  run.raw_files.emplace_back("cmdrun.err", r.err);
  try {
    run.measurements.push_back(cmdlatency::parse_cmdrun(r.out, *c.spec, c.client));
  } catch (const measure::ProbeOutputError& e) {
    const std::string err = r.err.substr(0, 400);
    throw Failure(ExitCode::kCouldNotRun,
                  where + (e.probe_failed() ? std::string(e.what())
                                            : "cmdrun " + r.describe() + (err.empty() ? "" : ": " + err) +
                                                  " (" + e.what() + ")"));
  }
  if (!r.ok())
    throw Failure(ExitCode::kCouldNotRun, where + "cmdrun " + r.describe() + ": " + r.err.substr(0, 400));
  return run;
}

}  // namespace labgate::gate
