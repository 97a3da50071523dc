// Why the tail: each outlier of a round-trip test joined with what the noise
// watch saw on both hosts around it, and a cause named only with the evidence
// that supports it. A pure function (no I/O): the gate gives it the parsed
// probe outputs (labgate/tail/tail_records.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "labgate/tail/tail_records.h"

namespace labgate::tail {

/// Host b's monotonic clock minus host a's: what places a moment of host a's
/// (a round trip) on host b's clock, where its watch's windows are.
struct ClockOffset {
  std::int64_t ns = 0;
  std::uint64_t bound_ns = 0;  ///< |true offset - ns| is at most this
  std::string source;          ///< how it was found, said in run.json
};

struct AttributionInput {
  const OutlierSet* client = nullptr;  ///< the client's round trips (host a's clock); required
  const OutlierSet* server = nullptr;  ///< the server's turnarounds (host b's clock), joined by seq
  const WatchOutput* watch_client = nullptr;
  const WatchOutput* watch_server = nullptr;
  std::string client_host = "a", server_host = "b";
  std::optional<int> server_cpu;  ///< where the server ran (else its records' CPU)
  /// From the one-way estimator (measure/one_way.h), which every stamped run
  /// has. Without it, the requests both probes kept give a coarser one; without
  /// either, host b's watch cannot be placed and is not consulted (a limit).
  std::optional<ClockOffset> clock_offset;
  std::uint64_t typical_ns = 0;   ///< the test's p50: what a round trip costs with no cause
  /// The measuring programs themselves: never a cause.
  std::vector<std::string> own_comms = {"pingpong", "watch"};
  /// Samples measured on one host (the jitter probe's clock gaps): no server,
  /// no wire, and nothing said of a second host.
  bool one_host = false;
  std::string samples = "requests";  ///< what seq numbers, in the switch counts' text
  std::string outliers_name = "outliers";  ///< what the top line counts ("14 of 16 outliers: ...")
  /// Who read the packet whose socket wait the records give, and what it was
  /// ("the reply waited 12 us in host a's socket: the client was not running").
  std::string reader = "client", packet = "reply";
};

/// One piece of evidence for an outlier. `key` groups like causes for the
/// ranking ("stress-ng (pid 4242) on CPU 1 of host a"); `text` is what is shown.
struct Evidence {
  std::string
      kind;  ///< preempted | irq | softirq | steal | smi | server_turnaround | server_not_running | client_not_running | wire
  std::string host;
  std::string key;
  std::string text;
  /// What a fix acts on (labgate/tail/tail_fixes.h): the CPU of a host cause,
  /// the interrupt of an irq ("57 eth2-rx-0"), the task of a preemption.
  std::optional<int> cpu{};
  std::string irq{};
  int pid = 0;
  std::string comm{};
};

struct OutlierCause {
  std::uint64_t seq = 0, value_ns = 0, at_ns = 0;
  std::vector<Evidence> evidence;  ///< empty: unexplained
  std::string
      split;  ///< what the round trip is known to consist of ("reply waited 12 us in host a's socket; ...")
};

struct RankedCause {
  std::string key;
  std::string kind;
  std::size_t count = 0;  ///< outliers with this cause among their evidence
};

struct Attribution {
  std::vector<OutlierCause> outliers;  ///< the client's kept outliers, worst first
  std::vector<RankedCause> ranked;     ///< most frequent first
  std::size_t unexplained = 0;
  std::vector<std::string> limits;  ///< what could not be seen, per host ("host a: SMI: not available: ...")
  /// One line for the console and JUnit: "14 of 16 outliers: stress-ng (pid 4242) on CPU 1 of host a",
  /// or "16 of 16 outliers unexplained (no evidence on either host)".
  std::string top;
  std::optional<ClockOffset> clock_offset;  ///< the one host b's watch was joined with
};

Attribution attribute(const AttributionInput& in);

/// What a host's watch could not show, as limits of that host ("host a: SMI:
/// not available: ..."); "host a: no noise watch output" without one.
void watch_limits(const WatchOutput* w, const std::string& host, std::vector<std::string>& limits);

/// "host a: noise watch: only its last 60.0 s were kept (7 earlier windows not
/// kept): <then>" when its ring dropped its oldest windows, else "".
std::string kept_limit(const WatchOutput& w, const std::string& then);

/// What `w` shows on `cpu` during [from_ns, to_ns] beyond that CPU's routine
/// (its counters' mean per window over the whole watch): another task that ran
/// at least a quarter of `excess_ns` (and 10 us), an interrupt or softirq burst,
/// softirq time, steal, SMIs. The rules attribute() applies to one outlier, for
/// any span of that host's clock (a tool's interval: tail/run_noise.h).
std::vector<Evidence> window_evidence(const WatchOutput& w, int cpu, std::uint64_t from_ns,
                                      std::uint64_t to_ns, std::uint64_t excess_ns, const std::string& host,
                                      const std::vector<std::string>& own_comms);

/// The attribution as run.json records it: {"top","outliers_total","unexplained",
/// "limits":[..],"ranked":[{"cause","kind","count"}],"outliers":[{"seq","value_ns",
/// "at_ns","split","cause","evidence":[{"kind","host","text"[,"cpu"][,"irq"][,"pid","comm"]}]}]}, where an
/// outlier's "cause" is its first evidence's text or "unexplained".
nlohmann::json to_json(const Attribution& a);

/// One piece of evidence as run.json records it: {"kind","host","text"[,"cpu"][,"irq"][,"pid","comm"]}.
nlohmann::json to_json(const Evidence& e);

/// "850 ns", "412 us", "2.1 ms".
std::string format_ns(std::uint64_t ns);

}  // namespace labgate::tail
