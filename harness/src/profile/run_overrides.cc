// labgate run's --duration/--warmup/--message-size, applied to the TOML tree
// before the tests are read: the value is then validated, swept and checked by
// the same readers as a value written in the profile, and every test that has
// the parameter gets it (a sweep over it becomes a sweep of that one value).
#include <algorithm>
#include <cctype>

#include "labgate/profile/kind_traits.h"
#include "labgate/util/units.h"
#include "sections.h"
#include "sweep.h"

namespace labgate::profile::detail {
namespace {

const Node* entry(const Node* table, std::string_view key) {
  return table && table->is_table() ? table->find(key) : nullptr;
}

Node* entry(Node& table, std::string_view key) {
  for (Node& c : table.children)
    if (c.key == key) return &c;
  return nullptr;
}

// The override as a TOML value; a size may be typed as bare bytes ("64"), as the
// profile may write it as an integer.
Node value_node(const RunOverride& o, const SourcePos& pos) {
  Node n;
  n.key = o.parameter;
  n.key_pos = n.pos = pos;
  const bool digits = !o.value.empty() && o.value.size() <= 18 &&
                      std::all_of(o.value.begin(), o.value.end(), [](unsigned char c) { return std::isdigit(c); });
  if (o.parameter == "message_size" && digits) {
    n.type = Node::Type::kInteger;
    n.integer = std::stoll(o.value);
  } else {
    n.type = Node::Type::kString;
    n.text = o.value;
  }
  return n;
}

bool valid(const RunOverride& o, const Node& v, Diagnostics& d) {
  const std::string flag = override_flag(o.parameter);
  if (o.parameter == "message_size") {
    const auto size = read_size(v, flag, d);
    if (size && *size == 0) d.error(v.pos, flag, "must be at least 1 byte");
    return size && *size > 0;
  }
  return read_duration(v, flag, d).has_value();
}

// The test's kind as written (here or in [defaults.test]); nullopt when it is
// missing or unknown, which the test reader reports.
std::optional<TestKind> kind_of(const Node& test, const Node* defaults) {
  const Node* k = entry(&test, "kind");
  if (!k) k = entry(defaults, "kind");
  if (!k || k->type != Node::Type::kString) return std::nullopt;
  return parse_test_kind(k->text);
}

bool has_parameter(const std::string& parameter, TestKind kind, const Node& test, const Node* defaults) {
  if (!key_applies(parameter, kind)) return false;
  // A test run `count` times (command) has no duration to replace.
  const KindTraits* traits = find_kind(kind);
  if (parameter == "duration" && traits && traits->count_or_duration)
    return !entry(&test, "count") && !entry(defaults, "count");
  return true;
}

// A value as written, lists in full (Node::brief abbreviates them).
std::string shown(const Node& n) {
  if (n.type != Node::Type::kArray) return n.brief();
  std::string s = "[";
  for (const Node& e : n.children) s += (s.size() > 1 ? ", " : "") + e.brief();
  return s + "]";
}

std::string was_of(const Node* own, const Node* inherited, const std::string& parameter) {
  if (own) return shown(*own) + (own->type == Node::Type::kArray ? " (a sweep)" : "") + " at " + own->pos.str();
  if (inherited) return inherited->brief() + " from [defaults.test] at " + inherited->pos.str();
  const TestSpec labgate_default;
  if (parameter == "duration") return "labgate's default " + units::format_duration(labgate_default.duration);
  if (parameter == "warmup") return "labgate's default " + units::format_duration(labgate_default.warmup);
  return "labgate's default " + std::to_string(labgate_default.message_size);
}

// budget_by.<parameter> of a sweep narrowed to one value keeps only that value's
// budget (the others name cases that no longer exist).
void narrow_budget_by(Node& test, const std::string& parameter, const std::string& value) {
  Node* by = entry(test, "budget_by");
  if (!by || !by->is_table()) return;
  Node* per_value = entry(*by, parameter);
  if (!per_value || !per_value->is_table()) return;
  const std::string wanted = canonical_value(parameter, value);
  std::erase_if(per_value->children,
                [&](const Node& v) { return canonical_value(parameter, v.key) != wanted; });
  if (per_value->children.empty())
    std::erase_if(by->children, [&](const Node& c) { return c.key == parameter; });
  if (by->children.empty()) std::erase_if(test.children, [](const Node& c) { return c.key == "budget_by"; });
}

std::string test_name(const Node& test, std::size_t index) {
  const Node* n = entry(&test, "name");
  return n && n->type == Node::Type::kString ? n->text : "test[" + std::to_string(index + 1) + "]";
}

}  // namespace

void apply_run_overrides(Node& root, const std::vector<RunOverride>& overrides,
                         std::vector<AppliedOverride>& applied, Diagnostics& d) {
  if (overrides.empty()) return;
  const Node* defaults = entry(entry(&root, "defaults"), "test");
  Node* tests = entry(root, "test");
  for (const RunOverride& o : overrides) {
    const SourcePos pos{"command line (" + override_flag(o.parameter) + " " + o.value + ")", 0, 0};
    const bool known = std::any_of(std::begin(kOverridableParameters), std::end(kOverridableParameters),
                                   [&](const char* p) { return o.parameter == p; });
    if (!known) {
      d.error(pos, override_flag(o.parameter), "labgate run overrides only duration, warmup and message_size");
      continue;
    }
    const Node value = value_node(o, pos);
    if (!valid(o, value, d)) continue;
    AppliedOverride a{o.parameter, o.value, {}};
    if (tests && tests->type == Node::Type::kArray) {
      for (std::size_t i = 0; i < tests->children.size(); ++i) {
        Node& test = tests->children[i];
        if (!test.is_table()) continue;
        const std::optional<TestKind> kind = kind_of(test, defaults);
        if (!kind || !has_parameter(o.parameter, *kind, test, defaults)) continue;
        Node* own = entry(test, o.parameter);
        a.replaced.push_back({test_name(test, i), was_of(own, entry(defaults, o.parameter), o.parameter)});
        if (own && own->type == Node::Type::kArray) {
          Node one = value;
          one.key.clear();  // an array element
          own->children = {one};
          own->pos = pos;
          narrow_budget_by(test, o.parameter, o.value);
        } else if (own) {
          *own = value;
        } else {
          test.children.push_back(value);
        }
      }
    }
    applied.push_back(std::move(a));
  }
}

}  // namespace labgate::profile::detail
