// Typed, path-tracking access to the snapshot's JSON: every type error names
// the origin and the dotted field, and every fact object becomes a Fact<T>.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "labgate/facts/facts.h"

namespace labgate::facts::internal {

class Reader {
 public:
  explicit Reader(std::string origin) : origin_(std::move(origin)) {}
  /// The snapshot was read by a non-root user: a permission refusal then means
  /// the fact needs root, and its error says so.
  void set_unprivileged(bool v) { unprivileged_ = v; }

  /// Throws FactsError naming the origin and `path`.
  [[noreturn]] void fail(const std::string& path, const std::string& what) const;

  /// The member `key` of object `obj`, or nullptr when absent. `obj` must be an object.
  const nlohmann::json* member(const nlohmann::json& obj, const std::string& path,
                               const std::string& key) const;
  /// Requires `j` to be an object.
  void expect_object(const nlohmann::json& j, const std::string& path) const;
  /// A required string member.
  std::string string(const nlohmann::json& obj, const std::string& path, const std::string& key) const;
  /// An optional string member ("" when absent).
  std::string string_or_empty(const nlohmann::json& obj, const std::string& path,
                              const std::string& key) const;

  /// The fact at obj[key]; an absent member reads as "not in the snapshot".
  Text text(const nlohmann::json& obj, const std::string& path, const std::string& key) const;
  Int integer(const nlohmann::json& obj, const std::string& path, const std::string& key) const;
  Bool boolean(const nlohmann::json& obj, const std::string& path, const std::string& key) const;
  Fact<std::vector<std::string>> strings(const nlohmann::json& obj, const std::string& path,
                                         const std::string& key) const;
  Fact<std::vector<std::optional<std::string>>> optional_strings(const nlohmann::json& obj,
                                                                 const std::string& path,
                                                                 const std::string& key) const;
  /// Every member of obj[key] as a text fact whose value may be a string, an
  /// integer (as decimal) or a boolean (as "on"/"off").
  Settings settings(const nlohmann::json& obj, const std::string& path, const std::string& key) const;
  /// Every member of the object obj[key] as a boolean fact (empty when absent).
  std::map<std::string, Bool> bool_map(const nlohmann::json& obj, const std::string& path,
                                       const std::string& key) const;
  /// Every member of the object obj[key] as a text fact (empty when absent).
  std::map<std::string, Text> text_map(const nlohmann::json& obj, const std::string& path,
                                       const std::string& key) const;

 private:
  bool unprivileged_ = false;
  /// Reads source/error/missing/note into `f` and returns the "value" member
  /// (nullptr when null), or nullptr with f.error set when the fact is absent.
  template <class T>
  const nlohmann::json* common(const nlohmann::json& obj, const std::string& path, const std::string& key,
                               Fact<T>& f) const;

  /// A fact whose value must pass `is_type` (described as `expected` in errors).
  template <class T>
  Fact<T> scalar(const nlohmann::json& obj, const std::string& path, const std::string& key,
                 bool (nlohmann::json::*is_type)() const, const char* expected) const;

  /// util::JsonReader's errors as this origin's FactsError.
  template <class Read>
  auto via_json_reader(Read&& read) const -> decltype(read());

  std::string origin_;
};

/// "a.b" + "c" -> "a.b.c".
std::string join(const std::string& path, const std::string& key);

}  // namespace labgate::facts::internal
