// kind = "ping_flood" in a gate run: ping -f from the client host to the server
// host's test address, its summary parsed into a Measurement.
#include "labgate/gate/netpath_runner.h"
#include "labgate/netpath/ping_flood.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {

CaseRun run_ping_flood(GateSession& session, const TestCase& c, CaseRun& run) {
  const std::string address = session.host(c.server).test_address_of(c.spec->network);
  if (address.empty())
    throw Failure(ExitCode::kCouldNotRun, "host " + c.server + " has no test_address: ping_flood needs one");
  const auto inv = netpath::ping_flood_command(*c.spec, address);
  run.raw_files.emplace_back("command.txt", c.client + ": " + transport::shell_join(inv.argv) + "\n");
  transport::RunOptions o;
  o.timeout = inv.timeout;
  // ping -f is root-only (raw sockets, intervals under 200 ms): sudo -n with become = "sudo".
  const auto r = session.deployment(c.client).run_privileged(inv.argv, o);
  run.raw_files.emplace_back("ping.out", r.out);
  run.raw_files.emplace_back("ping.err", r.err);
  if (r.timed_out)
    throw Failure(ExitCode::kCouldNotRun, "host " + c.client + ": " + c.name() + ": " +
                                              transport::shell_join(inv.argv) + " " + r.describe());
  measure::Measurement m;
  try {
    // ping prints its refusals on stderr and its summary on stdout.
    m = netpath::parse_ping_summary(r.out + "\n" + r.err, "host " + c.client + ": " + c.name());
  } catch (const netpath::PingError& e) {
    throw Failure(ExitCode::kCouldNotRun, std::string(e.what()) + " (" + r.describe() + ")");
  }
  netpath::note_sends_beyond_count(m, c.spec->ping.count);
  m.host = c.client;
  m.peer = c.server;
  m.parameters["command"] = transport::shell_join(inv.argv);
  m.parameters["count"] = std::to_string(c.spec->ping.count);
  m.parameters["size"] = std::to_string(c.spec->ping.size);
  run.measurements.push_back(std::move(m));
  return run;
}

}  // namespace labgate::gate
