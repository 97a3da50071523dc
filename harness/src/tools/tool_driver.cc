// One external-tool test between two hosts: start the server, wait until it
// listens, run the client with a timeout, parse, and always stop the server.
#include "labgate/tools/tool_driver.h"

#include <arpa/inet.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <thread>

#include "labgate/profile/test_address.h"
#include "labgate/tools/parsers.h"
#include "labgate/tools/sockperf_full_log.h"
#include "labgate/tools/tool_time.h"
#include "labgate/transport/interrupt.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/transport/shell_steps.h"
#include "labgate/util/exit_code.h"
#include "text_scan.h"

namespace labgate::tools {

namespace {

using Clock = std::chrono::steady_clock;
using transport::Process;
using transport::RunResult;
using transport::Transport;

[[noreturn]] void could_not_run(const std::string& msg) { throw Failure(ExitCode::kCouldNotRun, msg); }

std::string first_line(const RunResult& r) {
  const std::string& s = !r.err.empty() ? r.err : r.out;
  const std::string line = s.substr(0, s.find('\n'));
  return line.empty() ? "(no output)" : line.substr(0, 200);
}

std::string host_of(const Transport& t) { return "host " + t.host_name(); }

/// The client host's pass over the per-sample log, which also removes it. Its
/// own timeout: a second of pass per second measured (awk reads ~1M lines a
/// second) and 30 s more. Never throws for the host: a pass that fails costs
/// the per-sample join, which says why, never the measurement.
RunResult read_full_log(Transport& client_host, const ToolInvocation& inv, const profile::TestSpec& spec) {
  transport::RunOptions ro;
  ro.timeout = spec.warmup + spec.duration + std::chrono::seconds(30);
  try {
    return client_host.run(full_log_worst_argv(inv.full_log_path, kFullLogKept), ro);
  } catch (const std::exception& e) {
    transport::throw_if_interrupted("reading sockperf's full log");  // Ctrl-C still stops the run
    RunResult r;
    r.exit_status = -1;
    r.err = e.what();
    return r;
  }
}

/// Stops the server however the test ends; keeps what it printed.
class ServerGuard {
 public:
  explicit ServerGuard(std::unique_ptr<Process> p) : p_(std::move(p)) {}
  ~ServerGuard() {
    try {
      stop();
    } catch (...) {
      // A stop that fails here already failed the run elsewhere; never throw from a destructor.
    }
  }
  Process& process() { return *p_; }
  RunResult stop() {
    if (!stopped_) {
      result_ = p_->stop();
      stopped_ = true;
    }
    return result_;
  }

