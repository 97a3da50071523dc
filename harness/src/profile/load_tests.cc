// Reading [defaults.test] and [[test]]: each test starts from the defaults and
// overrides what it writes; positions are kept so checks point at the right line.
#include <set>

#include "sections.h"
#include "suggest.h"
#include "test_draft.h"

namespace labgate::profile::detail {
namespace {

template <typename E>
std::vector<std::string> names_of(std::span<const E> all) {
  std::vector<std::string> out;
  for (E e : all) out.emplace_back(to_string(e));
  return out;
}

// kind = "..." / tool = "...": one of `all`, else an error listing them.
template <typename E, typename Parse>
std::optional<E> read_enum(TableReader& r, std::string_view key, std::span<const E> all, Parse parse) {
  auto v = r.get_string(key);
  if (!v) return std::nullopt;
  if (auto e = parse(*v)) return e;
  const std::vector<std::string> names = names_of(all);
  std::string msg = "unknown " + std::string(key) + " \"" + *v + "\"";
  if (auto s = closest(*v, names)) msg += "; did you mean \"" + *s + "\"?";
  r.diag().error(r.get(key)->pos, r.key_path(key), msg + " Expected one of: " + join(names));
  return std::nullopt;
}

void read_cpu_placement(const Node& n, const std::string& key, CpuPlacement& cpu, Diagnostics& d) {
  TableReader r(&n, key, d);
  if (auto v = r.get_int("client", 0, 4095)) cpu.client = static_cast<int>(*v);
  if (auto v = r.get_int("server", 0, 4095)) cpu.server = static_cast<int>(*v);
  r.finish();
}

}  // namespace

SourcePos TestDraft::pos_of(const std::string& k) const {
  auto it = where.find(k);
  return it != where.end() ? it->second : spec.pos;
}

std::string TestDraft::key_of(const std::string& k) const {
  const std::string full = key + "." + k;
  return written.count(k) || !where.count(k) ? full : full + " (inherited from [defaults.test])";
}

void read_test_fields(TableReader& r, TestDraft& t, bool from_defaults) {
  // Remember where each present key is, before its value is checked.
  for (const char* k : {"kind", "tool", "from", "to", "on", "cpus", "duration", "warmup", "message_size",
                        "cpu", "rate", "interval", "nodelay", "busy_poll", "threshold", "port"}) {
    const Node* n = r.node() ? r.node()->find(k) : nullptr;
    if (!n) continue;
    t.where[k] = n->pos;
    if (!from_defaults) t.written.insert(k);
  }
  TestSpec& s = t.spec;
  if (r.get("kind")) {
    t.has_kind = true;
    auto v = read_enum<TestKind>(r, "kind", all_test_kinds(), parse_test_kind);
    t.kind_bad = !v;
    if (v) s.kind = *v;
  }
  if (r.get("tool")) {
    auto v = read_enum<Tool>(r, "tool", all_tools(), parse_tool);
    t.tool_bad = !v;
    if (v) s.tool = *v;
  }
  if (auto v = r.get_string("from")) s.from = *v;
  if (auto v = r.get_string("to")) s.to = *v;
  if (auto v = r.get_strings("on")) s.on = *v;
  if (const Node* n = r.get("cpus")) {
    if (auto v = read_ints(*n, r.key_path("cpus"), r.diag(), 0, 4095)) s.cpus.assign(v->begin(), v->end());
  }
  if (auto v = r.get_duration("duration")) s.duration = *v;
  if (auto v = r.get_duration("warmup")) s.warmup = *v;
  if (auto v = r.get_duration("interval")) s.interval = *v;
  if (auto v = r.get_duration("threshold")) s.threshold = *v;
  if (const Node* n = r.get("message_size")) {
    if (auto v = read_size(*n, r.key_path("message_size"), r.diag())) s.message_size = *v;
  }
  if (const Node* n = r.get_table("cpu")) read_cpu_placement(*n, r.key_path("cpu"), s.cpu, r.diag());
  if (const Node* n = r.get("rate")) {
    if (auto v = read_event_rate(*n, r.key_path("rate"), r.diag())) s.rate_per_sec = *v;
  }
  if (auto v = r.get_bool("nodelay")) s.nodelay = *v;
  if (auto v = r.get_bool("busy_poll")) s.busy_poll = *v;
  if (auto v = r.get_int("port", 1, 65535)) s.port = static_cast<int>(*v);
}

void read_budget(const Node& n, TestDraft& t, Diagnostics& d) {
  TableReader r(&n, t.key + ".budget", d);
  for (Stat stat : all_stats()) {
    const Node* v = r.get(to_string(stat));
    if (!v) continue;
    const std::string key = r.key_path(to_string(stat));
    std::optional<double> limit;
    switch (unit_of(stat)) {
      case StatUnit::kNanos:
        if (auto ns = read_duration(*v, key, d)) limit = static_cast<double>(ns->count());
        break;
      case StatUnit::kCount:
        if (auto c = read_int(*v, key, d, 0)) limit = static_cast<double>(*c);
        break;
      case StatUnit::kBitsPerSec:
        limit = read_bit_rate(*v, key, d);
        break;
      case StatUnit::kFraction:
        limit = read_percentage(*v, key, d);
        break;
    }
    if (limit)
      t.spec.budget.push_back(
          Bound{stat, *limit, v->pos, v->type == Node::Type::kString ? v->text : v->brief()});
  }
  r.finish();
}

void read_tests(const Node* tests, const Node* defaults_test, Profile& p, Diagnostics& d) {
  TestDraft base;
  base.key = "defaults.test";
  TableReader dr(defaults_test, "defaults.test", d);
  read_test_fields(dr, base, true);
  dr.forbid("name", "each [[test]] needs its own name; it cannot have a default");
  dr.forbid("budget", "budgets differ per test; write budget = {...} in each [[test]]");
  dr.finish();

  if (!tests) return;  // a profile may check preconditions only
  if (tests->type != Node::Type::kArray) {
    wrong_type(*tests, "test", "an array of tables, each written [[test]]", d);
    return;
  }
  std::map<std::string, SourcePos> names;
  for (std::size_t i = 0; i < tests->children.size(); ++i) {
    const Node& n = tests->children[i];
    TestDraft t = base;
    t.written.clear();
    t.spec.pos = n.pos;
    t.key = "test[" + std::to_string(i + 1) + "]";
    if (!n.is_table()) {
      wrong_type(n, t.key, "a table, written [[test]]", d);
      continue;
    }
    if (const Node* name = n.find("name"); name && name->type == Node::Type::kString && !name->text.empty())
      t.key = "test[" + name->text + "]";
    TableReader r(&n, t.key, d);
    r.require({"name"});
    if (auto v = r.get_string("name")) {
      t.spec.name = *v;
      if (!is_plain_name(*v)) {
        d.error(r.get("name")->pos, t.key + ".name",
                "a test name may hold only letters, digits, '_', '-', '.' (it names results files and JUnit "
                "cases)");
      } else if (auto [it, fresh] = names.emplace(*v, r.get("name")->pos); !fresh) {
        d.error(r.get("name")->pos, t.key + ".name",
                "duplicate test name \"" + *v + "\"; first used at " + it->second.str());
      }
    }
    read_test_fields(r, t, false);
    t.has_budget = n.find("budget") != nullptr;
    if (const Node* b = r.get_table("budget")) read_budget(*b, t, d);
    r.finish();
    check_test(t, p, d);
    p.tests.push_back(std::move(t.spec));
  }
}

}  // namespace labgate::profile::detail
