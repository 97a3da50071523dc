// What the kernel counted on one host while a test ran: the difference of two
// Snapshots, with the figures budgets bound (retransmits, receive drops and
// errors, UDP receive-buffer errors) and every changed counter for the report.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "labgate/counters/snapshot.h"
#include "labgate/measure/measurement.h"

namespace labgate::counters {

struct Delta {
  std::string host;
  /// Tcp RetransSegs: segments sent again (seed 004's "netstat -s" retransmits).
  std::optional<std::int64_t> retransmits;
  /// Sum over the interfaces counted of rx drop + rx fifo (ring overruns).
  std::int64_t rx_drops = 0;
  /// Sum over the interfaces counted of rx errs + rx frame.
  std::int64_t rx_errors = 0;
  std::optional<std::int64_t> udp_rcvbuf_errors;  ///< Udp RcvbufErrors (absent on kernels without it)
  std::optional<std::int64_t> udp_in_errors;      ///< Udp InErrors
  std::optional<std::int64_t> listen_drops;       ///< TcpExt ListenDrops
  std::optional<std::int64_t> listen_overflows;   ///< TcpExt ListenOverflows
  std::optional<std::int64_t> tcp_in_errors;      ///< Tcp InErrs

  /// Every counter that changed, "Tcp.RetransSegs" -> 3 and "dev.eth1.rx_dropped" -> 2.
  std::map<std::string, std::int64_t> changed;
  /// Counters that went backwards (reset, or a 32-bit counter wrapped), interfaces
  /// that came or went: the figures may be wrong, and the report says why.
  std::vector<std::string> warnings;
};

/// after - before. `interfaces` limits the interface sums (rx_drops, rx_errors) to
/// those names (e.g. the interconnect port); empty = every interface but "lo".
Delta delta(const Snapshot& before, const Snapshot& after, const std::vector<std::string>& interfaces = {});

/// One line per figure above 0, "a: 3 TCP segments retransmitted (Tcp RetransSegs)":
/// what the report shows as warnings when no budget bounds the figure. Empty when clean.
std::vector<std::string> trouble(const Delta& d);

/// {"host":..,"retransmits":..,"rx_drops":..,...,"changed":{..},"warnings":[..]};
/// an unknown figure is null.
nlohmann::json to_json(const Delta& d);

/// Adds the host's figures to `m.reported` under the keys budgets read
/// (profile::reported_key: "retransmits", "rx_drops", "rx_errors",
/// "udp_rcvbuf_errors"), summing with what is there, so calling it for both
/// hosts of a pair bounds the pair; the other figures go to `m.parameters` as
/// "counters.<host>.<name>" and the warnings to `m.warnings`.
void add_to_measurement(const Delta& d, measure::Measurement& m);

}  // namespace labgate::counters
