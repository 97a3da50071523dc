// Checks of the keys every kind may write (socket_buffer, preload, congestion,
// tool_path); a kind's own keys are checked in its file, harness/src/kinds/.
#include "sections.h"
#include "suggest.h"
#include "test_draft.h"

namespace labgate::profile::detail {
namespace {

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

void check_extra_kind(TestDraft& t, Diagnostics& d) {
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
  if (s.full_log && s.tool != Tool::kSockperf)
    d.error(t.pos_of("full_log"), t.key_of("full_log"),
            std::string("full_log is sockperf's per-sample log (--full-log); ") +
                (s.tool == Tool::kBuiltin ? "the built-in probe keeps its own outliers with their circumstances"
                                          : std::string(to_string(s.tool)) +
                                                " has none: its tail is joined over the whole run"));
}

}  // namespace labgate::profile::detail
