// A mesh's pairs in rounds in which no host is in two pairs at once (the circle
// method of round-robin tournaments), so each round's pairs can be measured at
// the same time: six hosts give 5 rounds of 3 pairs per direction.
#pragma once

#include <cstddef>
#include <vector>

namespace labgate::mesh {

/// One measurement: hosts by their index in the mesh's host list.
struct Pair {
  std::size_t client = 0;
  std::size_t server = 0;
  bool operator==(const Pair&) const = default;
};

/// Pairs that share no host, sorted by client.
using Round = std::vector<Pair>;

/// The rounds over hosts 0..n-1: n-1 rounds for even n, n for odd n (one host
/// rests in each), the fewest any schedule can have. In each pair the host
/// listed first is the client; with `both_directions` the same rounds follow
/// with client and server swapped, so every ordered pair is measured once.
/// Deterministic: the same n always gives the same rounds. Empty for n < 2.
std::vector<Round> round_robin(std::size_t n, bool both_directions);

}  // namespace labgate::mesh
