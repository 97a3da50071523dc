// C++ face of the latency histogram: owns the fixed-size core, reads and writes
// the compact JSON form shared with the probes.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "labgate/stats/hist_core.h"

namespace labgate::stats {

/// A nanosecond latency histogram: 1 ns to ~2.4 h at 3 significant digits,
/// constant-time recording, fixed memory, exact count/min/max/mean.
class Histogram {
 public:
  Histogram();
  Histogram(const Histogram& other);
  Histogram& operator=(const Histogram& other);
  Histogram(Histogram&&) noexcept = default;
  Histogram& operator=(Histogram&&) noexcept = default;
  ~Histogram() = default;

  /// Records one value in nanoseconds (constant time, no allocation).
  void record(std::uint64_t ns) { lg_hist_record(core_.get(), ns); }
  /// Records `count` copies of one value (used when importing tools' bucket output).
  void record_n(std::uint64_t ns, std::uint64_t count);
  void merge(const Histogram& other) { lg_hist_merge(core_.get(), other.core_.get()); }
  void reset() { lg_hist_reset(core_.get()); }

  std::uint64_t count() const { return core_->total; }
  std::uint64_t overflow() const { return core_->overflow; }
  std::uint64_t min() const { return core_->total ? core_->min : 0; }
  std::uint64_t max() const { return core_->max; }
  std::uint64_t sum() const { return core_->sum; }
  double mean() const { return lg_hist_mean(core_.get()); }
  double stddev() const { return lg_hist_stddev(core_.get()); }
  /// Nearest-rank percentile, p in (0, 100]; p=100 is the exact max.
  std::uint64_t percentile(double p) const { return lg_hist_percentile(core_.get(), p); }

  /// Calls fn(lowest_ns, highest_ns, count) for every non-empty counter, in order.
  template <typename Fn>
  void for_each_bucket(Fn&& fn) const {
    for (std::uint32_t i = 0; i < LG_HIST_COUNTS_LEN; ++i)
      if (core_->counts[i]) fn(lg_hist_lowest_at(i), lg_hist_highest_at(i), core_->counts[i]);
  }

  nlohmann::json to_json() const;
  /// Reads the compact form; throws std::invalid_argument naming the bad
  /// member's path ("histogram JSON: per_cpu[0].histogram.total: ..."), whatever
  /// is wrong with it (missing, wrong type, inconsistent).
  static Histogram from_json(const nlohmann::json& j, const std::string& path = "histogram");

  const lg_hist& core() const { return *core_; }
  lg_hist& core() { return *core_; }

  friend bool operator==(const Histogram& a, const Histogram& b);

 private:
  std::unique_ptr<lg_hist> core_;
};

}  // namespace labgate::stats
