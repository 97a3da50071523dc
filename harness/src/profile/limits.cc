// The table of limits behind validate and the argument builders (see limits.h).
// The built-in probes' numbers come from the C header they are compiled with;
// the tools' from their sources: sockperf 3.10 src/defs.h (MIN_PAYLOAD_SIZE = its
// 14-byte header, MAX_TCP_SIZE, MAX_PAYLOAD_SIZE, --mps at most 2^30), iperf 3.21
// src/iperf.h (MAX_BLOCKSIZE, MIN_/MAX_UDP_BLOCKSIZE), netperf 2.7 (sizes read with
// atoi, so a C int; a UDP request or response is one datagram), sfnettest
// sfnt-pingpong.c (one 64 KiB buffer; no pacing).
#include "labgate/profile/limits.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "labgate/measure/probe_limits.h"
#include "labgate/profile/kind_traits.h"

namespace labgate::profile {
namespace {

constexpr std::uint64_t kUdpMax = LG_PROBE_MAX_UDP_SIZE;  // 65535 - 20 (IPv4) - 8 (UDP)
constexpr std::uint64_t kSockperfHeader = 14;             // sockperf's MsgHeader::EFFECTIVE_SIZE
constexpr std::uint64_t kSockperfTcpMax = (1u << 20) - 1;
constexpr std::uint64_t kIperf3Max = 1u << 20;
constexpr std::uint64_t kIperf3UdpMin = 16;  // 4 + 4 + 8: its sequence number and timestamp
constexpr double kSockperfMaxMps = 1 << 30;
constexpr std::uint64_t kSfntMax = 64 * 1024;  // sfnt-pingpong.c's ppbuf[64 * 1024]

const char* proto(TestKind k) { return is_tcp(k) ? "tcp" : "udp"; }

std::string bytes(std::uint64_t v) { return std::to_string(v); }

}  // namespace

SizeLimit message_size_limit(Tool tool, TestKind kind, bool paced) {
  const bool udp = !is_tcp(kind);
  SizeLimit l;
  l.max = udp ? kUdpMax : LG_PROBE_MAX_TCP_SIZE;
  switch (tool) {
    case Tool::kBuiltin:
      l.who = std::string("the built-in ") + (is_rr(kind) ? "pingpong" : "stream") + " probe (" +
              proto(kind) + (paced && !udp && is_rr(kind) ? ", paced by rate" : "") + ")";
      if (udp || (paced && is_rr(kind))) {
        l.min = LG_PROBE_HDR_SIZE;
        l.why = is_rr(kind) ? "each request carries a sequence number and a timestamp"
                            : "each datagram carries a sequence number";
      }
      break;
    case Tool::kSockperf:
      l.who = std::string("sockperf -m (") + proto(kind) + ")";
      l.min = kSockperfHeader;
      l.max = udp ? kUdpMax : kSockperfTcpMax;
      l.why = "each message carries sockperf's 14-byte header";
      break;
    case Tool::kIperf3:
      l.who = std::string("iperf3 -l (") + proto(kind) + ")";
      l.max = udp ? kUdpMax : kIperf3Max;
      if (udp) {
        l.min = kIperf3UdpMin;
        l.why = "each datagram carries iperf3's sequence number and timestamp";
      }
      break;
    case Tool::kNetperf:
      l.who = std::string("netperf (") + proto(kind) + ")";
      l.max = udp ? kUdpMax : static_cast<std::uint64_t>(INT_MAX);  // read with atoi
      break;
    case Tool::kSysbench:
      l.who = "sysbench";
      break;
    case Tool::kSfntPingpong:
      l.who = std::string("sfnt-pingpong --sizes (") + proto(kind) + ")";
      l.max = std::min(l.max, kSfntMax);
      break;
  }
  return l;
}

std::string message_size_refusal(const TestSpec& spec) {
  if (!is_rr(spec.kind) && !is_stream(spec.kind)) return "";
  const SizeLimit l = message_size_limit(spec.tool, spec.kind, spec.rate_per_sec.has_value());
  const std::uint64_t v = spec.message_size;
  if (v < l.min)
    return l.who + " needs messages of at least " + bytes(l.min) + " bytes" +
           (l.why.empty() ? "" : ": " + l.why) + "; found " + bytes(v);
  if (v > l.max)
    return l.who + " sends messages of at most " + bytes(l.max) + " bytes" +
           (is_tcp(spec.kind) ? "" : " (one IPv4 datagram)") + "; found " + bytes(v);
  return "";
}

std::string rate_refusal(const TestSpec& spec) {
  if (!spec.rate_per_sec || (!is_rr(spec.kind) && !is_stream(spec.kind))) return "";
  const double r = *spec.rate_per_sec;
  switch (spec.tool) {
    case Tool::kBuiltin:
      if (!(r > 0) || r > LG_PROBE_MAX_RATE)
        return "the built-in probes pace at most 1000000000 messages a second (--rate); found " +
               std::to_string(r) + "/s";
      return "";
    case Tool::kNetperf:
      return "netperf cannot send at a fixed rate (open loop); use tool = \"builtin\" for rate = ...";
    case Tool::kSfntPingpong:
      return "sfnt-pingpong runs a closed ping-pong loop and cannot pace it (open loop); use tool = "
             "\"builtin\" or \"sockperf\" for rate = ...";
    case Tool::kSockperf:
      if (std::llround(r) < 1 || std::llround(r) > static_cast<long long>(kSockperfMaxMps))
        return "sockperf --mps takes whole messages a second from 1 to 1073741824; found " +
               std::to_string(r) + "/s";
      return "";
    case Tool::kIperf3:
    case Tool::kSysbench:
      return "";
  }
  return "";
}

std::string interval_refusal(const TestSpec& spec) {
  const KindTraits* traits = find_kind(spec.kind);
  const bool series = traits && traits->series;
  if (spec.tool != Tool::kBuiltin || !series || spec.interval.count() <= 0) return "";
  if (static_cast<std::uint64_t>(spec.interval.count()) < LG_PROBE_MIN_INTERVAL_NS)
    return "the built-in probes' series interval is at least 1ms (--interval); found " +
           std::to_string(spec.interval.count()) + "ns";
  const auto intervals = static_cast<std::uint64_t>(spec.duration.count() / spec.interval.count());
  if (spec.duration.count() > 0 && intervals + 2 > LG_PROBE_MAX_INTERVALS)
    return "the built-in probes keep at most " + std::to_string(LG_PROBE_MAX_INTERVALS) +
           " intervals of a run (the series is allocated before it starts); duration / interval is " +
           std::to_string(intervals);
  return "";
}

std::string name_length_refusal(std::string_view name, std::size_t max, const char* what) {
  if (name.size() <= max) return "";
  return std::string(what) + " may be at most " + std::to_string(max) +
         " bytes: it names folders and files of the results and on the hosts, within NAME_MAX (" +
         std::to_string(kNameMax) + " bytes); found " + std::to_string(name.size()) + " bytes";
}

std::string remote_dir_refusal(std::string_view dir) {
  const std::string quoted = "\"" + std::string(dir.substr(0, 80)) + (dir.size() > 80 ? "..." : "") + "\"";
  if (dir.empty() || dir[0] != '/')
    return "expected an absolute directory on the host like \"/var/tmp\" (it is a remote path: no ~)";
  if (dir.size() > kMaxRemoteDirBytes)
    return "is " + std::to_string(dir.size()) + " bytes long; a remote directory may be at most " +
           std::to_string(kMaxRemoteDirBytes) +
           " bytes, leaving what a run makes below it within PATH_MAX (" + std::to_string(kPathMax) +
           " bytes)";
  std::string normal;  // the lexically normal form, offered when `dir` is not in it
  bool is_normal = true;
  std::size_t start = 1;
  while (start <= dir.size()) {
    std::size_t end = dir.find('/', start);
    if (end == std::string_view::npos) end = dir.size();
    const std::string_view part = dir.substr(start, end - start);
    if (part.size() > kNameMax)
      return quoted + " has a component of " + std::to_string(part.size()) +
             " bytes; one file name holds at most NAME_MAX (" + std::to_string(kNameMax) + ") bytes";
    if (part == "..") {
      is_normal = false;
      if (const auto at = normal.rfind('/'); at != std::string::npos) normal.erase(at);
    } else if (part == "." || (part.empty() && end != dir.size())) {
      is_normal = false;
    } else if (!part.empty()) {
      normal += "/" + std::string(part);
    }
    start = end + 1;
  }
  if (is_normal) return "";
  return quoted +
         " is not in normal form: \".\", \"..\" and \"//\" would be resolved on the host, through any "
         "symlink there; write the directory itself (\"" +
         (normal.empty() ? "/" : normal) + "\" if that is the one meant)";
}

}  // namespace labgate::profile
