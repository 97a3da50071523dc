// One-way delay with its error bound (issue 24): the two hosts' clock offset
// estimated over the interconnect itself from the four timestamps of the
// fastest exchanges of a built-in round-trip run (NTP's argument), and the
// round trip split into a->b and b->a once the offset is known well enough.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>

#include "labgate/profile/test_spec.h"

namespace labgate::measure {

/// One request and its reply, in each host's CLOCK_REALTIME (ns): t1 the
/// client's send, t2 the server's receive (also its send stamp: the last one
/// before the send call), t4 the client's receive.
struct Exchange {
  std::uint64_t seq = 0;
  std::int64_t t1 = 0, t2 = 0, t4 = 0;
  std::int64_t round_trip() const { return t4 - t1; }
};

/// Server clock minus client clock: the truth lies in [offset - bound, offset + bound].
struct OffsetEstimate {
  std::int64_t offset_ns = 0;
  std::uint64_t bound_ns = 0;
  Exchange from;  ///< the exchange it was taken from
};

/// Both one-way delays are >= 0, so the offset lies in [t2 - t4, t2 - t1]; the
/// narrowest such interval (the fastest exchange) is kept, widened by both
/// hosts' monotonic->realtime anchor errors. nullopt when there is no exchange.
std::optional<OffsetEstimate> estimate_offset(std::span<const Exchange> exchanges,
                                              std::uint64_t anchor_error_ns);

/// run.json's "one_way" of a pingpong run: `client_one_way` is the client's
/// "one_way" member (null: messages too short to carry stamps), `server_anchor`
/// the server's "anchor" (null: not printed), `max_error` the test's
/// one_way_max_error. Always an object: the offset and bound when known, the
/// per-direction p50/p99/max (with the bound) when they may be reported, else
/// "why_not". Throws std::invalid_argument on malformed probe output.
nlohmann::json one_way_record(const nlohmann::json& client_one_way, const nlohmann::json& server_anchor,
                              std::optional<std::chrono::nanoseconds> max_error);

/// A test record's one-way record: its measurement's "one_way" member (null
/// when the measurement has none).
const nlohmann::json& one_way_of_record(const nlohmann::json& measurement);

/// A one-way statistic (profile::is_one_way) read from a record: the figure of
/// its direction (forward = the record's a_to_b, client -> server) with the
/// record's error bound. `why_not` is empty when a budget may judge it: the
/// figure was reported within one_way_max_error; else it says why not (not
/// reported, no limit set, no record). Reads the record only: nothing is recomputed.
struct OneWayFigure {
  std::optional<double> value_ns;  ///< the reported figure (compare shows it even when not judgeable)
  std::optional<double> bound_ns;  ///< the offset's error bound, when known
  std::string direction;           ///< "a->b", the hosts named by the record
  std::string why_not;             ///< empty: judgeable
};
OneWayFigure one_way_figure(const nlohmann::json& record, profile::Stat stat);

/// The console's line: "one-way a->b p50 .. p99 .. max .., b->a ... (+- bound, offset ..)"
/// or "one-way not reported: <why>", the hosts named by the record's "client" and
/// "server" (else "a" and "b"); empty for a null record.
std::string one_way_line(const nlohmann::json& record);

}  // namespace labgate::measure
