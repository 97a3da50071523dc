// buffers_cover_bdp: throughput x RTT against both hosts' socket buffer maxima.
#include "labgate/gate/bdp_rule.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <string_view>
#include <utility>

#include "labgate/netpath/ping_flood.h"
#include "labgate/profile/test_address.h"
#include "labgate/transport/shell_quote.h"

namespace labgate::gate {

using namespace std::chrono_literals;

bool judges_bdp(const profile::Profile& p, const TestCase& c) {
  // TCP throughput: tcp_stream (kinds/tcp_stream.cc), by its registered traits.
  return p.preconditions.buffers_cover_bdp && profile::is_stream(c.spec->kind) && profile::is_tcp(c.spec->kind);
}

std::vector<std::string> buffer_sysctls_command() {
  // grep -H names each file, so one unreadable file cannot shift the others.
  return {"grep",
          "-H",
          ".",
          "/proc/sys/net/core/rmem_max",
          "/proc/sys/net/core/wmem_max",
          "/proc/sys/net/ipv4/tcp_rmem",
          "/proc/sys/net/ipv4/tcp_wmem"};
}

netpath::BufferSysctls parse_buffer_sysctls(const std::string& out) {
  netpath::BufferSysctls s;
  std::istringstream in(out);
  std::string line;
  const std::pair<const char*, std::optional<std::string>*> fields[] = {
      {"/proc/sys/net/core/rmem_max:", &s.rmem_max},
      {"/proc/sys/net/core/wmem_max:", &s.wmem_max},
      {"/proc/sys/net/ipv4/tcp_rmem:", &s.tcp_rmem},
      {"/proc/sys/net/ipv4/tcp_wmem:", &s.tcp_wmem}};
  while (std::getline(in, line))
    for (const auto& [prefix, field] : fields)
      if (line.starts_with(prefix)) *field = line.substr(std::string_view(prefix).size());
  return s;
}

RuleVerdict bdp_verdict(const std::string& host, const netpath::BdpResult& r) {
  RuleVerdict v;
  v.rule = "buffers_cover_bdp " + host;
  v.limit = std::ceil(r.bdp_bytes);
  for (const auto& b : r.buffers)
    if (b.bytes) v.observed = v.observed ? std::min(*v.observed, static_cast<double>(*b.bytes)) : *b.bytes;
  v.pass = r.pass;
  for (const auto& line : r.arithmetic) v.message += (v.message.empty() ? "" : "\n") + line;
  return v;
}

namespace {

RuleVerdict unjudged(const std::string& host, const std::string& why) {
  RuleVerdict v;
  v.rule = "buffers_cover_bdp " + host;
  v.message = "cannot judge buffers_cover_bdp: " + why;
  return v;
}

}  // namespace

void judge_bdp(GateSession& session, const TestCase& c, CaseRun& run) {
  std::optional<double> bps;
  for (const auto& m : run.measurements)
    if (m.throughput_bps) bps = m.throughput_bps;
  const std::string to = session.host(c.server).test_address_of(c.spec->network);
  const std::vector<std::string> argv = {profile::is_ipv6(to) ? "ping6" : "ping", "-n", "-q", "-c", "10", "-i", "0.2",
                                         "-W", "1", to};
  std::optional<std::chrono::nanoseconds> rtt;
  std::string why = bps ? "" : "the test measured no throughput";
  try {
    transport::RunOptions o;
    o.timeout = 15s;
    const auto r = session.transport(c.client).run(argv, o);
    run.raw_files.emplace_back("bdp-ping.txt", transport::shell_join(argv) + "\n" + r.out + r.err);
    const auto m =
        netpath::parse_ping_summary(r.out + "\n" + r.err, "host " + c.client + ": RTT for the BDP");
    if (auto avg = m.stat("mean"))
      rtt = std::chrono::nanoseconds(std::llround(*avg));
    else if (why.empty())
      why = "no echo reply to measure the round trip";
  } catch (const std::exception& e) {
    if (why.empty()) why = e.what();
  }
  for (const std::string& host : {c.client, c.server}) {
    if (!bps || !rtt) {
      run.rules.push_back(unjudged(host, why));
      continue;
    }
    netpath::BufferSysctls sysctls;
    try {
      transport::RunOptions o;
      o.timeout = 10s;
      const auto r = session.transport(host).run(buffer_sysctls_command(), o);
      sysctls = parse_buffer_sysctls(r.out);
      run.raw_files.emplace_back("bdp-sysctls-" + host + ".txt", r.out + r.err);
    } catch (const std::exception& e) {
      run.rules.push_back(unjudged(host, e.what()));
      continue;
    }
    auto v = bdp_verdict(host, netpath::check_buffers(host, *bps, *rtt, sysctls));
    v.message = "throughput measured by this test; RTT = ping -c 10 average after it\n" + v.message;
    run.rules.push_back(std::move(v));
  }
}

}  // namespace labgate::gate
