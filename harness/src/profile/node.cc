// Queries and message helpers on the loader's plain TOML tree.
#include <cstdio>

#include "toml_tree.h"

namespace labgate::profile::detail {

const Node* Node::find(std::string_view k) const {
  if (type != Type::kTable) return nullptr;
  for (const Node& c : children)
    if (c.key == k) return &c;
  return nullptr;
}

const char* Node::type_name() const {
  switch (type) {
    case Type::kTable:
      return "a table";
    case Type::kArray:
      return "an array";
    case Type::kString:
      return "a string";
    case Type::kInteger:
      return "an integer";
    case Type::kFloat:
      return "a float";
    case Type::kBoolean:
      return "a boolean";
    case Type::kDateTime:
      return "a date/time";
  }
  return "a value";
}

std::string Node::brief() const {
  switch (type) {
    case Type::kString: {
      // Long or multi-line strings are cut: the message must stay one line.
      std::string s = text.size() > 40 ? text.substr(0, 40) + "..." : text;
      for (char& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
      return "\"" + s + "\"";
    }
    case Type::kInteger:
      return std::to_string(integer);
    case Type::kFloat: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", floating);
      return buf;
    }
    case Type::kBoolean:
      return boolean ? "true" : "false";
    case Type::kArray:
      return "[...]";
    case Type::kTable:
      return "{...}";
    case Type::kDateTime:
      return text;
  }
  return "?";
}

}  // namespace labgate::profile::detail
