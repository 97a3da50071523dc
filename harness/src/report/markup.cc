// XML/HTML escaping with UTF-8 validation and removal of XML-forbidden characters.
#include "labgate/report/markup.h"

#include <cstdint>

namespace labgate::report {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Decodes one UTF-8 sequence at text[i]; returns its length, or 0 when the bytes
// are not well-formed UTF-8 (overlong, surrogate, truncated, beyond U+10FFFF).
std::size_t decode(std::string_view text, std::size_t i, std::uint32_t& cp) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  std::size_t len;
  std::uint32_t min;
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  } else if ((b0 & 0xE0) == 0xC0) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > text.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

// XML 1.0 Char production, minus what we keep specially (tab, LF, CR).
bool allowed(std::uint32_t cp) {
  if (cp < 0x20) return cp == 0x9 || cp == 0xA || cp == 0xD;
  if (cp >= 0x7F && cp <= 0x9F) return false;  // C1 controls: legal but unprintable noise
  return cp != 0xFFFE && cp != 0xFFFF;
}

template <typename Emit>
void walk(std::string_view text, Emit&& emit) {
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp = 0;
    const std::size_t len = decode(text, i, cp);
    if (len == 0) {
      emit(0xFFFD, kReplacement);
      ++i;
      continue;
    }
    if (allowed(cp)) emit(cp, text.substr(i, len));
    i += len;
  }
}

}  // namespace

namespace {
std::string escape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  walk(text, [&](std::uint32_t cp, std::string_view bytes) {
    if (!attribute && (cp == '\t' || cp == '\n')) {
      out += bytes;
      return;
    }
    switch (cp) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        out += bytes;
    }
  });
  return out;
}
}  // namespace

std::string xml_escape(std::string_view text) { return escape(text, true); }
std::string xml_escape_text(std::string_view text) { return escape(text, false); }

std::string clean_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  walk(text, [&](std::uint32_t, std::string_view bytes) { out += bytes; });
  return out;
}

}  // namespace labgate::report
