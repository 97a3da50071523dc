// Path-aware JSON field access for the results readers.
#include "labgate/results/json_reader.h"

#include <cmath>
#include <stdexcept>

namespace labgate::results {

namespace {
const nlohmann::json& empty_array() {
  static const nlohmann::json empty = nlohmann::json::array();
  return empty;
}
}  // namespace

std::string json_type_name(const nlohmann::json& j) { return j.type_name(); }

JsonReader::JsonReader(const nlohmann::json& j, std::string path) : j_(j), path_(std::move(path)) {
  if (!j_.is_object())
    throw std::invalid_argument((path_.empty() ? std::string("document") : path_) +
                                ": expected an object, got " + json_type_name(j_));
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
  return v->get<long long>();
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

}  // namespace labgate::results
