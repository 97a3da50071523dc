// Reading fields out of a JSON object with errors that name the JSON path at
// fault ("tests[2].budget[0].limit: expected a number, got string"), so a
// hand-edited or truncated run.json is diagnosed, never crashes a reporter.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace labgate::results {

/// "object", "string", "number", ... for error messages.
std::string json_type_name(const nlohmann::json& j);

/// A view of one JSON object and its path from the document root.
class JsonReader {
 public:
  /// Throws std::invalid_argument when `j` is not an object.
  JsonReader(const nlohmann::json& j, std::string path);

  /// The path of a member, "tests[2].name" (or "name" at the root).
  std::string path_of(const char* key) const;
  /// The member or nullptr when absent (a JSON null counts as absent).
  const nlohmann::json* find(const char* key) const;
  /// Throws std::invalid_argument "<path>.<key>: <what>".
  [[noreturn]] void fail(const char* key, const std::string& what) const;

  std::string str(const char* key) const;
  std::string str_or(const char* key, const std::string& fallback) const;
  double num(const char* key) const;
  std::optional<double> opt_num(const char* key) const;
  std::optional<long long> opt_int(const char* key) const;
  bool boolean(const char* key) const;
  bool bool_or(const char* key, bool fallback) const;
  /// A member that must be an array; an absent one reads as empty when `required` is false.
  const nlohmann::json& array(const char* key, bool required = true) const;

 private:
  const nlohmann::json& j_;
  std::string path_;
};

}  // namespace labgate::results
