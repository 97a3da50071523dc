// Reading the mcast probe (udp_multicast): each subscriber's own counts and the
// publisher's round trips per subscriber become one Measurement per subscriber,
// plus one for the worst subscriber, figure by figure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/measure/measurement.h"
#include "labgate/util/json_reader.h"

namespace labgate::measure {

/// What one subscriber counted itself (its final line).
struct SubscriberCounts {
  std::string host;
  std::string exit_reason;  ///< "end", "idle_timeout", "signal"
  bool end_seen = false;    ///< the publisher's end marker came: trailing loss is counted
  std::uint64_t expected = 0, received = 0, lost = 0, duplicated = 0, out_of_order = 0, too_late = 0;
  std::uint64_t longest_gap = 0, gaps = 0, warmup_received = 0, replies_sent = 0;
  /// Its monotonic -> realtime tie ("anchor": delta_ns, error_ns), which stamped
  /// its replies; nullopt from a subscriber older than the one-way stamps.
  std::optional<std::int64_t> anchor_delta_ns;
  std::optional<std::uint64_t> anchor_error_ns;
};

/// How far the publisher's realtime clock was stepped during the run, when
/// that spoils its figures: its send times are carried over with its tie
/// (the anchor in `entry`'s one_way, taken again at the end), the kernel's
/// receive stamps of the replies ("receive_stamps" not "user") read realtime
/// as it is, so the round trips and one-way delays of replies after the step
/// are off by it. nullopt when not stepped, not mixed, or from an older probe.
std::optional<std::int64_t> publisher_clock_step(const util::JsonReader& publisher,
                                                 const util::JsonReader& entry);

/// A subscriber's output (its "joined" line, then its result). Throws
/// ProbeOutputError naming the host when it is not a subscriber's result.
SubscriberCounts read_subscriber(std::string_view out, const std::string& host);

/// The Measurements of a run: one per subscriber, in `subs` order (host = the
/// publisher, peer = the subscriber), then the worst subscriber's (peer
/// "worst", parameters "worst.<figure>" name whose figure each is).
/// `addresses` are the subscribers' test addresses as the publisher was given
/// them (its per-subscriber list); `silent_why` says, for a subscriber that
/// received nothing, what on its host is the likely cause. Throws ProbeOutputError.
std::vector<Measurement> multicast_measurements(std::string_view publisher_out, const std::string& publisher,
                                                const std::vector<SubscriberCounts>& subs,
                                                const std::vector<std::string>& addresses,
                                                const std::map<std::string, std::string>& silent_why);

}  // namespace labgate::measure
