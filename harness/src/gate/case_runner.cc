// Runs one test case with the built-in probes or an external tool.
#include "labgate/gate/case_runner.h"

#include <spdlog/fmt/fmt.h>

#include <atomic>
#include <map>

#include "labgate/gate/counter_bracket.h"
#include "labgate/gate/counter_watch.h"
#include "labgate/gate/host_runners.h"
#include "labgate/gate/kind_runner.h"
#include "labgate/gate/link_state.h"
#include "labgate/gate/netpath_runner.h"
#include "labgate/gate/preload_check.h"
#include "labgate/gate/tail_case.h"
#include "labgate/gate/tool_tail.h"
#include "labgate/measure/figures.h"
#include "labgate/measure/one_way.h"
#include "labgate/measure/probe_command.h"
#include "labgate/measure/probe_output.h"
#include "labgate/tools/tool_driver.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {

using namespace std::chrono_literals;

namespace {

void keep(CaseRun& run, const std::string& name, const std::string& content) {
  run.raw_files.emplace_back(name, content);
}

/// What was kept under `name` ("" if nothing).
std::string kept(const CaseRun& run, const std::string& name) {
  for (const auto& [n, content] : run.raw_files)
    if (n == name) return content;
  return "";
}

/// The probe's own explanation when it could not measure (its JSON "error"), else
/// the transport's description of how it ended.
/// Why a probe run failed, led by `who` ("pingpong client") once: the probe's own
/// reason already names it ("pingpong client could not measure: ..."), a bare exit does not.
std::string probe_failure(const std::string& who, const transport::RunResult& r) {
  try {
    measure::parse_probe_output(r.out);
  } catch (const measure::ProbeOutputError& e) {
    if (e.probe_failed()) {
      const std::string why = e.what();
      return why.rfind(who.substr(0, who.find(' ')), 0) == 0 ? why : who + " " + why;
    }
  } catch (const std::exception&) {
  }
  std::string err = r.err.substr(0, 400);
  return who + " " + r.describe() + (err.empty() ? "" : ": " + err);
}

std::vector<measure::Measurement> parse_client(const transport::RunResult& r, const TestCase& c) {
  measure::ParseContext ctx;
  ctx.host = c.client;
  ctx.peer = c.server;
  try {
    return measure::parse_probe_output(r.out, ctx);
  } catch (const std::exception& e) {
    throw Failure(ExitCode::kCouldNotRun,
                  "host " + c.client + ": " + c.spec->name + ": probe output unusable: " + e.what());
  }
}

/// Asks the probe for per-interval progress and shows it on the console while the
/// test runs, so a 2-minute (or 6-hour) test is not silent and a spike is seen
/// when it happens; the lines stay in the probe's kept stderr as well.
void watch_progress(std::vector<std::string>& argv, transport::RunOptions& o, const std::string& name,
                    Reporter& reporter) {
  argv.push_back("--progress");
  o.on_stderr_line = [name, &reporter](std::string_view line) { reporter.case_progress(name, std::string(line)); };
}

/// Installs the probe for `c` on `host` and returns the directory it is in.
std::string probe_dir(GateSession& session, const std::string& host, const TestCase& c) {
  const std::string path = session.probe(host, measure::probe_binary(*c.spec));
  return path.substr(0, path.rfind('/'));
}

/// Each CPU's p50 gap, what a clock gap costs with no cause.
std::map<int, std::uint64_t> typical_gaps(const std::vector<measure::Measurement>& ms) {
  std::map<int, std::uint64_t> out;
  for (const auto& m : ms) {
    const measure::JudgedFigures judged = measure::judge_figures(m);
    if (const stats::Figure* p50 = judged.figures.find("p50")) out[m.cpu] = static_cast<std::uint64_t>(p50->value);
  }
  return out;
}

}  // namespace

