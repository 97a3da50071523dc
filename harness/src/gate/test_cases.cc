// Expands profile tests into the cases the latency suite registers.
#include "labgate/gate/test_cases.h"

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
    // Jitter, command and disk tests run on each host of `on` (command and disk: one).
    if (t.kind == profile::TestKind::kJitter || t.kind == profile::TestKind::kCommand || profile::is_disk(t.kind)) {
      for (const auto& h : t.on) {
        TestCase c{&t, h, h, "", "", ""};
        suite_of(t.kind, c);
        out.push_back(c);
      }
    } else if (t.kind == profile::TestKind::kUdpMulticast && t.tool != profile::Tool::kBuiltin) {
      // A tool's multicast ping-pong: its client publishes, its server (the one
      // subscriber validation allows) answers, as a udp_rr pair. Named by the
      // publisher as the built-in feed's case, its record "a/b" as the feed's.
      TestCase c{&t, t.from, t.from, t.multicast.subscribers.front(), "", ""};
      suite_of(t.kind, c);
      out.push_back(c);
    } else if (t.kind == profile::TestKind::kUdpMulticast) {
      // One case: the publisher's feed to every subscriber; a record per subscriber.
      TestCase c{&t, t.from, t.from, "", "", ""};
      suite_of(t.kind, c);
      out.push_back(c);
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
