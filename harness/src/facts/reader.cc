// Path-tracking JSON access for the facts parser (see reader.h).
#include "reader.h"

#include "labgate/facts/parse.h"
#include "labgate/util/json_reader.h"

namespace labgate::facts::internal {

using nlohmann::json;

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

void Reader::fail(const std::string& path, const std::string& what) const {
  throw FactsError("facts from " + origin_ + ": field " + path + ": " + what);
}

/// Runs `read` on util::JsonReader (the one path-naming JSON reader) and turns
/// its std::invalid_argument "<path>: <what>" into this origin's FactsError.
template <class Read>
auto Reader::via_json_reader(Read&& read) const -> decltype(read()) {
  try {
    return read();
  } catch (const std::invalid_argument& e) {
    throw FactsError("facts from " + origin_ + ": field " + e.what());
  }
}

void Reader::expect_object(const json& j, const std::string& path) const {
  via_json_reader([&] { return util::JsonReader(j, path.empty() ? "document" : path).path(); });
}

const json* Reader::member(const json& obj, const std::string& path, const std::string& key) const {
  expect_object(obj, path);
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

std::string Reader::string(const json& obj, const std::string& path, const std::string& key) const {
  return via_json_reader([&] { return util::JsonReader(obj, path).str(key.c_str()); });
}

std::string Reader::string_or_empty(const json& obj, const std::string& path, const std::string& key) const {
  return via_json_reader([&] { return util::JsonReader(obj, path).str_or(key.c_str(), ""); });
}

template <class T>
const json* Reader::common(const json& obj, const std::string& path, const std::string& key,
                           Fact<T>& f) const {
  const std::string here = join(path, key);
  const json* m = member(obj, path, key);
  if (!m) {
    f.error = "not in the snapshot";
    return nullptr;
  }
  expect_object(*m, here);
  f.source = string(*m, here, "source");
  f.error = string_or_empty(*m, here, "error");
  if (unprivileged_ && (f.error == "Permission denied" || f.error == "Operation not permitted"))
    f.error += " (needs root: the facts probe ran as a non-root user; set become = \"sudo\" for this host)";
  f.note = string_or_empty(*m, here, "note");
  if (const json* missing = member(*m, here, "missing")) {
    if (!missing->is_boolean())
      fail(join(here, "missing"), std::string("expected a boolean, got ") + missing->type_name());
    f.missing = missing->get<bool>();
  }
  const json* v = member(*m, here, "value");
  if (!v) fail(join(here, "value"), "missing");
  return v->is_null() ? nullptr : v;
}

template <class T>
Fact<T> Reader::scalar(const json& obj, const std::string& path, const std::string& key,
                       bool (json::*is_type)() const, const char* expected) const {
  Fact<T> f;
  if (const json* v = common(obj, path, key, f)) {
    if (!(v->*is_type)())
      fail(join(join(path, key), "value"),
           std::string("expected ") + expected + " or null, got " + v->type_name());
    f.value = v->get<T>();
  }
  return f;
}

Text Reader::text(const json& obj, const std::string& path, const std::string& key) const {
  return scalar<std::string>(obj, path, key, &json::is_string, "a string");
}

Int Reader::integer(const json& obj, const std::string& path, const std::string& key) const {
  return scalar<long long>(obj, path, key, &json::is_number_integer, "an integer");
}

Bool Reader::boolean(const json& obj, const std::string& path, const std::string& key) const {
  return scalar<bool>(obj, path, key, &json::is_boolean, "a boolean");
}

Fact<std::vector<std::string>> Reader::strings(const json& obj, const std::string& path,
                                               const std::string& key) const {
  Fact<std::vector<std::string>> f;
  if (const json* v = common(obj, path, key, f)) {
    const std::string here = join(join(path, key), "value");
    if (!v->is_array()) fail(here, std::string("expected an array or null, got ") + v->type_name());
    f.value.emplace();
    for (std::size_t i = 0; i < v->size(); ++i) {
      if (!(*v)[i].is_string())
        fail(here + "[" + std::to_string(i) + "]",
             std::string("expected a string, got ") + (*v)[i].type_name());
      f.value->push_back((*v)[i].get<std::string>());
    }
  }
  return f;
}

Fact<std::vector<std::optional<std::string>>> Reader::optional_strings(const json& obj,
                                                                       const std::string& path,
                                                                       const std::string& key) const {
  Fact<std::vector<std::optional<std::string>>> f;
  if (const json* v = common(obj, path, key, f)) {
    const std::string here = join(join(path, key), "value");
    if (!v->is_array()) fail(here, std::string("expected an array or null, got ") + v->type_name());
    f.value.emplace();
    for (std::size_t i = 0; i < v->size(); ++i) {
      const json& e = (*v)[i];
      if (e.is_null())
        f.value->push_back(std::nullopt);
      else if (e.is_string())
        f.value->push_back(e.get<std::string>());
      else
        fail(here + "[" + std::to_string(i) + "]",
             std::string("expected a string or null, got ") + e.type_name());
    }
  }
  return f;
}

std::map<std::string, Text> Reader::text_map(const json& obj, const std::string& path,
                                             const std::string& key) const {
  std::map<std::string, Text> out;
  const json* m = member(obj, path, key);
  if (!m) return out;
  const std::string here = join(path, key);
  expect_object(*m, here);
  for (auto it = m->begin(); it != m->end(); ++it) out[it.key()] = text(*m, here, it.key());
  return out;
}

Settings Reader::settings(const json& obj, const std::string& path, const std::string& key) const {
  Settings out;
  const json* m = member(obj, path, key);
  if (!m) return out;
  const std::string here = join(path, key);
  expect_object(*m, here);
  for (auto it = m->begin(); it != m->end(); ++it) {
    Text t;
    if (const json* v = common(*m, here, it.key(), t)) {
      if (v->is_string())
        t.value = v->get<std::string>();
      else if (v->is_boolean())
        t.value = v->get<bool>() ? "on" : "off";
      else if (v->is_number_integer())
        t.value = std::to_string(v->get<long long>());
      else
        fail(join(join(here, it.key()), "value"),
             std::string("expected a string, integer, boolean or null, got ") + v->type_name());
    }
    out[it.key()] = std::move(t);
  }
  return out;
}

std::map<std::string, Bool> Reader::bool_map(const json& obj, const std::string& path,
                                             const std::string& key) const {
  std::map<std::string, Bool> out;
  const json* m = member(obj, path, key);
  if (!m) return out;
  const std::string here = join(path, key);
  expect_object(*m, here);
  for (auto it = m->begin(); it != m->end(); ++it) out[it.key()] = boolean(*m, here, it.key());
  return out;
}

}  // namespace labgate::facts::internal
