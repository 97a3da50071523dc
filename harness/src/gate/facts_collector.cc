// One facts probe run per host, in parallel, parsed into the typed snapshot.
#include "labgate/gate/facts_collector.h"


#include <algorithm>
#include <future>

#include "labgate/facts/clock_daemons.h"
#include "labgate/facts/parse.h"
#include "labgate/facts/probe_args.h"
#include "labgate/transport/shell_steps.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {

using namespace std::chrono_literals;

namespace {

// [preconditions.clock]: the time daemons' own reports, a step beside the probe
// (see clock_daemons.h), kept in the snapshot under clock.daemons.
std::string with_clock_daemons(GateSession& session, const std::string& host, const std::string& raw) {
  transport::RunOptions o;
  // Each client answers in well under a second, or fails fast with no daemon.
  o.timeout = 30s;
  o.output_limit = 1 << 20;
  // pmc talks to ptp4l's root-only socket: as root where the host allows it.
  const auto r = session.deployment(host).run_privileged(facts::clock_daemons_command(), o);
  const std::string err = r.timed_out ? "the clock step timed out after 30 s" : "";
  try {
    return facts::add_daemons_to_snapshot(raw, facts::read_clock_step(r.timed_out ? -1 : r.exit_status, r.out, err));
  } catch (const std::exception&) {
    return raw;  // not JSON: parse_facts names the problem
  }
}

HostSnapshot collect_one(GateSession& session, const profile::Profile& profile, const std::string& host) {
  std::vector<std::string> argv{session.probe(host, "facts")};
  for (auto& a : facts::probe_arguments(profile.preconditions)) argv.push_back(std::move(a));
  transport::RunOptions options;
  // Reading /proc and /sys takes well under a second; a minute means it hangs.
  options.timeout = std::min<transport::Nanos>(session.host(host).ssh.command_timeout, 60s);
  options.output_limit = facts::kMaxSnapshotBytes;
  // Root-only /proc and /sys files: as root where the host allows it (become = "sudo").
  std::optional<transport::RunResult> ran;
  {
    transport::ShellSteps in_shell;  // the host's one shell, not a channel each (issue 23)
    ran = session.deployment(host).run_privileged(argv, options);
  }
  auto& r = *ran;
  transport::require_ok(r, host, argv);
  HostSnapshot s;
  s.host = host;
  s.raw = r.out;
  if (profile.preconditions.clock) s.raw = with_clock_daemons(session, host, s.raw);
  try {
    s.facts = facts::parse_facts(s.raw, "host " + host);
  } catch (const std::exception& e) {
    throw Failure(ExitCode::kCouldNotRun, std::string("facts probe output unusable: ") + e.what());
  }
  session.reporter().debug(
      "host " + host + ": facts gathered in " +
      std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(r.duration).count()) + " ms");
  return s;
}
}  // namespace

std::vector<HostSnapshot> collect_facts(GateSession& session, const profile::Profile& profile,
                                        const std::vector<std::string>& hosts) {
  // Installed on every host at once, then run on every host at once.
  session.install(hosts, "facts");
  std::vector<std::future<HostSnapshot>> futures;
  for (const auto& h : hosts)
    futures.push_back(std::async(std::launch::async, [&, h] { return collect_one(session, profile, h); }));
  std::vector<HostSnapshot> out;
  std::string errors;
  for (auto& f : futures) {
    try {
      out.push_back(f.get());
    } catch (const std::exception& e) {
      errors += (errors.empty() ? "" : "; ") + std::string(e.what());
    }
  }
  if (!errors.empty()) throw Failure(ExitCode::kCouldNotRun, errors);
  return out;
}

}  // namespace labgate::gate
