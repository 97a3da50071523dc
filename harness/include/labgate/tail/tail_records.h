// What the probes say about the tail, as the harness reads it: the outliers a
// pingpong client or server kept (probes/pingpong/SCHEMA.md, "Outliers") and the
// noise watch's windows (probes/watch/SCHEMA.md). Parsing only; attribution is
// labgate/tail/attribute.h.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace labgate::tail {

/// One kept sample: a client's round trip or a server's turnaround.
struct OutlierRecord {
  std::uint64_t seq = 0;
  std::uint64_t at_ns = 0;     ///< CLOCK_MONOTONIC of its host, when it completed
  std::uint64_t value_ns = 0;  ///< round trip (client) or turnaround (server)
  bool worst = false, over = false;
  std::optional<std::uint64_t> sock_wait_ns;
  std::optional<int> cpu_before, cpu_after;
  std::uint64_t ctx_from_seq = 0;  ///< the switch counts cover requests ctx_from_seq..seq
  std::optional<std::uint64_t> voluntary, involuntary;
};

/// A probe's outlier store as printed, with where each circumstance came from.
struct OutlierSet {
  std::uint64_t threshold_ns = 0, floor_ns = 0, over_threshold = 0, over_not_kept = 0;
  std::vector<OutlierRecord> items;
  std::string cpu_source, switches_source, sock_wait_source;  ///< or "not available: why"
  /// A pingpong server's: its values run from the request's arrival in the
  /// socket (its sock_wait_ns) to the reply, not from the read (UDP, stamped).
  bool from_arrival = false;
};

/// Reads member `member` ("outliers" of a client, "turnaround_outliers" of a
/// server) and "outlier_sources" of a probe document. Throws
/// std::invalid_argument "<what>: <path>: <problem>".
OutlierSet parse_outliers(const nlohmann::json& doc, const char* member, const std::string& what);

struct CpuTick {
  std::uint64_t irq_jiffies = 0, softirq_jiffies = 0, steal_jiffies = 0;
  std::optional<std::uint64_t> smi;
};
struct NamedCount {
  int cpu = 0;  ///< the CPU number (not its index)
  std::string name;
  std::uint64_t count = 0;
};
struct TaskRun {
  int cpu = 0;
  int pid = 0;
  std::string comm;
  std::uint64_t ran_ns = 0;
};
struct WatchWindow {
  std::uint64_t t0 = 0, t1 = 0, tasks_since = 0;
  /// The window read /proc/interrupts and /proc/stat (every `irq_every`
  /// samples): its irq entries and cpu jiffies cover [irq_since, t1]. A window
  /// that did not has none; an output without irq_every read them every window.
  bool irq_read = true;
  std::uint64_t irq_since = 0;
  std::vector<CpuTick> cpu;  ///< parallel to WatchOutput::cpus
  std::vector<NamedCount> irq, softirq;
  std::vector<TaskRun> tasks;
  std::uint64_t items_dropped = 0;
};
/// The watch probe's document for one host.
struct WatchOutput {
  std::string host;
  std::vector<int> cpus;
  int user_hz = 100;
  bool irq_every = false;  ///< interrupts read every few windows (irq_since marks those that did)
  std::string softirq_source, smi_source, task_source;  ///< or "not available: why"
  std::vector<WatchWindow> windows;                     ///< oldest first
  std::uint64_t windows_not_kept = 0;
  /// Where the watch itself ran ("away from the watched CPUs", "on the watched
  /// CPUs: ..."); empty from a watch that does not say (before --away).
  std::string placement;
  /// Index of `cpu` in `cpus`, or -1.
  int index_of(int cpu) const;
};

/// Parses the watch's output from `host`. Throws std::invalid_argument
/// "watch output from <host>: <path>: <problem>".
WatchOutput parse_watch(std::string_view text, const std::string& host);

}  // namespace labgate::tail
