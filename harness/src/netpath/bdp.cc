// Bandwidth-delay product against a host's socket buffer limits, with the sums shown.
#include "labgate/netpath/bdp.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace labgate::netpath {
namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// 135678 -> "135,678"
std::string grouped(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

std::string rate_text(double bps) {
  if (bps >= 1e9) return fixed(bps / 1e9, 3) + " Gbit/s";
  if (bps >= 1e6) return fixed(bps / 1e6, 2) + " Mbit/s";
  return fixed(bps / 1e3, 2) + " kbit/s";
}

// The value of a one-number sysctl, or the `field`-th (0-based) of a multi-field one.
std::optional<std::uint64_t> field_of(const std::optional<std::string>& text, std::size_t field) {
  if (!text) return std::nullopt;
  std::size_t i = 0, n = 0;
  const std::string& s = *text;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')) ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\n') ++i;
    if (i == start) break;
    if (n++ == field) {
      std::uint64_t v = 0;
      auto [p, ec] = std::from_chars(s.data() + start, s.data() + i, v);
      if (ec != std::errc() || p != s.data() + i) return std::nullopt;
      return v;
    }
  }
  return std::nullopt;
}

}  // namespace

double bdp_bytes(double throughput_bps, std::chrono::nanoseconds rtt) {
  return throughput_bps * static_cast<double>(rtt.count()) / 1e9 / 8.0;
}

BdpResult check_buffers(const std::string& host, double throughput_bps, std::chrono::nanoseconds rtt,
                        const BufferSysctls& sysctls) {
  BdpResult r;
  r.bdp_bytes = bdp_bytes(throughput_bps, rtt);
  const auto need = static_cast<std::uint64_t>(std::ceil(r.bdp_bytes));
  r.arithmetic.push_back("BDP = " + rate_text(throughput_bps) + " x " +
                         fixed(static_cast<double>(rtt.count()) / 1e6, 3) + " ms / 8 = " + grouped(need) +
                         " bytes (" + fixed(r.bdp_bytes / 1024.0, 1) + " KiB)");
  const struct {
    const char* name;
    std::optional<std::uint64_t> value;
  } limits[] = {{"net.core.rmem_max", field_of(sysctls.rmem_max, 0)},
                {"net.core.wmem_max", field_of(sysctls.wmem_max, 0)},
                {"net.ipv4.tcp_rmem (max)", field_of(sysctls.tcp_rmem, 2)},
                {"net.ipv4.tcp_wmem (max)", field_of(sysctls.tcp_wmem, 2)}};
  r.pass = true;
  for (const auto& l : limits) {
    BufferCheck c;
    c.sysctl = l.name;
    c.bytes = l.value;
    if (!l.value) {
      c.line = host + ": " + c.sysctl +
               " unknown (not reported by the host): cannot tell whether it holds the BDP";
    } else {
      c.holds = *l.value >= need;
      c.line = host + ": " + c.sysctl + " = " + grouped(*l.value) + (c.holds ? " >= " : " < ") + "BDP " +
               grouped(need) +
               (c.holds ? ": holds" : ": too small; a single connection cannot fill the path");
    }
    r.pass = r.pass && c.holds;
    r.arithmetic.push_back(c.line);
    r.buffers.push_back(std::move(c));
  }
  return r;
}

}  // namespace labgate::netpath
