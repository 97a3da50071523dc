// Benchmarks of the latency histogram: cost of one record (target: a few ns),
// percentile extraction and its error against exact percentiles, JSON, and the
// memory a 10 s run and a 1 h run cost. bench/histogram.py prints them as tables.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "labgate/stats/histogram.h"

namespace {

using labgate::stats::Histogram;

std::vector<std::uint64_t> latencies(std::size_t n) {
  std::mt19937_64 rng(1);
  std::lognormal_distribution<double> d(11.3, 0.3);  // around 80 us
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = static_cast<std::uint64_t>(d(rng));
  return v;
}

void BM_Record(benchmark::State& state) {
  const auto v = latencies(1 << 16);
  Histogram h;
  std::size_t i = 0;
  for (auto _ : state) {
    h.record(v[i++ & 0xffff]);
  }
  benchmark::DoNotOptimize(h.count());
  state.counters["ns_per_record"] = benchmark::Counter(
      static_cast<double>(state.iterations()), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Record);

void BM_Percentile(benchmark::State& state) {
  Histogram h;
  for (auto x : latencies(1'000'000)) h.record(x);
  for (auto _ : state) benchmark::DoNotOptimize(h.percentile(99.99));
}
BENCHMARK(BM_Percentile);

void BM_ToJson(benchmark::State& state) {
  Histogram h;
  for (auto x : latencies(1'000'000)) h.record(x);
  for (auto _ : state) benchmark::DoNotOptimize(h.to_json().dump());
}
BENCHMARK(BM_ToJson);

// Resident memory of this process in KiB (VmRSS), 0 where /proc is missing.
long rss_kib() {
  std::ifstream f("/proc/self/status");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

// A run at 100k round trips/s (a 10 us RTT): arg 0 is 10 s, arg 1 is 1 h. The
// histogram is fixed-size, so neither its bytes nor the RSS growth while
// recording should depend on the run length (bench/histogram.py also runs each
// in a fresh process and reads that process's peak RSS).
void BM_MemoryPerRun(benchmark::State& state) {
  constexpr std::int64_t kPerSecond = 100'000;
  const std::int64_t samples = kPerSecond * (state.range(0) == 0 ? 10 : 3600);
  const auto v = latencies(1 << 16);
  long grown = 0;
  for (auto _ : state) {
    Histogram h;  // its memset makes every page resident up front
    const long before = rss_kib();
    for (std::int64_t i = 0; i < samples; ++i) h.record(v[i & 0xffff]);
    grown = rss_kib() - before;
    benchmark::DoNotOptimize(h.count());
  }
  state.SetLabel(state.range(0) == 0 ? "10s_at_100k_per_s" : "1h_at_100k_per_s");
  state.counters["samples"] = static_cast<double>(samples);
  state.counters["bytes"] = static_cast<double>(sizeof(lg_hist));
  state.counters["rss_growth_kib"] = static_cast<double>(grown);
}
BENCHMARK(BM_MemoryPerRun)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);

// Samples from three shapes a latency run produces: 0 lognormal around 80 us,
// 1 uniform over 1 us..10 ms, 2 mostly 20 us with a 1% tail at 2..12 ms.
std::vector<std::uint64_t> shaped(int shape, std::size_t n) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> logn(11.3, 0.3);
  std::uniform_int_distribution<std::uint64_t> wide(1'000, 10'000'000), body(19'000, 21'000),
      tail(2'000'000, 12'000'000);
  std::uniform_int_distribution<int> pct(0, 99);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) {
    if (shape == 0) x = static_cast<std::uint64_t>(logn(rng));
    if (shape == 1) x = wide(rng);
    if (shape == 2) x = pct(rng) == 0 ? tail(rng) : body(rng);
  }
  return v;
}

// Relative error (%) of the histogram's percentiles against the exact nearest-rank
// percentiles of the same 1 M samples; the bound is 1/1024 (3 significant digits).
void BM_PercentileError(benchmark::State& state) {
  const int shape = static_cast<int>(state.range(0));
  auto v = shaped(shape, 1'000'000);
  Histogram h;
  for (auto x : v) h.record(x);
  std::sort(v.begin(), v.end());
  const std::pair<double, const char*> pcts[] = {{50, "p50"},     {90, "p90"},       {99, "p99"},
                                                 {99.9, "p99_9"}, {99.99, "p99_99"}, {100, "max"}};
  for (auto _ : state)
    for (const auto& [p, name] : pcts) benchmark::DoNotOptimize(h.percentile(p));
  double worst = 0;
  for (const auto& [p, name] : pcts) {
    const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size()) - 1e-9));
    const double exact = static_cast<double>(v[std::max<std::size_t>(rank, 1) - 1]);
    const double err = (static_cast<double>(h.percentile(p)) - exact) / exact * 100.0;
    state.counters[std::string("err_pct_") + name] = err;
    worst = std::max(worst, std::abs(err));
  }
  state.counters["err_pct_worst"] = worst;
  state.SetLabel(shape == 0 ? "lognormal_80us" : shape == 1 ? "uniform_1us_10ms" : "20us_with_1pct_ms_tail");
}
BENCHMARK(BM_PercentileError)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

}  // namespace
