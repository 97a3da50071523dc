// Buffer sizing (seed 003): the bandwidth-delay product of a path from measured
// throughput and round-trip time, against a host's socket buffer maxima
// (net.core.rmem_max/wmem_max, the third field of tcp_rmem/tcp_wmem), with the
// arithmetic written out for the report. Pure: the caller brings the figures.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace labgate::netpath {

/// A host's buffer limits as its sysctls print them ("4096 87380 16777216").
struct BufferSysctls {
  std::optional<std::string> rmem_max, wmem_max, tcp_rmem, tcp_wmem;
};

/// One buffer limit against the BDP.
struct BufferCheck {
  std::string sysctl;                  ///< "net.ipv4.tcp_rmem (max)"
  std::optional<std::uint64_t> bytes;  ///< nullopt: the host did not report it (or it did not parse)
  bool holds = false;
  std::string line;  ///< "net.core.rmem_max = 129024 < BDP 135678: too small"
};

struct BdpResult {
  double bdp_bytes = 0;
  bool pass = false;  ///< all four limits were reported and each holds the BDP
  std::vector<BufferCheck> buffers;
  /// The arithmetic, one line each: "BDP = 941.38 Mbit/s x 1.153 ms / 8 = 135,678 bytes (132.5 KiB)",
  /// then one line per buffer.
  std::vector<std::string> arithmetic;
};

/// Bytes in flight to fill a path: throughput (bit/s) x round trip / 8.
double bdp_bytes(double throughput_bps, std::chrono::nanoseconds rtt);

/// Judges `host`'s buffers against the BDP of `throughput_bps` and `rtt`
/// (buffers_cover_bdp = true). A sysctl the host did not report (or that does
/// not parse) is listed as unknown and fails the rule: it never passes silently.
BdpResult check_buffers(const std::string& host, double throughput_bps, std::chrono::nanoseconds rtt,
                        const BufferSysctls& sysctls);

}  // namespace labgate::netpath
