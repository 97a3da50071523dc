// kind = "ping_flood": `ping -f -c count -s size [-i interval]` from `from` to
// `to`'s test address (or a mesh's pairs): loss and ping's own rtt
// min/avg/max/mdev, with the hosts' counters around it. Declared here; its
// runner is a helper it calls (gate/ping_flood_runner.cc run_ping_flood).
#include "labgate/gate/congestion_check.h"
#include "labgate/gate/counter_watch.h"
#include "labgate/gate/kind_runner.h"
#include "labgate/gate/netpath_runner.h"
#include "labgate/profile/kind_traits.h"
#include "profile/reader.h"
#include "profile/test_draft.h"

namespace labgate::kinds {
namespace {

using profile::Stat;
using profile::TestKind;
using profile::Tool;

// --- In a profile ---

constexpr std::uint64_t kMaxIcmpPayload = 65507;  // 65535 - 20 (IP) - 8 (ICMP)

void check_ping_keys(profile::detail::TestDraft& t, const profile::Profile&,
                     profile::detail::Diagnostics& d) {
  const profile::TestSpec& s = t.spec;
  if (s.ping.size > kMaxIcmpPayload)
    d.error(t.pos_of("size"), t.key_of("size"),
            "an ICMP echo carries at most 65507 bytes of payload; found " + std::to_string(s.ping.size));
  if (s.ping.interval && s.ping.interval->count() <= 0 && t.where.count("interval"))
    d.error(t.pos_of("interval"), t.key_of("interval"),
            "must be above 0; leave it out to flood at the pace of the replies");
}

// ping -f prints loss and rtt min/avg/max/mdev, no percentiles; the counters are
// labgate's own snapshots around it.
bool ping_produces(Tool, Stat stat) {
  return profile::is_counter(stat) || stat == Stat::kMaxLoss || stat == Stat::kMax || stat == Stat::kMean ||
         stat == Stat::kMdev;
}

const profile::KindRegistration kPingTraits{{
    .kind = TestKind::kPingFlood,
    .name = "ping_flood",
    .probe = nullptr,  // the host's own ping
    .takes = {"from", "to", "pairs", "directions", "hosts", "mesh_schedule", "interval", "duration"},
    .own = {{"count", "`count` is how many echo requests (ping_flood) or runs (command)"},
            {"size", "`size` is a ping_flood's ICMP payload (ping -s)"}},
    .refuses = {},
    .on_hosts = false,
    .on_many = false,
    .series = false,  // ping's own figures, no warm-up, no series
    .tool_runs = [](Tool tool) { return tool == Tool::kBuiltin; },
    .produces = ping_produces,
    .read = nullptr,  // count, size and interval are read with the shared keys (load_test_fields.cc)
    .check_hosts = nullptr,
    .check = check_ping_keys,
    .count_or_duration = false,
    .own_limits = false,
    .between_hosts = true,
}};

#ifndef LABGATE_PROFILE_ONLY  // the profile fuzzer links the profile side only
// --- In a gate run ---

std::string ping_measuring(const profile::TestSpec& t) {
  return "ping -f -c " + std::to_string(t.ping.count) + " -s " + std::to_string(t.ping.size) +
         " (a count, no deadline of labgate's; ping's own figures)";
}

gate::CaseRun run_ping_case(gate::GateSession& session, const gate::TestCase& c, gate::CaseRun& run) {
  gate::check_congestion(session, c);  // a congestion = "..." in [defaults.test] is checked on its hosts too
  gate::CounterWatch watch(session, c);  // both hosts' /proc counters around the flood
  gate::run_ping_flood(session, c, run);
  watch.finish(run);
  return run;
}

const gate::RunnerRegistration kPingRunner{{
    .kind = TestKind::kPingFlood,
    .suite = "Network",
    .label = "network",
    .measuring = ping_measuring,
    .expand = nullptr,  // one case per (from, to) pair or mesh pair
    .run = run_ping_case,
    .watches_counters = true,  // its runner brackets the flood with the counter watch
    .record_per_peer = false,
    .metric = "round-trip time (ping -f)",
}};

#endif

}  // namespace
}  // namespace labgate::kinds
