// Expands profile tests into the cases the latency suite registers.
#include "labgate/gate/test_cases.h"

#include "labgate/gate/kind_runner.h"
#include "labgate/gate/kinds.h"
#include "labgate/mesh/schedule.h"

#include <algorithm>
#include <set>

namespace labgate::gate {

namespace {
void suite_of(profile::TestKind k, TestCase& c) {
  const KindInfo info = kind_info(k);
  c.suite = info.suite;
  c.label = info.label;
}
// A disjoint mesh's pairs, round by round, with each one's round (1-based).
std::vector<std::pair<int, std::pair<std::string, std::string>>> rounds_of(const profile::TestSpec& t) {
  std::vector<std::pair<int, std::pair<std::string, std::string>>> out;
  const auto& h = t.mesh->hosts;
  const auto rounds = mesh::round_robin(h.size(), t.mesh->both_directions);
  for (std::size_t r = 0; r < rounds.size(); ++r)
    for (const mesh::Pair& p : rounds[r]) out.push_back({static_cast<int>(r + 1), {h[p.client], h[p.server]}});
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> pairs_of(const profile::TestSpec& t) {
  if (!t.mesh) return {{t.from, t.to}};
  // Client-major in the mesh's host order: a->b, a->c, b->a, b->c, ... With one
  // direction, only a host listed earlier is the client (a->b, a->c, b->c).
  std::vector<std::pair<std::string, std::string>> out;
  const auto& h = t.mesh->hosts;
  for (std::size_t i = 0; i < h.size(); ++i)
    for (std::size_t j = 0; j < h.size(); ++j)
      if (i != j && (t.mesh->both_directions || i < j)) out.emplace_back(h[i], h[j]);
  return out;
}

std::vector<TestCase> expand_cases(const profile::Profile& p, const std::string& only) {
  std::vector<TestCase> out;
  for (const auto& t : p.tests) {
    if (!only.empty() && t.name != only) continue;
    if (const KindRunner* r = find_runner(t.kind); r && r->expand) {
      for (TestCase c : r->expand(t)) {
        suite_of(t.kind, c);
        out.push_back(c);
      }
    } else if (t.mesh && t.mesh->schedule == profile::MeshSchedule::kDisjoint) {
      for (const auto& [round, pair] : rounds_of(t)) {
        TestCase c{&t, pair.first + "->" + pair.second, pair.first, pair.second, "", "", round};
        suite_of(t.kind, c);
        out.push_back(c);
      }
    } else {
      for (const auto& [client, server] : pairs_of(t)) {
        TestCase c{&t, client + "->" + server, client, server, "", ""};
        suite_of(t.kind, c);
        out.push_back(c);
      }
    }
  }
  return out;
}

std::vector<std::string> hosts_of(const std::vector<TestCase>& cases) {
  std::set<std::string> s;
  for (const auto& c : cases) {
    s.insert(c.client);
    if (!c.server.empty()) s.insert(c.server);
    for (const auto& h : c.spec->multicast.subscribers) s.insert(h);
  }
  return {s.begin(), s.end()};
}

}  // namespace labgate::gate
