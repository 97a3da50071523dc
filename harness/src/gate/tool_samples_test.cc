// sockperf's logged round trips joined one by one with the recorded hog run's
// watch (harness/src/tail/testdata: tailhog busy on CPU 1): a round trip inside
// the hog's window names it, and each reason the join cannot be made (client not
// pinned, a log on sockperf's own TSC clock, a failed pass) is said, never guessed.
#include "labgate/gate/tool_samples.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gate/recorded_tool_run.h"
#include "labgate/tail/tail_records.h"

namespace labgate::gate {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

std::string seconds(std::uint64_t ns) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%llu.%09llu", static_cast<unsigned long long>(ns / 1000000000),
                static_cast<unsigned long long>(ns % 1000000000));
  return buf;
}

/// The recorded tool run with sockperf's log asked for, and
/// a moment inside the window where tailhog ran longest on CPU 1.
struct LoggedRun : testing::RecordedToolRun {
  tail::WatchOutput watch = tail::parse_watch(testing::hog_watch_json(), "a");
  profile::TestSpec spec;
  std::uint64_t hog_tx = 0;
  LoggedRun() {
    spec.name = "sp";
    spec.tool = profile::Tool::kSockperf;
    spec.kind = profile::TestKind::kUdpRr;
    spec.cpu.client = 1;
    spec.cpu.server = 0;
    spec.full_log = true;
    tool.measurement.reported = {{"p50", 50000.0}, {"max", 5000000.0}};
    // The window where tailhog ran longest on CPU 1: a 5 ms round trip inside it.
    std::uint64_t most = 0;
    for (const tail::WatchWindow& w : watch.windows)
      for (const tail::TaskRun& t : w.tasks)
        if (t.comm == "tailhog" && t.cpu == 1 && t.ran_ns > most) {
          most = t.ran_ns;
          hog_tx = w.tasks_since + (w.t1 - w.tasks_since) / 2;
        }
  }
  void log(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& worst, std::uint64_t samples) {
    tool.full_log = transport::RunResult{};
    tool.full_log->exit_status = 0;
    std::string out = "samples " + std::to_string(samples) + " " + seconds(worst.back().first) + " " +
                      seconds(worst.front().second) + "\n";
    for (std::size_t i = 0; i < worst.size(); ++i)
      out += std::to_string(100 + i) + ", " + seconds(worst[i].first) + ", " + seconds(worst[i].second) +
             ", 0.000\n";
    tool.full_log->out = out;
  }
};

TEST(ToolSamples, ARoundTripInsideTheHogsWindowNamesIt) {
  LoggedRun r;
  ASSERT_GT(r.hog_tx, 0u) << "the recording has no tailhog on CPU 1";
  r.log({{r.hog_tx, r.hog_tx + 5000000}}, 120000);
  const json t = explain_tool_run(r.spec, r.tool, r.a, r.b);
  ASSERT_TRUE(t.contains("outliers")) << t.dump(2);
  EXPECT_THAT(t["join"].get<std::string>(), HasSubstr("per round trip: the 1 worst of sockperf's 120000"));
  EXPECT_EQ(t["samples_logged"], 120000);
  ASSERT_EQ(t["outliers"].size(), 1u);
  EXPECT_EQ(t["outliers"][0]["seq"], 100);
  EXPECT_EQ(t["outliers"][0]["value_ns"], 5000000);
  EXPECT_THAT(t["outliers"][0]["cause"].get<std::string>(), HasSubstr("tailhog (pid 14260)"));
  // Host a's evidence first; host b (the same recording, its server on CPU 0) has its own.
  const json& first = t["outliers"][0]["evidence"][0];
  EXPECT_EQ(first["host"], "a");
  EXPECT_EQ(first["cpu"], 1);
  EXPECT_EQ(first["comm"], "tailhog");
  EXPECT_THAT(t["top"].get<std::string>(), HasSubstr("1 of 1 worst round trips: "));
  // The whole run's join stays beside it, and what the log cannot show is said.
  EXPECT_TRUE(t.contains("over_run"));
  EXPECT_THAT(t["limits"].dump(), HasSubstr("sockperf's log has no context switches"));
  EXPECT_EQ(t["clock_offset"]["ns"], 0) << "one recording for both hosts: the placements agree";
  EXPECT_EQ(t["clock_offset"]["bound_ns"], 8000000) << "both stops' round trips";
}

TEST(ToolSamples, WhatStopsTheJoinIsSaidAndTheWholeRunStillExplained) {
  {
    LoggedRun r;
    r.spec.cpu.client.reset();
    r.log({{r.hog_tx, r.hog_tx + 5000000}}, 10);
    const json t = explain_tool_run(r.spec, r.tool, r.a, r.b);
    EXPECT_FALSE(t.contains("outliers"));
    EXPECT_THAT(t["limits"].dump(), HasSubstr("per round trip: not joined: the client is not pinned"));
    EXPECT_THAT(t["join"].get<std::string>(), HasSubstr("whole run only"));
  }
  {
    LoggedRun r;  // sockperf's TSC clock: seconds since its own start
    r.log({{2500000000ull, 2505000000ull}}, 10);
    const json t = explain_tool_run(r.spec, r.tool, r.a, r.b);
    EXPECT_FALSE(t.contains("outliers"));
    EXPECT_THAT(t["limits"].dump(), HasSubstr("did not time with --no-rdtsc"));
  }
  {
    LoggedRun r;
    r.tool.full_log = transport::RunResult{};
    r.tool.full_log->exit_status = 2;
    r.tool.full_log->err = "awk: cannot open /var/tmp/x/sockperf-1.full.log (No such file or directory)\n";
    const json t = explain_tool_run(r.spec, r.tool, r.a, r.b);
    EXPECT_FALSE(t.contains("outliers"));
    EXPECT_THAT(t["limits"].dump(), HasSubstr("the pass over it on host a exit 2: awk: cannot open"));
  }
  {
    LoggedRun r;  // the server not pinned: host b is not searched per round trip, and says so
    r.spec.cpu.server.reset();
    r.log({{r.hog_tx, r.hog_tx + 5000000}}, 10);
    const json t = explain_tool_run(r.spec, r.tool, r.a, r.b);
    ASSERT_TRUE(t.contains("outliers"));
    EXPECT_FALSE(t.contains("clock_offset"));
    EXPECT_THAT(t["limits"].dump(), HasSubstr("host b: not searched per round trip: the server is not pinned"));
  }
}

}  // namespace
}  // namespace labgate::gate
