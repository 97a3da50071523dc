// pairs = "mesh": a test between every pair of a profile's hosts (a six-node RAC
// interconnect) instead of one from/to, read from [[test]] or [defaults.test]
// and checked once the test's kind is known.
#include <set>

#include "sections.h"
#include "suggest.h"
#include "test_draft.h"

namespace labgate::profile::detail {
namespace {

// One of `allowed` (a string), else an error with the closest value and the list.
std::optional<std::string> read_choice(TableReader& r, std::string_view key,
                                       const std::vector<std::string>& allowed) {
  auto v = r.get_string(key);
  if (!v) return std::nullopt;
  for (const std::string& a : allowed)
    if (*v == a) return v;
  std::string msg = "unknown value \"" + *v + "\"";
  if (auto s = closest(*v, allowed)) msg += "; did you mean \"" + *s + "\"?";
  r.diag().error(r.get(key)->pos, r.key_path(key), msg + " Expected one of: " + join(allowed));
  return std::nullopt;
}

// The mesh's members as written: each defined, once, with a test address.
std::vector<std::string> listed_hosts(const TestDraft& t, const Profile& p, Diagnostics& d) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const std::string& h : *t.mesh_hosts) {
    if (!seen.insert(h).second) {
      d.error(t.pos_of("hosts"), t.key_of("hosts"), "\"" + h + "\" is listed twice");
      continue;
    }
    if (!check_host_ref(p, h, t.pos_of("hosts"), t.key_of("hosts"), d)) continue;
    if (p.find_host(h)->test_address.empty() && !p.find_host(h)->test_address_given) {
      d.error(t.pos_of("hosts"), t.key_of("hosts"),
              "host \"" + h + "\" has no test_address; a mesh measures between the hosts' test addresses");
      continue;
    }
    out.push_back(h);
  }
  return out;
}

}  // namespace

void read_mesh_fields(TableReader& r, TestDraft& t) {
  if (r.get("pairs")) {
    t.mesh_bad = !read_choice(r, "pairs", {"mesh"});
    t.mesh = !t.mesh_bad;
  }
  if (auto v = read_choice(r, "directions", {"one", "both"})) t.mesh_both = *v == "both";
  if (auto v = r.get_strings("hosts")) t.mesh_hosts = *v;
  if (auto v = read_choice(r, "mesh_schedule", {"sequential", "disjoint"}))
    t.mesh_schedule = *v == "disjoint" ? MeshSchedule::kDisjoint : MeshSchedule::kSequential;
}

void check_defaults_mesh_schedule(const TestDraft& defaults, const Profile& p, Diagnostics& d) {
  if (!defaults.where.count("mesh_schedule")) return;
  for (const TestSpec& t : p.tests)
    if (t.mesh) return;
  d.error(defaults.pos_of("mesh_schedule"), "defaults.test.mesh_schedule",
          "no test of this profile is a mesh (pairs = \"mesh\"); mesh_schedule only schedules a mesh's pairs");
}

bool check_mesh(TestDraft& t, const Profile& p, Diagnostics& d) {
  TestSpec& s = t.spec;
  s.mesh.reset();
  if (t.mesh_bad) return true;  // reported where read; from/to or hosts checks would guess
  const bool pair_written = t.written.count("from") || t.written.count("to");
  // A test that names its own from/to is that one pair, even under a mesh set in
  // [defaults.test]; the mesh then only applies to tests that name no pair.
  const bool mesh = t.mesh && (t.written.count("pairs") || !pair_written);
  if (!mesh) {
    for (const char* k : {"hosts", "directions", "mesh_schedule"})
      if (t.written.count(k))
        d.error(
            t.pos_of(k), t.key_of(k),
            std::string("`") + k + "` belongs to a mesh test; add pairs = \"mesh\" (or remove " + k + ")");
    return false;
  }
  if (pair_written) {
    const char* k = t.written.count("from") ? "from" : "to";
    d.error(t.pos_of(k), t.key_of(k),
            "a mesh test (pairs = \"mesh\") measures every pair of its hosts; write either from/to or "
            "pairs = \"mesh\", not both");
  }
  MeshSpec m;
  m.both_directions = t.mesh_both.value_or(true);
  m.schedule = t.mesh_schedule.value_or(MeshSchedule::kSequential);
  if (t.mesh_hosts) {
    m.hosts = listed_hosts(t, p, d);
    if (t.mesh_hosts->size() < 2)
      d.error(t.pos_of("hosts"), t.key_of("hosts"),
              "a mesh needs at least two hosts; found " + std::to_string(t.mesh_hosts->size()));
  } else {
    for (const Host& h : p.hosts)
      if (!h.test_address.empty()) m.hosts.push_back(h.name);
    if (m.hosts.size() < 2)
      d.error(t.pos_of("pairs"), t.key_of("pairs"),
              "a mesh needs at least two hosts with a test_address; the profile has " +
                  std::to_string(m.hosts.size()) + " (or list them: hosts = [\"a\", \"b\", \"c\"])");
  }
  s.mesh = std::move(m);
  return true;
}

}  // namespace labgate::profile::detail
