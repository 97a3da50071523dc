// kind = "path_mtu" in a gate run: the DF probe search in both directions of the
// pair (ping -M do on each host towards the other's test address).
#include <chrono>
#include <cstdio>

#include "labgate/gate/netpath_runner.h"
#include "labgate/netpath/path_mtu.h"
#include "labgate/profile/test_address.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/exit_code.h"

namespace labgate::gate {
namespace {

using namespace std::chrono_literals;

const char* result_name(netpath::DfResult r) {
  switch (r) {
    case netpath::DfResult::kPasses:
      return "passes";
    case netpath::DfResult::kTooBig:
      return "too big";
    case netpath::DfResult::kNoReply:
      return "no reply";
    case netpath::DfResult::kError:
      return "error";
  }
  return "?";
}

/// One direction: every DF probe runs on `from` towards `to`'s test address.
netpath::MtuSearch search(GateSession& session, const std::string& from, const std::string& to,
                          const std::string& network, int expected, std::string& log) {
  const std::string address = session.host(to).test_address_of(network);
  if (address.empty())
    throw Failure(ExitCode::kCouldNotRun, "host " + to + " has no test_address: path_mtu needs one");
  transport::Transport& t = session.transport(from);
  netpath::DfProbe probe = [&](int mtu, std::string* detail) {
    const auto argv = netpath::df_probe_command(address, mtu);
    transport::RunOptions o;
    o.timeout = 10s;  // ping -W 1 -c 1 ends within about a second
    const auto r = t.run(argv, o);
    if (r.timed_out) {
      *detail = "ping did not end within 10 s";
      return netpath::DfResult::kError;
    }
    const auto result = netpath::read_df_probe(r.exit_status, r.out, r.err, detail);
    log += from + "$ " + transport::shell_join(argv) + "  -> " + result_name(result) +
           (detail->empty() ? "" : " (" + *detail + ")") + "\n";
    return result;
  };
  const auto [low, high] = netpath::search_range(expected, profile::is_ipv6(address));
  return netpath::find_path_mtu(low, high, probe, 2, expected);
}

RuleVerdict rule_of(const std::string& from, const std::string& to, const netpath::MtuSearch& s, int expected,
                    const std::string& message) {
  RuleVerdict v;
  v.rule = "path_mtu " + from + "->" + to;
  if (s.error.empty() && s.mtu) v.observed = *s.mtu;
  v.limit = expected;
  v.pass = v.observed && *v.observed == expected;
  v.message = message;
  return v;
}

}  // namespace

CaseRun run_path_mtu(GateSession& session, const TestCase& c, CaseRun& run) {
  const int expected = c.spec->mtu.value_or(1500);
  std::string log;
  const auto started = std::chrono::steady_clock::now();
  const auto forward = search(session, c.client, c.server, c.spec->network, expected, log);
  const auto reverse = search(session, c.server, c.client, c.spec->network, expected, log);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  run.raw_files.emplace_back("df_probes.txt", log);
  // ping itself failing (no route, not permitted) is not a verdict on the path.
  for (const auto* s : {&forward, &reverse})
    if (!s->error.empty())
      throw Failure(ExitCode::kCouldNotRun, "host " + std::string(s == &forward ? c.client : c.server) +
                                                ": " + c.name() + ": DF probe could not run: " + s->error);
  const auto verdict = netpath::judge_path_mtu(expected, c.client, c.server, forward, reverse);

  measure::Measurement m;
  m.source = "ping";
  m.kind = "path_mtu";
  m.host = c.client;
  m.peer = c.server;
  m.duration_s = took;
  if (forward.mtu) m.reported["mtu_forward"] = *forward.mtu;
  if (reverse.mtu) m.reported["mtu_reverse"] = *reverse.mtu;
  m.parameters["expected_mtu"] = std::to_string(expected);
  m.parameters["probes_forward"] = std::to_string(forward.steps.size());
  m.parameters["probes_reverse"] = std::to_string(reverse.steps.size());
  m.parameters["method"] = "ping -M do -s (MTU - 28), binary search, a silent size tried twice";
  run.measurements.push_back(std::move(m));
  // The first rule carries the whole verdict (both MTUs, why); the second its own direction.
  run.rules.push_back(rule_of(c.client, c.server, forward, expected, verdict.message));
  run.rules.push_back(rule_of(c.server, c.client, reverse, expected,
                              c.server + "->" + c.client + " carries " +
                                  (reverse.mtu ? std::to_string(*reverse.mtu) : std::string("no packet")) +
                                  " bytes; expected " + std::to_string(expected)));
  return run;
}

}  // namespace labgate::gate
