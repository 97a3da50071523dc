// Checks of one [[test]] once its defaults are applied: kind and tool fit, hosts
// exist and differ, keys apply to the kind, durations agree, and the budget only
// bounds statistics this tool reports for this kind.
#include <set>

#include "sections.h"
#include "suggest.h"
#include "test_draft.h"

namespace labgate::profile::detail {
namespace {

// Why a key does not fit a kind, or nullptr when it does.
const char* misplaced(const std::string& key, TestKind kind) {
  const bool jitter = kind == TestKind::kJitter;
  if (jitter) {
    if (key == "from" || key == "to") return "a jitter test runs on the hosts in `on`";
    if (key == "message_size" || key == "rate" || key == "port" || key == "busy_poll")
      return "a jitter test sends no messages";
    if (key == "cpu") return "a jitter test spins on the CPUs in `cpus`";
  } else {
    if (key == "on") return "it sends from `from` to `to`; `on` is for jitter tests";
    if (key == "cpus")
      return "`cpus` is for jitter tests; pin client and server with cpu = { client = N, server = N }";
    if (key == "threshold") return "`threshold` is a jitter test's event threshold";
  }
  if (key == "nodelay" && !is_tcp(kind)) return "it sets TCP_NODELAY, for tcp_rr and tcp_stream only";
  return nullptr;
}

void check_hosts(const TestDraft& t, const Profile& p, Diagnostics& d) {
  const TestSpec& s = t.spec;
  if (s.kind == TestKind::kJitter) {
    if (s.on.empty()) {
      d.error(t.pos_of("on"), t.key_of("on"),
              "a jitter test needs the hosts to run on, e.g. on = [\"a\", \"b\"]");
      return;
    }
    std::set<std::string> seen;
    for (const std::string& h : s.on) {
      if (!seen.insert(h).second)
        d.error(t.pos_of("on"), t.key_of("on"), "\"" + h + "\" is listed twice");
      else
        check_host_ref(p, h, t.pos_of("on"), t.key_of("on"), d);
    }
    return;
  }
  bool both = true;
  for (const char* k : {"from", "to"}) {
    const std::string& h = std::string(k) == "from" ? s.from : s.to;
    if (h.empty()) {
      d.error(t.pos_of(k), t.key_of(k),
              std::string("missing; a ") + to_string(s.kind) + " test runs from one host to another, e.g. " +
                  "from = \"a\", to = \"b\"");
      both = false;
      continue;
    }
    if (!check_host_ref(p, h, t.pos_of(k), t.key_of(k), d)) {
      both = false;
      continue;
    }
    const Host* host = p.find_host(h);
    if (host->test_address.empty())
      d.error(host->pos, join_key("hosts", h) + ".test_address",
              "missing; tcp/udp tests measure between the hosts' test (interconnect) addresses");
  }
  if (both && s.from == s.to)
    d.error(
        t.pos_of("to"), t.key_of("to"),
        "is the same host as `from` (\"" + s.to + "\"); a " + to_string(s.kind) + " test needs two hosts");
}

void check_timing(const TestDraft& t, Diagnostics& d) {
  const TestSpec& s = t.spec;
  if (s.duration.count() <= 0)
    d.error(t.pos_of("duration"), t.key_of("duration"), "must be above 0, e.g. \"10s\"");
  if (s.warmup >= s.duration && s.duration.count() > 0)
    d.error(t.pos_of("warmup"), t.key_of("warmup"), "must be shorter than the duration");
  if (s.interval.count() <= 0)
    d.error(t.pos_of("interval"), t.key_of("interval"), "must be above 0, e.g. \"1s\"");
  else if (s.interval > s.duration && s.duration.count() > 0)
    d.error(t.pos_of("interval"), t.key_of("interval"), "must not be longer than the duration");
  if (s.kind == TestKind::kJitter && s.threshold.count() <= 0)
    d.error(t.pos_of("threshold"), t.key_of("threshold"), "must be above 0, e.g. \"10us\"");
}

void check_budget(const TestDraft& t, Diagnostics& d) {
  const TestSpec& s = t.spec;
  if (!t.has_budget) {
    d.error(s.pos, t.key + ".budget",
            "missing; a test without a budget cannot fail. Add e.g. budget = { p99 = \"140us\" }");
    return;
  }
  std::vector<std::string> produced;
  for (Stat stat : all_stats())
    if (produces(s.tool, s.kind, stat)) produced.emplace_back(to_string(stat));
  for (const Bound& b : s.budget) {
    if (produces(s.tool, s.kind, b.stat)) continue;
    d.error(b.pos, t.key + ".budget." + to_string(b.stat),
            std::string("a ") + to_string(s.kind) + " test run by " + to_string(s.tool) +
                " does not produce " + to_string(b.stat) + "; it produces: " + join(produced));
  }
}

}  // namespace

void check_test(const TestDraft& t, const Profile& p, Diagnostics& d) {
  const TestSpec& s = t.spec;
  if (!t.has_kind) {
    d.error(s.pos, t.key + ".kind",
            "missing; expected one of: tcp_rr, udp_rr, tcp_stream, udp_stream, jitter");
    return;
  }
  if (t.kind_bad) return;  // reported where it was read; the checks below would guess
  for (const std::string& k : t.written)
    if (const char* why = misplaced(k, s.kind))
      d.error(t.pos_of(k), t.key_of(k),
              std::string("does not apply to a ") + to_string(s.kind) + " test: " + why);
  const bool runs = !t.tool_bad && tool_runs(s.tool, s.kind);
  if (!t.tool_bad && !runs) {
    std::vector<std::string> kinds;
    for (TestKind k : all_test_kinds())
      if (tool_runs(s.tool, k)) kinds.emplace_back(to_string(k));
    d.error(t.pos_of("tool"), t.key_of("tool"),
            std::string(to_string(s.tool)) + " cannot run a " + to_string(s.kind) +
                " test; it runs: " + join(kinds));
  }
  check_hosts(t, p, d);
  check_timing(t, d);
  if (s.kind != TestKind::kJitter) {
    if (s.message_size == 0)
      d.error(t.pos_of("message_size"), t.key_of("message_size"), "must be at least 1 byte");
    else if (!is_tcp(s.kind) && s.message_size > 65507)
      d.error(t.pos_of("message_size"), t.key_of("message_size"),
              "a UDP message holds at most 65507 bytes; found " + std::to_string(s.message_size));
  }
  if (runs) check_budget(t, d);
}

}  // namespace labgate::profile::detail
