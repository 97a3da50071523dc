// Tool output as clean numbered lines, size limits, and file:line parse errors.
#include "labgate/tools/tool_text.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace labgate::tools {

namespace {

std::string where(const std::string& origin, int line) {
  return line > 0 ? origin + ":" + std::to_string(line) : origin;
}

std::string clean_line(std::string_view line) {
  std::string s = strip_ansi(line);
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\r') continue;
    if (c == '\t') {
      out += ' ';
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0) {
      out += ' ';  // UTF-8 NO-BREAK SPACE, as pasted from a web page (seed 004)
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

ParseError::ParseError(std::string origin, int line, std::string reason, ParseFailure kind)
    : std::runtime_error(where(origin, line) + ": " + reason),
      origin_(std::move(origin)),
      line_(line),
      reason_(std::move(reason)),
      kind_(kind) {}

std::string ToolText::quote(int n) const {
  if (n < 1 || n > static_cast<int>(lines.size())) return "''";
  const std::string& l = lines[static_cast<std::size_t>(n - 1)];
  std::string q = "'";
  std::size_t shown = 0;
  for (char c : l) {
    if (shown == 80) {
      q += "...";
      break;
    }
    const unsigned char u = static_cast<unsigned char>(c);
    q += (u >= 0x20 && u < 0x7F) || u >= 0x80 ? c : '?';
    ++shown;
  }
  return q + "'";
}

void ToolText::fail(int n, const std::string& reason, ParseFailure kind) const {
  throw ParseError(origin, n, reason, kind);
}

std::string strip_ansi(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\x1b') {
      out += s[i];
      continue;
    }
    if (i + 1 < s.size() && s[i + 1] == '[') {
      // CSI: parameter and intermediate bytes (0x20-0x3F), then one final byte (0x40-0x7E).
      std::size_t j = i + 2;
      while (j < s.size() && s[j] >= 0x20 && s[j] <= 0x3F) ++j;
      i = (j < s.size() && s[j] >= 0x40 && s[j] <= 0x7E) ? j : j - 1;
    } else if (i + 1 < s.size()) {
      ++i;  // two-byte escape (ESC c, ESC =, ...)
    }
  }
  return out;
}

ToolText text_from_string(std::string origin, std::string raw, std::size_t limit) {
  if (raw.size() > limit)
    throw ParseError(origin, 0,
                     "output is " + std::to_string(raw.size()) + " bytes, over the limit of " +
                         std::to_string(limit) + " bytes; this is not one run of the tool");
  ToolText t;
  t.origin = std::move(origin);
  std::size_t start = 0;
  while (start < raw.size()) {
    std::size_t end = raw.find('\n', start);
    if (end == std::string::npos) end = raw.size();
    t.lines.push_back(clean_line(std::string_view(raw).substr(start, end - start)));
    start = end + 1;
  }
  t.raw = std::move(raw);
  return t;
}

ToolText read_tool_file(const std::string& path, std::size_t limit) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw ParseError(path, 0, std::string("cannot read: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw ParseError(path, 0, "is a directory, not a saved tool output");
  if (static_cast<std::uint64_t>(st.st_size) > limit)
    throw ParseError(path, 0,
                     "file is " + std::to_string(st.st_size) + " bytes, over the limit of " +
                         std::to_string(limit) + " bytes; this is not one run of the tool");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  // Read at most limit+1 bytes: a file that grows after stat() is still refused.
  std::string data(limit + 1 > 1u << 20 ? 1u << 20 : limit + 1, '\0');
  std::string all;
  while (in && all.size() <= limit) {
    in.read(data.data(), static_cast<std::streamsize>(data.size()));
    all.append(data.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (all.empty()) throw ParseError(path, 0, "file is empty");
  return text_from_string(path, std::move(all), limit);
}

}  // namespace labgate::tools
