// Setting values of a profile where the TOML parser found them.
#include "labgate/profile/derive.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <tuple>

#include "labgate/util/exit_code.h"
#include "suggest.h"
#include "toml_tree.h"

namespace labgate::profile {
namespace {

using detail::Node;

[[noreturn]] void fail(const std::string& msg) { throw Failure(ExitCode::kUsageError, msg); }

/// "hosts.a.address" -> {"hosts", "a", "address"}; a segment may be "quoted".
std::vector<std::string> key_path(const std::string& key) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (true) {
    std::string seg;
    if (i < key.size() && key[i] == '"') {
      const std::size_t close = key.find('"', i + 1);
      if (close == std::string::npos) fail("--set " + key + ": unterminated quote in the key");
      seg = key.substr(i + 1, close - i - 1);
      i = close + 1;
    } else {
      const std::size_t dot = key.find('.', i);
      seg = key.substr(i, dot == std::string::npos ? std::string::npos : dot - i);
      i = dot == std::string::npos ? key.size() : dot;
      if (seg.empty()) fail("--set " + key + ": empty part in the key");
    }
    out.push_back(seg);
    if (i == key.size()) return out;
    if (key[i] != '.') fail("--set " + key + ": expected '.' after a quoted part of the key");
    ++i;
  }
}

const Node& find_value(const Node& root, const KeySetting& s, const std::string& file) {
  const Node* n = &root;
  std::string walked;
  for (const std::string& seg : key_path(s.key)) {
    if (!n->is_table())
      fail(file + ": --set " + s.key + ": " + walked + " is " + n->type_name() + ", not a table");
    const Node* next = n->find(seg);
    if (!next) {
      std::vector<std::string> keys;
      for (const Node& c : n->children) keys.push_back(c.key);
      const auto near = detail::closest(seg, keys);
      fail(file + ": --set " + s.key + ": the profile has no key '" + seg + "'" +
           (walked.empty() ? "" : " in " + walked) + (near ? " (did you mean '" + *near + "'?)" : "") +
           "; only values the profile already has can be set");
    }
    walked += (walked.empty() ? "" : ".") + seg;
    n = next;
  }
  if (n->type == Node::Type::kTable || n->type == Node::Type::kArray || n->type == Node::Type::kDateTime)
    fail(n->pos.str() + ": --set " + s.key + ": the value is " + n->type_name() + "; only a string, integer, "
         "float or boolean can be set");
  return *n;
}

std::string toml_string(const std::string& v) {
  std::string out = "\"";
  for (const unsigned char c : v) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      static const char* hex = "0123456789ABCDEF";
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

/// The new value as TOML text of the old value's type.
std::string literal(const Node& old, const KeySetting& s) {
  const std::string& v = s.value;
  auto wrong = [&](const char* what) -> std::string {
    fail(old.pos.str() + ": --set " + s.key + "=" + v + ": the profile's value is " + old.type_name() +
         ", and '" + v + "' is not " + what);
  };
  switch (old.type) {
    case Node::Type::kString: return toml_string(v);
    case Node::Type::kInteger: {
      errno = 0;
      char* end = nullptr;
      (void)std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end || errno) return wrong("an integer");
      return v;
    }
    case Node::Type::kFloat: {
      char* end = nullptr;
      const double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !std::isfinite(d)) return wrong("a number");
      return v;
    }
    case Node::Type::kBoolean:
      if (v != "true" && v != "false") return wrong("true or false");
      return v;
    default: break;
  }
  return wrong("settable");
}

/// Byte offset of 1-based (line, column in code points) in `text`.
std::size_t offset_of(const std::string& text, int line, int column) {
  std::size_t i = 0;
  for (int l = 1; l < line && i < text.size(); ++i)
    if (text[i] == '\n') ++l;
  for (int c = 1; c < column && i < text.size(); ++c) {
    ++i;
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;  // UTF-8 continuation
  }
  return i;
}

}  // namespace

KeySetting parse_key_setting(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) fail("--set '" + text + "': expected KEY=VALUE, e.g. lab.name=lab-pair7");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::string derive_profile_text(const std::string& text, const std::string& file,
                                const std::vector<KeySetting>& settings) {
  const detail::ParsedToml parsed = detail::parse_toml(text, file);
  if (!parsed.root) fail(parsed.error->pos.str() + ": " + parsed.error->message);
  struct Edit {
    std::size_t begin, end;
    std::string with;
    std::string key;
  };
  std::vector<Edit> edits;
  for (const KeySetting& s : settings) {
    const Node& n = find_value(*parsed.root, s, file);
    const std::size_t b = offset_of(text, n.pos.line, n.pos.column), e = offset_of(text, n.end.line, n.end.column);
    for (const Edit& other : edits)
      if (other.begin == b) fail(file + ": --set " + s.key + ": set twice (also as " + other.key + ")");
    edits.push_back({b, e, literal(n, s), s.key});
  }
  // From the end, so earlier offsets stay valid.
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
  std::string out = text;
  for (const Edit& e : edits) out.replace(e.begin, e.end - e.begin, e.with);
  return out;
}

}  // namespace labgate::profile
