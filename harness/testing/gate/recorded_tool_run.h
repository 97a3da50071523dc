// A tool case's run as the gate's tail tests replay it: a 3 s sockperf client
// run that ended 50 ms before each host's watch was stopped (a stop of 4 ms),
// both watches the recorded hog run of harness/src/tail/testdata (tailhog busy
// on CPU 1), client pinned to CPU 1 on host a, server to CPU 0 on host b.
#pragma once

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

#include "labgate/gate/tool_tail.h"

namespace labgate::gate::testing {

inline std::string hog_watch_json() {
  std::ifstream in(std::string(LABGATE_SOURCE_DIR) + "/harness/src/tail/testdata/hog_watch.json");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct RecordedToolRun {
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  tools::ToolRun tool;
  ToolWatchSide a, b;
  RecordedToolRun() {
    using namespace std::chrono_literals;
    tool.client_started = t0;
    tool.client_ended = t0 + 3s;
    tool.measurement.source = "sockperf";
    tool.measurement.kind = "udp_rr";
    tool.measurement.reported = {{"p50", 50000.0}, {"max", 250000.0}};
    for (ToolWatchSide* s : {&a, &b}) {
      s->result = transport::RunResult{};
      s->result->out = hog_watch_json();
      s->result->signal = "TERM";
      s->stop_sent = t0 + 3s + 50ms;
      s->stop_done = t0 + 3s + 54ms;
    }
    a.host = "a";
    a.role = "client";
    a.pinned = 1;
    b.host = "b";
    b.role = "server";
    b.pinned = 0;
  }
};

}  // namespace labgate::gate::testing
