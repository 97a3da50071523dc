// kind = "jitter": the jitter probe spins on the clock on each host of `on` (on
// the CPUs of `cpus`, else one unpinned thread) and records every gap above
// `threshold`; a measurement per CPU. Declared here; its runner is a helper it
// calls (gate/case_runner.cc run_jitter_case: the probe beside the noise watch),
// its probe command measure/probe_command.cc probe_jitter_argv.
#include "labgate/gate/kind_runner.h"
#include "labgate/gate/kinds.h"
#include "labgate/profile/kind_traits.h"
#include "labgate/util/units.h"
#include "profile/reader.h"
#include "profile/test_draft.h"

namespace labgate::kinds {
namespace {

using profile::Stat;
using profile::TestKind;
using profile::Tool;

// --- In a profile ---

void read_jitter_keys(profile::detail::TableReader& r, profile::detail::TestDraft& t) {
  if (const profile::detail::Node* n = r.get("cpus")) {
    if (auto v = profile::detail::read_ints(*n, r.key_path("cpus"), r.diag(), 0, 4095))
      t.spec.cpus.assign(v->begin(), v->end());
  }
  if (auto v = r.get_duration("threshold")) t.spec.threshold = *v;
}

void check_jitter_keys(profile::detail::TestDraft& t, const profile::Profile&,
                       profile::detail::Diagnostics& d) {
  if (t.spec.threshold.count() <= 0)
    d.error(t.pos_of("threshold"), t.key_of("threshold"), "must be above 0, e.g. \"10us\"");
}

const profile::KindRegistration kJitterTraits{{
    .kind = TestKind::kJitter,
    .name = "jitter",
    .probe = "jitter",
    .takes = {"on", "warmup", "interval", "duration"},
    .own = {{"cpus",
             "`cpus` is for jitter tests; pin client and server with cpu = { client = N, server = N }"},
            {"threshold", "`threshold` is a jitter test's event threshold"}},
    .refuses = {{"from", "a jitter test runs on the hosts in `on`"},
                {"to", "a jitter test runs on the hosts in `on`"},
                {"message_size", "a jitter test sends no messages"},
                {"rate", "a jitter test sends no messages"},
                {"port", "a jitter test sends no messages"},
                {"busy_poll", "a jitter test sends no messages"},
                {"cpu", "a jitter test spins on the CPUs in `cpus`"}},
    .on_hosts = true,
    .on_many = true,
    .series = true,
    .tool_runs = [](Tool tool) { return tool == Tool::kBuiltin; },
    // The gaps' histogram: percentiles, max, mean, stddev.
    .produces = [](Tool, Stat stat) { return profile::is_latency(stat); },
    .read = read_jitter_keys,
    .check_hosts = nullptr,
    .check = check_jitter_keys,
}};

#ifndef LABGATE_PROFILE_ONLY  // the profile fuzzer links the profile side only
// --- In a gate run ---

std::string jitter_measuring(const profile::TestSpec& t) {
  return "spinning on the clock for " + units::format_duration(t.duration) + gate::excluded_warmup(t);
}

const gate::RunnerRegistration kJitterRunner{{
    .kind = TestKind::kJitter,
    .suite = "Jitter",
    .label = "jitter",
    .measuring = jitter_measuring,
    .expand = gate::cases_on_hosts,  // a case per host of `on`
    .run = gate::run_jitter_case,
    .watches_counters = false,
    .record_per_peer = false,  // a record per CPU ("a/cpu2"), by the measurement's cpu
}};

#endif

}  // namespace
}  // namespace labgate::kinds
