// kind = "path_mtu": the largest packet that passes from `from` to `to` (and
// back) with Don't Fragment, judged against the MTU the path must carry (`mtu`,
// else the interfaces' preconditions'), not a budget. Declared here; its runner
// is a helper it calls (gate/path_mtu_runner.cc run_path_mtu).
#include <set>

#include "labgate/gate/kind_runner.h"
#include "labgate/gate/netpath_runner.h"
#include "labgate/profile/kind_traits.h"
#include "labgate/profile/profile.h"
#include "profile/reader.h"
#include "profile/suggest.h"
#include "profile/test_draft.h"

namespace labgate::kinds {
namespace {

using profile::TestKind;
using profile::Tool;

// --- In a profile ---

// A path_mtu test without `mtu` expects what the interfaces' preconditions say.
void check_path_mtu_keys(profile::detail::TestDraft& t, const profile::Profile& p,
                         profile::detail::Diagnostics& d) {
  profile::TestSpec& s = t.spec;
  if (s.mtu) return;
  std::set<int> mtus;
  std::vector<std::string> named;
  for (const profile::InterfaceRule& i : p.preconditions.interfaces) {
    if (!i.mtu) continue;
    mtus.insert(*i.mtu);
    named.push_back(i.name + " " + std::to_string(*i.mtu));
  }
  if (mtus.size() == 1) {
    s.mtu = *mtus.begin();
    return;
  }
  if (mtus.empty())
    d.error(s.pos, t.key + ".mtu",
            "missing; a path_mtu test needs the MTU to expect: write mtu = 1500 in the test, or mtu in "
            "[preconditions.interfaces.NAME]");
  else
    d.error(s.pos, t.key + ".mtu",
            "missing, and the interfaces' preconditions expect different MTUs (" +
                profile::detail::join(named) +
                "); write the one this path must carry, e.g. mtu = " + std::to_string(*mtus.begin()));
}

const profile::KindRegistration kPathMtuTraits{{
    .kind = TestKind::kPathMtu,
    .name = "path_mtu",
    .probe = nullptr,  // the host's own ping, with DF
    .takes = {"from", "to", "pairs", "directions", "hosts", "mesh_schedule"},
    .own = {{"mtu", "`mtu` is the MTU a path_mtu test expects"}},
    .refuses = {},
    .on_hosts = false,
    .on_many = false,
    .series = false,
    .tool_runs = [](Tool tool) { return tool == Tool::kBuiltin; },
    .produces = [](Tool, profile::Stat) { return false; },  // judged against `mtu`
    .read = nullptr,  // mtu is read with the shared keys (load_test_fields.cc)
    .check_hosts = nullptr,
    .check = check_path_mtu_keys,
    .count_or_duration = false,
    .own_limits = false,
    .between_hosts = true,
    .no_budget = "a path_mtu test is judged against the MTU it expects (mtu = 1500), not a budget",
}};

#ifndef LABGATE_PROFILE_ONLY  // the profile fuzzer links the profile side only
// --- In a gate run ---

std::string path_mtu_measuring(const profile::TestSpec& t) {
  return "probing the largest packet that passes with Don't Fragment, both directions (mtu " +
         (t.mtu ? std::to_string(*t.mtu) : std::string("not set")) + ")";
}

const gate::RunnerRegistration kPathMtuRunner{{
    .kind = TestKind::kPathMtu,
    .suite = "Network",
    .label = "network",
    .measuring = path_mtu_measuring,
    .expand = nullptr,  // one case per (from, to) pair or mesh pair
    .run = gate::run_path_mtu,
    .watches_counters = false,
    .record_per_peer = false,
    .metric = "path MTU (largest packet passed with DF)",
}};

#endif

}  // namespace
}  // namespace labgate::kinds
