// The kernel's network counters around one case (seed 004: "watch netstat -s for
// errors"): /proc/net/snmp, /proc/net/netstat and /proc/net/dev on both hosts
// before and after, the deltas added to each measurement so budgets
// (max_retransmits, max_rx_drops, ...) judge them and the report shows them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "labgate/counters/delta.h"
#include "labgate/counters/snapshot.h"
#include "labgate/gate/case_runner.h"
#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"

namespace labgate::gate {

/// Whether a case of this kind is watched: traffic between the pair's test
/// addresses that counter budgets may bound (rr, stream, ping_flood).
bool watches_counters(profile::TestKind kind);

/// The delta's non-zero figures that no budget of `spec` bounds, one line each:
/// the report's warnings ("b: 3 TCP segments retransmitted (Tcp RetransSegs)").
std::vector<std::string> unbudgeted_trouble(const counters::Delta& d, const profile::TestSpec& spec);

class CounterWatch {
 public:
  /// Takes the "before" snapshot on the case's client and server.
  CounterWatch(GateSession& session, const TestCase& c);

  /// Takes the "after" snapshots and adds each host's delta to every measurement
  /// of `run` (counters::add_to_measurement, plus unbudgeted_trouble() as
  /// warnings); the raw snapshots go to run.raw_files. A host whose counters
  /// could not be read is a warning: a budget on them then fails as not measured.
  void finish(CaseRun& run);

 private:
  struct Side {
    std::string host;
    std::optional<counters::Snapshot> before;
    std::string raw_before;
    std::string error;
  };
  std::optional<counters::Snapshot> take(const std::string& host, std::string& raw, std::string& error);

  GateSession& session_;
  const TestCase& case_;
  std::vector<Side> sides_;
};

}  // namespace labgate::gate
