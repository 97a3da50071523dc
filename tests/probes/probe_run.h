// Running the real probe binaries in the integration tests: a server whose
// listening line gives its port, a client whose JSON becomes Measurements.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "labgate/measure/probe_output.h"
#include "labgate/transport/transport.h"

namespace labgate::probes_test {

/// The freshly built probe `name` (pingpong, stream, jitter).
std::string probe_path(const std::string& name);

/// A probe server started on a host; stopped (process group killed) on destruction.
struct Server {
  std::unique_ptr<transport::Process> process;
  measure::ListeningLine listening;
};

/// Starts `argv` and waits up to 5 s for its listening line; throws
/// std::runtime_error with the server's output when it does not come.
Server start_server(transport::Transport& host, const std::vector<std::string>& argv);

/// What a client run left: the process result, its JSON (null if none) and,
/// when the JSON is a usable result, the Measurements.
struct ClientRun {
  transport::RunResult result;
  nlohmann::json doc;
  std::vector<measure::Measurement> measurements;
  std::string parse_error;  ///< why `measurements` is empty
  /// The first measurement; fails the calling test (via exception) when none.
  const measure::Measurement& m() const;
};

ClientRun run_client(transport::Transport& host, const std::vector<std::string>& argv,
                     std::chrono::nanoseconds timeout);

}  // namespace labgate::probes_test
