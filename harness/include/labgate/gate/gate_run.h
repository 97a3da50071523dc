// One gate run in one process: the results folder (RunBook), the one session on
// the hosts (opened once, when first needed), and whether the run has stopped —
// after a refused lease, a failed connection, a precondition step that could not
// run, or a signal, no measurement starts, and every later case says why.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "labgate/gate/run_book.h"
#include "labgate/gate/session.h"
#include "labgate/profile/profile.h"

namespace labgate::gate {

class GateRun {
 public:
  GateRun(const profile::Profile& profile, RunBook& book,
          SessionBoundaries boundaries = SessionBoundaries::real());
  ~GateRun();
  GateRun(const GateRun&) = delete;
  GateRun& operator=(const GateRun&) = delete;

  const profile::Profile& profile() const { return profile_; }
  RunBook& book() { return book_; }
  /// Where the run is told as it goes: its book's.
  Reporter& reporter() { return book_.reporter(); }

  /// The session on every host the run touches (`hosts` on first call), opened
  /// once. nullptr when it could not be opened: the run has then stopped, the
  /// reason is recorded (run.json's error) and logged once.
  GateSession* session(const std::vector<std::string>& hosts);

  /// Stops the run: no measurement starts after this; `why` is recorded.
  void stop(const std::string& why);
  /// Why the run stopped (a signal included), nullopt while it may go on.
  std::optional<std::string> stopped() const;

  /// Cleans up the hosts and releases the lease; a failure is recorded, never thrown.
  void close();

 private:
  const profile::Profile& profile_;
  RunBook& book_;
  SessionBoundaries boundaries_;
  std::unique_ptr<GateSession> session_;
  bool tried_ = false;
  std::optional<std::string> stopped_;
};

/// Why the run in `run` has stopped, as a later step (a CTest test in its own
/// process) reads it from run.json: the error that stopped it, or nullopt.
std::optional<std::string> stopped_why(const results::RunResult& run);

/// A stop's reason without its details, for the lines that follow the one that
/// printed it ("could not reach the hosts" of "could not reach the hosts: host
/// b ...: cannot connect"): every error is printed once, by the step that met it.
std::string brief_reason(const std::string& why);

}  // namespace labgate::gate
