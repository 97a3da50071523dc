// C++ face of the latency histogram: copying, bulk recording and JSON.
#include "labgate/stats/histogram.h"

#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>

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

namespace {
std::uint64_t field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  // nlohmann stores small literals as signed; any non-negative integer will do.
  if (it == j.end() || !it->is_number_integer() ||
      (it->is_number_integer() && !it->is_number_unsigned() && it->get<std::int64_t>() < 0))
    throw std::invalid_argument(std::string("histogram JSON: '") + key +
                                "' missing or not an unsigned integer");
  return it->get<std::uint64_t>();
}
}  // namespace

Histogram Histogram::from_json(const nlohmann::json& j) {
  if (!j.is_object() || j.value("format", "") != "labgate-hist-1")
    throw std::invalid_argument("histogram JSON: 'format' is not \"labgate-hist-1\"");
  if (j.value("unit", "") != "ns") throw std::invalid_argument("histogram JSON: 'unit' is not \"ns\"");
  if (field(j, "sub_bucket_bits") != LG_HIST_SUB_BUCKET_BITS)
    throw std::invalid_argument("histogram JSON: 'sub_bucket_bits' differs from this build's " +
                                std::to_string(LG_HIST_SUB_BUCKET_BITS));
  Histogram h;
  lg_hist& c = *h.core_;
  c.total = field(j, "total");
  c.max = field(j, "max");
  c.sum = field(j, "sum");
  c.overflow = field(j, "overflow");
  c.min = c.total ? field(j, "min") : UINT64_MAX;
  const auto it = j.find("counts");
  if (it == j.end() || !it->is_array() || it->size() % 2 != 0)
    throw std::invalid_argument("histogram JSON: 'counts' must be an array of index,count pairs");
  std::uint64_t seen = 0;
  for (std::size_t k = 0; k < it->size(); k += 2) {
    const auto& idx = (*it)[k];
    const auto& cnt = (*it)[k + 1];
    if (!idx.is_number_integer() || !cnt.is_number_integer() || idx.get<std::int64_t>() < 0 ||
        cnt.get<std::int64_t>() < 0 || idx.get<std::uint64_t>() >= LG_HIST_COUNTS_LEN)
      throw std::invalid_argument("histogram JSON: bad counts entry at position " + std::to_string(k));
    c.counts[idx.get<std::uint64_t>()] += cnt.get<std::uint64_t>();
    seen += cnt.get<std::uint64_t>();
  }
  if (seen + c.overflow != c.total)
    throw std::invalid_argument("histogram JSON: counts add up to " + std::to_string(seen + c.overflow) +
                                " but 'total' says " + std::to_string(c.total));
  return h;
}

bool operator==(const Histogram& a, const Histogram& b) {
  return std::memcmp(a.core_.get(), b.core_.get(), sizeof(lg_hist)) == 0;
}

}  // namespace labgate::stats
