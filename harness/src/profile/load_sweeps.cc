// Expanding a swept [[test]] into its cases and reading budget_by, the per-value
// budgets; values are matched by meaning, so budget_by.socket_buffer."16KiB"
// matches socket_buffer = [16384, ...] too.
#include <algorithm>
#include <set>

#include "labgate/util/units.h"
#include "suggest.h"
#include "sweep.h"
#include "test_draft.h"

namespace labgate::profile::detail {
namespace {

// Keys that hold a list by nature, or name what is measured rather than how.
constexpr std::string_view kNotSweepable[] = {"name", "kind",   "tool",      "from",  "to",
                                              "on",   "cpus",   "argv",      "cpu",   "budget",
                                              "budget_by", "pairs", "directions", "hosts", "mesh_schedule"};
constexpr std::string_view kSizeKeys[] = {"message_size", "socket_buffer", "size", "file_size", "block_size"};
constexpr std::string_view kDurationKeys[] = {"duration",  "warmup", "interval",
                                              "threshold", "pause",  "timeout"};

template <std::size_t N>
bool in(std::string_view key, const std::string_view (&set)[N]) {
  return std::find(std::begin(set), std::end(set), key) != std::end(set);
}

std::string shown_of(const Node& v) {
  switch (v.type) {
    case Node::Type::kString:
      return v.text;
    case Node::Type::kInteger:
      return std::to_string(v.integer);
    case Node::Type::kBoolean:
      return v.boolean ? "true" : "false";
    default:
      return v.brief();
  }
}

// The value's meaning as text: sizes in bytes, durations in ns, else as written.
std::string canonical_of(std::string_view key, const std::string& text) {
  if (in(key, kSizeKeys))
    if (auto v = units::parse_size(text)) return std::to_string(*v.value);
  if (in(key, kDurationKeys))
    if (auto v = units::parse_duration(text)) return std::to_string(v.value->count());
  if (key == "read_mix")
    if (auto v = units::parse_percentage(text)) return std::to_string(*v.value);
  if (key == "rate")
    if (auto v = units::parse_event_rate(text)) return std::to_string(*v.value);
  return text;
}

}  // namespace

std::string canonical_value(std::string_view key, const std::string& text) { return canonical_of(key, text); }

bool is_sweepable(std::string_view key) { return !in(key, kNotSweepable); }

std::vector<SweepDim> sweep_dims(const Node& test, const std::string& key, Diagnostics& d) {
  std::vector<SweepDim> dims;
  for (const Node& c : test.children) {
    if (c.type != Node::Type::kArray || !is_sweepable(c.key)) continue;
    const std::string k = join_key(key, c.key);
    if (c.children.empty()) {
      d.error(c.pos, k,
              "an empty list sweeps nothing; give the values to sweep, e.g. message_size = [64, 1024]");
      continue;
    }
    SweepDim dim;
    dim.key = c.key;
    bool ok = true;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < c.children.size(); ++i) {
      const Node& v = c.children[i];
      const bool scalar =
          v.type == Node::Type::kString || v.type == Node::Type::kInteger || v.type == Node::Type::kBoolean;
      if (!scalar) {
        d.error(v.pos, k + "[" + std::to_string(i) + "]",
                "a swept value must be one string, integer or boolean; found " + std::string(v.type_name()));
        ok = false;
        continue;
      }
      const std::string shown = shown_of(v);
      const std::string canonical = canonical_of(c.key, shown);
      if (!seen.insert(canonical).second) {
        d.error(v.pos, k + "[" + std::to_string(i) + "]",
                "\"" + shown + "\" is listed twice; each value names one case of the sweep");
        ok = false;
        continue;
      }
      Node one = v;
      one.key = c.key;
      one.key_pos = c.key_pos;
      dim.values.push_back(std::move(one));
      dim.shown.push_back(shown);
      dim.canonical.push_back(canonical);
    }
    if (ok) dims.push_back(std::move(dim));
  }
  return dims;
}

