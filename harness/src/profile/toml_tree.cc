// Turns toml++'s document into the loader's plain Node tree (positions kept,
// entries in file order). The only file of the loader that includes toml++.
#include "toml_tree.h"

#include <toml++/toml.h>

#include <algorithm>
#include <exception>
#include <sstream>
#include <tuple>

namespace labgate::profile::detail {
namespace {

SourcePos to_pos(const toml::source_region& r, const std::string& file) {
  return SourcePos{file, static_cast<int>(r.begin.line), static_cast<int>(r.begin.column)};
}

bool before(const SourcePos& a, const SourcePos& b) {
  return std::tie(a.line, a.column) < std::tie(b.line, b.column);
}

Node convert(const toml::node& n, const std::string& file);

Node convert_table(const toml::table& t, const std::string& file) {
  Node out;
  out.type = Node::Type::kTable;
  out.pos = to_pos(t.source(), file);
  for (auto&& [k, v] : t) {
    Node child = convert(v, file);
    child.key = std::string(k.str());
    child.key_pos = to_pos(k.source(), file);
    // A [table] header starts before its last key; a dotted `a.b = 1` does not.
    if (const toml::table* sub = v.as_table())
      child.header = !sub->is_inline() && before(child.pos, child.key_pos);
    if (const toml::array* arr = v.as_array())
      child.header = arr->is_array_of_tables() && !arr->empty() && !(*arr)[0].as_table()->is_inline();
    out.children.push_back(std::move(child));
  }
  // toml++ keeps a table's keys sorted; messages and hosts want file order.
  std::stable_sort(out.children.begin(), out.children.end(),
                   [](const Node& a, const Node& b) { return before(a.key_pos, b.key_pos); });
  return out;
}

Node convert(const toml::node& n, const std::string& file) {
  if (const toml::table* t = n.as_table()) return convert_table(*t, file);
  Node out;
  out.pos = to_pos(n.source(), file);
  out.end = SourcePos{file, static_cast<int>(n.source().end.line), static_cast<int>(n.source().end.column)};
  if (const toml::array* a = n.as_array()) {
    out.type = Node::Type::kArray;
    for (const toml::node& e : *a) out.children.push_back(convert(e, file));
  } else if (const toml::value<std::string>* s = n.as_string()) {
    out.type = Node::Type::kString;
    out.text = s->get();
  } else if (n.is_integer()) {
    out.type = Node::Type::kInteger;
    out.integer = n.as_integer()->get();
  } else if (n.is_floating_point()) {
    out.type = Node::Type::kFloat;
    out.floating = n.as_floating_point()->get();
  } else if (n.is_boolean()) {
    out.type = Node::Type::kBoolean;
    out.boolean = n.as_boolean()->get();
  } else {
    out.type = Node::Type::kDateTime;
    std::ostringstream os;
    n.visit([&os](const auto& v) {
      if constexpr (toml::is_date<decltype(v)> || toml::is_time<decltype(v)> ||
                    toml::is_date_time<decltype(v)>)
        os << v;
    });
    out.text = os.str();
  }
  return out;
}

}  // namespace

ParsedToml parse_toml(std::string_view text, const std::string& file) {
  ParsedToml out;
  try {
    toml::table doc = toml::parse(text, file);
    out.root = convert_table(doc, file);
    out.root->pos = SourcePos{file, 1, 1};
  } catch (const toml::parse_error& e) {
    out.error =
        ProfileError{to_pos(e.source(), file), "", "TOML syntax error: " + std::string(e.description())};
  } catch (const std::exception& e) {
    out.error = ProfileError{SourcePos{file, 0, 0}, "", std::string("cannot parse: ") + e.what()};
  }
  return out;
}

}  // namespace labgate::profile::detail