CaseRun run_jitter_case(GateSession& session, const TestCase& c, CaseRun& run) {
  auto argv = measure::probe_jitter_argv(*c.spec, probe_dir(session, c.client, c));
  // Why the tail (issue 25): the noise watch on the same shell line, watching
  // the probe's CPUs (every CPU when it is not pinned) from the others.
  std::string no_watch;
  std::optional<NoiseWatch> noise;
  try {
    session.install({c.client}, "watch");
    noise = noise_watch(session, c, c.client, std::nullopt, no_watch);
  } catch (const std::exception& e) {
    no_watch = std::string("the watch probe could not be installed: ") + e.what();
  }
  if (noise)
    for (int cpu : c.spec->cpus) noise->cpus += (noise->cpus.empty() ? "" : ",") + std::to_string(cpu);
  transport::RunOptions o;
  o.timeout = measure::probe_client_timeout(*c.spec);
  watch_progress(argv, o, c.suite + "." + c.name(), session.reporter());
  keep(run, "command.txt",
       transport::shell_join(argv) + "\n" +
           (noise ? "(run by /bin/sh with the noise watch beside it: watch --cpus <its CPUs, else all> --away)\n"
                  : ""));
  auto r = session.deployment(c.client).run(bracketed_argv(argv, noise), o);
  const Bracketed out = split_bracketed(r.out);
  r.out = out.body;
  keep(run, "jitter.out", r.out);
  keep(run, "jitter.err", r.err);
  if (!r.ok())
    throw Failure(ExitCode::kCouldNotRun,
                  "host " + c.client + ": " + c.spec->name + ": " + probe_failure("jitter probe", r));
  run.measurements = parse_client(r, c);
  if (out.watch) keep(run, "watch-" + c.client + ".out", *out.watch);
  try {
    run.tail = explain_jitter_tail({c.client, r.out, out.watch, out.watch_status, no_watch},
                                   typical_gaps(run.measurements));
  } catch (const std::exception& e) {  // costs the explanation, never the measurement
    session.reporter().warning(c.name() + ": explaining the tail: " + e.what());
  }
  return run;
}

namespace {

/// A built-in server, started over its own channel: ends by itself after its one
/// client (--once), its summary and "after" counters read from that channel.
/// Whatever happens, it is stopped (its process group killed) if it is still
/// running when the case ends, and its output is kept.
class BuiltinServer {
 public:
  BuiltinServer(std::unique_ptr<transport::Process> p, CaseRun& run, Reporter& reporter)
      : p_(std::move(p)), run_(run), reporter_(reporter) {}
  BuiltinServer(const BuiltinServer&) = delete;
  BuiltinServer& operator=(const BuiltinServer&) = delete;
  ~BuiltinServer() {
    if (kept_) return;
    try {
      keep(p_->stop());
    } catch (const std::exception& e) {
      reporter_.warning("stopping " + p_->command() + ": " + e.what());
    }
  }
  transport::Process& process() { return *p_; }
  /// After a client that measured: the server's own end, a stop only as the
  /// backstop (a UDP client's end-of-run datagrams all lost, a hung server).
  /// Returns its whole stdout, counters included.
  std::string end() {
    auto r = p_->wait(kEndsWithin);
    if (!r) {
      reporter_.debug(fmt::format("{} did not end within {} ms of its client: stopping it", p_->command(),
                                  std::chrono::duration_cast<std::chrono::milliseconds>(kEndsWithin).count()));
      r = p_->stop();
    }
    keep(*r);
    return r->out;
  }

 private:
  static constexpr auto kEndsWithin = 2s;
  void keep(const transport::RunResult& r) {
    kept_ = true;
    run_.raw_files.emplace_back("server.out", split_bracketed(r.out).body);
    run_.raw_files.emplace_back("server.err", r.err);
  }

