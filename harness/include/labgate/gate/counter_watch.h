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
#include "labgate/gate/counter_bracket.h"
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
  /// Reads nothing itself: each host's snapshots come from the output of a
  /// bracketed_argv() command the case runs there anyway (given()), so before
  /// and after cost no round trip of their own.
  struct FromCommands {};
  CounterWatch(GateSession& session, const TestCase& c, FromCommands);

  /// `host`'s snapshots as its bracketed command printed them. A missing
  /// "before" is the side's error; a missing "after" (the command was stopped
  /// before it read them) is taken by finish() as a command of its own.
  void given(const std::string& host, const Bracketed& b);

  /// Takes the "after" snapshots not given yet (both hosts at once) and adds each host's delta to every
  /// measurement of `run` (counters::add_to_measurement, plus unbudgeted_trouble() as warnings); the raw
  /// snapshots go to run.raw_files. A host whose counters could not be read is a warning: a budget on them
  /// then fails as not measured.
  void finish(CaseRun& run);

 private:
  struct Side {
    std::string host;
    std::optional<counters::Snapshot> before;
    std::string raw_before;
    std::string error;
    std::optional<std::string> raw_after;  ///< given by the case's own command
  };
  std::optional<counters::Snapshot> take(const std::string& host, std::string& raw, std::string& error);

  GateSession& session_;
  const TestCase& case_;
  std::vector<Side> sides_;
};

}  // namespace labgate::gate
