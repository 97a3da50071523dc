// The noise watch beside an external tool's case (issue 25 point 5): started on
// both hosts on a channel of its own before the tool's server, on the CPUs the
// profile pins each side to (every CPU when it does not), and stopped and kept
// however the tool ended; then what the tool printed is joined with it as far
// as its output allows (labgate/tail/run_noise.h) into run.json's "tail".
//
// Placing the tool's run on a host's clock: the watch's last window ends when
// its stop (SIGTERM) arrives, so the client's exit on that host's clock is that
// end less the harness's time from the client's return to the stop. The error
// is the channel's delay either way, bounded by the stop's own round trip,
// which the record keeps as align_ns and every joined span is widened by. Its
// own deadline (a backstop) is the tool client's timeout and a minute more, so
// in a run that measured it is still running when it is stopped.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "labgate/gate/case_runner.h"
#include "labgate/gate/session.h"
#include "labgate/gate/test_cases.h"
#include "labgate/tools/tool_driver.h"
#include "labgate/transport/transport.h"

namespace labgate::gate {

/// One host's watch as the case left it.
struct ToolWatchSide {
  std::string host;
  std::string role;  ///< "client" or "server"
  std::optional<int> pinned;
  std::string why_not;                         ///< it could not be started, else empty
  std::optional<transport::RunResult> result;  ///< what its stop returned
  std::chrono::steady_clock::time_point stop_sent{}, stop_done{};
};

/// The watch's window for a tool run of `run` (warm-up and duration): 10 ms
/// while its ring of 6000 holds the run, else the least whole 10 ms that does
/// ("20ms" for 100 s), so a long run is watched from its start in the same memory.
std::string watch_interval(std::chrono::nanoseconds run);

/// run.json's "tail" of a tool case from both sides' watches (client first)
/// and the tool's run. Pure; an unusable watch is a limit of its host.
nlohmann::json explain_tool_run(const profile::TestSpec& spec, const tools::ToolRun& t,
                                const ToolWatchSide& client, const ToolWatchSide& server);

/// The two watches of one tool case. Never throws for a host: a watch that
/// cannot start is a limit in the record, the tool measures all the same.
class ToolWatch {
 public:
  ToolWatch(GateSession& session, const TestCase& c);
  /// Stops what still runs (a case that threw before finish()).
  ~ToolWatch();
  ToolWatch(const ToolWatch&) = delete;
  ToolWatch& operator=(const ToolWatch&) = delete;

  /// Stops both watches (once) and keeps their outputs in `run` ("watch-a.out").
  void stop(CaseRun& run);
  /// stop(), then the tail of the tool's run `t`.
  nlohmann::json finish(const tools::ToolRun& t, CaseRun& run);

 private:
  struct Running {
    ToolWatchSide side;
    std::unique_ptr<transport::Process> process;
  };
  void stop_one(Running& r);
  /// step(0) for the server's side and step(1) for the client's, on both hosts at once.
  void both_sides(const std::function<void(int)>& step) const;

  const TestCase& case_;
  Reporter& reporter_;
  Running client_, server_;
  bool stopped_ = false;
};

}  // namespace labgate::gate
