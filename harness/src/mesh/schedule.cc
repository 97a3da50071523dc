// Round-robin rounds of disjoint pairs by the circle method.
#include "labgate/mesh/schedule.h"

#include <algorithm>

namespace labgate::mesh {

std::vector<Round> round_robin(std::size_t n, bool both_directions) {
  std::vector<Round> rounds;
  if (n < 2) return rounds;
  // An odd mesh gets a stand-in host; whoever meets it rests that round.
  const std::size_t slots = n % 2 == 0 ? n : n + 1;
  std::vector<std::size_t> circle(slots);
  for (std::size_t i = 0; i < slots; ++i) circle[i] = i;
  for (std::size_t r = 0; r + 1 < slots; ++r) {
    Round round;
    // Slot i meets the slot opposite it; slot 0 stays put while the rest turn.
    for (std::size_t i = 0; i < slots / 2; ++i) {
      const std::size_t x = circle[i], y = circle[slots - 1 - i];
      if (x >= n || y >= n) continue;
      round.push_back(Pair{std::min(x, y), std::max(x, y)});
    }
    std::sort(round.begin(), round.end(), [](const Pair& a, const Pair& b) { return a.client < b.client; });
    rounds.push_back(std::move(round));
    std::rotate(circle.begin() + 1, circle.end() - 1, circle.end());
  }
  if (both_directions) {
    const std::size_t one_way = rounds.size();
    for (std::size_t r = 0; r < one_way; ++r) {
      Round back;
      for (const Pair& p : rounds[r]) back.push_back(Pair{p.server, p.client});
      std::sort(back.begin(), back.end(), [](const Pair& a, const Pair& b) { return a.client < b.client; });
      rounds.push_back(std::move(back));
    }
  }
  return rounds;
}

}  // namespace labgate::mesh