 private:
  std::unique_ptr<Process> p_;
  RunResult result_;
  bool stopped_ = false;
};

/// The address as /proc/net/tcp{,6} prints it: each 32-bit word in host (little-
/// endian) order, one word for IPv4, four for IPv6; "" for anything else.
std::string hex_le(const std::string& address) {
  unsigned char b[16];
  std::size_t n = 4;
  if (inet_pton(AF_INET, address.c_str(), b) != 1) {
    if (inet_pton(AF_INET6, address.c_str(), b) != 1) return "";
    n = 16;
  }
  std::string out;
  char buf[9];
  for (std::size_t w = 0; w < n; w += 4) {
    std::snprintf(buf, sizeof buf, "%02X%02X%02X%02X", b[w + 3], b[w + 2], b[w + 1], b[w]);
    out += buf;
  }
  return out;
}

/// What a server's refusal means when the tool cannot say it: sockperf before 3.8
/// refuses any IPv6 address as "Invalid address" (Debian 12's is 3.7).
std::string why_refused(const ToolInvocation& inv, const Endpoint& ep, const RunResult& r) {
  const bool sockperf = std::any_of(inv.server_argv.begin(), inv.server_argv.end(), [](const std::string& w) {
    return w.find("sockperf") != std::string::npos;
  });
  if (!sockperf || !profile::is_ipv6(ep.server_address) ||
      (r.out + r.err).find("Invalid address") == std::string::npos)
    return "";
  return " (sockperf takes an IPv6 address from 3.8 on, and this build refused it: run a 3.8 or newer build, "
         "e.g. tool_path = \"sockperf-3.10\")";
}

long ms_since(Clock::time_point t0) {
  return static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
}

/// Waits for the server's readiness line, else polls the server host's /proc/net,
/// until the port is bound, the server ends, or time runs out; says which decided.
std::string wait_until_listening(Transport& server_host, ServerGuard& server, const ToolInvocation& inv,
                                 const Endpoint& test_ep, const DriverOptions& o) {
  // Where the server's socket is: the endpoint, or the group a multicast server binds.
  Endpoint ep = test_ep;
  if (!inv.listen_address.empty()) {
    ep.server_address = inv.listen_address;
    ep.port = inv.listen_port;
  }
  const bool tcp = inv.server_protocol == "tcp";
  const std::string table =
      std::string(tcp ? "/proc/net/tcp" : "/proc/net/udp") + (profile::is_ipv6(ep.server_address) ? "6" : "");
  const std::vector<std::string> probe = {"cat", table};
  const auto deadline = Clock::now() + o.ready_timeout;
  // The server's own word, as soon as it is said: no poll, no interval. Without
  // it (ended, or a build that words it otherwise) /proc/net decides below.
  if (!inv.server_ready_line.empty() &&
      server.process().wait_for_output(inv.server_ready_line, o.ready_timeout))
    return "its own line";
  for (int polls = 1;; ++polls) {
    transport::ShellSteps in_shell;  // a poll in the host's one shell, not a channel each (issue 23)
    transport::RunOptions ro;
    ro.timeout = std::chrono::seconds(5);
    const RunResult r = server_host.run(probe, ro);
    if (r.ok() && port_bound(r.out, ep.server_address, ep.port, tcp))
      return std::to_string(polls) + " read(s) of /proc/net";
    if (auto ended = server.process().wait(std::chrono::nanoseconds(0)))
      could_not_run(host_of(server_host) + ": `" + transport::shell_join(inv.server_argv) + "` ended (" +
                    ended->describe() + ") before listening on " + ep.server_address + ":" +
                    std::to_string(ep.port) + ": " + first_line(*ended) + why_refused(inv, ep, *ended));
    if (Clock::now() >= deadline)
      could_not_run(
          host_of(server_host) + ": `" + transport::shell_join(inv.server_argv) + "` is not listening on " +
          ep.server_address + ":" + std::to_string(ep.port) + " after " +
          std::to_string(std::chrono::duration_cast<std::chrono::seconds>(o.ready_timeout).count()) + "s");
    std::this_thread::sleep_for(o.poll_interval);
  }
}

/// What the parser reads: iperf3's stdout is JSON (stderr would spoil it); the
/// others print their failures on stderr, so both streams count.
std::string parse_input(profile::Tool tool, const RunResult& r) {
  if (tool == profile::Tool::kIperf3 || r.err.empty()) return r.out;
  return r.out + (r.out.empty() || r.out.back() == '\n' ? "" : "\n") + r.err;
}

bool port_taken(const RunResult& r) { return scan::contains_nocase(r.out + r.err, "address already in use"); }

}  // namespace

bool port_bound(std::string_view proc_net, const std::string& address, int port, bool tcp) {
  char port_hex[8];
  std::snprintf(port_hex, sizeof port_hex, "%04X", static_cast<unsigned>(port) & 0xFFFFu);
  const std::string want = hex_le(address);
  const std::string any(want.size(), '0');
  for (std::string_view rest = proc_net; !rest.empty();) {
    const std::size_t nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    // "  0: 0100007F:A028 00000000:0000 0A ..." -> local address, remote address, state.
    const auto w = scan::words(line);
    if (w.size() < 4 || !w[0].ends_with(':')) continue;
    const std::size_t colon = w[1].find(':');
    if (colon == std::string_view::npos || w[1].substr(colon + 1) != port_hex) continue;
    const std::string_view addr = w[1].substr(0, colon);
    if (addr != want && addr != any) continue;
    if (!tcp || w[3] == "0A") return true;
  }
  return false;
}

ToolRun run_tool_test(const profile::TestSpec& spec, Transport& client_host, Transport& server_host,
                      Endpoint ep, const DriverOptions& o, ToolRun* kept) {
  const bool chosen_port = ep.port == 0;
  std::mt19937 rng(std::random_device{}());
  ToolRun local;
  ToolRun& run = kept ? *kept : local;
  for (int port_try = 1;; ++port_try) {
    if (chosen_port) ep.port = std::uniform_int_distribution<int>(20000, 59999)(rng);
    run = ToolRun{};
    try {
      run.invocation = build_invocation(spec, ep);
    } catch (const std::invalid_argument& e) {
      throw Failure(ExitCode::kUsageError, e.what());
    }
    const ToolInvocation& inv = run.invocation;
    const auto t_server = Clock::now();
    ServerGuard server(server_host.start(inv.server_argv));
    try {
      const std::string by = wait_until_listening(server_host, server, inv, ep, o);
      spdlog::debug("timing: {}: {} server listening in {} ms ({})", host_of(server_host),
                    profile::to_string(spec.tool), ms_since(t_server), by);
    } catch (const Failure&) {
      run.server = server.stop();
      if (chosen_port && port_try < o.port_attempts && port_taken(run.server)) continue;
      throw;
    }

    const std::string tool = profile::to_string(spec.tool);
    transport::RunOptions ro;
    ro.timeout = inv.client_timeout;
    // Each stdout line with its arrival, for the tool's own start-up and wrap-up.
    const auto now = o.clock ? o.clock : [] { return Clock::now().time_since_epoch(); };
    std::vector<TimedLine> lines;
    ro.on_stdout_line = [&](std::string_view l) {
      // Bounded: a tool that floods keeps its first lines and the latest one.
      if (lines.size() == 256) lines.pop_back();
      lines.push_back({now(), std::string(l.substr(0, 200))});
    };
    for (int attempt = 1;; ++attempt) {
      lines.clear();
      const auto t_client = Clock::now();
      run.client_started = t_client;
      run.client = client_host.run(inv.client_argv, ro);
      run.client_ended = Clock::now();
      spdlog::debug("timing: {}: {} client ran {} ms", host_of(client_host), tool, ms_since(t_client));
      if (run.client.timed_out) {
        run.server = server.stop();
        could_not_run(host_of(client_host) + ": `" + transport::shell_join(inv.client_argv) + "` " +
                      run.client.describe() + "; the " + tool + " client was killed");
      }
      try {
        const ToolText text =
            text_from_string(tool + " output on " + host_of(client_host), parse_input(spec.tool, run.client));
        run.measurement = parse_tool_output(spec.tool, text, ParseOptions{spec.kind, spec.rate_per_sec});
        account_tool_time(spec.tool, lines, run.measurement);
        break;
      } catch (const ParseError& e) {
        if (e.kind() == ParseFailure::kServerUnreachable && attempt < o.connect_attempts) {
          std::this_thread::sleep_for(o.retry_pause);
          continue;
        }
        run.server = server.stop();  // what the server said is evidence too
        std::string why = e.what();
        if (e.kind() == ParseFailure::kMalformed && !run.client.ok())
          why = "`" + transport::shell_join(inv.client_argv) + "` " + run.client.describe() + ": " +
                first_line(run.client);
        could_not_run(host_of(client_host) + ": " + tool + " test '" + spec.name + "' failed: " + why);
      }
    }
    const auto t_stop = Clock::now();
    run.server = server.stop();
    if (!inv.full_log_path.empty()) run.full_log = read_full_log(client_host, inv, spec);
    spdlog::debug("timing: {}: {} server stopped in {} ms", host_of(server_host), tool, ms_since(t_stop));

    measure::Measurement& m = run.measurement;
    m.host = client_host.host_name();
    m.peer = server_host.host_name();
    for (const auto& [k, v] : inv.parameters) m.parameters.emplace(k, v);
    m.parameters["client_command"] = transport::shell_join(inv.client_argv);
    m.parameters["server_command"] = transport::shell_join(inv.server_argv);
    m.warnings.insert(m.warnings.end(), inv.warnings.begin(), inv.warnings.end());
    return kept ? *kept : std::move(local);
  }
}

}  // namespace labgate::tools
