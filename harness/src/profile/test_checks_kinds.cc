// Checks of the kinds added for the seeds' field practice: a path_mtu test's
// expected MTU, a ping flood's size (a command's and the disk kinds': kinds/),
// and the keys every kind may write (socket_buffer, preload, congestion, tool_path).
#include <cctype>
#include <set>

#include "sections.h"
#include "suggest.h"
#include "test_draft.h"

namespace labgate::profile::detail {
namespace {

constexpr std::uint64_t kMaxIcmpPayload = 65507;  // 65535 - 20 (IP) - 8 (ICMP)

// A path_mtu test without `mtu` expects what the interfaces' preconditions say.
void check_path_mtu(TestDraft& t, const Profile& p, Diagnostics& d) {
  TestSpec& s = t.spec;
  if (s.mtu) return;
  std::set<int> mtus;
  std::vector<std::string> named;
  for (const InterfaceRule& i : p.preconditions.interfaces) {
    if (!i.mtu) continue;
    mtus.insert(*i.mtu);
    named.push_back(i.name + " " + std::to_string(*i.mtu));
  }
  if (mtus.size() == 1) {
    s.mtu = *mtus.begin();
    return;
  }
  if (mtus.empty())
    d.error(s.pos, t.key + ".mtu",
            "missing; a path_mtu test needs the MTU to expect: write mtu = 1500 in the test, or mtu in "
            "[preconditions.interfaces.NAME]");
  else
    d.error(s.pos, t.key + ".mtu",
            "missing, and the interfaces' preconditions expect different MTUs (" + join(named) +
                "); write the one this path must carry, e.g. mtu = " + std::to_string(*mtus.begin()));
}

void check_ping(const TestDraft& t, Diagnostics& d) {
  const TestSpec& s = t.spec;
  if (s.ping.size > kMaxIcmpPayload)
    d.error(t.pos_of("size"), t.key_of("size"),
            "an ICMP echo carries at most 65507 bytes of payload; found " + std::to_string(s.ping.size));
  if (s.ping.interval && s.ping.interval->count() <= 0 && t.where.count("interval"))
    d.error(t.pos_of("interval"), t.key_of("interval"),
            "must be above 0; leave it out to flood at the pace of the replies");
}

// tool_path: one program, sockperf's, iperf3's or sfnt-pingpong's (netperf runs two, netperf
// and netserver), named so that no shell on the host reads it as more.
void check_tool_path(TestDraft& t, Diagnostics& d) {
  const TestSpec& s = t.spec;
  const std::string& v = *s.tool_path;
  if (s.tool != Tool::kSockperf && s.tool != Tool::kIperf3 && s.tool != Tool::kSfntPingpong) {
    d.error(t.pos_of("tool_path"), t.key_of("tool_path"),
            std::string("picks the sockperf, iperf3 or sfnt-pingpong program to run; tool = \"") +
                to_string(s.tool) + "\" has " +
                (s.tool == Tool::kNetperf ? "two (netperf and netserver)" : "none to pick"));
    return;
  }
  const bool plain =
      !v.empty() && v.find("..") == std::string::npos &&
      v.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-/") ==
          std::string::npos &&
      v.back() != '/';
  if (!plain)
    d.error(t.pos_of("tool_path"), t.key_of("tool_path"),
            "expected a program name or an absolute path without spaces, quotes or \"..\", like "
            "\"sockperf-3.10\" or \"/opt/iperf/bin/iperf3\"; found \"" +
                v + "\"");
  else if (v.find('/') != std::string::npos && v.front() != '/')
    d.error(t.pos_of("tool_path"), t.key_of("tool_path"),
            "a path must be absolute (the directory a login starts in differs between hosts); found \"" + v +
                "\"");
}

}  // namespace

void check_extra_kind(TestDraft& t, const Profile& p, Diagnostics& d) {
  const TestSpec& s = t.spec;
  if (s.socket_buffer && *s.socket_buffer == 0)
    d.error(t.pos_of("socket_buffer"), t.key_of("socket_buffer"), "must be at least 1 byte, e.g. \"128KiB\"");
  if (s.preload && s.tool != Tool::kBuiltin)
    d.error(t.pos_of("preload"), t.key_of("preload"),
            std::string("preload runs the built-in probes' dynamically linked build, and ") + to_string(s.tool) +
                " is not one: run it under the stack with wrapper = \"...\" (labgate cannot then prove the "
                "stack was used)");
  if (s.congestion && !is_plain_name(*s.congestion))
    d.error(t.pos_of("congestion"), t.key_of("congestion"),
            "expected a TCP congestion control name like \"cubic\"");
  if (s.tool_path) check_tool_path(t, d);
  switch (s.kind) {
    case TestKind::kPathMtu:
      check_path_mtu(t, p, d);
      break;
    case TestKind::kPingFlood:
      check_ping(t, d);
      break;
    default:
      break;
  }
}

}  // namespace labgate::profile::detail
