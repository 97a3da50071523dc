// A tool's run joined with the watch, on the recorded hog run (testdata/README.md:
// tailhog pid 14260 on CPU 1, a compiler on both CPUs, steal on CPU 1): a cause
// only with its figure, the tool's own processes never one, and how far the
// join goes said per tool.
#include "labgate/tail/run_noise.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tail_test_util.h"

namespace labgate::tail {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

struct Recorded {
  WatchOutput a = parse_watch(testdata("hog_watch.json"), "a");
  WatchOutput b = parse_watch(testdata("hog_watch.json"), "b");  // one machine: the same watch
  std::uint64_t t0 = a.windows.front().t0;
  /// A sockperf-like run from 0.3 s to 3.3 s of the recording, client pinned to
  /// CPU 1 on host a, server to CPU 0 on host b; "pingpong" plays the tool.
  RunNoiseInput input(std::optional<std::uint64_t> excess) const {
    RunNoiseInput in;
    in.tool = profile::Tool::kSockperf;
    in.tool_comms = {"pingpong"};
    in.excess_ns = excess;
    in.hosts = {{"a", "client", &a, "", t0 + 300000000, t0 + 3300000000ull, 2000000, 1},
                {"b", "server", &b, "", t0 + 300000000, t0 + 3300000000ull, 2000000, 0}};
    return in;
  }
};

std::string texts(const json& causes) {
  std::string s;
  for (const json& c : causes) s += c["text"].get<std::string>() + "\n";
  return s;
}

TEST(RunNoise, TheHogOnTheClientsCpuIsNamedWithItsRunTimeAndTheToolNever) {
  const Recorded r;
  const json t = explain_run(r.input(200000000));
  EXPECT_THAT(t["join"].get<std::string>(), HasSubstr("whole run only: sockperf prints percentiles"));
  const std::string all = texts(t["causes"]);
  EXPECT_THAT(all,
              ::testing::ContainsRegex("tailhog \\(pid 14260\\) ran 429.1 ms of the run's 3000.0 ms on CPU 1 "
                                       "of host a, the client's CPU \\(enough for the max's 200.0 ms"));
  EXPECT_THAT(all, Not(HasSubstr("pingpong"))) << "the tool itself is never a cause";
  EXPECT_THAT(all, Not(HasSubstr("watch (pid")));
  for (const json& c : t["causes"])
    if (c.value("pid", 0) == 14260) {
      EXPECT_EQ(c["host"], "a") << "the hog ran on CPU 1, host b's tool ran on CPU 0";
    }
  // The steal the VM recorded on CPU 1 is named with its figure, on no other CPU.
  EXPECT_THAT(all, HasSubstr("(hypervisor) over the run on CPU 1 of host a"));
  for (const json& c : t["causes"]) {
    EXPECT_FALSE(c["text"].get<std::string>().empty());
    if (c["kind"] == "shared_cpu") {
      EXPECT_GT(c["pid"].get<int>(), 0);
    }
  }
  // The top line says how far it goes and is the first (longest) cause.
  EXPECT_EQ(t["top"], "over the whole run (sockperf gives no moment for its max): " +
                          t["causes"][0]["text"].get<std::string>());
  // Each host's run summary: the pinned CPU, its figures, the tasks that ran there.
  const json& a = t["over_run"]["a"];
  EXPECT_EQ(a["watch"], "ok");
  EXPECT_EQ(a["tool_cpus"], json::array({1}));
  EXPECT_EQ(a["tool_cpus_from"], "the profile pins the client to CPU 1");
  ASSERT_EQ(a["cpus"].size(), 1u);
  EXPECT_EQ(a["cpus"][0]["cpu"], 1);
  EXPECT_GT(a["cpus"][0]["steal_ms"].get<double>(), 0);
  EXPECT_TRUE(a["cpus"][0]["smi"].is_null()) << "not available in the recording: never 0";
  EXPECT_GT(a["windows"].get<int>(), 250);
  EXPECT_EQ(t["over_run"]["b"]["tool_cpus"], json::array({0}));
  EXPECT_THAT(t["limits"].dump(), HasSubstr("host a: SMI: not available"));
  EXPECT_THAT(t["limits"].dump(), HasSubstr("interrupts and softirqs over the whole run are figures only"));
  EXPECT_FALSE(t.contains("worst_interval")) << "sockperf prints no intervals";
}

TEST(RunNoise, NoTaskAsLongAsTheExcessAndNoStealIsNothingOnTheHosts) {
  Recorded r;
  for (WatchWindow& w : r.a.windows)
    for (CpuTick& c : w.cpu) c.steal_jiffies = 0;
  r.b = r.a;
  r.b.host = "b";
  RunNoiseInput in = r.input(5000000000ull);  // a 5 s max: nothing ran that long
  in.hosts[1].watch = &r.b;
  const json t = explain_run(in);
  EXPECT_TRUE(t["causes"].empty()) << t["causes"].dump();
  EXPECT_EQ(
      t["top"],
      "nothing on the hosts over the run: no other task ran as long as the max's 5000.0 ms over the p50 on "
      "sockperf's CPUs, no steal, no SMI");
}

TEST(RunNoise, AHostWithoutItsWatchIsALimitAndNothingIsMadeUpForIt) {
  Recorded r;
  RunNoiseInput in = r.input(5000000000ull);
  in.hosts[1].watch = nullptr;
  in.hosts[1].why_not = "the watch could not be started: host b: no space";
  for (WatchWindow& w : r.a.windows)
    for (CpuTick& c : w.cpu) c.steal_jiffies = 0;
  const json t = explain_run(in);
  EXPECT_EQ(t["over_run"]["b"]["watch"], "not available: the watch could not be started: host b: no space");
  EXPECT_THAT(t["limits"].dump(),
              HasSubstr("host b: noise watch: not available: the watch could not be started"));
  EXPECT_EQ(t["top"], "unexplained: the noise watch did not see every host of the run");
  for (const json& c : t["causes"]) EXPECT_NE(c["host"], "b");
}

TEST(RunNoise, ARunLongerThanTheWatchsRingSaysItsStartWasNotWatched) {
  Recorded r;
  r.a.windows_not_kept = 7;
  RunNoiseInput in = r.input(200000000);
  in.hosts[0].from_ns = r.t0 - 1000000000;  // a second before the first kept window
  EXPECT_THAT(
      explain_run(in)["limits"].dump(),
      HasSubstr("host a: noise watch: only its last 3490.2 ms were kept (7 earlier windows not kept): the "
                "run's start was not watched"));
  in.hosts[0].from_ns = r.t0 + 300000000;  // all of it kept
  EXPECT_THAT(explain_run(in)["limits"].dump(), Not(HasSubstr("were kept")));
}

TEST(RunNoise, UnpinnedTheToolsCpusAreWhereTheWatchSawItRun) {
  const Recorded r;
  RunNoiseInput in = r.input(200000000);
  in.hosts[0].pinned.reset();
  const json t = explain_run(in);
  EXPECT_EQ(t["over_run"]["a"]["tool_cpus"], json::array({0, 1})) << "pingpong ran on both CPUs";
  EXPECT_EQ(t["over_run"]["a"]["tool_cpus_from"], "not pinned: where the watch saw pingpong run");
  // Each side's own programs: the client's CPUs are where the client's ran.
  in.tool_comms = {"pingpong", "sockperf"};
  in.hosts[0].programs = {"sockperf"};
  const json own = explain_run(in);
  EXPECT_EQ(own["over_run"]["a"]["tool_cpus"], json::array({0})) << "sockperf (pid 14263) ran on CPU 0";
  EXPECT_EQ(own["over_run"]["a"]["tool_cpus_from"], "not pinned: where the watch saw sockperf run");
  in.hosts[0].programs.clear();
  in.tool_comms = {"netperf"};
  in.tool = profile::Tool::kNetperf;
  const json none = explain_run(in);
  EXPECT_TRUE(none["over_run"]["a"]["tool_cpus"].empty());
  EXPECT_EQ(none["over_run"]["a"]["cpus"].size(), 2u) << "every watched CPU, as figures";
  for (const json& c : none["causes"])
    EXPECT_NE(c["host"], "a") << "no task judged where the tool's CPU is unknown";
  EXPECT_THAT(none["limits"].dump(),
              HasSubstr("host a: the client's CPUs: not known: not pinned, and the watch "
                        "saw no netperf process run"));
}

TEST(RunNoise, IperfsWorstIntervalIsJoinedWithTheWindowsOfItsSpan) {
  const Recorded r;
  RunNoiseInput in = r.input(std::nullopt);
  in.tool = profile::Tool::kIperf3;
  in.intervals = {{1.0, 9e9}, {1.0, 9.1e9}, {1.0, 4e9}};
  in.slack_ns = 20000000;
  const json t = explain_run(in);
  EXPECT_THAT(t["join"].get<std::string>(), HasSubstr("per interval: iperf3's intervals joined"));
  const json& w = t["worst_interval"];
  EXPECT_EQ(w["index"], 2);
  EXPECT_EQ(w["start_s"], 2.0);
  EXPECT_EQ(w["median_bits_per_second"], 9e9);
  EXPECT_NEAR(w["short_of_median_s"].get<double>(), 1.0 - 4.0 / 9.0, 1e-9);
  // The last interval ends at most the slack before the exit, widened by the alignment.
  const std::uint64_t to = r.t0 + 3300000000ull;
  EXPECT_EQ(w["joined"]["a"]["from_ns"], to - 1000000000ull - 20000000 - 2000000);
  EXPECT_EQ(w["joined"]["a"]["to_ns"], to + 2000000);
  for (const json& e : w["evidence"]) EXPECT_FALSE(e["text"].get<std::string>().empty());
  if (!w["evidence"].empty()) {
    EXPECT_EQ(w["cause"], w["evidence"][0]["text"]);
    EXPECT_EQ(t["top"].get<std::string>().rfind("worst interval (2 s to 3 s: 4Gbit/s, median 9Gbit/s): ", 0),
              0u)
        << t["top"];
  }
  // An interval no slower than the rest: the run's causes lead, saying the interval showed nothing.
  in.intervals = {{1.0, 9e9}, {1.0, 9e9}};
  const json flat = explain_run(in);
  EXPECT_EQ(flat["worst_interval"]["short_of_median_s"], 0.0);
  EXPECT_TRUE(flat["worst_interval"]["evidence"].empty()) << "no time short: nothing to account for";
  EXPECT_THAT(
      flat["top"].get<std::string>(),
      ::testing::StartsWith("over the whole run (its worst interval showed nothing beyond the routine): "));
  EXPECT_THAT(flat["limits"].dump(), HasSubstr("no interval stands out"));
  // A throughput tool: a task is named over the run from 1 % of it.
  EXPECT_THAT(texts(t["causes"]), Not(HasSubstr("enough for the max")));
}

TEST(RunNoise, EachToolSaysHowFarItsOutputGoes) {
  EXPECT_THAT(join_depth(profile::Tool::kNetperf, false),
              HasSubstr("whole run only: netperf prints one set of figures for the run"));
  EXPECT_THAT(join_depth(profile::Tool::kSockperf, false), HasSubstr("need --full-log"));
  EXPECT_THAT(join_depth(profile::Tool::kSfntPingpong, false), HasSubstr("whole run only: sfnt-pingpong"));
  EXPECT_THAT(join_depth(profile::Tool::kIperf3, true), HasSubstr("per interval"));
  EXPECT_THAT(join_depth(profile::Tool::kIperf3, false),
              HasSubstr("whole run only: this iperf3 output has no intervals"));
}

}  // namespace
}  // namespace labgate::tail
