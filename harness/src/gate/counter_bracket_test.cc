// The counters-around-a-program shell line, run by this machine's real /bin/sh
// (dash here, bash 3.2 on RHEL 5: both plain POSIX) through the local transport,
// and the splitting of its output, complete or cut short.
#include "labgate/gate/counter_bracket.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <thread>

#include "labgate/counters/snapshot.h"
#include "labgate/transport/transport.h"

namespace labgate::gate {
namespace {

transport::RunResult run_here(const std::vector<std::string>& argv) {
  profile::Host h;
  h.name = "here";
  h.address = "local";
  transport::RunOptions o;
  o.timeout = std::chrono::seconds(10);
  return transport::make_transport(h)->run(argv, o);
}

TEST(CounterBracket, SnapshotsBeforeAndAfterTheProgramWhoseOutputAndStatusStayItsOwn) {
  const auto r =
      run_here(bracketed_argv({"sh", "-c", "echo 'the program'; echo to-stderr >&2; exit 3", "x"}));
  EXPECT_EQ(r.exit_status, 3) << r.err;
  EXPECT_EQ(r.err, "to-stderr\n");
  const Bracketed b = split_bracketed(r.out);
  EXPECT_EQ(b.body, "the program\n");
  std::string why;
  ASSERT_TRUE(b.before.snapshot(why)) << why;
  ASSERT_TRUE(b.after.snapshot(why)) << why;
  // Both are what the separate `cat` read: snmp, netstat and the dev table.
  const auto before = counters::parse_snapshot(b.before.text, "before");
  const auto after = counters::parse_snapshot(b.after.text, "after");
  EXPECT_NE(before.find("Tcp", "RetransSegs"), nullptr);
  EXPECT_NE(after.find("Tcp", "RetransSegs"), nullptr);
  EXPECT_FALSE(after.interfaces.empty());
}

TEST(CounterBracket, AProgramKilledByASignalIsReportedKilledNotAsAnExitStatus) {
  const auto r = run_here(bracketed_argv({"sh", "-c", "kill -TERM $$"}));
  EXPECT_EQ(r.signal, "TERM") << r.describe();
  EXPECT_TRUE(split_bracketed(r.out).after.seen) << "the after snapshot is read before the signal is raised";
}

TEST(CounterBracket, TheProgramIsFoundInsideItsCommandAndNowhereElse) {
  const std::vector<std::string> program{"/tmp/x/pingpong", "server", "--bind", "1.2.3.4"};
  EXPECT_EQ(bracketed_program(bracketed_argv(program)), program);
  EXPECT_FALSE(bracketed_program(program));
  EXPECT_FALSE(bracketed_program({"/bin/sh", "-c", "cat /proc/net/snmp", "labgate-sh", "x"}));
}

/// A stand-in for the watch probe: says which CPUs it was given and the flag
/// after them, and prints only once told to stop (SIGTERM), as the real one does.
std::string fake_watch() {
  const std::string path = ::testing::TempDir() + "/fake-watch.sh";
  std::FILE* f = std::fopen(path.c_str(), "w");
  std::fputs("#!/bin/sh\ntrap 'echo \"{\\\"cpus\\\":\\\"$2\\\",\\\"then\\\":\\\"$3\\\"}\"; exit 0' TERM\n"
             "echo starting >&2\nwhile :; do sleep 0.01; done\n",
             f);
  std::fclose(f);
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

TEST(CounterBracket, TheNoiseWatchRunsBesideTheProgramAndItsOutputFollowsTheProgramsUnmixed) {
  const std::string watch = fake_watch();
  auto r = run_here(bracketed_argv({"sh", "-c", "sleep 0.3; echo 'the program'; exit 3", "x"},
                                   NoiseWatch{watch, "1,3", "30s"}));
  EXPECT_EQ(r.exit_status, 3) << r.err;
  Bracketed b = split_bracketed(r.out);
  EXPECT_EQ(b.body, "the program\n");
  ASSERT_TRUE(b.watch) << r.out;
  EXPECT_EQ(b.watch_status, 0);
  // --away: the watch keeps off the CPUs it watches, the measured ones.
  EXPECT_EQ(*b.watch, "starting\n{\"cpus\":\"1,3\",\"then\":\"--away\"}\n");
  std::string why;
  EXPECT_TRUE(b.after.snapshot(why)) << why;
  EXPECT_FALSE(std::filesystem::exists(watch + ".out")) << "no file is left behind";
  // No CPUs given: every CPU /proc/stat lists.
  r = run_here(bracketed_argv({"sleep", "0.3"}, NoiseWatch{watch, "", "30s"}));
  b = split_bracketed(r.out);
  ASSERT_TRUE(b.watch) << r.out;
  EXPECT_NE(b.watch->find("\"cpus\":\"0"), std::string::npos) << *b.watch;
  const std::vector<std::string> program{"/tmp/x/pingpong", "client"};
  EXPECT_EQ(bracketed_program(bracketed_argv(program, NoiseWatch{watch, "2", "9s"})), program);
}

TEST(CounterBracket, TheWatchOnAChannelOfItsOwnResolvesEveryCpuAndPrintsWhenStopped) {
  // Beside an external tool: started alone, stopped (SIGTERM to its group) once
  // the tool has ended; exec'd by the shell, so the watch itself gets the signal.
  profile::Host h;
  h.name = "here";
  h.address = "local";
  const auto t = transport::make_transport(h);
  const std::string watch = fake_watch();
  // --away here too: the tool's CPUs are the watched ones.
  for (const auto& [cpus, want] : {std::pair<std::string, std::string>{"1,3", "{\"cpus\":\"1,3\",\"then\":\"--away\"}"},
                                   std::pair<std::string, std::string>{"", "{\"cpus\":\"0"}}) {
    auto p = t->start(watch_argv(NoiseWatch{watch, cpus, "30s"}));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const transport::RunResult r = p->stop();
    EXPECT_EQ(r.exit_status, 0) << r.describe() << r.err;
    EXPECT_EQ(r.out.rfind(want, 0), 0u) << r.out;
    EXPECT_EQ(r.err.rfind("starting\n", 0), 0u) << r.err;  // then what sh says of the killed sleep
  }
  // Its window is the caller's (longer for a long tool run): the watch's 4th word.
  const auto argv = watch_argv(NoiseWatch{watch, "1", "30s", "20ms"});
  EXPECT_EQ(std::vector<std::string>(argv.end() - 4, argv.end()),
            (std::vector<std::string>{watch, "1", "30s", "20ms"}));
  EXPECT_NE(argv[2].find("--interval \"$4\""), std::string::npos) << argv[2];
}

TEST(CounterBracket, OutputCutShortKeepsWhatArrivedAndSaysWhatIsMissing) {
  const std::string before = "Tcp: RetransSegs\nTcp: 1\n";
  const std::string marker = std::string(kBeforeMarker) + "0\n";
  // A server still running: its listening line, no after snapshot yet.
  Bracketed b = split_bracketed(before + marker + "{\"event\":\"listening\"}\n");
  EXPECT_TRUE(b.before.seen);
  EXPECT_EQ(b.before.text, before);
  EXPECT_EQ(b.body, "{\"event\":\"listening\"}\n");
  EXPECT_FALSE(b.after.seen);
  std::string why;
  EXPECT_FALSE(b.after.snapshot(why));
  EXPECT_EQ(why, "the command ended before it read them");
  // cat failed: its error is the reason, the program still ran.
  b = split_bracketed("cat: /proc/net/netstat: No such file\n" + std::string(kBeforeMarker) + "1\nbody\n" +
                      std::string(kAfterMarker) + before + std::string(kEndMarker) + "0\n");
  EXPECT_FALSE(b.before.snapshot(why));
  EXPECT_EQ(why, "cat /proc/net/{snmp,netstat,dev} exited 1: cat: /proc/net/netstat: No such file\n");
  EXPECT_EQ(b.body, "body\n");
  EXPECT_TRUE(b.after.snapshot(why));
  // No marker at all (not a bracketed command's output): all of it is the body.
  b = split_bracketed("{\"a\":1}\n");
  EXPECT_EQ(b.body, "{\"a\":1}\n");
  EXPECT_FALSE(b.before.seen);
}

}  // namespace
}  // namespace labgate::gate
