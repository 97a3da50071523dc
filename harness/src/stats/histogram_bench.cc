// Benchmarks of the latency histogram: cost of one record (target: a few ns),
// percentile extraction, JSON, and the memory a long run costs.
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>
#include <random>
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

void BM_MemoryPerRun(benchmark::State& state) {
  // A 10 s and a 1 h run at 100k round trips/s: same bytes, by construction.
  for (auto _ : state) {
    Histogram h;
    for (int64_t i = 0; i < state.range(0); ++i) h.record(80000 + (i & 1023));
    benchmark::DoNotOptimize(h.count());
  }
  state.counters["bytes"] = static_cast<double>(sizeof(lg_hist));
}
BENCHMARK(BM_MemoryPerRun)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

}  // namespace
