// Reading the ssh_config subset labgate follows: explicit, line by line.
#include "ssh_config.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "labgate/transport/known_hosts.h"
#include "labgate/util/exit_code.h"

namespace labgate::transport {
namespace {

[[noreturn]] void bad(const std::string& where, const std::string& msg) {
  throw Failure(ExitCode::kUsageError, where + ": " + msg);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Splits "Key value", "Key=value" and "Key = value"; arguments may be "quoted".
std::vector<std::string> tokens(const std::string& text, const std::string& where) {
  std::vector<std::string> out;
  std::size_t i = text.find_first_not_of(" \t");
  if (i == std::string::npos || text[i] == '#') return out;
  const std::size_t key_end = text.find_first_of(" \t=", i);
  out.push_back(text.substr(i, key_end - i));
  if (key_end == std::string::npos) return out;
  i = text.find_first_not_of(" \t", key_end);
  if (i != std::string::npos && text[i] == '=') i = text.find_first_not_of(" \t", i + 1);
  while (i != std::string::npos && i < text.size()) {
    if (text[i] == '#') break;
    if (text[i] == '"') {
      const auto close = text.find('"', i + 1);
      if (close == std::string::npos) bad(where, "unbalanced quote");
      out.push_back(text.substr(i + 1, close - i - 1));
      i = close + 1;
    } else {
      const std::size_t end = text.find_first_of(" \t", i);
      out.push_back(text.substr(i, end - i));
      i = end;
    }
    if (i != std::string::npos) i = text.find_first_not_of(" \t", i);
  }
  return out;
}

std::string home() {
  const char* h = std::getenv("HOME");
  return h ? h : "";
}

// OpenSSH's %-tokens that matter here (%h the host, %d home, %% a percent) and ~.
std::string expand(const std::string& v, const std::string& host, const std::string& where) {
  std::string out;
  std::string s = v.rfind("~/", 0) == 0 ? home() + v.substr(1) : v;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    const char t = i + 1 < s.size() ? s[++i] : '\0';
    if (t == 'h')
      out += host;
    else if (t == 'd')
      out += home();
    else if (t == '%')
      out += '%';
    else
      bad(where, std::string("the token %") + t + " is not supported by labgate (only %h, %d, %%)");
  }
  return out;
}

}  // namespace

bool ssh_config_host_matches(const std::vector<std::string>& patterns, const std::string& name) {
  bool any = false;
  for (const std::string& raw : patterns) {
    const bool neg = !raw.empty() && raw[0] == '!';
    const std::string p = neg ? raw.substr(1) : raw;
    if (!wildcard_match(p, name)) continue;
    if (neg) return false;
    any = true;
  }
  return any;
}

SshConfig SshConfig::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) bad("ssh_config " + path, "cannot be read (named by ssh_config in the profile)");
  return parse(in, path);
}

SshConfig SshConfig::parse(std::istream& in, const std::string& path) {
  SshConfig c;
  c.path_ = path;
  c.blocks_.push_back(Block{});
  int n = 0;
  for (std::string text; std::getline(in, text);) {
    ++n;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    const std::string where = path + ":" + std::to_string(n);
    std::vector<std::string> t = tokens(text, where);
    if (t.empty()) continue;
    const std::string key = lower(t[0]);
    if (t.size() < 2) bad(where, "\"" + t[0] + "\" has no value");
    if (key == "host") {
      c.blocks_.push_back(Block{{t.begin() + 1, t.end()}, false, n, {}});
    } else if (key == "match") {
      c.blocks_.push_back(Block{{}, true, n, {}});
    } else {
      c.blocks_.back().lines.push_back({n, key, t[1]});
    }
  }
  return c;
}

SshConfigEntry SshConfig::lookup(const std::string& name) const {
  SshConfigEntry e;
  auto take = [&](std::optional<SshConfigValue>& slot, const Line& l, const std::string& value) {
    if (!slot) slot = SshConfigValue{value, path_ + ":" + std::to_string(l.line)};
  };
  for (const Block& b : blocks_) {
    if (b.match_block) {
      if (!b.lines.empty())
        e.notes.push_back(path_ + ":" + std::to_string(b.line) +
                          ": a Match block is not evaluated by labgate");
      continue;
    }
    if (!b.patterns.empty() && !ssh_config_host_matches(b.patterns, name)) continue;
    for (const Line& l : b.lines) {
      const std::string where = path_ + ":" + std::to_string(l.line);
      const std::string& first = l.first;
      if (l.key == "hostname") {
        take(e.hostname, l, expand(first, name, where));
      } else if (l.key == "user") {
        take(e.user, l, first);
      } else if (l.key == "port") {
        const bool digits =
            !first.empty() && first.size() <= 5 &&
            std::all_of(first.begin(), first.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
        if (!digits || std::stoi(first) < 1 || std::stoi(first) > 65535)
          bad(where, "Port \"" + first + "\" is not a port (1-65535)");
        take(e.port, l, first);
      } else if (l.key == "identityfile") {
        take(e.identity_file, l, expand(first, name, where));
      } else if (l.key == "proxyjump") {
        take(e.proxy_jump, l, first);
      } else if (l.key == "userknownhostsfile") {
        take(e.user_known_hosts_file, l, first == "none" ? "/dev/null" : expand(first, name, where));
      } else if (l.key == "include" || l.key == "proxycommand") {
        e.notes.push_back(where + ": " + (l.key == "include" ? "Include" : "ProxyCommand") +
                          " is not followed by labgate (use proxy_jump / ProxyJump for a bastion)");
      }
    }
  }
  return e;
}

}  // namespace labgate::transport
