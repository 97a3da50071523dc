// A plain tree of the TOML document with source positions, in file order. Only
// toml_tree.cc includes toml++ (it compiles slowly); everything else reads this.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "labgate/profile/load.h"

namespace labgate::profile::detail {

struct Node {
  enum class Type { kTable, kArray, kString, kInteger, kFloat, kBoolean, kDateTime };

  Type type = Type::kTable;
  std::string key;      ///< the key naming it in its parent table; empty for array elements
  SourcePos key_pos;    ///< where that key is written
  SourcePos pos;        ///< where the value (or a [table] header) is written
  /// Just past the value's last character (a scalar's text is [pos, end), columns
  /// in code points as toml++ counts them): where `labgate profile-derive` edits.
  SourcePos end;
  bool header = false;  ///< written as a [table] / [[array]] header, not `key = value`
  std::string text;     ///< kString
  std::int64_t integer = 0;
  double floating = 0;
  bool boolean = false;
  std::vector<Node> children;  ///< table entries in file order, or array elements

  bool is_table() const { return type == Type::kTable; }
  /// The entry `k` of a table, or nullptr.
  const Node* find(std::string_view k) const;
  /// "a string", "an integer", "a table", ... for "expected X, found Y" messages.
  const char* type_name() const;
  /// The value in TOML-ish form for messages: "\"140 us\"", 42, true, [...], {...}.
  std::string brief() const;
};

/// The document, or its syntax error (toml++'s description at its position).
struct ParsedToml {
  std::optional<Node> root;
  std::optional<ProfileError> error;
};

/// Parses `text`; `file` names the source in positions. Never throws.
ParsedToml parse_toml(std::string_view text, const std::string& file);

}  // namespace labgate::profile::detail
