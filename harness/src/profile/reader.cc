// Typed reading of TOML nodes with errors that name the key and what was expected.
#include "reader.h"

#include <algorithm>
#include <tuple>

#include "labgate/util/units.h"
#include "suggest.h"

namespace labgate::profile::detail {
namespace {

bool is_bare(std::string_view key) {
  if (key.empty()) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

std::string range_text(std::int64_t min, std::int64_t max) {
  if (max == kNoMax) return "an integer >= " + std::to_string(min);
  return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
}

// A units::Parsed value turned into an optional, its error recorded on `key`.
template <typename T>
std::optional<T> unit_value(const Node& n, const std::string& key, Diagnostics& d, units::Parsed<T> parsed) {
  if (!parsed) d.error(n.pos, key, parsed.error);
  return parsed.value;
}

template <typename T, typename Parse>
std::optional<T> unit_string(const Node& n, const std::string& key, Diagnostics& d, const char* what,
                             Parse parse) {
  if (n.type != Node::Type::kString) {
    wrong_type(n, key, what, d);
    return std::nullopt;
  }
  return unit_value(n, key, d, parse(n.text));
}

}  // namespace

void Diagnostics::error(const SourcePos& pos, const std::string& key, const std::string& what) {
  errors_.push_back(ProfileError{pos, key, key.empty() ? what : key + ": " + what});
}

void Diagnostics::raw(const SourcePos& pos, const std::string& key, std::string message) {
  errors_.push_back(ProfileError{pos, key, std::move(message)});
}

std::vector<ProfileError> Diagnostics::take() {
  auto order = [](const ProfileError& e) { return std::tie(e.pos.file, e.pos.line, e.pos.column); };
  std::stable_sort(errors_.begin(), errors_.end(),
                   [&](const ProfileError& a, const ProfileError& b) { return order(a) < order(b); });
  // A value inherited by several tests may be reported once per test; keep one.
  std::vector<ProfileError> out;
  for (ProfileError& e : errors_) {
    const bool seen = std::any_of(out.begin(), out.end(), [&](const ProfileError& o) {
      return o.pos.line == e.pos.line && o.pos.column == e.pos.column && o.message == e.message;
    });
    if (!seen) out.push_back(std::move(e));
  }
  errors_.clear();
  return out;
}

std::string join_key(std::string_view path, std::string_view key) {
  std::string k = is_bare(key) ? std::string(key) : "\"" + std::string(key) + "\"";
  return path.empty() ? k : std::string(path) + "." + k;
}

void wrong_type(const Node& n, const std::string& key, const std::string& what, Diagnostics& d) {
  d.error(n.pos, key, "expected " + what + ", found " + n.type_name() + " " + n.brief());
}

std::optional<std::string> read_string(const Node& n, const std::string& key, Diagnostics& d) {
  if (n.type != Node::Type::kString) {
    wrong_type(n, key, "a string", d);
    return std::nullopt;
  }
  return n.text;
}

std::optional<bool> read_bool(const Node& n, const std::string& key, Diagnostics& d) {
  if (n.type != Node::Type::kBoolean) {
    wrong_type(n, key, "true or false", d);
    return std::nullopt;
  }
  return n.boolean;
}

std::optional<std::int64_t> read_int(const Node& n, const std::string& key, Diagnostics& d, std::int64_t min,
                                     std::int64_t max) {
  if (n.type != Node::Type::kInteger) {
    wrong_type(n, key, range_text(min, max), d);
    return std::nullopt;
  }
  if (n.integer < min || n.integer > max) {
    d.error(n.pos, key, std::to_string(n.integer) + " is out of range; expected " + range_text(min, max));
    return std::nullopt;
  }
  return n.integer;
}

std::optional<Nanos> read_duration(const Node& n, const std::string& key, Diagnostics& d) {
  return unit_string<Nanos>(n, key, d, "a duration string like \"85us\"", units::parse_duration);
}

std::optional<std::uint64_t> read_size(const Node& n, const std::string& key, Diagnostics& d) {
  if (n.type == Node::Type::kInteger) {
    if (n.integer < 0) {
      d.error(n.pos, key, std::to_string(n.integer) + " is negative; expected a size like 64 or \"16KiB\"");
      return std::nullopt;
    }
    return static_cast<std::uint64_t>(n.integer);
  }
  return unit_string<std::uint64_t>(n, key, d, "a size like 64 or \"16KiB\"", units::parse_size);
}

std::optional<double> read_bit_rate(const Node& n, const std::string& key, Diagnostics& d) {
  return unit_string<double>(n, key, d, "a bit rate string like \"940Mbit/s\"", units::parse_bit_rate);
}

std::optional<double> read_event_rate(const Node& n, const std::string& key, Diagnostics& d) {
  return unit_string<double>(n, key, d, "an event rate string like \"20000/s\"", units::parse_event_rate);
}

std::optional<double> read_percentage(const Node& n, const std::string& key, Diagnostics& d) {
  return unit_string<double>(n, key, d, "a percentage string like \"0.1%\"", units::parse_percentage);
}

namespace {

// An array whose every element passes `read_one`; each bad element is reported.
template <typename T, typename ReadOne>
std::optional<std::vector<T>> read_array(const Node& n, const std::string& key, Diagnostics& d,
                                         const char* what, ReadOne read_one) {
  if (n.type != Node::Type::kArray) {
    wrong_type(n, key, what, d);
    return std::nullopt;
  }
  std::vector<T> out;
  bool ok = true;
  for (std::size_t i = 0; i < n.children.size(); ++i) {
    std::optional<T> v = read_one(n.children[i], key + "[" + std::to_string(i) + "]");
    if (v) out.push_back(*v);
    ok = ok && v.has_value();
  }
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace

std::optional<std::vector<std::string>> read_strings(const Node& n, const std::string& key, Diagnostics& d) {
  return read_array<std::string>(n, key, d, "an array of strings",
                                 [&](const Node& e, const std::string& k) { return read_string(e, k, d); });
}

std::optional<std::vector<std::int64_t>> read_ints(const Node& n, const std::string& key, Diagnostics& d,
                                                   std::int64_t min, std::int64_t max) {
  return read_array<std::int64_t>(
      n, key, d, "an array of integers",
      [&](const Node& e, const std::string& k) { return read_int(e, k, d, min, max); });
}

TableReader::TableReader(const Node* table, std::string path, Diagnostics& diag)
    : table_(table && table->is_table() ? table : nullptr), path_(std::move(path)), diag_(diag) {}

const Node* TableReader::get(std::string_view key) {
  declared_.emplace_back(key);
  return table_ ? table_->find(key) : nullptr;
}

const Node* TableReader::get_table(std::string_view key) {
  const Node* n = get(key);
  if (n && !n->is_table()) {
    wrong_type(*n, key_path(key), "a table", diag_);
    return nullptr;
  }
  return n;
}

std::optional<std::string> TableReader::get_string(std::string_view key) {
  const Node* n = get(key);
  return n ? read_string(*n, key_path(key), diag_) : std::nullopt;
}

std::optional<bool> TableReader::get_bool(std::string_view key) {
  const Node* n = get(key);
  return n ? read_bool(*n, key_path(key), diag_) : std::nullopt;
}

std::optional<std::int64_t> TableReader::get_int(std::string_view key, std::int64_t min, std::int64_t max) {
  const Node* n = get(key);
  return n ? read_int(*n, key_path(key), diag_, min, max) : std::nullopt;
}

std::optional<Nanos> TableReader::get_duration(std::string_view key) {
  const Node* n = get(key);
  return n ? read_duration(*n, key_path(key), diag_) : std::nullopt;
}

std::optional<std::vector<std::string>> TableReader::get_strings(std::string_view key) {
  const Node* n = get(key);
  return n ? read_strings(*n, key_path(key), diag_) : std::nullopt;
}

void TableReader::forbid(std::string_view key, const std::string& why) {
  if (const Node* n = get(key)) diag_.error(n->key_pos, key_path(key), why);
}

void TableReader::require(std::initializer_list<std::string_view> keys) {
  if (!table_) return;
  for (std::string_view k : keys) {
    declared_.emplace_back(k);
    if (!table_->find(k)) diag_.error(table_->pos, key_path(k), "missing (required)");
  }
}

void TableReader::finish() {
  if (!table_) return;
  for (const Node& c : table_->children) {
    if (std::find(declared_.begin(), declared_.end(), c.key) != declared_.end()) continue;
    const bool array_header = c.header && c.type == Node::Type::kArray;
    const std::string open = array_header ? "[[" : c.header ? "[" : "";
    const std::string close = array_header ? "]]" : c.header ? "]" : "";
    const std::string noun = array_header ? "unknown table array "
                             : c.header   ? "unknown table "
                                          : "unknown key ";
    std::string msg = noun + open + key_path(c.key) + close;
    if (auto s = closest(c.key, declared_)) {
      msg += "; did you mean " + open + key_path(*s) + close + "?";
    } else {
      std::vector<std::string> valid = declared_;
      std::sort(valid.begin(), valid.end());
      valid.erase(std::unique(valid.begin(), valid.end()), valid.end());
      msg += valid.empty() ? "; nothing is expected here" : "; valid here: " + join(valid);
    }
    diag_.raw(c.header ? c.pos : c.key_pos, key_path(c.key), std::move(msg));
  }
}

}  // namespace labgate::profile::detail
