// What one latency/throughput/jitter test measured, whatever produced it (a
// built-in probe or netperf/sockperf/iperf3): the single currency budgets judge
// and reporters print. Every latency in here is a ROUND-TRIP time for rr kinds,
// a per-send time for stream kinds, and a clock gap for jitter; `metric` says which.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/stats/histogram.h"

namespace labgate::measure {

/// What the histogram's values mean; printed next to every number.
/// kIoTime: one disk request, issued to completed; kWallTime: one command run,
/// fork to exit as seen on its host.
enum class Metric { kRoundTrip, kSendTime, kClockGap, kIoTime, kWallTime };
/// "round_trip", "send_time", "clock_gap", "io_time", "wall_time" (the probes' spelling).
const char* to_string(Metric m);
std::optional<Metric> parse_metric(std::string_view s);

/// One interval of the series (1 s by default), so a spike is placed in time.
struct Interval {
  double start_s = 0;  ///< seconds since the end of warm-up
  double length_s = 0;
  std::uint64_t count = 0;
  std::uint64_t p50_ns = 0, p99_ns = 0, max_ns = 0;
};

/// A gap over the jitter threshold, or any single event worth placing in time.
struct Event {
  double at_s = 0;
  std::uint64_t value_ns = 0;
  int cpu = -1;
};

/// Sample accounting: the samples a run must have produced, set by whoever read
/// its raw output (probe reader, tool parser), so that lost replies and stalls are
/// found by the judge (measure::judge_figures) instead of passing quietly. For a
/// closed-loop request/response test, one transaction is in flight at a time, so
/// the measured time divided by the mean round trip is the number of round trips
/// the run had time for.
/// What an external tool spent in its own process outside its run window
/// (warm-up + measured time + cool-down), timed by labgate from the tool's output
/// lines as they arrived: neither measuring nor labgate's own cost.
struct ToolTime {
  double startup_s = 0;  ///< its first output line to the start of its run
  double wrapup_s = 0;   ///< the end of its run to its last output line
  std::string basis;     ///< which lines bound each part, and what the tool does then
};

struct SampleExpectation {
  double expected = 0;  ///< samples the run should hold
  double held = 0;      ///< samples it holds (histogram count, transactions, observations)
  /// How `expected` was derived, with its figures: "3.00 s at a 23.1 us mean".
  std::string basis;
  /// What a shortfall means for this tool: "replies were lost".
  std::string shortfall_means;
};

struct Measurement {
  std::string source;  ///< "builtin", "netperf", "sockperf", "iperf3"
  std::string kind;    ///< "tcp_rr", "udp_rr", "tcp_stream", "udp_stream", "jitter"
  Metric metric = Metric::kRoundTrip;
  std::string host;  ///< where it was measured (client / jitter host)
  std::string peer;  ///< the far host, empty for jitter
  int cpu = -1;      ///< jitter: the CPU this measurement is for; -1 otherwise

  stats::Histogram histogram;  ///< may be empty when a tool printed only summary stats
  /// Summary statistics as printed by a tool that gives no full histogram, keyed
  /// by the budget names ("p50", "p99", "mean", "stddev", "max", "min"; ns) plus
  /// tool extras ("transaction_rate", "late", ...). When a tool reported latency
  /// figures here, budgets use these alone (its histogram is for plots); otherwise
  /// the histogram when it has samples.
  std::map<std::string, double> reported;

  std::vector<Interval> series;
  /// Where the series' interval 0 starts on the probe's clock (CLOCK_MONOTONIC of
  /// its host): places that host's outliers (their at_ns) on the series' axis.
  std::optional<std::uint64_t> series_origin_ns;
  std::vector<Event> events;

  double duration_s = 0;  ///< measured time, warm-up excluded
  double warmup_s = 0;    ///< how long was excluded before measuring
  double cooldown_s = 0;  ///< how long was excluded after measuring (a tool's own cool-down)
  /// An external tool's start-up and wrap-up; nullopt for the built-in probes and
  /// for tools that print nothing until they end (iperf3 -J, netperf).
  std::optional<ToolTime> tool_time;
  std::uint64_t sent = 0, received = 0;
  std::uint64_t dropped = 0, duplicated = 0, out_of_order = 0;
  /// True when whoever measured counts drops (the built-in UDP probe, sockperf,
  /// iperf3, ping, a UDP_STREAM's receive calls). netperf's RR tests cannot: their
  /// `dropped` is then "not measured", never 0.
  bool counts_drops = false;
  /// Set by the reader of the raw output; nullopt when nothing can be expected.
  std::optional<SampleExpectation> expectation;
  std::optional<double> throughput_bps;  ///< bits per second of payload
  std::optional<double> loss_fraction;   ///< 0..1

  /// The exact parameters and environment: message size, cpu placement (asked and
  /// actual), clock source, timer cost, tool version and command line.
  std::map<std::string, std::string> parameters;
  std::vector<std::string> warnings;

  /// The statistic by budget name ("p99", "min_throughput", "max_loss") or figure
  /// name ("throughput", "loss"), as the one judge (measure::judge_figures) decides
  /// it; nullopt when this measurement cannot say (a missing statistic fails a
  /// budget, never passes it).
  std::optional<double> stat(const std::string& name) const;

  /// The interval whose max is the run's worst, to place a spike in time.
  std::optional<Interval> interval_of_max() const;
};

/// The serialised form, {"format":"labgate-measurement-1", ...}; round-trips exactly.
nlohmann::json to_json(const Measurement& m);
/// Throws std::invalid_argument naming the bad field.
Measurement measurement_from_json(const nlohmann::json& j);

}  // namespace labgate::measure
