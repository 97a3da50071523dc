// The disk kinds in a gate run: the built-in disk probe, or sysbench fileio
// prepare/run/cleanup with cleanup whatever happened.

#include "labgate/gate/host_runners.h"
#include "labgate/measure/probe_output.h"
#include "labgate/storage/disk_probe.h"
#include "labgate/storage/sysbench.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {
namespace {

using namespace std::chrono_literals;

std::string head(const std::string& s) {
  const std::string cut = s.substr(0, 400);
  return cut.empty() ? "" : ": " + cut;
}

CaseRun run_disk_probe(GateSession& session, const TestCase& c, CaseRun& run, const std::string& where) {
  const std::string probe = session.probe(c.client, "disk");
  const auto inv = storage::disk_probe_command(*c.spec, probe);
  run.raw_files.emplace_back("command.txt", c.client + ": " + transport::shell_join(inv.argv) + "\n");
  transport::RunOptions o;
  o.timeout = inv.timeout;
  const auto r = session.deployment(c.client).run(inv.argv, o);
  run.raw_files.emplace_back("disk.out", r.out);
  run.raw_files.emplace_back("disk.err", r.err);
  try {
    run.measurements.push_back(storage::parse_disk_probe(r.out, c.client));
  } catch (const measure::ProbeOutputError& e) {
    // The probe's own reason (O_DIRECT refused, file exists) beats "exit 3".
    if (e.probe_failed()) throw Failure(ExitCode::kCouldNotRun, where + e.what());
    // Exit 2: a usage error or a path outside `dir`, said on stderr.
    throw Failure(ExitCode::kCouldNotRun,
                  where + "disk probe " + r.describe() + head(r.err) + " (" + e.what() + ")");
  }
  if (!r.ok()) throw Failure(ExitCode::kCouldNotRun, where + "disk probe " + r.describe() + head(r.err));
  return run;
}

transport::RunResult step(GateSession& session, const TestCase& c, CaseRun& run, const std::string& name,
                          const std::vector<std::string>& argv, std::chrono::nanoseconds timeout,
                          bool cleanup = false) {
  transport::RunOptions o;
  o.timeout = timeout;
  o.during_interrupt = cleanup;  // the test file must go even when the gate is stopped
  auto r = session.deployment(c.client).run(argv, o);
  run.raw_files.emplace_back("sysbench-" + name + ".out", r.out);
  run.raw_files.emplace_back("sysbench-" + name + ".err", r.err);
  return r;
}

CaseRun run_sysbench(GateSession& session, const TestCase& c, CaseRun& run, const std::string& where) {
  const std::vector<std::string> ask{"sysbench", "--version"};
  const auto v = step(session, c, run, "version", ask, 30s);
  const auto version = storage::parse_sysbench_version(v.out + v.err);
  if (v.exit_status == 127)
    throw Failure(ExitCode::kCouldNotRun, where + "sysbench is not installed (`sysbench --version`: " +
                                              v.describe() + head(v.err) + ")");
  if (!version)
    throw Failure(ExitCode::kCouldNotRun,
                  where + "`sysbench --version` printed \"" + v.out.substr(0, 80) +
                      "\"; labgate drives sysbench 0.4.x and 1.0.x only (their fileio options differ)");
  const auto cmds = storage::sysbench_commands(*c.spec, *version);
  run.raw_files.emplace_back("command.txt", c.client + ": " + transport::shell_join(cmds.prepare) + "\n" +
                                                c.client + ": " + transport::shell_join(cmds.run) + "\n" +
                                                c.client + ": " + transport::shell_join(cmds.cleanup) + "\n");
  // Whatever happens below (a failed prepare, a parse error, an interrupt), the
  // test file is removed.
  struct Cleanup {
    GateSession& session;
    const TestCase& c;
    CaseRun& run;
    const storage::SysbenchCommands& cmds;
    ~Cleanup() {
      try {
        const auto r = step(session, c, run, "cleanup", cmds.cleanup, cmds.cleanup_timeout, true);
        if (!r.ok())
          session.reporter().warning("host " + c.client + ": " + c.name() + ": sysbench cleanup " + r.describe() +
                                     head(r.err));
      } catch (const std::exception& e) {
        session.reporter().warning("host " + c.client + ": " + c.name() + ": sysbench cleanup: " + e.what());
      }
    }
  } cleanup{session, c, run, cmds};

  const auto prep = step(session, c, run, "prepare", cmds.prepare, cmds.prepare_timeout);
  if (!prep.ok())
    throw Failure(ExitCode::kCouldNotRun, where + transport::shell_join(cmds.prepare) + " " +
                                              prep.describe() + head(prep.err + prep.out));
  const auto r = step(session, c, run, "run", cmds.run, cmds.run_timeout);
  try {
    auto m = storage::parse_sysbench_fileio(r.out + "\n" + r.err, "sysbench on " + c.client, c.spec->kind);
    if (!r.ok())
      throw storage::SysbenchError(storage::SysbenchFailure::kToolFailed, "sysbench run " + r.describe());
    m.host = c.client;
    m.parameters["command"] = transport::shell_join(cmds.run);
    run.measurements.push_back(std::move(m));
  } catch (const storage::SysbenchError& e) {
    throw Failure(ExitCode::kCouldNotRun, where + e.what() + " (" + r.describe() + ")");
  }
  return run;
}

}  // namespace

CaseRun run_disk_case(GateSession& session, const TestCase& c, CaseRun& run) {
  const std::string where = "host " + c.client + ": " + c.name() + ": ";
  if (c.spec->tool == profile::Tool::kSysbench) return run_sysbench(session, c, run, where);
  return run_disk_probe(session, c, run, where);
}

}  // namespace labgate::gate
