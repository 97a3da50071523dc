// Differences of two counter snapshots, the figures budgets bound, and their JSON.
#include "labgate/counters/delta.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace labgate::counters {
namespace {

constexpr std::int64_t k32 = std::int64_t{1} << 32;

// after - before; a counter that went backwards wrapped if it fits 32 bits (RHEL 5
// on a 32-bit kernel), else was reset: then the difference is unknown.
std::optional<std::int64_t> diff(std::int64_t before, std::int64_t after, const std::string& name,
                                 std::vector<std::string>& warnings) {
  if (after >= before) return after - before;
  if (before < k32) {
    warnings.push_back(name + " wrapped at 2^32 (" + std::to_string(before) + " -> " + std::to_string(after) +
                       "); counted as " + std::to_string(after + k32 - before));
    return after + k32 - before;
  }
  warnings.push_back(name + " went backwards (" + std::to_string(before) + " -> " + std::to_string(after) +
                     "); was the counter reset? its change is unknown");
  return std::nullopt;
}

struct IfaceField {
  const char* name;
  std::int64_t InterfaceCounters::*member;
};

constexpr IfaceField kIfaceFields[] = {
    {"rx_bytes", &InterfaceCounters::rx_bytes},   {"rx_packets", &InterfaceCounters::rx_packets},
    {"rx_errors", &InterfaceCounters::rx_errors}, {"rx_dropped", &InterfaceCounters::rx_dropped},
    {"rx_fifo", &InterfaceCounters::rx_fifo},     {"rx_frame", &InterfaceCounters::rx_frame},
    {"tx_bytes", &InterfaceCounters::tx_bytes},   {"tx_packets", &InterfaceCounters::tx_packets},
    {"tx_errors", &InterfaceCounters::tx_errors}, {"tx_dropped", &InterfaceCounters::tx_dropped},
    {"tx_fifo", &InterfaceCounters::tx_fifo},     {"tx_collisions", &InterfaceCounters::tx_collisions}};

bool counted(const std::string& iface, const std::vector<std::string>& only) {
  if (only.empty()) return iface != "lo";
  return std::find(only.begin(), only.end(), iface) != only.end();
}

void protocol_deltas(const Snapshot& before, const Snapshot& after, Delta& d) {
  for (const auto& [group, fields] : after.protocols) {
    for (const auto& [field, value] : fields) {
      const std::int64_t* old = before.find(group, field);
      if (!old) continue;  // a field only one side has cannot be differenced
      const std::string name = group + "." + field;
      // Gauges (CurrEstab, MaxConn, RtoMin...) move both ways; only counters are differenced.
      if (field == "CurrEstab" || field == "MaxConn" || field.starts_with("Rto") || field == "Forwarding" ||
          field == "DefaultTTL") {
        continue;
      }
      if (auto v = diff(*old, value, name, d.warnings); v && *v != 0) d.changed[name] = *v;
    }
  }
}

std::optional<std::int64_t> figure(const Snapshot& before, const Snapshot& after, const char* group,
                                   const char* field) {
  const std::int64_t* a = before.find(group, field);
  const std::int64_t* b = after.find(group, field);
  if (!a || !b) return std::nullopt;
  std::vector<std::string> ignored;  // warned about once, by protocol_deltas
  return diff(*a, *b, "", ignored);
}

void interface_deltas(const Snapshot& before, const Snapshot& after, const std::vector<std::string>& only,
                      Delta& d) {
  for (const auto& [name, now] : after.interfaces) {
    auto was = before.interfaces.find(name);
    if (was == before.interfaces.end()) {
      if (counted(name, only)) d.warnings.push_back("interface " + name + " appeared during the test");
      continue;
    }
    for (const IfaceField& f : kIfaceFields) {
      const std::string key = "dev." + name + "." + f.name;
      auto v = diff(was->second.*f.member, now.*f.member, key, d.warnings);
      if (v && *v != 0) d.changed[key] = *v;
      if (!v || !counted(name, only)) continue;
      if (f.member == &InterfaceCounters::rx_dropped || f.member == &InterfaceCounters::rx_fifo)
        d.rx_drops += *v;
      if (f.member == &InterfaceCounters::rx_errors || f.member == &InterfaceCounters::rx_frame)
        d.rx_errors += *v;
    }
  }
  for (const auto& [name, was] : before.interfaces)
    if (!after.interfaces.count(name) && counted(name, only))
      d.warnings.push_back("interface " + name + " disappeared during the test");
  for (const std::string& name : only)
    if (!after.interfaces.count(name) && before.interfaces.count(name) == 0)
      d.warnings.push_back("interface " + name +
                           " is not in /proc/net/dev; its drops and errors are not counted");
}

nlohmann::json opt(const std::optional<std::int64_t>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

}  // namespace

Delta delta(const Snapshot& before, const Snapshot& after, const std::vector<std::string>& interfaces) {
  Delta d;
  protocol_deltas(before, after, d);
  interface_deltas(before, after, interfaces, d);
  d.retransmits = figure(before, after, "Tcp", "RetransSegs");
  d.tcp_in_errors = figure(before, after, "Tcp", "InErrs");
  d.udp_rcvbuf_errors = figure(before, after, "Udp", "RcvbufErrors");
  d.udp_in_errors = figure(before, after, "Udp", "InErrors");
  d.listen_drops = figure(before, after, "TcpExt", "ListenDrops");
  d.listen_overflows = figure(before, after, "TcpExt", "ListenOverflows");
  return d;
}

std::vector<std::string> trouble(const Delta& d) {
  std::vector<std::string> out;
  const std::string who = d.host.empty() ? "" : d.host + ": ";
  auto line = [&](const std::optional<std::int64_t>& v, const char* what) {
    if (v && *v > 0) out.push_back(who + std::to_string(*v) + " " + what);
  };
  line(d.retransmits, "TCP segments retransmitted (Tcp RetransSegs)");
  line(d.rx_drops, "packets dropped on receive (interfaces' rx drop + fifo)");
  line(d.rx_errors, "receive errors (interfaces' rx errs + frame)");
  line(d.udp_rcvbuf_errors, "UDP datagrams dropped for a full receive buffer (Udp RcvbufErrors)");
  line(d.udp_in_errors, "UDP receive errors (Udp InErrors)");
  line(d.listen_drops, "connections dropped at listen (TcpExt ListenDrops)");
  line(d.listen_overflows, "listen queue overflows (TcpExt ListenOverflows)");
  line(d.tcp_in_errors, "TCP segments received in error (Tcp InErrs)");
  return out;
}

nlohmann::json to_json(const Delta& d) {
  return {{"host", d.host},
          {"retransmits", opt(d.retransmits)},
          {"rx_drops", d.rx_drops},
          {"rx_errors", d.rx_errors},
          {"udp_rcvbuf_errors", opt(d.udp_rcvbuf_errors)},
          {"udp_in_errors", opt(d.udp_in_errors)},
          {"listen_drops", opt(d.listen_drops)},
          {"listen_overflows", opt(d.listen_overflows)},
          {"tcp_in_errors", opt(d.tcp_in_errors)},
          {"changed", d.changed},
          {"warnings", d.warnings}};
}

void add_to_measurement(const Delta& d, measure::Measurement& m) {
  auto add = [&](const char* key, std::optional<std::int64_t> v) {
    if (v) m.reported[key] += static_cast<double>(*v);
  };
  add("retransmits", d.retransmits);
  add("rx_drops", d.rx_drops);
  add("rx_errors", d.rx_errors);
  add("udp_rcvbuf_errors", d.udp_rcvbuf_errors);
  const std::string prefix = "counters." + (d.host.empty() ? std::string("host") : d.host) + ".";
  auto param = [&](const char* key, std::optional<std::int64_t> v) {
    m.parameters[prefix + key] = v ? std::to_string(*v) : "unknown";
  };
  param("retransmits", d.retransmits);
  param("rx_drops", d.rx_drops);
  param("rx_errors", d.rx_errors);
  param("udp_rcvbuf_errors", d.udp_rcvbuf_errors);
  param("udp_in_errors", d.udp_in_errors);
  param("listen_drops", d.listen_drops);
  param("listen_overflows", d.listen_overflows);
  param("tcp_in_errors", d.tcp_in_errors);
  const std::string who = "counters on " + (d.host.empty() ? std::string("the host") : d.host) + ": ";
  for (const std::string& w : d.warnings) m.warnings.push_back(who + w);
  if (!d.udp_rcvbuf_errors) m.warnings.push_back(who + "this kernel has no Udp RcvbufErrors counter");
}

}  // namespace labgate::counters
