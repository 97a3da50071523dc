// Number formatting shared by the JUnit, HTML and compare reporters.
#include "labgate/report/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace labgate::report {

namespace {

// Three significant digits without an exponent: 1.30, 85.3, 140, 1300.
std::string three_digits(double v) {
  if (v == 0) return "0";
  int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  char buf[64];
  for (int pass = 0; pass < 2; ++pass) {
    std::snprintf(buf, sizeof buf, "%.*f", std::max(0, 2 - magnitude), v);
    // 9.996 rounds to 10.00: one digit too many; print again for the new magnitude.
    if (std::fabs(std::strtod(buf, nullptr)) < std::pow(10.0, magnitude + 1)) break;
    ++magnitude;
  }
  return buf;
}

// Rounding may carry into the next unit (999.96 us prints as 1.00 ms).
bool rounds_below(double v, double limit) { return std::stod(three_digits(v)) < limit; }

}  // namespace

std::string format_ns(double ns, Units u) {
  const char* micro = u == Units::kUnicode ? " \xC2\xB5s" : " us";
  const double a = std::fabs(ns);
  if (rounds_below(a, 1e3)) return three_digits(ns) + " ns";
  if (rounds_below(a / 1e3, 1e3)) return three_digits(ns / 1e3) + micro;
  if (rounds_below(a / 1e6, 1e3)) return three_digits(ns / 1e6) + " ms";
  return three_digits(ns / 1e9) + " s";
}

std::string format_bps(double bps) {
  const double a = std::fabs(bps);
  if (rounds_below(a, 1e3)) return three_digits(bps) + " bit/s";
  if (rounds_below(a / 1e3, 1e3)) return three_digits(bps / 1e3) + " kbit/s";
  if (rounds_below(a / 1e6, 1e3)) return three_digits(bps / 1e6) + " Mbit/s";
  return three_digits(bps / 1e9) + " Gbit/s";
}

std::string format_in_unit(double value, const std::string& unit, Units u) {
  if (unit == "ns") return format_ns(value, u);
  if (unit == "bit/s") return format_bps(value);
  if (unit == "fraction") {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g%%", value * 100.0);
    return buf;
  }
  if (unit == "count") return format_count(value);
  if (unit == "bytes") return format_count(value) + " bytes";
  if (unit == "1/s") return format_count(value) + "/s";
  return format_plain(value) + (unit.empty() ? "" : " " + unit);
}

std::string format_signed_percent(double fraction) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.1f%%", fraction * 100.0);
  return buf;
}

std::string format_count(double n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", std::fabs(n));
  const std::string digits = buf;
  std::string out = n < 0 ? "-" : "";
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += "\xE2\x80\x89";  // thin space
    out += digits[i];
  }
  return out;
}

std::string format_plain(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string format_duration(double seconds) {
  char buf[64];
  if (seconds < 60) {
    std::snprintf(buf, sizeof buf, "%.3g s", seconds);
  } else if (seconds < 3600) {
    const long s = std::lround(seconds);
    std::snprintf(buf, sizeof buf, "%ld min %02ld s", s / 60, s % 60);
  } else {
    const long m = std::lround(seconds / 60);
    std::snprintf(buf, sizeof buf, "%ld h %02ld min", m / 60, m % 60);
  }
  return buf;
}

std::string or_na(const std::optional<std::string>& s) { return s ? *s : "n/a"; }

}  // namespace labgate::report
