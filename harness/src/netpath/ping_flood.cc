// ping -f: its command line, and its summary lines parsed into a Measurement.
#include "labgate/netpath/ping_flood.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>

#include "labgate/profile/test_address.h"

namespace labgate::netpath {
namespace {

constexpr std::size_t kMaxOutput = 1u << 20;  // a -q flood prints a few lines

std::string seconds_text(std::chrono::nanoseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(d.count()) / 1e9);
  return buf;
}

double ms_to_ns(const std::string& ms) { return std::round(std::stod(ms) * 1e6); }

// The first line of `output` that contains `needle`, for quoting ping itself.
std::string line_with(const std::string& output, const std::string& needle) {
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line))
    if (line.find(needle) != std::string::npos) return line;
  return needle;
}

// ping's own complaints, before looking for a summary.
void refuse_errors(const std::string& output, const std::string& origin) {
  for (const char* needle : {"cannot flood", "Operation not permitted", "icmp open socket"}) {
    if (output.find(needle) == std::string::npos) continue;
    throw PingError(PingFailure::kNotPermitted,
                    origin + ": ping refused: \"" + line_with(output, needle) +
                        "\". A flood (and an interval under 200ms) sends raw ICMP, which needs root on the "
                        "target: connect as root (or a user with CAP_NET_RAW) to run a ping_flood test");
  }
  for (const char* needle : {"unknown host", "Name or service not known", "Network is unreachable",
                             "invalid argument", "usage: ping", "Usage: ping", "bad number of packets"}) {
    if (output.find(needle) != std::string::npos)
      throw PingError(PingFailure::kToolFailed,
                      origin + ": ping failed: \"" + line_with(output, needle) + "\"");
  }
}

}  // namespace

PingInvocation ping_flood_command(const profile::TestSpec& spec, const std::string& to_address) {
  PingInvocation inv;
  // ping6 for an IPv6 address: RHEL 5's ping is IPv4 only (today's is both).
  inv.argv = {
      profile::is_ipv6(to_address) ? "ping6" : "ping", "-f", "-q", "-n", "-c", std::to_string(spec.ping.count), "-s", std::to_string(spec.ping.size)};
  if (spec.ping.interval) inv.argv.insert(inv.argv.end(), {"-i", seconds_text(*spec.ping.interval)});
  // -w takes whole seconds; round up so a 1.5s duration is not cut to 1s.
  const auto deadline_s = std::max<long long>(
      1, (std::chrono::duration_cast<std::chrono::milliseconds>(spec.duration).count() + 999) / 1000);
  inv.argv.insert(inv.argv.end(), {"-w", std::to_string(deadline_s), to_address});
  inv.timeout = std::chrono::seconds(deadline_s) + std::chrono::seconds(15);
  return inv;
}

measure::Measurement parse_ping_summary(const std::string& output, const std::string& origin) {
  if (output.size() > kMaxOutput)
    throw PingError(PingFailure::kMalformed,
                    origin + ": " + std::to_string(output.size()) + " bytes is not a ping -q summary");
  refuse_errors(output, origin);
  // The seeds' copies wrap lines mid-sentence ("time\n750763ms"): read it as one line.
  std::string flat = output;
  for (char& c : flat)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  static const std::regex kCounts(
      R"((\d+) packets transmitted, (\d+) (?:packets )?received,(?: \+(\d+) duplicates,)?)"
      R"((?: \+(\d+) errors,)? ([\d.]+)% packet loss(?:, time\s*(\d+)\s*ms)?)");
  static const std::regex kRtt(
      R"((?:rtt|round-trip) min/avg/max(?:/mdev)? = ([\d.]+)/([\d.]+)/([\d.]+)(?:/([\d.]+))? ms)");
  static const std::regex kPipe(R"(pipe (\d+))");
  static const std::regex kIpg(R"(ipg/ewma ([\d.]+)/([\d.]+) ms)");
  std::smatch c;
  if (!std::regex_search(flat, c, kCounts))
    throw PingError(PingFailure::kMalformed,
                    origin + ": no \"N packets transmitted, M received\" line; is this ping's output?");
  measure::Measurement m;
  m.source = "ping";
  m.kind = "ping_flood";
  m.metric = measure::Metric::kRoundTrip;
  m.counts_drops = true;  // ping counts every echo request that got no reply
  m.sent = std::stoull(c[1]);
  m.received = std::stoull(c[2]);
  if (c[3].matched) m.duplicated = std::stoull(c[3]);
  if (m.received > m.sent + m.duplicated)
    throw PingError(PingFailure::kMalformed, origin + ": more packets received than transmitted");
  m.dropped = m.received >= m.sent ? 0 : m.sent - m.received;
  m.counts_drops = true;
  // ping rounds 1 lost in 77214 to "0%" (seed 001); the counts are exact.
  m.loss_fraction = m.sent ? static_cast<double>(m.dropped) / static_cast<double>(m.sent) : 0.0;
  m.parameters["printed_loss"] = c[5].str() + "%";
  if (c[4].matched) m.parameters["errors"] = c[4].str();
  if (c[6].matched) {
    m.parameters["time_ms"] = c[6].str();
    m.duration_s = std::stod(c[6]) / 1e3;
  }
  std::smatch r;
  if (std::regex_search(flat, r, kRtt)) {
    m.reported["min"] = ms_to_ns(r[1]);
    m.reported["mean"] = ms_to_ns(r[2]);
    m.reported["max"] = ms_to_ns(r[3]);
    if (r[4].matched) m.reported["mdev"] = ms_to_ns(r[4]);
  } else if (m.received > 0) {
    throw PingError(PingFailure::kMalformed, origin + ": " + std::to_string(m.received) +
                                                 " replies but no \"rtt min/avg/max/mdev\" line");
  }
  std::smatch x;
  if (std::regex_search(flat, x, kPipe)) m.parameters["pipe"] = x[1];
  if (std::regex_search(flat, x, kIpg)) {
    m.parameters["ipg_ms"] = x[1];
    m.parameters["ewma_ms"] = x[2];
  }
  if (m.received == 0) m.warnings.push_back("no echo reply came back: every request was lost");
  return m;
}

void note_sends_beyond_count(measure::Measurement& m, std::uint64_t count) {
  if (m.sent <= count) return;
  const std::uint64_t beyond = m.sent - count;
  m.parameters["sent_beyond_count"] = std::to_string(beyond);
  std::string w = "ping sent " + std::to_string(m.sent) + " requests for -c " + std::to_string(count) +
                  ": with -w it keeps sending until " + std::to_string(count) + " replies have come";
  if (m.dropped > 0)
    w += "; " + std::to_string(std::min(m.dropped, beyond)) + " of the " + std::to_string(m.dropped) +
         " unanswered may be its last requests, still in flight when it stopped, counted as lost";
  m.warnings.push_back(w);
}

}  // namespace labgate::netpath
