// Reaching and serving several hosts at once: each step of a run (connect,
// lease, run directory, upload, clean-up, release) runs on every host in
// parallel, and a step that fails names every failing host, each error once,
// instead of stopping at the first.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "labgate/profile/profile.h"
#include "labgate/transport/transport.h"
#include "labgate/util/exit_code.h"

namespace labgate::transport {

using Connected = std::map<std::string, std::unique_ptr<Transport>>;
using Maker = std::function<std::unique_ptr<Transport>(const profile::Host&)>;

/// What failed on which hosts in one parallel step, in the hosts' order.
struct HostFailures {
  std::vector<std::string> messages;
  std::optional<ExitCode> code;  ///< the first failure's
  bool empty() const { return messages.empty(); }
  /// Throws one Failure listing them all (nothing if there are none).
  void throw_if_any(const std::string& what = "hosts cannot be reached") const;
};

/// Runs step(i) for i in [0, n) at once, one thread each, and waits for all of
/// them. A Failure is kept as it is (it names its host); another exception is
/// prefixed "host <name(i)>: ".
HostFailures on_each_host(std::size_t n, const std::function<void(std::size_t)>& step,
                          const std::function<std::string(std::size_t)>& name);

/// Connects to every host in parallel (make_transport, then connect()). If any
/// fails, throws one Failure listing every failing host's error, in the hosts'
/// order, with the first failure's exit code.
Connected connect_all(const std::vector<profile::Host>& hosts, Maker make = make_transport);

/// The message for several failures: one alone is itself; more are counted and
/// listed under "N <what>:".
std::string join_failures(const std::vector<std::string>& messages,
                          const std::string& what = "hosts cannot be reached");

}  // namespace labgate::transport
