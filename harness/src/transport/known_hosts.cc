// Reading known_hosts the way OpenSSH does, markers and hashed names included.
#include "labgate/transport/known_hosts.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace labgate::transport {
namespace {

std::vector<std::string> split_ws(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Plain base64 (RFC 4648) to bytes; empty on any invalid character.
std::string base64_decode(const std::string& in) {
  std::string out;
  int val = 0, bits = -8;
  for (const char c : in) {
    int d;
    if (c >= 'A' && c <= 'Z')
      d = c - 'A';
    else if (c >= 'a' && c <= 'z')
      d = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      d = c - '0' + 52;
    else if (c == '+')
      d = 62;
    else if (c == '/')
      d = 63;
    else if (c == '=')
      break;
    else
      return "";
    val = (val << 6) | d;
    bits += 6;
    if (bits >= 0) {
      out.push_back(static_cast<char>((val >> bits) & 0xff));
      bits -= 8;
    }
  }
  return out;
}

// "|1|base64(salt)|base64(HMAC-SHA1(salt, name))", OpenSSH's HashKnownHosts form.
bool hashed_match(const std::string& entry, const std::string& name) {
  const auto bar = entry.find('|', 3);
  if (entry.rfind("|1|", 0) != 0 || bar == std::string::npos) return false;
  const std::string salt = base64_decode(entry.substr(3, bar - 3));
  const std::string want = base64_decode(entry.substr(bar + 1));
  if (salt.empty() || want.size() != 20) return false;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!HMAC(EVP_sha1(), salt.data(), static_cast<int>(salt.size()),
            reinterpret_cast<const unsigned char*>(name.data()), name.size(), mac, &len))
    return false;
  return len == want.size() && std::memcmp(mac, want.data(), len) == 0;
}

}  // namespace

bool wildcard_match(const std::string& pattern, const std::string& name) {
  std::size_t p = 0, n = 0, star = std::string::npos, resume = 0;
  auto same = [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  };
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || same(pattern[p], name[n]))) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<KnownHostsLine> parse_known_hosts(std::istream& in) {
  std::vector<KnownHostsLine> out;
  int n = 0;
  for (std::string text; std::getline(in, text);) {
    ++n;
    std::vector<std::string> w = split_ws(text);
    if (w.empty() || w[0][0] == '#') continue;
    KnownHostsLine l;
    l.line = n;
    std::size_t i = 0;
    if (w[0][0] == '@') {
      if (w[0] == "@revoked")
        l.marker = KnownHostsLine::Marker::kRevoked;
      else if (w[0] == "@cert-authority")
        l.marker = KnownHostsLine::Marker::kCertAuthority;
      else
        continue;  // an unknown marker: OpenSSH skips the line
      i = 1;
    }
    if (w.size() < i + 3) continue;
    l.patterns = w[i];
    l.key_type = w[i + 1];
    l.key_base64 = w[i + 2];
    out.push_back(std::move(l));
  }
  return out;
}

std::string known_hosts_name(const std::string& host, int port) {
  return port == 22 ? host : "[" + host + "]:" + std::to_string(port);
}

bool host_patterns_match(const std::string& patterns, const std::string& name) {
  if (patterns.rfind("|1|", 0) == 0) return hashed_match(patterns, name);
  bool matched = false;
  std::size_t start = 0;
  while (start <= patterns.size()) {
    const auto comma = patterns.find(',', start);
    std::string p = patterns.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const bool negated = !p.empty() && p[0] == '!';
    if (negated) p.erase(0, 1);
    // Host names are case-insensitive, as OpenSSH lowercases them before matching.
    if (!p.empty() && wildcard_match(p, name)) {
      if (negated) return false;
      matched = true;
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return matched;
}

HostKeyVerdict check_host_key(const std::vector<KnownHostsLine>& lines, const std::string& name,
                              const std::string& key_type, const std::string& key_base64) {
  using M = KnownHostsLine::Marker;
  HostKeyVerdict changed{HostKeyStatus::kUnknown, 0}, other = changed, ca = changed, ok = changed;
  for (const KnownHostsLine& l : lines) {
    if (!host_patterns_match(l.patterns, name)) continue;
    if (l.marker == M::kRevoked) {
      if (l.key_base64 == key_base64) return {HostKeyStatus::kRevoked, l.line};
      continue;
    }
    if (l.marker == M::kCertAuthority) {
      if (!ca.line) ca = {HostKeyStatus::kCertAuthorityOnly, l.line};
      continue;
    }
    if (l.key_base64 == key_base64) {
      if (!ok.line) ok = {HostKeyStatus::kOk, l.line};
    } else if (l.key_type == key_type) {
      if (!changed.line) changed = {HostKeyStatus::kChanged, l.line};
    } else if (!other.line) {
      other = {HostKeyStatus::kOther, l.line};
    }
  }
  for (const HostKeyVerdict* v : {&ok, &changed, &other, &ca})
    if (v->line) return *v;
  return {};
}

HostKeyVerdict check_host_key_file(const std::string& path, const std::string& name,
                                   const std::string& key_type, const std::string& key_base64) {
  std::ifstream in(path);
  if (!in) return {};
  return check_host_key(parse_known_hosts(in), name, key_type, key_base64);
}

std::string append_known_hosts_line(const std::string& path, const std::string& line) {
  if (const auto slash = path.rfind('/'); slash != std::string::npos && slash > 0) {
    const std::string dir = path.substr(0, slash);
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
      return "cannot create " + dir + ": " + std::strerror(errno);
  }
  const int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return "cannot open " + path + " for writing: " + std::strerror(errno);
  // A file that does not end in a newline must not have our entry glued onto its last line.
  std::string text = line + "\n";
  struct stat st {};
  if (fstat(fd, &st) == 0 && st.st_size > 0) {
    char last = '\n';
    const int rfd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (rfd >= 0) {
      if (pread(rfd, &last, 1, st.st_size - 1) != 1) last = '\n';
      close(rfd);
    }
    if (last != '\n') text.insert(0, "\n");
  }
  const ssize_t w = write(fd, text.data(), text.size());
  const int err = errno;
  close(fd);
  if (w != static_cast<ssize_t>(text.size())) return "cannot write " + path + ": " + std::strerror(err);
  return "";
}

}  // namespace labgate::transport
