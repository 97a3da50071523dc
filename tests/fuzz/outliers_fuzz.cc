// libFuzzer target: the probes' outlier store (probes/common/lg_outliers.c)
// against a plain model. The input sets the capacities and the threshold, then
// is a stream of 16-bit sample values; after it, the store must hold exactly the
// K largest values, the first samples over the threshold up to the cap, count
// every one over it, and write JSON that parses with one item per kept sample.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "store_fuzz.h"

extern "C" {
#include "lg_outliers.h"
}

using labgate::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const std::size_t worst_cap = data[0] % 17, over_cap = data[1] % 17;
  const std::uint64_t threshold = data[2] * 256u;
  lg_outliers o;
  if (lg_outliers_init(&o, worst_cap, over_cap, threshold) != 0) return 0;
  std::vector<std::uint64_t> all, over;
  std::uint64_t over_seen = 0;
  for (std::size_t i = 3; i + 1 < size; i += 2) {
    lg_outlier r{};
    r.value_ns = static_cast<std::uint64_t>(data[i]) << 8 | data[i + 1];
    r.seq = all.size();
    r.at_ns = 1000 + all.size();
    r.sock_wait_ns = (i & 4) ? -1 : static_cast<std::int64_t>(r.value_ns / 2);
    r.cpu_before = r.cpu_after = -1;
    r.vcsw = r.ivcsw = -1;
    const bool wanted = lg_outliers_wants(&o, r.value_ns) != 0;
    std::vector<std::uint64_t> sorted = all;
    std::sort(sorted.rbegin(), sorted.rend());
    const bool model_wants = (threshold > 0 && r.value_ns > threshold) || all.size() < worst_cap ||
                             (worst_cap > 0 && r.value_ns > sorted[worst_cap - 1]);
    check(wanted == model_wants, "wants() disagrees with the model");
    if (wanted) lg_outliers_add(&o, &r);
    all.push_back(r.value_ns);
    if (threshold > 0 && r.value_ns > threshold) {
      ++over_seen;
      if (over.size() < over_cap) over.push_back(r.seq);
    }
  }
  std::vector<std::uint64_t> top = all;
  std::sort(top.rbegin(), top.rend());
  top.resize(std::min(top.size(), worst_cap));
  std::vector<std::uint64_t> kept;
  for (std::size_t i = 0; i < o.worst_len; ++i) kept.push_back(o.worst[i].value_ns);
  std::sort(kept.rbegin(), kept.rend());
  check(kept == top, "the worst kept are not the K largest samples");
  check(o.over_seen == over_seen, "over_seen miscounted");
  check(o.over_len == over.size(), "over list has the wrong length");
  for (std::size_t i = 0; i < o.over_len; ++i) check(o.over[i].seq == over[i], "over list out of order");
  check(lg_outliers_floor(&o) == (top.size() == worst_cap && worst_cap > 0 ? top.back() : 0), "floor");

  std::vector<lg_outlier> out(worst_cap + over_cap + 1);
  std::vector<unsigned char> flags(worst_cap + over_cap + 1);
  const std::size_t n = lg_outliers_collect(&o, out.data(), flags.data());
  std::set<std::uint64_t> seqs;
  for (std::size_t i = 0; i < o.worst_len; ++i) seqs.insert(o.worst[i].seq);
  for (std::size_t i = 0; i < o.over_len; ++i) seqs.insert(o.over[i].seq);
  check(n == seqs.size(), "collect does not give each kept sample once");
  for (std::size_t i = 1; i < n; ++i) check(out[i - 1].at_ns < out[i].at_ns, "collect not in time order");

  const nlohmann::json j = labgate::fuzz::printed_json([&o](FILE* f) { lg_outliers_write_json(&o, f); });
  check(j.at("items").size() == n, "JSON items differ from the kept samples");
  check(j.at("over_threshold").get<std::uint64_t>() == over_seen, "JSON over_threshold");
  lg_outliers_free(&o);
  return 0;
}
