// Checks of one [[test]] once its defaults are applied: kind and tool fit, hosts
// exist and differ, keys apply to the kind, durations agree, and the budget only
// bounds statistics this tool reports for this kind.
#include <set>
#include <utility>

#include "labgate/profile/kind_traits.h"
#include "labgate/profile/limits.h"
#include "sections.h"
#include "suggest.h"
#include "test_draft.h"

namespace labgate::profile::detail {
namespace {

// What to say when a shared key is written for a kind that does not take it
// (the kinds that take it say so in their traits' `takes`).
struct KeyFit {
  const char* key;
  const char* why;
};

constexpr KeyFit kKeyFits[] = {
    {"from", "it runs on the host(s) in `on`; from/to are for tests between two hosts"},
    {"to", "it runs on the host(s) in `on`; from/to are for tests between two hosts"},
    {"pairs", "it runs on the host(s) in `on`; a mesh is for tests between two hosts"},
    {"directions", "it runs on the host(s) in `on`; a mesh is for tests between two hosts"},
    {"hosts", "it runs on the host(s) in `on`; `hosts` lists a mesh's members"},
    {"mesh_schedule", "it runs on the host(s) in `on`; mesh_schedule orders a mesh's pairs"},
    {"on", "it sends from `from` to `to`; `on` is for jitter, command and disk tests"},
    {"message_size", "it sends no messages (a ping_flood's payload is `size`)"},
    {"rate", "`rate` paces the messages of tcp/udp tests"},
    {"port", "`port` is a tcp/udp test's server port"},
    {"busy_poll", "`busy_poll` spins on a tcp/udp test's socket"},
    {"outlier", "`outlier` is the round-trip threshold of a tcp_rr/udp_rr test's outliers"},
    {"full_log", "`full_log` keeps sockperf's per-sample log of a tcp_rr/udp_rr test"},
    {"one_way_max_error",
     "one-way delay is estimated from a tcp_rr/udp_rr test's round trips or a udp_multicast feed's replies"},
    {"cpu", "cpu = { client, server } pins a tcp/udp test's two ends"},
    {"socket_buffer",
     "it sets SO_SNDBUF/SO_RCVBUF of a tcp/udp test's sockets or a udp_multicast feed's"},
    {"nodelay", "it sets TCP_NODELAY, for tcp_rr and tcp_stream only"},
    {"congestion", "it sets TCP_CONGESTION, for tcp_rr and tcp_stream only"},
    {"wrapper", "`wrapper` runs a tcp/udp test's tool or probe under a command"},
    {"preload", "`preload` runs a tcp/udp test's built-in probes under an LD_PRELOAD stack"},
    {"warmup", "it has no warm-up phase"},
    {"interval", "`interval` is the series interval (or ping_flood's ping -i)"},
    {"duration", "a path_mtu test searches until it finds the MTU"},
};

// Why a key does not fit a kind, or nullptr when it does: a kind takes the keys
// its traits name; a key only other kinds own says why with theirs.
const char* misplaced(const std::string& key, TestKind kind) {
  if (const KindTraits* traits = find_kind(kind)) {
    for (const KindKey& k : traits->refuses)
      if (key == k.key) return k.why;
    for (const KindKey& k : traits->own)
      if (key == k.key) return nullptr;
    for (const std::string& k : traits->takes)
      if (key == k) return nullptr;
  }
  for (TestKind other : all_test_kinds())
    if (const KindTraits* o = find_kind(other))
      for (const KindKey& k : o->own)
        if (key == k.key) return k.why;
  for (const KeyFit& f : kKeyFits)
    if (key == f.key) return f.why;
  return nullptr;
}

void check_hosts(TestDraft& t, const Profile& p, Diagnostics& d) {
  const TestSpec& s = t.spec;
  const KindTraits* traits = find_kind(s.kind);
  if (traits && traits->check_hosts) return traits->check_hosts(t, p, d);
  const bool many = traits && traits->on_many;
  if (traits && traits->on_hosts) {
    if (s.on.empty()) {
      d.error(t.pos_of("on"), t.key_of("on"),
              std::string("a ") + to_string(s.kind) +
                  (many ? " test needs the hosts to run on, e.g. on = [\"a\", \"b\"]"
                        : " test needs the host to run on, e.g. on = \"a\""));
      return;
    }
    if (!many && s.on.size() > 1) {
      d.error(t.pos_of("on"), t.key_of("on"),
              std::string("a ") + to_string(s.kind) +
                  " test runs on one host; write one test per host (or on = \"" + s.on[0] + "\")");
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
  if (!s.multicast.subscribers.empty()) {
    d.error(t.pos_of("to"), t.key_of("to"),
            std::string("a list of hosts is for udp_multicast subscribers; a ") + to_string(s.kind) +
                " test goes to one host, e.g. to = \"" + s.multicast.subscribers[0] + "\"");
    return;
  }
  if (check_mesh(t, p, d)) return;
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
    if (host->test_address.empty() && !host->test_address_given)
      d.error(host->pos, join_key("hosts", h) + ".test_address",
              "missing; tcp/udp, ping_flood and path_mtu tests measure between the hosts' test "
              "(interconnect) addresses");
  }
  if (both && s.from == s.to)
    d.error(
        t.pos_of("to"), t.key_of("to"),
        "is the same host as `from` (\"" + s.to + "\"); a " + to_string(s.kind) + " test needs two hosts");
}

void check_timing(const TestDraft& t, Diagnostics& d) {
  const TestSpec& s = t.spec;
  const KindTraits* traits = find_kind(s.kind);
  if (!key_applies("duration", s.kind)) return;
  if (s.duration.count() <= 0)
    d.error(t.pos_of("duration"), t.key_of("duration"), "must be above 0, e.g. \"10s\"");
  // ping_flood, command, udp_multicast: no series to check the warm-up and interval against
  if (!traits || !traits->series) return;
  if (s.warmup >= s.duration && s.duration.count() > 0)
    d.error(t.pos_of("warmup"), t.key_of("warmup"), "must be shorter than the duration");
  if (s.interval.count() <= 0)
    d.error(t.pos_of("interval"), t.key_of("interval"), "must be above 0, e.g. \"1s\"");
  else if (s.interval > s.duration && s.duration.count() > 0)
    d.error(t.pos_of("interval"), t.key_of("interval"), "must not be longer than the duration");
}

void check_budget(const TestDraft& t, Diagnostics& d) {
  const TestSpec& s = t.spec;
  if (const KindTraits* traits = find_kind(s.kind); traits && traits->no_budget) {
    if (t.has_budget)
      d.error(s.budget.empty() ? s.pos : s.budget.front().pos, t.key + ".budget", traits->no_budget);
    return;
  }
  if (!t.has_budget) {
    d.error(s.pos, t.key + ".budget",
            "missing; a test without a budget cannot fail. Add e.g. budget = { p99 = \"140us\" }");
    return;
  }
  std::vector<std::string> produced;
  for (Stat stat : all_stats())
    if (produces(s.tool, s.kind, stat)) produced.emplace_back(to_string(stat));
  for (const Bound& b : s.budget) {
    const std::string key = t.key + ".budget." + to_string(b.stat);
    if (!produces(s.tool, s.kind, b.stat)) {
      d.error(
          b.pos, key,
          std::string("a ") + to_string(s.kind) + " test run by " + to_string(s.tool) + " does not produce " +
              to_string(b.stat) + "; it produces: " + join(produced) +
              (is_one_way(b.stat) ? " (one-way delay: tcp_rr/udp_rr run by the built-in probe, both ways; "
                                    "udp_multicast publisher->subscriber only, *_forward)"
                                  : ""));
    } else if (is_one_way(b.stat) && !s.one_way_max_error) {
      // Judged only within a known error bound: without a limit on it, any bound would do.
      d.error(b.pos, key,
              "a one-way budget needs one_way_max_error (e.g. one_way_max_error = \"5us\"): the figure is "
              "judged only when the clock offset's error bound is within it");
    }
  }
}

// What the tool or probe that runs the test accepts (labgate/profile/limits.h):
// the table the argument builders refuse from, so that what validates can start.
void check_limits(const TestDraft& t, Diagnostics& d) {
  const std::pair<const char*, std::string> refusals[] = {{"message_size", message_size_refusal(t.spec)},
                                                          {"rate", rate_refusal(t.spec)},
                                                          {"interval", interval_refusal(t.spec)}};
  for (const auto& [key, why] : refusals)
    if (!why.empty() && !(t.spec.message_size == 0 && std::string(key) == "message_size"))  // said above
      d.error(t.pos_of(key), t.key_of(key), why);
}

}  // namespace

bool key_applies(const std::string& key, TestKind kind) { return misplaced(key, kind) == nullptr; }

void check_test(TestDraft& t, const Profile& p, Diagnostics& d) {
  const TestSpec& s = t.spec;
  if (!t.has_kind) {
    std::vector<std::string> kinds;
    for (TestKind k : all_test_kinds()) kinds.emplace_back(to_string(k));
    d.error(s.pos, t.key + ".kind", "missing; expected one of: " + join(kinds));
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
  if ((is_rr(s.kind) || is_stream(s.kind)) && s.message_size == 0)  // the tcp/udp kinds' messages
    d.error(t.pos_of("message_size"), t.key_of("message_size"), "must be at least 1 byte");
  const KindTraits* traits = find_kind(s.kind);
  if (runs && !(traits && traits->own_limits)) check_limits(t, d);
  check_extra_kind(t, d);
  if (traits && traits->check) traits->check(t, p, d);
  if (runs) check_budget(t, d);
}

}  // namespace labgate::profile::detail
