// Whitespace trimming and first-line extraction (see text.h).
#include "labgate/util/text.h"

#include <cctype>

namespace labgate::util {

namespace {
bool blank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
}  // namespace

std::string trim(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return std::string(s);
}

std::string first_nonblank_line(std::string_view text) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string line = trim(text.substr(0, end));
    if (!line.empty()) return line;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return "";
}

}  // namespace labgate::util
