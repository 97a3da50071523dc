// Untrusted output made fit for an error message (see excerpt.h).
#include "labgate/util/excerpt.h"

#include <cstdio>

namespace labgate {

std::string excerpt(std::string_view text, std::size_t max_bytes, bool keep_newlines) {
  const auto is_space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  const std::size_t total = text.size();
  const std::string_view shown = text.substr(0, max_bytes);
  std::string out;
  out.reserve(shown.size() + 16);
  for (const char ch : shown) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += keep_newlines ? "\n" : "\\n";
    } else if (c == '\t') {
      out += keep_newlines ? "\t" : "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  if (total > shown.size()) out += "... (" + std::to_string(total) + " bytes in all)";
  return out;
}

}  // namespace labgate
