// kind = "command": an argv run on one host `count` times or for `duration`,
// timed by the cmdrun probe (wall times, exit codes, failures). Everything the
// gate knows of the kind is here: its profile keys and checks, the statistics it
// produces, its probe, its suite and label, its cases, its "measuring" line and
// its runner.
#include "labgate/cmdlatency/cmdrun_probe.h"
#include "labgate/gate/kind_runner.h"
#include "labgate/measure/probe_output.h"
#include "labgate/profile/kind_traits.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"
#include "labgate/util/units.h"
#include "profile/reader.h"
#include "profile/test_draft.h"

namespace labgate::kinds {
namespace {

using profile::Stat;
using profile::TestKind;
using profile::Tool;

// --- In a profile ---

void read_command_keys(profile::detail::TableReader& r, profile::detail::TestDraft& t) {
  profile::CommandParams& c = t.spec.command;
  if (auto v = r.get_strings("argv")) c.argv = *v;
  if (auto v = r.get_duration("pause")) c.pause = *v;
  if (auto v = r.get_duration("timeout")) c.timeout = *v;
}

void check_command_keys(profile::detail::TestDraft& t, const profile::Profile&,
                        profile::detail::Diagnostics& d) {
  const profile::TestSpec& s = t.spec;
  if (s.command.argv.empty() && !t.where.count("argv"))
    d.error(s.pos, t.key + ".argv",
            "missing; a command test runs an argv, e.g. argv = [\"dig\", \"@ns1\", \"example.internal\"]");
  else if (s.command.argv.empty() || s.command.argv[0].empty())
    d.error(t.pos_of("argv"), t.key_of("argv"), "needs the program to run as its first element");
  if (t.written.count("count") && t.written.count("duration"))
    d.error(t.pos_of("duration"), t.key_of("duration"),
            "a command test runs `count` times or for `duration`, not both; remove one");
  if (s.command.timeout.count() <= 0)
    d.error(t.pos_of("timeout"), t.key_of("timeout"), "must be above 0, e.g. \"5s\"");
}

const profile::KindRegistration kCommandTraits{{
    .kind = TestKind::kCommand,
    .name = "command",
    .probe = "cmdrun",
    .takes = {"on", "duration"},
    .own = {{"count", "`count` is how many echo requests (ping_flood) or runs (command)"},
            {"argv", "`argv` is the command a command test runs"},
            {"pause", "`pause` is the sleep between a command test's runs"},
            {"timeout", "`timeout` bounds one run of a command test"}},
    .refuses = {},
    .on_hosts = true,
    .series = false,  // no warm-up, no intervals: every run counts
    .tool_runs = [](Tool tool) { return tool == Tool::kBuiltin; },
    // The runs' wall times (a histogram) and how many failed or timed out.
    .produces = [](Tool, Stat stat) { return profile::is_latency(stat) || stat == Stat::kMaxFailures; },
    .read = read_command_keys,  // `count` is read with ping_flood's
    .check_hosts = nullptr,
    .check = check_command_keys,
    .count_or_duration = true,
}};

#ifndef LABGATE_PROFILE_ONLY  // the profile fuzzer links the profile side only
// --- In a gate run ---

std::string command_measuring(const profile::TestSpec& t) {
  const std::string bound = " (each bounded by " + units::format_duration(t.command.timeout) + ")";
  return t.command.count ? "running the command " + std::to_string(*t.command.count) + " times" + bound
                         : "running the command repeatedly for " + units::format_duration(t.duration) + bound;
}

gate::CaseRun run_command(gate::GateSession& session, const gate::TestCase& c, gate::CaseRun& run) {
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

const gate::RunnerRegistration kCommandRunner{{
    .kind = TestKind::kCommand,
    .suite = "Command",
    .label = "command",
    .measuring = command_measuring,
    .expand = gate::cases_on_hosts,  // one host (`on` holds one, checked above)
    .run = run_command,
    .watches_counters = false,  // no traffic between hosts to account for
}};

#endif

}  // namespace
}  // namespace labgate::kinds
