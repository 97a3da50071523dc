// kind = "path_mtu": the largest packet a path carries with Don't Fragment set,
// found by binary search over `ping -M do -s SIZE` (seed 000 does it by hand),
// and the verdict against the MTU the profile expects. The search is pure: the
// caller supplies "does a packet of N bytes pass?".
#pragma once

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace labgate::netpath {

/// IPv4 + ICMP header bytes in front of ping's payload: an MTU of 1500 carries
/// `ping -s 1472`.
inline constexpr int kIcmpOverhead = 28;
/// IPv6 + ICMPv6 header bytes: an MTU of 1500 carries `ping6 -s 1452`.
inline constexpr int kIcmp6Overhead = 48;
/// The smallest MTU an IPv6 link may have (RFC 8200): the search starts there.
inline constexpr int kIpv6MinMtu = 1280;

/// What one DF probe of a size showed.
enum class DfResult {
  kPasses,   ///< the echo reply came back
  kTooBig,   ///< "message too long" / "Frag needed": refused, for certain
  kNoReply,  ///< no reply: dropped on the way for its size (or lost; worth one more try)
  kError,    ///< ping could not run (no route, not permitted, bad address)
};

/// `ping -n -c 1 -W 1 -M do -s PAYLOAD ADDRESS` for a packet of `mtu` bytes
/// (`ping6` and the IPv6 overhead for an IPv6 address: RHEL 5's ping is IPv4 only).
std::vector<std::string> df_probe_command(const std::string& to_address, int mtu);

/// Reads one df_probe_command() run: its exit status, stdout and stderr.
/// `detail` gets ping's line that explains a kTooBig, kNoReply or kError.
DfResult read_df_probe(int exit_status, const std::string& out, const std::string& err, std::string* detail);

/// One probe of the search, for the report: size tried and what it showed.
struct MtuStep {
  int mtu = 0;
  DfResult result = DfResult::kTooBig;
  std::string detail;
};

struct MtuSearch {
  std::optional<int> mtu;  ///< the largest size that passed; nullopt when even `low` failed
  std::vector<MtuStep> steps;
  std::string error;  ///< set when a probe gave kError (the search stops there)
};

/// "Does a packet of `mtu` bytes pass?" (fills `detail` with what ping said).
using DfProbe = std::function<DfResult(int mtu, std::string* detail)>;

/// Binary search for the largest MTU in [low, high] that passes. A size with no
/// reply is tried `attempts` times before it counts as too big, so one lost echo
/// does not shrink the answer (a refused size is not retried); probes are at
/// most attempts * (ceil(log2(high - low + 1)) + 2).
/// `hint` (the MTU the profile expects) is tried first with hint + 1, so a path
/// that is as expected is settled in two probes.
MtuSearch find_path_mtu(int low, int high, const DfProbe& probe, int attempts = 2,
                        std::optional<int> hint = std::nullopt);

/// The range to search for a test expecting `expected`: from the IPv4 (or IPv6)
/// minimum to above both the expectation and jumbo frames, so a path wider than
/// the profile says is found too.
inline std::pair<int, int> search_range(int expected, bool ipv6 = false) {
  return {ipv6 ? kIpv6MinMtu : 68, std::min(65535, std::max(expected + 1, 9216))};
}

/// The verdict on one path_mtu test: both directions must carry exactly `expected`.
struct MtuVerdict {
  bool pass = false;
  std::string message;  ///< always set: "a->b carries 1500 bytes and b->a 1500; expected 1500"
};

/// `forward` is from->to, `reverse` to->from (a search with an error or no mtu
/// fails). A mismatch names both directions' MTUs, both hosts and the expectation.
MtuVerdict judge_path_mtu(int expected, const std::string& from, const std::string& to,
                          const MtuSearch& forward, const MtuSearch& reverse);

}  // namespace labgate::netpath
