// Test input for the reporters: a realistic run built through the results API
// from random data (log-normal round trips with rare spikes, clock gaps, a
// failing sysctl), so reporter tests exercise real histograms and series
// instead of hand-written numbers. Header-only: shared by the report unit tests
// and the browser test in tests/report, never linked into labgate.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "labgate/measure/figures.h"
#include "labgate/report/format.h"
#include "labgate/results/run_result.h"
#include "labgate/stats/histogram.h"

namespace labgate::report::testing {

/// How one synthetic latency test behaves.
struct LatencyShape {
  double median_ns = 60'000;
  double sigma = 0.12;           ///< log-normal spread
  double tail_fraction = 0.002;  ///< share of samples in a slow tail
  double tail_ns = 40'000;
  int seconds = 60;
  int per_second = 2'000;
  int spike_at_s = -1;  ///< one interval with a single very slow sample
  double spike_ns = 0;
};

struct Recorded {
  stats::Histogram total;
  std::vector<measure::Interval> series;
};

/// Records random samples interval by interval, as a probe would.
inline Recorded record(const LatencyShape& s, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> body(std::log(s.median_ns), s.sigma);
  std::exponential_distribution<double> tail(1.0 / s.tail_ns);
  std::uniform_real_distribution<double> u(0, 1);
  Recorded r;
  for (int sec = 0; sec < s.seconds; ++sec) {
    stats::Histogram h;
    for (int i = 0; i < s.per_second; ++i) {
      double v = body(rng);
      if (u(rng) < s.tail_fraction) v += tail(rng);
      h.record(static_cast<std::uint64_t>(std::max(1.0, v)));
    }
    if (sec == s.spike_at_s) h.record(static_cast<std::uint64_t>(s.spike_ns));
    r.series.push_back({static_cast<double>(sec), 1.0, h.count(), h.percentile(50), h.percentile(99), h.max()});
    r.total.merge(h);
  }
  return r;
}

/// Judges budgets the way the budget evaluator does (ceilings on latency stats).
inline std::vector<results::BudgetLine> judge(const stats::Histogram& h,
                                              const std::vector<std::pair<std::string, double>>& limits) {
  std::vector<results::BudgetLine> out;
  for (const auto& [stat, limit] : limits) {
    double observed = 0;
    if (stat == "max")
      observed = static_cast<double>(h.max());
    else if (stat == "mean")
      observed = h.mean();
    else {
      std::string digits = stat.substr(1);
      std::replace(digits.begin(), digits.end(), '_', '.');
      observed = static_cast<double>(h.percentile(std::stod(digits)));
    }
    const double margin = (limit - observed) / limit;
    out.push_back(
        {stat, observed, limit, "ns", margin, observed <= limit,
         observed <= limit ? "" : "over budget by " + std::to_string(static_cast<int>(-margin * 100)) + "%"});
  }
  return out;
}

inline results::TestRecord latency_test(const std::string& name, const std::string& kind,
                                        const std::string& pair, const LatencyShape& shape, unsigned seed,
                                        const std::vector<std::pair<std::string, double>>& limits) {
  const Recorded r = record(shape, seed);
  results::TestRecord t;
  t.name = name;
  t.kind = kind;
  // What the kind's registration gives the gate's records (kinds/<kind>.cc).
  t.suite = kind == "jitter" ? "Jitter" : kind.find("stream") != std::string::npos ? "Throughput" : "Latency";
  t.pair = pair;
  t.tool = "builtin";
  t.metric = kind == "jitter"                           ? "clock gap"
             : kind.find("stream") != std::string::npos ? "per-send time"
                                                        : "round-trip time";
  t.budget = judge(r.total, limits);
  const bool pass = std::all_of(t.budget.begin(), t.budget.end(), [](const auto& b) { return b.pass; });
  t.verdict = pass ? results::TestVerdict::kPass : results::TestVerdict::kFail;
  for (const auto& b : t.budget)
    if (!b.pass)
      t.failure += (t.failure.empty() ? "" : "\n") + b.stat + " " + format_ns(*b.observed, Units::kAscii) +
                   " exceeds the budget of " + format_ns(b.limit, Units::kAscii);
  measure::Measurement m;
  m.source = "builtin";
  m.kind = kind;
  m.metric = kind == "jitter" ? measure::Metric::kClockGap
             : kind.find("stream") != std::string::npos ? measure::Metric::kSendTime
                                                        : measure::Metric::kRoundTrip;
  m.histogram = r.total;
  m.series = r.series;
  m.duration_s = shape.seconds;
  m.warmup_s = 2.0;
  m.counts_drops = kind == "udp_rr";
  m.sent = m.received = kind == "udp_rr" ? r.total.count() : 0;
  m.parameters = {{"message_size", "64"},     {"cpu_asked", "2"},
                  {"cpu_actual", "2"},        {"cpu_actual_end", "2"},
                  {"cpu_actual_source", "getcpu"}, {"server_cpu_asked", "2"},
                  {"clock_source", "tsc"}};
  if (kind == "tcp_stream") m.throughput_bps = 941.2e6;
  if (kind == "jitter") {
    m.cpu = 2;
    m.parameters = {{"cpus", "[2]"}, {"threshold_ns", "10000"}, {"clock_source", "tsc"}};
    m.events = {{17.42, 14'000, 2}, {33.1, 11'250, 2}};
  }
  const measure::JudgedFigures judged = measure::judge_figures(m);
  t.figures = judged.figures;
  t.accounting = judged.accounting;
  t.measurement = measure::to_json(m);
  t.conformance = results::Conformance::kNo;  // tcp_sack failed on b
  t.started = results::parse_time("2024-05-01T12:00:05.000Z");
  t.duration_s = shape.seconds + 3.5;
  t.raw_files = {"tests/" + name + "/probe.json"};
  return t;
}

/// A two-host lab run: preconditions with one failure on b, four measurement
/// tests (one over budget) and one test that could not run.
inline results::RunResult synthetic_run(unsigned seed = 42) {
  results::RunResult run;
  run.run_id = "20240501-120000-nightly";
  run.profile_path = "profiles/lab.toml";
  run.lab_name = "lab";
  run.suffix = "nightly";
  run.hosts = {{"a", "198.18.0.2", "198.19.0.2", {}}, {"b", "198.18.0.6", "198.19.0.3", {}}};
  run.start_time = results::parse_time("2024-05-01T12:00:00.000Z");
  run.end_time = results::parse_time("2024-05-01T12:06:41.500Z");
  run.labgate_version = "0.1.0";
  run.exit_code = 1;
  using results::CheckVerdict;
  for (const std::string host : {"a", "b"}) {
    const bool b = host == "b";
    run.checks.push_back(
        {host, "sysctl/net.ipv4.tcp_sack", "0", b ? "1" : "0", "/proc/sys/net/ipv4/tcp_sack",
         b ? CheckVerdict::kFail : CheckVerdict::kPass,
         b ? "host b: /proc/sys/net/ipv4/tcp_sack is 1, profile wants 0" : "",
         b ? "sysctl -w net.ipv4.tcp_sack=0\necho 'net.ipv4.tcp_sack = 0' >> /etc/sysctl.conf" : ""});
    run.checks.push_back({host, "sysctl/net.ipv4.tcp_timestamps", "0", "0",
                          "/proc/sys/net/ipv4/tcp_timestamps", CheckVerdict::kPass, "", ""});
    run.checks.push_back({host, "sysctl/net.ipv4.tcp_rmem", "4096 87380 16777216", "4096 87380 16777216",
                          "/proc/sys/net/ipv4/tcp_rmem", CheckVerdict::kPass, "", ""});
    run.checks.push_back({host, "service/avahi-daemon", "disabled, stopped", "disabled, stopped",
                          "/etc/rc.d/rc3.d", CheckVerdict::kPass, "", ""});
    run.checks.push_back({host, "cpu/max_cstate", "0", "0", "/sys/module/intel_idle/parameters/max_cstate",
                          CheckVerdict::kPass, "", ""});
    run.checks.push_back({host, "bios/Intel_Hyperthreading", "Disabled", "", "conrep -s",
                          CheckVerdict::kNotCheckable, "conrep is not installed on host " + host, ""});
  }
  run.checks.push_back({"pair", "same/kernel_release", "same on all hosts",
                        "a: 6.1.0-18-amd64, b: 6.1.0-18-amd64", "/proc/sys/kernel/osrelease",
                        CheckVerdict::kPass, "", ""});

  LatencyShape tcp;
  tcp.spike_at_s = 41;
  tcp.spike_ns = 1'210'000;
  run.tests.push_back(latency_test("tcp_rr_64", "tcp_rr", "a->b", tcp, seed,
                                   {{"p50", 90'000}, {"p99", 140'000}, {"max", 1'300'000}}));
  LatencyShape udp;
  udp.median_ns = 72'000;
  udp.tail_fraction = 0.03;
  udp.tail_ns = 90'000;
  run.tests.push_back(latency_test("udp_rr_64", "udp_rr", "a->b", udp, seed + 1,
                                   {{"p50", 90'000}, {"p99", 130'000}, {"max", 1'300'000}}));
  LatencyShape send;
  send.median_ns = 1'400;
  send.sigma = 0.3;
  send.tail_ns = 20'000;
  run.tests.push_back(latency_test("tcp_stream_64", "tcp_stream", "a->b", send, seed + 2, {{"p99", 5'000}}));
  run.tests.back().budget.push_back(
      {"min_throughput", 941.2e6, 250e6, "bit/s", (941.2e6 - 250e6) / 250e6, true, ""});
  LatencyShape gaps;
  gaps.median_ns = 45;
  gaps.sigma = 0.25;
  gaps.tail_fraction = 0.0005;
  gaps.tail_ns = 2'500;
  gaps.per_second = 20'000;
  gaps.spike_at_s = 17;
  gaps.spike_ns = 14'000;
  run.tests.push_back(
      latency_test("timer_jitter", "jitter", "a/cpu2", gaps, seed + 3, {{"p99_99", 5'000}, {"max", 20'000}}));

  results::TestRecord broken;
  broken.name = "udp_stream_64";
  broken.kind = "udp_stream";
  broken.suite = "Throughput";
  broken.pair = "b->a";
  broken.tool = "iperf3";
  broken.metric = "per-send time";
  broken.verdict = results::TestVerdict::kError;
  broken.failure = "iperf3 client on host b exited with signal 11 after 3.2 s";
  broken.conformance = results::Conformance::kNo;  // tcp_sack failed on b
  run.tests.push_back(broken);
  run.warnings = {"host b: clocksource is tsc but the profile was written on hpet hosts"};
  return run;
}

}  // namespace labgate::report::testing
