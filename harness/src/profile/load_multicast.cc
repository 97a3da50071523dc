// kind = "udp_multicast": its keys (to as a list of subscribers, group, source,
// ttl, reply_every) and its checks, each refusal naming the key and its line.
#include <arpa/inet.h>

#include <set>

#include "labgate/profile/limits.h"
#include "sections.h"
#include "test_draft.h"

namespace labgate::profile::detail {
namespace {

// A dotted IPv4 address; `multicast`: within 224.0.0.0/4.
bool ipv4(const std::string& s, bool multicast) {
  in_addr a{};
  if (inet_pton(AF_INET, s.c_str(), &a) != 1) return false;
  return !multicast || (ntohl(a.s_addr) >> 28) == 0xe;
}

void check_group(TestDraft& t, Diagnostics& d) {
  MulticastParams& m = t.spec.multicast;
  if (!t.where.count("group")) {
    d.error(t.spec.pos, t.key_of("group"), "missing; a udp_multicast test needs group = \"239.1.1.1:5000\"");
    return;
  }
  const std::string& g = m.group;
  const std::size_t colon = g.rfind(':');
  const std::string addr = colon == std::string::npos ? g : g.substr(0, colon);
  const std::string port = colon == std::string::npos ? "" : g.substr(colon + 1);
  int p = 0;
  bool port_ok =
      !port.empty() && port.size() <= 5 && port.find_first_not_of("0123456789") == std::string::npos;
  if (port_ok) p = std::stoi(port);
  if (!ipv4(addr, true) || !port_ok || p < 1 || p > 65535) {
    d.error(
        t.pos_of("group"), t.key_of("group"),
        "\"" + g +
            "\" is not an IPv4 multicast group and port (224.0.0.0/4, 1..65535), e.g. \"239.1.1.1:5000\"");
    return;
  }
  m.group = addr;
  m.port = p;
}

// The built-in feed: a 32-byte header in every message, sent at a fixed rate.
void check_feed(TestDraft& t, Diagnostics& d) {
  const TestSpec& s = t.spec;
  if (s.message_size < 32 || s.message_size > 65507)
    d.error(t.pos_of("message_size"), t.key_of("message_size"),
            "must be 32..65507 bytes: every message carries a 32-byte header (sequence number, send time)");
  if (!s.rate_per_sec)
    d.error(t.pos_of("rate"), t.key_of("rate"),
            "missing; a feed is sent at a fixed rate, e.g. rate = \"10000/s\"");
  else if (*s.rate_per_sec > 1e9)
    d.error(t.pos_of("rate"), t.key_of("rate"), "must be at most 1e9/s");
  if (s.duration.count() > 0 && s.warmup >= s.duration)
    d.error(t.pos_of("warmup"), t.key_of("warmup"), "must be shorter than the duration");
}

// sockperf's and sfnt-pingpong's multicast mode: their UDP ping-pong through the
// group, between the publisher and ONE subscriber. Every host joined to the group
// answers every ping, and the client times the first answer and counts the
// others as duplicates (recorded in tests/fixtures/tools/sockperf/
// sockperf310-mc-rtt-2servers*.txt; sockperf issue #220), so with several
// subscribers no subscriber's own round trip is measured: refused, not run.
void check_tool_pingpong(TestDraft& t, Diagnostics& d) {
  const TestSpec& s = t.spec;
  const std::string tool = to_string(s.tool);
  if (s.multicast.subscribers.size() > 1)
    d.error(t.pos_of("to"), t.key_of("to"),
            tool + " measures multicast as a ping-pong with one subscriber; found " +
                std::to_string(s.multicast.subscribers.size()) +
                ": every subscriber in the group answers every ping and the client times only the first "
                "answer, counting the rest as duplicates (one-to-many is not supported, sockperf issue #220), "
                "so no subscriber's own round trip would be measured. Use tool = \"builtin\" for a feed to "
                "several subscribers, or one test per subscriber");
  if (t.where.count("reply_every"))
    d.error(t.pos_of("reply_every"), t.key_of("reply_every"),
            "does not apply to " + tool + ": its ping-pong answers every message (reply_every is the built-in "
            "feed's)");
  if (s.socket_buffer && s.tool == Tool::kSfntPingpong)
    d.error(t.pos_of("socket_buffer"), t.key_of("socket_buffer"),
            "sfnt-pingpong has no option for the socket buffer sizes; use tool = \"builtin\" or \"sockperf\" "
            "for socket_buffer");
  if (s.multicast.source && s.tool == Tool::kSfntPingpong)
    d.error(t.pos_of("source"), t.key_of("source"),
            "sfnt-pingpong joins the group from any source (it has no SSM source option); use tool = "
            "\"sockperf\" (--mc-source-filter) or \"builtin\" for source = ...");
  // The tool's own limits, as for its udp_rr (the same sockets and messages).
  TestSpec as_rr = s;
  as_rr.kind = TestKind::kUdpRr;
  const std::pair<const char*, std::string> refusals[] = {{"message_size", message_size_refusal(as_rr)},
                                                          {"rate", rate_refusal(as_rr)}};
  for (const auto& [key, why] : refusals)
    if (!why.empty()) d.error(t.pos_of(key), t.key_of(key), why);
}

}  // namespace

void read_multicast_fields(TableReader& r, TestDraft& t) {
  MulticastParams& m = t.spec.multicast;
  if (auto v = r.get_string("group")) m.group = *v;
  if (auto v = r.get_string("source")) m.source = *v;
  if (auto v = r.get_int("ttl", 1, 255)) m.ttl = static_cast<int>(*v);
  if (auto v = r.get_int("reply_every", 1, 1000000000)) m.reply_every = static_cast<std::uint64_t>(*v);
}

void check_multicast(TestDraft& t, const Profile& p, Diagnostics& d) {
  TestSpec& s = t.spec;
  MulticastParams& m = s.multicast;
  check_group(t, d);
  if (m.source && !ipv4(*m.source, false))
    d.error(t.pos_of("source"), t.key_of("source"),
            "\"" + *m.source + "\" is not an IPv4 address (the SSM source: the publisher's test address)");
  if (s.tool == Tool::kBuiltin)
    check_feed(t, d);
  else
    check_tool_pingpong(t, d);
  bool from_ok = false;
  if (s.from.empty())
    d.error(t.pos_of("from"), t.key_of("from"), "missing; the publisher, e.g. from = \"a\"");
  else
    from_ok = check_host_ref(p, s.from, t.pos_of("from"), t.key_of("from"), d);
  if (m.subscribers.empty()) {
    d.error(t.pos_of("to"), t.key_of("to"),
            s.to.empty() ? "missing; the subscribers, e.g. to = [\"b\", \"c\"]"
                         : "must be a list of subscribers, e.g. to = [\"" + s.to + "\"]");
    return;
  }
  if (m.subscribers.size() > 64)
    d.error(t.pos_of("to"), t.key_of("to"), "at most 64 subscribers (the publisher's histograms are fixed)");
  std::set<std::string> seen;
  std::vector<std::string> hosts = m.subscribers;
  if (from_ok) hosts.insert(hosts.begin(), s.from);
  for (const std::string& h : m.subscribers) {
    if (!seen.insert(h).second) d.error(t.pos_of("to"), t.key_of("to"), "\"" + h + "\" is listed twice");
    if (h == s.from)
      d.error(t.pos_of("to"), t.key_of("to"),
              "\"" + h + "\" is the publisher (`from`); it cannot subscribe too");
  }
  for (std::size_t i = from_ok ? 1 : 0; i < hosts.size(); ++i)
    if (!check_host_ref(p, hosts[i], t.pos_of("to"), t.key_of("to"), d)) hosts[i].clear();
  for (const std::string& h : hosts) {
    const Host* host = h.empty() ? nullptr : p.find_host(h);
    if (host && host->test_address.empty() && !host->test_address_given)
      d.error(host->pos, join_key("hosts", h) + ".test_address",
              "missing; a udp_multicast test publishes and subscribes on the hosts' test addresses");
  }
}

}  // namespace labgate::profile::detail
