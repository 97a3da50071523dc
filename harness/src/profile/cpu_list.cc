// CPU list parsing and formatting (see cpu_list.h).
#include "labgate/profile/cpu_list.h"

#include <charconv>
#include <cstdio>
#include <vector>

namespace labgate::profile {
namespace {

constexpr int kMaxCpu = 1 << 16;  // far beyond any machine; bounds a hostile "0-2000000000"

std::optional<int> number(std::string_view s) {
  int v = 0;
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < 0 || v >= kMaxCpu) return std::nullopt;
  return v;
}

}  // namespace

std::optional<std::set<int>> parse_cpu_list(std::string_view s) {
  std::set<int> out;
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  if (s.empty()) return out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = std::min(s.find(',', start), s.size());
    const std::string_view part = s.substr(start, comma - start);
    const std::size_t dash = part.find('-');
    const auto lo = number(part.substr(0, dash));
    const auto hi = dash == std::string_view::npos ? lo : number(part.substr(dash + 1));
    if (!lo || !hi || *hi < *lo) return std::nullopt;
    for (int c = *lo; c <= *hi; ++c) out.insert(c);
    start = comma + 1;
  }
  return out;
}

std::string format_cpu_list(const std::set<int>& cpus) {
  std::string out;
  for (auto it = cpus.begin(); it != cpus.end();) {
    const int lo = *it;
    int hi = lo;
    while (++it != cpus.end() && *it == hi + 1) ++hi;
    out += (out.empty() ? "" : ",") + std::to_string(lo) + (hi > lo ? "-" + std::to_string(hi) : "");
  }
  return out;
}

std::string format_cpu_mask(const std::set<int>& cpus) {
  std::vector<unsigned> words;
  for (int cpu : cpus) {
    if (words.size() <= static_cast<std::size_t>(cpu / 32)) words.resize(cpu / 32 + 1, 0);
    words[cpu / 32] |= 1u << (cpu % 32);
  }
  std::string out;
  char buf[16];
  for (auto it = words.rbegin(); it != words.rend(); ++it) {
    std::snprintf(buf, sizeof buf, out.empty() ? "%x" : "%08x", *it);
    out += (out.empty() ? "" : ",") + std::string(buf);
  }
  return out.empty() ? "0" : out;
}

}  // namespace labgate::profile
