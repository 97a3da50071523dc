// Reading fields out of a JSON object with errors that name the JSON path at
// fault ("tests[2].budget[0].limit: expected a number, got string"), so a
// hand-edited, truncated or hostile document (run.json, a probe's output, a
// histogram, a facts snapshot, a tool's JSON) is diagnosed, never crashes a
// reader with a json type_error. The one reader every JSON document goes through.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace labgate::util {

/// "object", "string", "number", ... for error messages.
std::string json_type_name(const nlohmann::json& j);

/// "series" + 2 -> "series[2]".
std::string json_index_path(const std::string& path, std::size_t i);

/// A view of one JSON object and its path from the document root. Every error is
/// a std::invalid_argument "<path>: <what>"; callers that need their own error
/// type catch it once at the document's entry point.
class JsonReader {
 public:
  /// Throws std::invalid_argument when `j` is not an object.
  JsonReader(const nlohmann::json& j, std::string path);

  /// The path of a member, "tests[2].name" (or "name" at the root).
  std::string path_of(const char* key) const;
  const std::string& path() const { return path_; }
  const nlohmann::json& json() const { return j_; }
  /// The member or nullptr when absent (a JSON null counts as absent).
  const nlohmann::json* find(const char* key) const;
  bool has(const char* key) const { return find(key) != nullptr; }
  /// Throws std::invalid_argument "<path>.<key>: <what>".
  [[noreturn]] void fail(const char* key, const std::string& what) const;
  /// Throws std::invalid_argument "<path>: <what>" (the object itself is at fault).
  [[noreturn]] void fail_here(const std::string& what) const;

  std::string str(const char* key) const;
  std::string str_or(const char* key, const std::string& fallback) const;
  /// A finite number.
  double num(const char* key) const;
  std::optional<double> opt_num(const char* key) const;
  std::optional<long long> opt_int(const char* key) const;
  /// A non-negative integer that a uint64 holds.
  std::uint64_t count(const char* key) const;
  std::optional<std::uint64_t> opt_count(const char* key) const;
  /// An integer that an int holds.
  int integer(const char* key) const;
  bool boolean(const char* key) const;
  bool bool_or(const char* key, bool fallback) const;
  /// A member that must be an array; an absent one reads as empty when `required` is false.
  const nlohmann::json& array(const char* key, bool required = true) const;
  /// A member that must be an object, as a reader with its path.
  JsonReader object(const char* key) const;
  /// Element i of the array member `key`, which must be an object.
  JsonReader element(const char* key, std::size_t i) const;
  /// The member as it is, whatever its type (nullptr when absent).
  const nlohmann::json& any(const char* key) const;

 private:
  const nlohmann::json& j_;
  std::string path_;
};

}  // namespace labgate::util