  std::unique_ptr<transport::Process> p_;
  CaseRun& run_;
  Reporter& reporter_;
  bool kept_ = false;
};

/// run.tail from the case's outliers and both hosts' watches; the watches'
/// outputs are kept beside the probes'. A failure here costs the explanation,
/// never the measurement.
void explain(CaseRun& run, const TestCase& c, const TailSide& client, const TailSide& server, Reporter& reporter) {
  for (const TailSide* s : {&client, &server})
    if (s->watch) keep(run, "watch-" + s->host + ".out", *s->watch);
  try {
    std::uint64_t typical = 0;
    if (!run.measurements.empty()) {
      const measure::JudgedFigures judged = measure::judge_figures(run.measurements.front());
      if (const stats::Figure* p50 = judged.figures.find("p50")) typical = static_cast<std::uint64_t>(p50->value);
    }
    run.tail = explain_tail(client, server, typical, c.spec->cpu.server, run.one_way);
  } catch (const std::exception& e) {
    reporter.warning(c.name() + ": explaining the tail: " + e.what());
  }
}

/// run.tail of a stream case: the receiver's (the server's) worst gaps and
/// its host's watch; the watch's output is kept beside the probe's.
void explain_stream(CaseRun& run, const TestCase& c, const TailSide& receiver, Reporter& reporter) {
  if (receiver.watch) keep(run, "watch-" + receiver.host + ".out", *receiver.watch);
  try {
    run.tail = explain_stream_tail(receiver, c.spec->cpu.server);
  } catch (const std::exception& e) {  // costs the explanation, never the measurement
    reporter.warning(c.name() + ": explaining the tail: " + e.what());
  }
}

/// run.json's "one_way" from both probes' summaries. A failure here costs the
/// estimate, never the measurement: the record then says why.
nlohmann::json one_way_of(const TestCase& c, const std::string& client_out, const std::string& server_out,
                          Reporter& reporter) {
  nlohmann::json rec;
  try {
    const auto client = last_doc_with(client_out, "one_way");
    const auto server = last_doc_with(server_out, "anchor");
    if (client)
      rec = measure::one_way_record((*client)["one_way"], server ? (*server)["anchor"] : nlohmann::json(),
                                    c.spec->one_way_max_error);
    else
      rec = {{"reported", false}, {"why_not", "the pingpong client printed no one_way record"}};
  } catch (const std::exception& e) {
    reporter.warning(c.name() + ": one-way delay: " + e.what());
    rec = {{"reported", false}, {"why_not", std::string("probe output unusable: ") + e.what()}};
  }
  rec["client"] = c.client;
  rec["server"] = c.server;
  return rec;
}

}  // namespace