std::vector<SweepCase> sweep_cases(const Node& test, const std::vector<SweepDim>& dims) {
  std::vector<SweepCase> cases;
  if (dims.empty()) return cases;
  std::vector<std::size_t> at(dims.size(), 0);
  for (;;) {
    SweepCase c;
    c.node = test;
    c.index = at;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      for (Node& child : c.node.children)
        if (child.key == dims[i].key) child = dims[i].values[at[i]];
      c.points.push_back({dims[i].key, dims[i].shown[at[i]]});
    }
    cases.push_back(std::move(c));
    // Odometer: the last dim varies fastest.
    std::size_t i = dims.size();
    while (i > 0 && ++at[i - 1] == dims[i - 1].values.size()) at[--i] = 0;
    if (i == 0) break;
  }
  return cases;
}

std::string case_name(const std::string& base, const std::vector<SweepPoint>& points) {
  std::string out = base;
  for (std::size_t i = 0; i < points.size(); ++i)
    out += (i == 0 ? "/" : ",") + points[i].parameter + "=" + points[i].value;
  return out;
}

std::vector<BudgetOverride> read_budget_by(const Node* by, const std::string& key,
                                           const std::vector<SweepDim>& dims, Diagnostics& d) {
  std::vector<BudgetOverride> out;
  if (!by) return out;
  const std::string by_key = key + ".budget_by";
  if (!by->is_table()) {
    wrong_type(*by, by_key, "a table like [test.budget_by.message_size.\"4096\"]", d);
    return out;
  }
  std::vector<std::string> swept;
  for (const SweepDim& dim : dims) swept.push_back(dim.key);
  for (const Node& param : by->children) {
    const std::string pk = join_key(by_key, param.key);
    const SourcePos ppos = param.header ? param.pos : param.key_pos;
    auto dim = std::find_if(dims.begin(), dims.end(), [&](const SweepDim& s) { return s.key == param.key; });
    if (dim == dims.end()) {
      std::string msg = "\"" + param.key + "\" is not swept in this test";
      if (swept.empty())
        msg += "; budget_by sets budgets per value of a list parameter, e.g. message_size = [64, 1024]";
      else if (auto s = closest(param.key, swept))
        msg += "; did you mean \"" + *s + "\"?";
      else
        msg += "; swept here: " + join(swept);
      d.error(ppos, pk, msg);
      continue;
    }
    if (!param.is_table()) {
      wrong_type(param, pk, "a table of values, e.g. { \"4096\" = { p99 = \"1ms\" } }", d);
      continue;
    }
    for (const Node& value : param.children) {
      const std::string vk = join_key(pk, value.key);
      const std::string canonical = canonical_of(param.key, value.key);
      auto hit = std::find(dim->canonical.begin(), dim->canonical.end(), canonical);
      if (hit == dim->canonical.end()) {
        d.error(
            value.header ? value.pos : value.key_pos, vk,
            "\"" + value.key + "\" is not one of the swept values of " + param.key + ": " + join(dim->shown));
        continue;
      }
      if (!value.is_table()) {
        wrong_type(value, vk, "a budget table like { p99 = \"1ms\" }", d);
        continue;
      }
      out.push_back({static_cast<std::size_t>(dim - dims.begin()),
                     static_cast<std::size_t>(hit - dim->canonical.begin()), read_bounds(value, vk, d)});
    }
  }
  return out;
}

std::vector<Bound> case_budget(const std::vector<Bound>& budget, const std::vector<BudgetOverride>& overrides,
                               const std::vector<SweepDim>& dims, const SweepCase& c, const std::string& key,
                               Diagnostics& d) {
  std::vector<Bound> out = budget;
  std::vector<Bound> set_here;  // bounds already set by an override for this case
  for (const BudgetOverride& o : overrides) {
    if (c.index[o.dim] != o.value) continue;
    for (const Bound& b : o.bounds) {
      auto prior =
          std::find_if(set_here.begin(), set_here.end(), [&](const Bound& x) { return x.stat == b.stat; });
      if (prior != set_here.end() && prior->limit != b.limit) {
        d.error(b.pos, key + ".budget_by." + dims[o.dim].key,
                std::string(to_string(b.stat)) + " is also set to " + prior->as_written + " at " +
                    prior->pos.str() + " for the case " + case_name("", c.points).substr(1) +
                    "; one case cannot have two limits");
        continue;
      }
      set_here.push_back(b);
      auto same = std::find_if(out.begin(), out.end(), [&](const Bound& x) { return x.stat == b.stat; });
      if (same != out.end())
        *same = b;
      else
        out.push_back(b);
    }
  }
  return out;
}

}  // namespace labgate::profile::detail
