// Who holds a lab lease: the harness's user, host and pid, when it started and
// which run it is. Written into the lease on every target so a second run can
// name the first, and so a lease whose holder is gone can be recognised.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace labgate::lease {

struct Holder {
  std::string user;          ///< login name of the harness process
  std::string host;          ///< hostname of the machine the harness runs on
  long pid = 0;              ///< harness process id on that machine
  std::int64_t started = 0;  ///< unix seconds when the run took the lease
  std::string run_id;        ///< unique per run (results folder name plus a random tag)
  /// The profile's [lab] name: the lease is keyed by the servers, not by it, so
  /// a run of another profile for the same servers is told which lab holds them.
  std::string lab;
  /// Seconds without a heartbeat after which this holder's lease counts as
  /// stale, as its own run judges it (its heartbeat may wait behind a long
  /// command on a shared connection); 0 = the reader's own rule.
  long stale_after_s = 0;

  /// This process, for run `run_id`.
  static Holder current(const std::string& run_id);
  /// key=value lines, one per field (what goes into the lease's holder file).
  std::string serialize() const;
  /// Parses serialize()'s form; nullopt if run_id or host is missing.
  static std::optional<Holder> parse(const std::string& text);
  /// "root@ci-7 pid 4242, run 20260101-120000-ab12, since 2026-01-01 12:00:00 UTC"
  /// (", lab NAME" after the run when the lab is known).
  std::string describe() const;
  /// True if this holder is a harness on this machine that no longer runs:
  /// its pid is gone, or it is this very process but `run_id` is not one of
  /// its active leases. Never true for a holder on another machine.
  bool dead_on_this_machine() const;
};

/// Marks `run_id` as an active lease of this process (or not); see dead_on_this_machine.
void set_run_active(const std::string& run_id, bool active);

}  // namespace labgate::lease
