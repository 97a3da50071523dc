// C++ face of the latency histogram: copying, bulk recording and JSON.
#include "labgate/stats/histogram.h"

#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "labgate/util/json_reader.h"

namespace labgate::stats {

Histogram::Histogram() : core_(std::make_unique<lg_hist>()) { lg_hist_reset(core_.get()); }

Histogram::Histogram(const Histogram& other) : core_(std::make_unique<lg_hist>(*other.core_)) {}

Histogram& Histogram::operator=(const Histogram& other) {
  if (this != &other) {
    if (!core_) core_ = std::make_unique<lg_hist>();
    *core_ = *other.core_;
  }
  return *this;
}

void Histogram::record_n(std::uint64_t ns, std::uint64_t count) {
  if (count == 0) return;
  lg_hist& h = *core_;
  h.total += count;
  h.sum += ns * count;
  if (ns < h.min) h.min = ns;
  if (ns > h.max) h.max = ns;
  if (ns > LG_HIST_HIGHEST_TRACKABLE)
    h.overflow += count;
  else
    h.counts[lg_hist_index(ns)] += count;
}

nlohmann::json Histogram::to_json() const {
  nlohmann::json counts = nlohmann::json::array();
  for (std::uint32_t i = 0; i < LG_HIST_COUNTS_LEN; ++i) {
    if (core_->counts[i]) {
      counts.push_back(i);
      counts.push_back(core_->counts[i]);
    }
  }
  return {{"format", "labgate-hist-1"},
          {"unit", "ns"},
          {"sub_bucket_bits", LG_HIST_SUB_BUCKET_BITS},
          {"total", core_->total},
          {"min", min()},
          {"max", core_->max},
          {"sum", core_->sum},
          {"overflow", core_->overflow},
          {"counts", std::move(counts)}};
}

Histogram Histogram::from_json(const nlohmann::json& j, const std::string& path) {
  try {
    // Every member through the one path-naming reader: a member of the wrong type
    // is this function's clear error, never a json type_error (found by fuzzing).
    const util::JsonReader r(j, path);
    if (r.str("format") != "labgate-hist-1") r.fail("format", "is not \"labgate-hist-1\"");
    if (r.str("unit") != "ns") r.fail("unit", "is not \"ns\"");
    if (r.count("sub_bucket_bits") != LG_HIST_SUB_BUCKET_BITS)
      r.fail("sub_bucket_bits", "differs from this build's " + std::to_string(LG_HIST_SUB_BUCKET_BITS));
    Histogram h;
    lg_hist& c = *h.core_;
    c.total = r.count("total");
    c.max = r.count("max");
    c.sum = r.count("sum");
    c.overflow = r.count("overflow");
    c.min = c.total ? r.count("min") : UINT64_MAX;
    if (c.total && c.min > c.max) r.fail("min", "is above 'max'");
    const nlohmann::json& counts = r.array("counts");
    if (counts.size() % 2 != 0) r.fail("counts", "must be an array of index,count pairs");
    std::uint64_t seen = 0;
    for (std::size_t k = 0; k < counts.size(); k += 2) {
      const auto& idx = counts[k];
      const auto& cnt = counts[k + 1];
      const auto natural = [](const nlohmann::json& v) {
        return v.is_number_integer() && (v.is_number_unsigned() || v.get<std::int64_t>() >= 0);
      };
      if (!natural(idx) || !natural(cnt) || idx.get<std::uint64_t>() >= LG_HIST_COUNTS_LEN)
        r.fail("counts", "bad index,count pair at position " + std::to_string(k));
      const std::uint64_t n = cnt.get<std::uint64_t>();
      if (seen + n < seen) r.fail("counts", "add up to more than a 64-bit count holds");
      c.counts[idx.get<std::uint64_t>()] += n;
      seen += n;
    }
    if (seen + c.overflow < seen || seen + c.overflow != c.total)
      r.fail("counts", "add up to " + std::to_string(seen + c.overflow) + " but 'total' says " +
                           std::to_string(c.total));
    return h;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("histogram JSON: ") + e.what());
  }
}

bool operator==(const Histogram& a, const Histogram& b) {
  return std::memcmp(a.core_.get(), b.core_.get(), sizeof(lg_hist)) == 0;
}

}  // namespace labgate::stats
