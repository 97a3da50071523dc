// A table filled by static registration (files that register an entry before
// main) and read after: the test kinds' profile traits and gate runners, one
// table per entry type, each entry keyed by its `kind`.
#pragma once

#include <utility>
#include <vector>

namespace labgate::util {

/// The entries of type Entry registered so far. Built on first use, so that a
/// registration before main, from any file, finds it constructed.
template <typename Entry>
std::vector<Entry>& registered() {
  static std::vector<Entry> all;
  return all;
}

/// The first registered entry whose kind is `k`; nullptr if none.
template <typename Entry, typename Kind>
const Entry* registered_of(Kind k) {
  for (const Entry& e : registered<Entry>())
    if (e.kind == k) return &e;
  return nullptr;
}

/// How many entries of kind `k` were registered (one is right; the kinds test says so).
template <typename Entry, typename Kind>
int registrations_of(Kind k) {
  int n = 0;
  for (const Entry& e : registered<Entry>()) n += e.kind == k;
  return n;
}

}  // namespace labgate::util
