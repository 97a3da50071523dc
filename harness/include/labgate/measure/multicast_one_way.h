// One-way delay of a udp_multicast feed (issue 24), publisher -> subscriber:
// per subscriber, the clock offset with its error bound estimated from the
// subscriber's stamped replies (the same estimator and record as a pingpong
// run's, labgate/measure/one_way.h, forward direction only), and the worst
// subscriber's figures. From the answered messages only (1 in reply_every), not
// every message of the feed.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/measure/multicast_output.h"

namespace labgate::measure {

/// run.json's "one_way" of each subscriber's record, in `subs` order, then the
/// worst subscriber's: the order of multicast_measurements. `publisher_out` is
/// the publisher's output, `addresses` the subscribers' test addresses as it
/// was given them, `max_error` the test's one_way_max_error. A subscriber
/// whose figures cannot be given says why ("why_not"); the worst then cannot
/// be named either and says which subscriber is unknown. Throws
/// ProbeOutputError when the publisher's output is not a result.
std::vector<nlohmann::json> multicast_one_way(std::string_view publisher_out, const std::string& publisher,
                                              const std::vector<SubscriberCounts>& subs,
                                              const std::vector<std::string>& addresses,
                                              std::optional<std::chrono::nanoseconds> max_error);

/// The worst subscriber's one-way record from the subscribers' records: for
/// p50, p99 and max the largest figure and whose it is ("worst"), with the
/// widest of the subscribers' bounds; not reported, naming the subscriber,
/// when any subscriber's figures are not.
nlohmann::json worst_one_way(const std::vector<nlohmann::json>& per_subscriber, const std::string& publisher);

}  // namespace labgate::measure
