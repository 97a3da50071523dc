// kind = "udp_multicast" (issue 24): one publisher (`from`) feeds a group, each
// subscriber of `to` counts its loss, duplicates and gaps and answers 1 in
// `reply_every` messages by unicast; or sockperf's / sfnt-pingpong's multicast
// ping-pong with one subscriber. Everything the gate knows of the kind is declared
// here; the longer parts are helpers it calls: its keys' reading and checks
// (profile/load_multicast.cc), the feed's runner (gate/multicast_runner.cc), the
// tools' commands (tools/multicast_commands.cc).
#include <cmath>

#include "labgate/gate/kind_runner.h"
#include "labgate/gate/kinds.h"
#include "labgate/gate/multicast_runner.h"
#include "labgate/profile/kind_traits.h"
#include "labgate/util/units.h"
#include "profile/test_draft.h"

namespace labgate::kinds {
namespace {

using profile::Stat;
using profile::TestKind;
using profile::Tool;

// --- In a profile ---

bool multicast_tool_runs(Tool tool) {
  return tool == Tool::kBuiltin || tool == Tool::kSockperf || tool == Tool::kSfntPingpong;
}

bool multicast_produces(Tool tool, Stat stat) {
  if (profile::is_counter(stat)) return false;  // not snapshotted around a feed
  // A tool's multicast ping-pong is its UDP ping-pong through the group: the
  // same figures as its udp_rr, no one-way delay, no loss or gap of a feed.
  if (tool != Tool::kBuiltin)
    return !profile::is_one_way(stat) && profile::produces(tool, TestKind::kUdpRr, stat);
  // The subscribers stamp the feed with their clock: its direction only (the way
  // back is a unicast reply, not the feed).
  if (profile::is_one_way(stat))
    return stat == Stat::kOneWayP50Forward || stat == Stat::kOneWayP99Forward ||
           stat == Stat::kOneWayMaxForward;
  // Per subscriber: the publisher's round trips, the subscriber's own loss and gap.
  return profile::is_latency(stat) || stat == Stat::kDropped || stat == Stat::kMaxLoss ||
         stat == Stat::kMaxGap;
}

const profile::KindRegistration kMulticastTraits{{
    .kind = TestKind::kUdpMulticast,
    .name = "udp_multicast",
    .probe = "mcast",
    .takes = {"from", "to", "message_size", "rate", "one_way_max_error", "socket_buffer", "warmup",
              "duration"},
    .own = {{"group", "`group` is a udp_multicast test's group and port"},
            {"source", "`source` is a udp_multicast test's SSM source"},
            {"ttl", "`ttl` is a udp_multicast test's IP_MULTICAST_TTL"},
            {"reply_every", "`reply_every` is how often a udp_multicast subscriber answers"}},
    .refuses = {},
    .on_hosts = false,
    .series = false,  // the feed's warm-up is checked by check_multicast, against the duration
    .tool_runs = multicast_tool_runs,
    .produces = multicast_produces,
    .read = profile::detail::read_multicast_fields,
    // A publisher and its subscribers, and the feed's or the tool's own limits.
    .check_hosts = profile::detail::check_multicast,
    .check = nullptr,
    .count_or_duration = false,
    .own_limits = true,
}};

#ifndef LABGATE_PROFILE_ONLY  // the profile fuzzer links the profile side only
// --- In a gate run ---

std::string multicast_measuring(const profile::TestSpec& t) {
  if (t.tool != Tool::kBuiltin) return "";  // a tool's multicast ping-pong: worded as its udp_rr
  return "publishing to " + t.multicast.group + ":" + std::to_string(t.multicast.port) + " for " +
         units::format_duration(t.duration) + gate::excluded_warmup(t) + " at " +
         std::to_string(std::llround(t.rate_per_sec.value_or(0))) + "/s to " +
         std::to_string(t.multicast.subscribers.size()) + " subscriber(s), each answering 1 in " +
         std::to_string(t.multicast.reply_every);
}

std::vector<gate::TestCase> multicast_cases(const profile::TestSpec& t) {
  // The built-in feed: one case, the publisher's, with a record per subscriber.
  // A tool's ping-pong: its client publishes, its server (the one subscriber
  // validation allows) answers, as a udp_rr pair; named by the publisher as the
  // feed's case is, its record "a/b" as the feed's.
  const std::string server = t.tool == Tool::kBuiltin ? "" : t.multicast.subscribers.front();
  return {gate::TestCase{&t, t.from, t.from, server, "", ""}};
}

gate::CaseRun run_multicast_case(gate::GateSession& session, const gate::TestCase& c, gate::CaseRun& run) {
  return c.spec->tool == Tool::kBuiltin ? gate::run_multicast(session, c, run)
                                        : gate::run_tool_case(session, c, run);
}

const gate::RunnerRegistration kMulticastRunner{{
    .kind = TestKind::kUdpMulticast,
    .suite = "Multicast",
    .label = "multicast",
    .measuring = multicast_measuring,
    .expand = multicast_cases,
    .run = run_multicast_case,
    .watches_counters = false,
    .record_per_peer = true,  // "a/b", "a/c", "a/worst"
}};

#endif

}  // namespace
}  // namespace labgate::kinds
