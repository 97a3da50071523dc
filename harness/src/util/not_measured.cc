// One test for tools' "not measured" markers (see not_measured.h).
#include "labgate/util/not_measured.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

#include "labgate/util/text.h"

namespace labgate::util {

namespace {

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

bool is_not_measured(double value) {
  // INT_MIN and -1, and how a 64-bit unsigned counter prints them (2^64 - 2^31;
  // 2^64 - 1 rounds to 2^64 as a double). A real count never sits that close to 2^64.
  return !std::isfinite(value) || value == -2147483648.0 || value == -1.0 ||
         value == 18446744071562067968.0 || value == 18446744073709551616.0;
}

bool is_not_measured(std::string_view token) {
  const std::string t = lowercase(trim(token));
  std::string_view v = t;
  if (!v.empty() && (v.front() == '-' || v.front() == '+')) v.remove_prefix(1);
  // printf's spellings of inf and nan ("inf", "-nan", "nan(0x8000)", "infinity").
  if (v.starts_with("inf") || v.starts_with("nan")) return true;
  double d = 0;
  const char* end = t.data() + t.size();
  auto [p, ec] = std::from_chars(t.data(), end, d);
  if (ec == std::errc::result_out_of_range) return true;  // 1e999: no tool measured that
  if (ec != std::errc() || p != end) return false;        // not a number at all: the reader's own error
  return is_not_measured(d);
}

std::string not_measured_warning(std::string_view where, std::string_view tool, std::string_view key,
                                 std::string_view token) {
  std::string w;
  if (!where.empty()) w.append(where).append(": ");
  w.append(key).append("=").append(trim(token)).append(" is ").append(tool);
  w.append("'s 'not measured' marker (-2147483648, -1, inf or nan); ").append(key);
  w.append(" is left absent, never read as a number");
  return w;
}

}  // namespace labgate::util
