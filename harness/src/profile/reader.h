// Typed, strict reading of the loader's TOML tree: each getter declares a key
// valid, checks its type and unit, and records an error naming the dotted key
// when it is wrong; finish() reports every undeclared key with a suggestion.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/profile/load.h"
#include "toml_tree.h"

namespace labgate::profile::detail {

/// Collects errors; never stops at the first.
class Diagnostics {
 public:
  /// "<key>: <what>" at `pos`.
  void error(const SourcePos& pos, const std::string& key, const std::string& what);
  /// A message that already names what it is about.
  void raw(const SourcePos& pos, const std::string& key, std::string message);
  bool empty() const { return errors_.empty(); }
  /// The errors in file order, each once.
  std::vector<ProfileError> take();

 private:
  std::vector<ProfileError> errors_;
};

/// `path` + "." + `key`, quoting a key that is not bare ("net.ipv4.tcp_sack").
std::string join_key(std::string_view path, std::string_view key);

constexpr std::int64_t kNoMax = std::numeric_limits<std::int64_t>::max();

// Value readers: the node's value if it has the right type and unit, else an
// error on `key` (the dotted name used in the message) and nullopt.
std::optional<std::string> read_string(const Node& n, const std::string& key, Diagnostics& d);
std::optional<bool> read_bool(const Node& n, const std::string& key, Diagnostics& d);
std::optional<std::int64_t> read_int(const Node& n, const std::string& key, Diagnostics& d, std::int64_t min,
                                     std::int64_t max = kNoMax);
std::optional<Nanos> read_duration(const Node& n, const std::string& key, Diagnostics& d);
/// An integer (bytes) or a size string ("16KiB").
std::optional<std::uint64_t> read_size(const Node& n, const std::string& key, Diagnostics& d);
std::optional<double> read_bit_rate(const Node& n, const std::string& key, Diagnostics& d);
std::optional<double> read_event_rate(const Node& n, const std::string& key, Diagnostics& d);
std::optional<double> read_percentage(const Node& n, const std::string& key, Diagnostics& d);
/// An array whose every element is a string (each element's own error otherwise).
std::optional<std::vector<std::string>> read_strings(const Node& n, const std::string& key, Diagnostics& d);
std::optional<std::vector<std::int64_t>> read_ints(const Node& n, const std::string& key, Diagnostics& d,
                                                   std::int64_t min, std::int64_t max = kNoMax);
/// Records "expected <what>, found <type> <value>".
void wrong_type(const Node& n, const std::string& key, const std::string& what, Diagnostics& d);

/// Reads one table. The table may be absent (nullptr): getters then return nullopt.
class TableReader {
 public:
  TableReader(const Node* table, std::string path, Diagnostics& diag);

  const std::string& path() const { return path_; }
  std::string key_path(std::string_view key) const { return join_key(path_, key); }
  const Node* node() const { return table_; }
  Diagnostics& diag() { return diag_; }

  /// Declares `key` valid here; its node or nullptr.
  const Node* get(std::string_view key);
  /// Like get(), but the value must be a table (inline or [header]).
  const Node* get_table(std::string_view key);
  std::optional<std::string> get_string(std::string_view key);
  std::optional<bool> get_bool(std::string_view key);
  std::optional<std::int64_t> get_int(std::string_view key, std::int64_t min, std::int64_t max = kNoMax);
  std::optional<Nanos> get_duration(std::string_view key);
  std::optional<std::vector<std::string>> get_strings(std::string_view key);
  /// Declares `key` and records `why` when it is present (keys that look right but
  /// must not be used here, e.g. `password`).
  void forbid(std::string_view key, const std::string& why);
  /// Records "missing required key" for each absent key (when the table exists).
  void require(std::initializer_list<std::string_view> keys);
  /// Reports every key present but never declared, with the closest declared key.
  void finish();

 private:
  const Node* table_;
  std::string path_;
  Diagnostics& diag_;
  std::vector<std::string> declared_;
};

}  // namespace labgate::profile::detail
