// Small, strict text helpers shared by the tool parsers.
#include "text_scan.h"

#include <arpa/inet.h>

#include <cctype>
#include <charconv>
#include <cmath>

namespace labgate::tools::scan {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::optional<double> number(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  double v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> count(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

double us_to_ns(double us) { return std::round(us * 1000.0); }

bool contains_nocase(std::string_view s, std::string_view needle) {
  if (needle.empty()) return true;
  for (std::size_t i = 0; i + needle.size() <= s.size(); ++i) {
    std::size_t k = 0;
    while (k < needle.size() && std::tolower(static_cast<unsigned char>(s[i + k])) ==
                                    std::tolower(static_cast<unsigned char>(needle[k])))
      ++k;
    if (k == needle.size()) return true;
  }
  return false;
}

std::string percentile_name(std::string_view pct) {
  std::string s(trim(pct));
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  for (char& c : s)
    if (c == '.') c = '_';
  return "p" + s;
}

bool ipv4_multicast(std::string_view address) {
  in_addr a{};
  if (address.size() > 15 || inet_pton(AF_INET, std::string(address).c_str(), &a) != 1) return false;
  return (ntohl(a.s_addr) >> 28) == 0xe;
}

}  // namespace labgate::tools::scan