CaseRun run_builtin_pair(GateSession& session, const TestCase& c, CaseRun& run) {
  const std::string address = session.host(c.server).test_address_of(c.spec->network);
  const std::string probe = measure::probe_binary(*c.spec);
  session.install({c.server, c.client}, probe);  // both hosts at once, the first time
  // --peer: the server answers only the client host's test address (docs/security.md §5).
  const auto server_argv = measure::probe_server_argv(*c.spec, probe_dir(session, c.server, c), address,
                                                      session.host(c.client).test_address_of(c.spec->network));
  const std::string client_dir = probe_dir(session, c.client, c);
  // The counters ride on the server's and the client's own commands: two round
  // trips per case (start the server, run the client) instead of six.
  std::optional<CounterWatch> watch;
  if (watches_counters(c.spec->kind)) watch.emplace(session, c, CounterWatch::FromCommands{});
  // Why the tail (issue 25): the noise watch rides on the same shell lines, on
  // the CPU each side is pinned to (every CPU when it is not); a stream's only
  // on the receiver (the server), whose receive gaps it explains.
  const bool stream = profile::is_stream(c.spec->kind);
  const bool explains = watch && (profile::is_rr(c.spec->kind) || stream);
  std::optional<NoiseWatch> noise_a, noise_b;
  std::string no_watch_a, no_watch_b;
  if (explains) {
    try {
      session.install(stream ? std::vector<std::string>{c.server} : std::vector<std::string>{c.server, c.client},
                      "watch");
    } catch (const std::exception& e) {
      session.reporter().warning(c.name() + ": the noise watch will not run: " + e.what());
    }
    noise_b = noise_watch(session, c, c.server, c.spec->cpu.server, no_watch_b);
    if (!stream) noise_a = noise_watch(session, c, c.client, c.spec->cpu.client, no_watch_a);
  }
  const auto wrap = [&](const std::vector<std::string>& argv, const std::optional<NoiseWatch>& noise) {
    return watch ? bracketed_argv(argv, noise) : argv;
  };

  const auto t0 = std::chrono::steady_clock::now();
  const auto ms = [](auto a, auto b) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count();
  };
  BuiltinServer server(session.deployment(c.server).start(wrap(server_argv, noise_b)), run, session.reporter());
  // The listening line is the first JSON line after the counters (which hold no brace).
  // It listens within milliseconds; a server that fails exits at once and is
  // seen at once. Silence past 10 s is a stopped or swapping sshd as often as a
  // hung server (the spare channel starts it before sshd can stall, so the
  // stall lands here): said, and waited for within the step's timeout.
  const auto step_timeout = std::max<transport::Nanos>(session.host(c.server).ssh.command_timeout, 10s);
  if (!server.process().wait_for_output("}\n", 10s)) {
    session.reporter().warning(fmt::format(
        "host {}: {} server has not reported a listening port in 10 s (sshd stopped, swapping or "
        "overloaded, or the server slow to start?); waiting within command_timeout ({} s)",
        c.server, probe, std::chrono::duration_cast<std::chrono::seconds>(step_timeout).count()));
    if (!server.process().wait_for_output("}\n", step_timeout - 10s))
      throw Failure(ExitCode::kCouldNotRun,
                    "host " + c.server + ": " + probe + " server did not report a listening port within " +
                        std::to_string(std::chrono::duration_cast<std::chrono::seconds>(step_timeout).count()) +
                        " s (command_timeout)");
  }
  const std::string first = split_bracketed(server.process().stdout_so_far()).body;
  measure::ListeningLine listening;
  try {
    listening = measure::parse_listening_line(first.substr(0, first.find('\n')));
  } catch (const std::exception& e) {
    throw Failure(ExitCode::kCouldNotRun, "host " + c.server + ": " + probe + " server: " + e.what());
  }
  auto client_argv = measure::probe_client_argv(*c.spec, client_dir, address, listening.port);
  transport::RunOptions o;
  o.timeout = measure::probe_client_timeout(*c.spec);
  watch_progress(client_argv, o, c.suite + "." + c.name(), session.reporter());
  keep(run, "command.txt",
       "server@" + c.server + ": " + transport::shell_join(server_argv) + "\nclient@" + c.client + ": " +
           transport::shell_join(client_argv) + "\n" +
           (watch ? "(each run by /bin/sh between two reads of /proc/net/{snmp,netstat,dev})\n" : "") +
           (noise_a || noise_b ? (stream ? "(with the noise watch beside the server, the receiver: watch --cpus "
                                           "<its CPU, else all>)\n"
                                         : "(with the noise watch beside each: watch --cpus <the side's CPU, else "
                                           "all>)\n")
                               : ""));
  session.reporter().debug(fmt::format("{}: server on {}:{}", c.name(), listening.address, listening.port));

  const auto t1 = std::chrono::steady_clock::now();
  auto r = session.deployment(c.client).run(wrap(client_argv, noise_a), o);
  const auto t2 = std::chrono::steady_clock::now();
  const Bracketed client_out = split_bracketed(r.out);
  r.out = client_out.body;
  keep(run, "client.out", r.out);
  keep(run, "client.err", r.err);
  if (!r.ok()) {
    std::string why = probe_failure(probe + " client", r);
    // Silence from the server is often the interconnect going down: say how it is now.
    if (why.find("no reply from the server") != std::string::npos)
      why += interconnect_now(session, {c.client, c.server}, c.spec->network);
    throw Failure(ExitCode::kCouldNotRun, "host " + c.client + ": " + c.name() + ": " + why);
  }
  run.measurements = parse_client(r, c);
  const std::string server_out = server.end();
  // Step timings at debug level, as the session's ("timing: ..."): where a case's time goes.
  session.reporter().debug(fmt::format("timing: {}: server listening in {} ms, client ran {} ms, server ended {} ms after it",
                                       c.name(), ms(t0, t1), ms(t1, t2), ms(t2, std::chrono::steady_clock::now())));
  const Bracketed server_bracketed = split_bracketed(server_out);
  if (watch) {
    watch->given(c.client, client_out);
    watch->given(c.server, server_bracketed);
    watch->finish(run);
  }
  if (profile::is_rr(c.spec->kind)) run.one_way = one_way_of(c, r.out, server_bracketed.body, session.reporter());
  if (explains && stream)
    explain_stream(run, c,
                   {c.server, server_bracketed.body, server_bracketed.watch, server_bracketed.watch_status, no_watch_b},
                   session.reporter());
  else if (explains)
    explain(run, c, {c.client, r.out, client_out.watch, client_out.watch_status, no_watch_a},
            {c.server, server_bracketed.body, server_bracketed.watch, server_bracketed.watch_status, no_watch_b},
            session.reporter());
  if (c.spec->preload) run.rules.push_back(judge_preload(*c.spec->preload, c.client, r.err, c.server, kept(run, "server.err")));
  return run;
}

