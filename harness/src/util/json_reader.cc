// Path-aware JSON field access for every JSON reader (see json_reader.h).
#include "labgate/util/json_reader.h"

#include <climits>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace labgate::util {

namespace {
const nlohmann::json& empty_array() {
  static const nlohmann::json empty = nlohmann::json::array();
  return empty;
}
}  // namespace

std::string json_type_name(const nlohmann::json& j) { return j.type_name(); }

std::string json_index_path(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

JsonReader::JsonReader(const nlohmann::json& j, std::string path) : j_(j), path_(std::move(path)) {
  if (!j_.is_object()) fail_here("expected an object, got " + json_type_name(j_));
}

std::string JsonReader::path_of(const char* key) const {
  return path_.empty() ? std::string(key) : path_ + "." + key;
}

const nlohmann::json* JsonReader::find(const char* key) const {
  const auto it = j_.find(key);
  if (it == j_.end() || it->is_null()) return nullptr;
  return &*it;
}

void JsonReader::fail(const char* key, const std::string& what) const {
  throw std::invalid_argument(path_of(key) + ": " + what);
}

void JsonReader::fail_here(const std::string& what) const {
  throw std::invalid_argument((path_.empty() ? std::string("document") : path_) + ": " + what);
}

std::string JsonReader::str(const char* key) const {
  const auto* v = find(key);
  if (!v) fail(key, "missing (expected a string)");
  if (!v->is_string()) fail(key, "expected a string, got " + json_type_name(*v));
  return v->get<std::string>();
}

std::string JsonReader::str_or(const char* key, const std::string& fallback) const {
  return find(key) ? str(key) : fallback;
}

double JsonReader::num(const char* key) const {
  const auto* v = find(key);
  if (!v) fail(key, "missing (expected a number)");
  if (!v->is_number()) fail(key, "expected a number, got " + json_type_name(*v));
  const double d = v->get<double>();
  if (!std::isfinite(d)) fail(key, "not a finite number");
  return d;
}

std::optional<double> JsonReader::opt_num(const char* key) const {
  if (!find(key)) return std::nullopt;
  return num(key);
}

std::optional<long long> JsonReader::opt_int(const char* key) const {
  const auto* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_number_integer()) fail(key, "expected an integer, got " + json_type_name(*v));
  if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(LLONG_MAX))
    fail(key, "integer out of range");
  return v->get<long long>();
}

std::uint64_t JsonReader::count(const char* key) const {
  const auto* v = find(key);
  if (!v) fail(key, "missing (expected a non-negative integer)");
  // nlohmann stores small literals as signed; any non-negative integer will do.
  if (!v->is_number_integer() || (!v->is_number_unsigned() && v->get<std::int64_t>() < 0))
    fail(key, "expected a non-negative integer, got " +
                  (v->is_number() ? std::string("a ") + (v->is_number_float() ? "fraction" : "negative number")
                                  : json_type_name(*v)));
  return v->get<std::uint64_t>();
}

std::optional<std::uint64_t> JsonReader::opt_count(const char* key) const {
  if (!find(key)) return std::nullopt;
  return count(key);
}

int JsonReader::integer(const char* key) const {
  const auto* v = find(key);
  if (!v) fail(key, "missing (expected an integer)");
  if (!v->is_number_integer()) fail(key, "expected an integer, got " + json_type_name(*v));
  if (v->is_number_unsigned() ? v->get<std::uint64_t>() > static_cast<std::uint64_t>(INT_MAX)
                              : (v->get<std::int64_t>() < INT_MIN || v->get<std::int64_t>() > INT_MAX))
    fail(key, "integer out of range");
  return v->get<int>();
}

bool JsonReader::boolean(const char* key) const {
  const auto* v = find(key);
  if (!v) fail(key, "missing (expected true or false)");
  if (!v->is_boolean()) fail(key, "expected true or false, got " + json_type_name(*v));
  return v->get<bool>();
}

bool JsonReader::bool_or(const char* key, bool fallback) const { return find(key) ? boolean(key) : fallback; }

const nlohmann::json& JsonReader::array(const char* key, bool required) const {
  const auto* v = find(key);
  if (!v) {
    if (required) fail(key, "missing (expected an array)");
    return empty_array();
  }
  if (!v->is_array()) fail(key, "expected an array, got " + json_type_name(*v));
  return *v;
}

JsonReader JsonReader::object(const char* key) const {
  const auto* v = find(key);
  if (!v) fail(key, "missing (expected an object)");
  return JsonReader(*v, path_of(key));
}

JsonReader JsonReader::element(const char* key, std::size_t i) const {
  const nlohmann::json& a = array(key);
  if (i >= a.size()) fail(key, "has no element " + std::to_string(i));
  return JsonReader(a[i], json_index_path(path_of(key), i));
}

const nlohmann::json& JsonReader::any(const char* key) const {
  const auto* v = find(key);
  if (!v) fail(key, "missing");
  return *v;
}

}  // namespace labgate::util
