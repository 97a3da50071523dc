// congestion = "htcp" (seed 002's loop over iperf -Z): whether a host's kernel
// offers the algorithm, with an error that lists the ones it has.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace labgate::netpath {

/// Where a host lists its algorithms: /proc/sys/net/ipv4/tcp_available_congestion_control
/// (Linux >= 2.6.20). On RHEL 5 (2.6.18) it is absent: then the loaded one is
/// /proc/sys/net/ipv4/tcp_congestion_control and the loadable ones are the
/// tcp_*.ko modules under /lib/modules/$(uname -r)/kernel/net/ipv4/ (seed 002).
std::vector<std::string> congestion_sources();

/// The algorithm names in `text`: whitespace-separated names, or module file
/// names "tcp_htcp.ko" (a listing of that directory) as "htcp".
std::vector<std::string> parse_congestion_list(const std::string& text);

/// nullopt when `wanted` is in `available`; else "host a has no TCP congestion
/// control "htcp"; it has: cubic reno".
std::optional<std::string> congestion_error(const std::string& host, const std::string& wanted,
                                            const std::vector<std::string>& available);

}  // namespace labgate::netpath
