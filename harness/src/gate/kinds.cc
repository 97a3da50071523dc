// A kind's suite and label, and what its runner does while it measures: what
// the kind registered (kinds/<kind>.cc), else its tool's own wording.
#include "labgate/gate/kinds.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "labgate/gate/kind_runner.h"
#include "labgate/util/units.h"

namespace labgate::gate {
namespace {

using profile::TestKind;
using profile::Tool;

std::string seconds(profile::Nanos d) { return units::format_duration(d); }

}  // namespace

std::string excluded_warmup(const profile::TestSpec& t) {
  return t.warmup.count() > 0 ? " after a " + seconds(t.warmup) + " warm-up (excluded)" : " (no warm-up)";
}

KindInfo kind_info(TestKind k) {
  if (const KindRunner* r = find_runner(k)) return {r->suite, r->label};
  return {"Latency", "latency"};  // unregistered: the kinds test fails
}

const std::vector<std::string>& all_labels() {
  // Built once, on first use (after the kinds/ files registered, before main).
  static const std::vector<std::string> labels = [] {
    std::vector<std::string> l{"preconditions", "latency", "throughput"};
    std::vector<std::string> registered;  // sorted: the order the kinds/ files registered in is the linker's
    for (const KindRunner& r : registered_runners())
      if (std::find(l.begin(), l.end(), r.label) == l.end()) registered.emplace_back(r.label);
    std::sort(registered.begin(), registered.end());
    registered.erase(std::unique(registered.begin(), registered.end()), registered.end());
    l.insert(l.end(), registered.begin(), registered.end());
    return l;
  }();
  return labels;
}

std::string measuring_description(const profile::TestSpec& t) {
  if (const KindRunner* r = find_runner(t.kind); r && r->measuring) {
    std::string own = r->measuring(t);
    if (!own.empty()) return own;
  }
  switch (t.tool) {
    case Tool::kNetperf:
      return "netperf for " + seconds(t.duration) +
             " by netperf's own clock (netperf has no warm-up exclusion; its -k figures are the figures)";
    case Tool::kSockperf:
      // sockperf 3.x: -t is its whole run, of which it leaves out the first 400 ms
      // and the last 50 ms; before every run it sleeps 2 s (tools/tool_time.h).
      return "sockperf for " + seconds(t.duration) +
             " by sockperf's own clock, its first 400 ms its own warm-up and its last 50 ms its "
             "cool-down (the profile's warm-up is not applied), after the fixed 2-s pause sockperf "
             "takes before every run";
    case Tool::kSfntPingpong:
      return "sfnt-pingpong for " + seconds(t.duration) + " by its own clock (--minms/--maxms) after " +
             (t.warmup.count() > 0 ? "a " + seconds(t.warmup) : std::string("its default 500 ms")) +
             " warm-up of 1-byte pings it leaves out (--warmupms), closed loop";
    case Tool::kIperf3: {
      const auto whole = std::chrono::ceil<std::chrono::seconds>(t.warmup);
      return "iperf3 for " + seconds(t.duration) + " by iperf3's own clock" +
             (whole.count() > 0
                  ? " after a " + seconds(whole) + " warm-up it sends but does not count (--omit)"
                  : std::string(" (no warm-up)")) +
             " (throughput and loss only)";
    }
    case Tool::kSysbench:
      return "sysbench fileio for " + seconds(t.duration) + " (its own timing)";
    case Tool::kBuiltin: break;
  }
  return "measuring for " + seconds(t.duration) + excluded_warmup(t);
}

}  // namespace labgate::gate
