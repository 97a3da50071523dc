// Reading [defaults.test] and [[test]]: each test starts from the defaults and
// overrides what it writes; a test with a list parameter becomes one case per
// value; positions are kept so checks point at the right line.
#include <set>

#include "labgate/profile/limits.h"
#include "sections.h"
#include "suggest.h"
#include "sweep.h"
#include "test_draft.h"

namespace labgate::profile::detail {
namespace {

// [defaults.test] without its list values: a sweep belongs to one test.
Node defaults_without_lists(const Node* defaults_test, Diagnostics& d) {
  Node out;
  if (!defaults_test || !defaults_test->is_table()) return out;
  out = *defaults_test;
  std::erase_if(out.children, [&](const Node& c) {
    const bool list = c.type == Node::Type::kArray && is_sweepable(c.key);
    if (list)
      d.error(c.pos, join_key("defaults.test", c.key),
              "a list sweeps one test; write " + c.key +
                  " = [...] in the [[test]] to sweep, not in [defaults.test]");
    return list;
  });
  return out;
}

// Reads one case (a whole test, or one value of a sweep) on top of the defaults.
TestDraft read_case(const Node& n, const TestDraft& base, const std::string& key, Diagnostics& d) {
  TestDraft t = base;
  t.written.clear();
  t.spec.pos = n.pos;
  t.key = key;
  TableReader r(&n, t.key, d);
  r.require({"name"});
  r.get("name");
  read_test_fields(r, t, false);
  t.has_budget = n.find("budget") != nullptr;
  if (const Node* b = r.get_table("budget")) t.spec.budget = read_bounds(*b, t.key + ".budget", d);
  r.get("budget_by");  // read once per test by read_tests
  r.finish();
  return t;
}

}  // namespace

std::vector<Bound> read_bounds(const Node& n, const std::string& key, Diagnostics& d) {
  std::vector<Bound> out;
  TableReader r(&n, key, d);
  for (Stat stat : all_stats()) {
    const Node* v = r.get(to_string(stat));
    if (!v) continue;
    const std::string k = r.key_path(to_string(stat));
    std::optional<double> limit;
    switch (unit_of(stat)) {
      case StatUnit::kNanos:
        if (auto ns = read_duration(*v, k, d)) limit = static_cast<double>(ns->count());
        break;
      case StatUnit::kCount:
        if (auto c = read_int(*v, k, d, 0)) limit = static_cast<double>(*c);
        break;
      case StatUnit::kBitsPerSec:
        limit = read_bit_rate(*v, k, d);
        break;
      case StatUnit::kFraction:
        limit = read_percentage(*v, k, d);
        break;
    }
    if (limit)
      out.push_back(Bound{stat, *limit, v->pos, v->type == Node::Type::kString ? v->text : v->brief()});
  }
  r.finish();
  return out;
}

void read_tests(const Node* tests, const Node* defaults_test, Profile& p, Diagnostics& d) {
  TestDraft base;
  base.key = "defaults.test";
  const Node defaults = defaults_without_lists(defaults_test, d);
  TableReader dr(defaults_test ? &defaults : nullptr, "defaults.test", d);
  read_test_fields(dr, base, true);
  dr.forbid("name", "each [[test]] needs its own name; it cannot have a default");
  dr.forbid("budget", "budgets differ per test; write budget = {...} in each [[test]]");
  dr.forbid("budget_by", "budgets differ per test; write budget_by in the swept [[test]]");
  dr.finish();

  if (!tests) return;  // a profile may check preconditions only
  if (tests->type != Node::Type::kArray) {
    wrong_type(*tests, "test", "an array of tables, each written [[test]]", d);
    return;
  }
  std::map<std::string, SourcePos> names;
  for (std::size_t i = 0; i < tests->children.size(); ++i) {
    const Node& n = tests->children[i];
    std::string key = "test[" + std::to_string(i + 1) + "]";
    if (!n.is_table()) {
      wrong_type(n, key, "a table, written [[test]]", d);
      continue;
    }
    std::string name;
    SourcePos name_pos = n.pos;
    bool name_fits = true;  // a sweep's case names are checked only when the base fits
    if (const Node* nn = n.find("name"); nn && nn->type == Node::Type::kString) {
      name = nn->text;
      name_pos = nn->pos;
      // A name over the limit is shown shortened: the error is about its length.
      if (!name.empty()) key = "test[" + (name.size() > 64 ? name.substr(0, 48) + "..." : name) + "]";
      if (const std::string why = name_length_refusal(name, kMaxTestNameBytes, "a test name"); !why.empty()) {
        d.error(nn->pos, key + ".name", why);
        name_fits = false;
      } else if (!is_plain_name(name)) {
        d.error(nn->pos, key + ".name",
                "a test name may hold only letters, digits, '_', '-', '.' (it names results files and JUnit "
                "cases)");
      } else if (auto [it, fresh] = names.emplace(name, nn->pos); !fresh) {
        d.error(nn->pos, key + ".name",
                "duplicate test name \"" + name + "\"; first used at " + it->second.str());
      }
    } else if (nn) {
      wrong_type(*nn, key + ".name", "a string", d);
    }
    const std::vector<SweepDim> dims = sweep_dims(n, key, d);
    const std::vector<BudgetOverride> by = read_budget_by(n.find("budget_by"), key, dims, d);
    std::vector<SweepCase> cases = sweep_cases(n, dims);
    if (cases.empty()) cases.push_back(SweepCase{n, {}, {}});  // not swept: one test
    for (SweepCase& c : cases) {
      // A bad list was reported by sweep_dims; the readers must not report it again.
      std::erase_if(c.node.children,
                    [&](const Node& x) { return x.type == Node::Type::kArray && is_sweepable(x.key); });
      TestDraft t = read_case(c.node, base, key, d);
      t.spec.name = c.points.empty() ? name : case_name(name, c.points);
      if (name_fits && !c.points.empty())
        if (const std::string why =
                name_length_refusal(t.spec.name, kMaxTestNameBytes, "a swept test's case name");
            !why.empty())
          d.error(name_pos, key + ".name", why + " (\"" + t.spec.name + "\"); shorten the test's name");
      if (!c.points.empty()) {
        t.spec.sweep_of = name;
        t.spec.sweep = c.points;
        t.spec.budget = case_budget(t.spec.budget, by, dims, c, key, d);
      }
      check_test(t, p, d);
      p.tests.push_back(std::move(t.spec));
    }
  }
  check_defaults_mesh_schedule(base, p, d);
}

}  // namespace labgate::profile::detail