namespace {

/// The commands and every stream of a tool run, whatever became of it: a run
/// whose output could not be read is the evidence of what went wrong.
void keep_tool_run(CaseRun& run, const TestCase& c, const tools::ToolRun& t) {
  if (!t.invocation.client_argv.empty())
    keep(run, "command.txt",
         "server@" + c.server + ": " + transport::shell_join(t.invocation.server_argv) + "\nclient@" +
             c.client + ": " + transport::shell_join(t.invocation.client_argv) + "\n");
  keep(run, "client.out", t.client.out);
  keep(run, "client.err", t.client.err);
  keep(run, "server.out", t.server.out);
  keep(run, "server.err", t.server.err);
}

}  // namespace

CaseRun run_tool_case(GateSession& session, const TestCase& c, CaseRun& run) {
  tools::Endpoint endpoint;
  endpoint.server_address = session.host(c.server).test_address_of(c.spec->network);
  endpoint.client_address = session.host(c.client).test_address_of(c.spec->network);
  endpoint.port = c.spec->port.value_or(0);
  if (c.spec->full_log) {
    // In the run's private directory, removed with it should the pass not run;
    // numbered, as cases may share a client host at once (a mesh round).
    static std::atomic<unsigned> logs{0};
    endpoint.full_log_path =
        session.deployment(c.client).dir() + "/sockperf-" + std::to_string(++logs) + ".full.log";
  }
  tools::ToolRun t;
  // Why the tail (issue 25): the noise watch on both hosts for the tool's run.
  ToolWatch noise(session, c);
  try {
    tools::run_tool_test(*c.spec, session.transport(c.client), session.transport(c.server), endpoint, {}, &t);
  } catch (...) {
    keep_tool_run(run, c, t);
    noise.stop(run);  // stopped and kept whatever became of the tool
    throw;
  }
  keep_tool_run(run, c, t);
  run.tail = noise.finish(t, run);
  t.measurement.host = c.client;
  t.measurement.peer = c.server;
  // The invocation's warnings are already in the measurement (tools::run_tool_test adds them).
  run.measurements.push_back(std::move(t.measurement));
  return run;
}

CaseRun run_case(GateSession& session, const TestCase& c, CaseRun* partial) {
  CaseRun local;
  CaseRun& run = partial ? *partial : local;
  if (const KindRunner* r = find_runner(c.spec->kind); r && r->run) return r->run(session, c, run);
  throw Failure(ExitCode::kCouldNotRun, c.spec->name + ": no runner is registered for kind " +
                                            profile::to_string(c.spec->kind) + " (harness/src/kinds/)");
}

}  // namespace labgate::gate
