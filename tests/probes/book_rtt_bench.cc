// What the outlier capture adds to the pingpong client's per-round-trip
// bookkeeping (issue 25 holds the probe to <= 1.02x a raw loop's p50): the
// booking of one round trip as it was before (histogram + series) and as it is
// now (pp_book_rtt: + the outlier store's compares and the window countdown,
// with the real capture for the few outliers; with_one_way: + the one-way
// store of 64-byte requests, issue 24). Prints ns per round trip.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

extern "C" {
#include "pp.h"
}

namespace {

std::vector<std::uint64_t> round_trips(std::size_t n) {
  std::mt19937_64 rng(1);
  std::lognormal_distribution<double> d(10.6, 0.25);  // around 40 us, a tail past 100 us
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = static_cast<std::uint64_t>(d(rng));
  return v;
}

struct Client {
  pp_config cfg{};
  pp_client c{};
  unsigned char reply[64]{};
  explicit Client(bool one_way) {
    if (one_way) {  // a reply stamped by the server: one-way booking on every round trip
      cfg.size = sizeof(reply);
      c.rx = reply;
      const std::uint64_t server_stamp = 1796000000000000000ull;
      std::memcpy(reply + 8, &server_stamp, 8);
      pp_ow_init(&c.ow);
      c.one_way = 1;
    }
    cfg.outlier_ns = 400000;  // as a p99 budget of 400 us would set it
    cfg.worst = LG_OUTLIERS_WORST_DEFAULT;
    c.cfg = &cfg;
    c.fd = -1;
    c.hist = static_cast<lg_hist*>(std::malloc(sizeof(lg_hist)));
    lg_hist_reset(c.hist);
    lg_series_init(&c.series, 1000000000ull, 600000000000ull);
    lg_series_start(&c.series, 0);
    c.series_end = UINT64_MAX;
    lg_outliers_init(&c.outliers, cfg.worst, LG_OUTLIERS_OVER_DEFAULT, cfg.outlier_ns);
    lg_moment_init(&c.moment, 1);
  }
};

/* pp_book_rtt before the outlier capture, verbatim. */
inline void book_before(pp_client* c, uint64_t seq, uint64_t rtt_ns, uint64_t t1) {
  pp_counters* k = pp_phase(c, seq);
  k->received++;
  c->last_reply_ns = t1;
  if (k == &c->meas) {
    lg_hist_record(c->hist, rtt_ns);
    lg_series_record(&c->series, t1 < c->series_end ? t1 : c->series_end - 1, rtt_ns);
  }
}

template <bool kNow, bool kOneWay = false>
void BM_BookRoundTrip(benchmark::State& state) {
  static Client* client = new Client(kOneWay);
  pp_client* c = &client->c;
  const std::vector<std::uint64_t> v = round_trips(1 << 16);
  std::uint64_t seq = 0, t = 0;
  for (auto _ : state) {
    const std::uint64_t rtt = v[seq & 0xffff];
    t += 50000;  // 50 us apart: a 1 s interval closes every 20000 round trips
    if (kNow)
      pp_book_rtt(c, seq, rtt, t);
    else
      book_before(c, seq, rtt, t);
    ++seq;
  }
  state.counters["ns_per_round_trip"] = benchmark::Counter(
      static_cast<double>(state.iterations()), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK_TEMPLATE(BM_BookRoundTrip, false)->Name("book_round_trip/before");
BENCHMARK_TEMPLATE(BM_BookRoundTrip, true)->Name("book_round_trip/with_outliers");
BENCHMARK_TEMPLATE(BM_BookRoundTrip, true, true)->Name("book_round_trip/with_one_way");

}  // namespace
