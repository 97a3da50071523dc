// Where a layer below the gate (the lease, the deployment) tells what a person
// reads as it happens: the run's Reporter (gate/reporter.h) is one, so a gate
// run's lease and sweep lines go where its other lines go and a unit test
// records them; outside a run (a lease test, a tool) they go to the log.
#pragma once

#include <string>

namespace labgate::util {

class Messages {
 public:
  virtual ~Messages() = default;
  // May be called from several threads at once (a lease's heartbeat, hosts
  // started in parallel): implementations serialise.
  virtual void info(const std::string& message) = 0;
  virtual void warning(const std::string& message) = 0;
  virtual void error(const std::string& message) = 0;
  /// Detail for --verbose and the log.
  virtual void debug(const std::string& message) = 0;
};

/// The process's log (spdlog: the console at the CLI's verbosity, labgate.log
/// once a run opened it): for callers with no run to tell.
Messages& log_messages();

}  // namespace labgate::util
