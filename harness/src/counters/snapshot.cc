// Parsing /proc/net/snmp, /proc/net/netstat and /proc/net/dev into a Snapshot.
#include "labgate/counters/snapshot.h"

#include <charconv>
#include <sstream>
#include <string_view>

namespace labgate::counters {
namespace {

constexpr std::size_t kMaxBytes = 1u << 20;  // the three files are a few KiB

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

bool to_int(std::string_view w, std::int64_t& out) {
  auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), out);
  if (ec == std::errc() && p == w.data() + w.size()) return true;
  // Byte counters are unsigned in the kernel; past 2^63 they cannot be held, so refuse.
  return false;
}

class Parser {
 public:
  Parser(const std::string& origin, Snapshot& s) : origin_(origin), s_(s) {}

  [[noreturn]] void fail(int line, const std::string& why) const { throw ParseError(origin_, line, why); }

  // "Tcp: RtoAlgorithm ..." then "Tcp: 1 200 ...".
  void group_line(int n, std::string_view group, std::string_view rest) {
    std::vector<std::string_view> w = words(rest);
    if (pending_group_.empty() || pending_group_ != group) {
      pending_group_ = std::string(group);
      pending_names_.assign(w.begin(), w.end());  // copies: the line's buffer is reused
      pending_line_ = n;
      return;
    }
    if (w.size() != pending_names_.size())
      fail(n, std::string(group) + " has " + std::to_string(w.size()) + " values for " +
                  std::to_string(pending_names_.size()) + " names (line " + std::to_string(pending_line_) +
                  ")");
    auto& fields = s_.protocols[std::string(group)];
    for (std::size_t i = 0; i < w.size(); ++i) {
      std::int64_t v = 0;
      if (!to_int(w[i], v))
        fail(n, std::string(group) + " " + pending_names_[i] + ": '" + std::string(w[i]) +
                    "' is not an integer");
      fields[pending_names_[i]] = v;
    }
    pending_group_.clear();
  }

  // "  eth0: 162406992 3371 0 ..." (2.6.18 may print "eth0:162406992" with no space).
  void dev_line(int n, std::string_view line) {
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) fail(n, "expected 'interface: counters' in the /proc/net/dev table");
    const std::vector<std::string_view> name = words(line.substr(0, colon));
    const std::vector<std::string_view> w = words(line.substr(colon + 1));
    if (name.size() != 1) fail(n, "expected one interface name before ':'");
    if (w.size() < 16) fail(n, "expected 16 counters, found " + std::to_string(w.size()));
    std::int64_t v[16];
    for (int i = 0; i < 16; ++i)
      if (!to_int(w[i], v[i])) fail(n, "'" + std::string(w[i]) + "' is not an integer");
    InterfaceCounters& c = s_.interfaces[std::string(name[0])];
    c = InterfaceCounters{v[0], v[1], v[2], v[3], v[4], v[5], v[8], v[9], v[10], v[11], v[12], v[13]};
  }

  // Whether `group`'s names were read and its values are due next.
  bool awaits_values(std::string_view group) const {
    return !pending_group_.empty() && pending_group_ == group;
  }

  void finish(int last_line) const {
    if (!pending_group_.empty())
      fail(pending_line_ ? pending_line_ : last_line, pending_group_ + " has names but no line of values");
  }

 private:
  const std::string& origin_;
  Snapshot& s_;
  std::string pending_group_;
  std::vector<std::string> pending_names_;
  int pending_line_ = 0;
};

bool is_group_name(std::string_view w) {
  if (w.empty()) return false;
  for (char c : w)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

}  // namespace

ParseError::ParseError(const std::string& origin, int line, const std::string& reason)
    : std::runtime_error(origin + (line > 0 ? ":" + std::to_string(line) : "") + ": " + reason) {}

const std::int64_t* Snapshot::find(const std::string& group, const std::string& field) const {
  auto g = protocols.find(group);
  if (g == protocols.end()) return nullptr;
  auto f = g->second.find(field);
  return f == g->second.end() ? nullptr : &f->second;
}

std::vector<std::string> snapshot_command() {
  return {"cat", "/proc/net/snmp", "/proc/net/netstat", "/proc/net/dev"};
}

Snapshot parse_snapshot(const std::string& text, const std::string& origin) {
  if (text.size() > kMaxBytes)
    throw ParseError(origin, 0, std::to_string(text.size()) + " bytes is not /proc/net counters output");
  Snapshot s;
  Parser p(origin, s);
  std::istringstream in(text);
  std::string raw;
  int n = 0, dev_header = 0;
  bool in_dev = false;
  while (std::getline(in, raw)) {
    ++n;
    std::string_view line(raw);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (words(line).empty()) continue;
    if (line.starts_with("Inter-|")) {  // /proc/net/dev: two header lines, then one line per interface
      in_dev = true;
      dev_header = 1;
      continue;
    }
    if (in_dev && dev_header == 1) {
      if (line.find("face") == std::string_view::npos) p.fail(n, "expected the second /proc/net/dev header");
      dev_header = 2;
      continue;
    }
    const std::size_t colon = line.find(':');
    const std::string_view head = colon == std::string_view::npos ? line : line.substr(0, colon);
    // In the dev table, a line of counters (an interface name may look like a
    // group name, "enp0s3"); a line of names starts snmp/netstat again.
    if (in_dev && colon != std::string_view::npos) {
      const std::vector<std::string_view> w = words(line.substr(colon + 1));
      std::int64_t first = 0;
      if (!w.empty() && to_int(w[0], first) && !p.awaits_values(head)) {
        p.dev_line(n, line);
        continue;
      }
    }
    if (colon == std::string_view::npos || !is_group_name(head))
      p.fail(
          n,
          "expected 'Group: ...' as /proc/net/snmp and /proc/net/netstat print, or the /proc/net/dev table");
    in_dev = false;
    p.group_line(n, head, line.substr(colon + 1));
  }
  p.finish(n);
  if (s.protocols.empty() && s.interfaces.empty())
    throw ParseError(origin, 0, "no counters found (empty output?)");
  return s;
}

}  // namespace labgate::counters
