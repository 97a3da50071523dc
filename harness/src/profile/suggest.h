// "Did you mean ...?": the closest valid word to a typo, by edit distance.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace labgate::profile::detail {

/// Optimal-string-alignment distance: insertions, deletions, substitutions and
/// swaps of two neighbours each cost 1 ("sysctls"->"sysctl" 1, "tcp_rr"->"tpc_rr" 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word`, if it is close enough to be a plausible typo
/// (distance <= max(1, min(3, |word| / 3)) and below |word|, or equal ignoring case).
std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates);

/// "a, b, c" (for "defined hosts: a, b").
std::string join(const std::vector<std::string>& words, std::string_view sep = ", ");

}  // namespace labgate::profile::detail
