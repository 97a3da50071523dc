// libFuzzer target: the stream receiver's gap store (probes/stream/st_gaps.c)
// against a plain model. The input picks tcp or udp, the K worst kept and the
// warm-up, then is a stream of reads (time step, bytes or sequence step and
// phase); after it, the store must have counted exactly the measured gaps,
// kept the K largest, for udp counted every loss and reordering and kept the
// largest sequence gaps, and write JSON that parses with one item per kept one.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <vector>

#include "store_fuzz.h"

extern "C" {
#include "../../probes/stream/st_gaps.h"
}

using labgate::fuzz::check;

namespace {

std::vector<std::uint64_t> largest(std::vector<std::uint64_t> v, std::size_t k) {
  std::sort(v.rbegin(), v.rend());
  v.resize(std::min(v.size(), k));
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const bool udp = data[0] & 1;
  const unsigned worst = (data[0] >> 1) % 17;
  const std::uint64_t warmup = data[1] * 64u;
  st_gaps g;
  if (st_gaps_init(&g, udp, worst) != 0) return 0;
  st_gaps_session(&g, -1, warmup);
  std::vector<std::uint64_t> gaps, bursts;
  std::uint64_t now = 1000, last = 0, first = 0, next_seq = 0, seq = 0, lost = 0, reordered = 0;
  for (std::size_t i = 2; i + 3 < size; i += 4) {
    now += static_cast<std::uint64_t>(data[i]) << 8 | data[i + 1];
    if (!udp) {
      const std::uint64_t n = 1 + (static_cast<std::uint64_t>(data[i + 2]) << 8 | data[i + 3]);
      if (last == 0) first = now;
      if (last != 0 && last >= first + warmup) gaps.push_back(now - last);
      last = now;
      st_gaps_tcp(&g, now, n);
      continue;
    }
    // A step of -8..+23 in the sequence, the phase in the top bit.
    const int step = static_cast<int>(data[i + 2] & 31) - 8;
    const bool measured = data[i + 3] & 128;
    seq = step < 0 && seq < static_cast<std::uint64_t>(-step) ? 0 : seq + static_cast<std::uint64_t>(step);
    st_gaps_udp(&g, now, seq, measured);
    if (!measured) {
      last = 0;
      next_seq = seq + 1;
      continue;
    }
    std::uint64_t jump = 0;
    if (seq < next_seq) {
      if (last != 0) ++reordered;
    } else {
      jump = seq - next_seq;
      next_seq = seq + 1;
    }
    if (last != 0) {
      gaps.push_back(now - last);
      if (jump > 0) {
        bursts.push_back(jump);
        lost += jump;
      }
    }
    last = now;
  }
  check(g.hist->total == gaps.size(), "the measured gaps miscounted");
  std::vector<std::uint64_t> kept;
  for (std::size_t i = 0; i < g.outliers.worst_len; ++i) kept.push_back(g.outliers.worst[i].value_ns);
  check(largest(kept, worst) == largest(gaps, worst), "the worst kept are not the K largest gaps");
  if (udp) {
    check(g.lost == lost && g.loss_bursts == bursts.size(), "the losses miscounted");
    check(g.reordered == reordered, "the reordered datagrams miscounted");
    std::vector<std::uint64_t> kept_bursts;
    for (unsigned i = 0; i < g.loss_len; ++i) kept_bursts.push_back(g.loss[i].lost);
    check(largest(kept_bursts, ST_LOSS_KEPT) == largest(bursts, ST_LOSS_KEPT),
          "the sequence gaps kept are not the largest");
  }
  const nlohmann::json j = labgate::fuzz::printed_json([&g](FILE* f) {
    std::fputs("{\"x\":0", f);  // the members of the server's summary, in an object
    st_gaps_write_json(&g, f);
    std::fputc('}', f);
  });
  check(j.at("gap_outliers").at("items").size() == g.outliers.worst_len, "JSON items differ from the kept gaps");
  check(j.at("receive_gaps").at("count").get<std::uint64_t>() == gaps.size(), "JSON count");
  if (udp) check(j.at("receive_gaps").at("largest_seq_gaps").size() == g.loss_len, "JSON sequence gaps");
  st_gaps_free(&g);
  return 0;
}
