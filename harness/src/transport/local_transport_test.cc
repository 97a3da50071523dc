// LocalTransport on real processes: statuses, signals, timeouts that kill the
// whole group, output limits, stdin, files.
#include "local_transport.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include "labgate/transport/interrupt.h"
#include "labgate/util/exit_code.h"
#include "transport/proc_watch_test_util.h"

namespace labgate::transport {
namespace {

using namespace std::chrono_literals;

class LocalTransportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/labgate-local-XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    dir_ = tmpl;
    host_.name = "l";
    host_.address = "local";
    host_.ssh.command_timeout = 20s;
  }
  void TearDown() override { LocalTransport(host_).run({"rm", "-rf", dir_}, {}); }

  profile::Host host_;
  std::string dir_;
};

TEST_F(LocalTransportTest, ExitStatusStdoutStderrAndDuration) {
  LocalTransport t(host_);
  RunResult r = t.run({"sh", "-c", "echo out; echo err >&2; sleep 0.2; exit 7"}, {});
  EXPECT_EQ(r.exit_status, 7);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_FALSE(r.timed_out);
  EXPECT_GE(r.duration, 200ms);
  EXPECT_EQ(r.describe(), "exit 7");
  EXPECT_FALSE(r.ok());
}

TEST_F(LocalTransportTest, StderrLinesArriveWhileTheCommandRuns) {
  LocalTransport t(host_);
  const std::string marker = dir_ + "/ended";
  std::vector<std::string> lines;
  bool first_seen_before_end = false;
  RunOptions o;
  o.on_stderr_line = [&](std::string_view line) {
    if (lines.empty()) first_seen_before_end = access(marker.c_str(), F_OK) != 0;
    lines.emplace_back(line);
  };
  // The second line is split across writes; the last has no newline at all.
  RunResult r = t.run({"sh", "-c", "echo one >&2; sleep 1; printf 'tw' >&2; printf 'o\\nthree' >&2; touch " + marker}, o);
  EXPECT_TRUE(first_seen_before_end) << "the first line reached the caller only after the command ended";
  EXPECT_EQ(lines, (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(r.err, "one\ntwo\nthree");
}

TEST_F(LocalTransportTest, KilledBySignalIsReported) {
  LocalTransport t(host_);
  RunResult r = t.run({"sh", "-c", "kill -KILL $$"}, {});
  EXPECT_EQ(r.signal, "KILL");
  EXPECT_EQ(r.exit_status, -1);
  EXPECT_EQ(r.describe(), "killed by SIGKILL");
}

TEST_F(LocalTransportTest, MissingAndNonExecutableProgramsGetShellStatuses) {
  LocalTransport t(host_);
  RunResult r = t.run({"labgate-no-such-program"}, {});
  EXPECT_EQ(r.exit_status, 127);
  EXPECT_NE(r.err.find("not found"), std::string::npos);
  t.upload_data("#!/bin/sh\necho hi\n", dir_ + "/noexec", 0644);
  r = t.run({dir_ + "/noexec"}, {});
  EXPECT_EQ(r.exit_status, 126);
  EXPECT_NE(r.err.find("Permission denied"), std::string::npos) << r.err;
}

TEST_F(LocalTransportTest, TimeoutKillsTheWholeProcessGroup) {
  LocalTransport t(host_);
  const std::string pidfile = dir_ + "/child.pid";
  RunOptions o;
  o.timeout = 500ms;
  // The grandchild ignores SIGTERM and holds no pipe: only a group kill reaches it.
  RunResult r =
      t.run({"sh", "-c", "(trap '' TERM; exec sleep 60) >/dev/null 2>&1 & echo $! > \"$1\"; sleep 60", "sh",
             pidfile},
            o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.duration, 5s);
  const pid_t child = std::stoi(t.read_file(pidfile));
  EXPECT_TRUE(testing::gone_within([&] { return testing::pid_running(child); }))
      << "grandchild " << child << " survived the timeout";
}

TEST_F(LocalTransportTest, OutputBeyondTheLimitIsAClearError) {
  LocalTransport t(host_);
  RunOptions o;
  o.output_limit = 1 << 20;
  try {
    t.run({"sh", "-c", "yes labgate"}, o);
    FAIL() << "no error for endless output";
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    EXPECT_NE(std::string(f.what()).find("more than 1 MiB to stdout"), std::string::npos) << f.what();
  }
}

TEST_F(LocalTransportTest, StdinIsFedAndClosed) {
  LocalTransport t(host_);
  RunOptions o;
  o.input = std::string(300000, 'x') + "\nend\n";
  RunResult r = t.run({"wc", "-c"}, o);
  EXPECT_EQ(r.out, "300005\n");
  EXPECT_EQ(t.run({"cat"}, {}).out, "");  // no input: EOF at once, no hang
}

TEST_F(LocalTransportTest, UploadNeverOverwritesAndKeepsMode) {
  LocalTransport t(host_);
  const std::string path = dir_ + "/f";
  t.upload_data("one", path, 0750);
  EXPECT_EQ(t.read_file(path), "one");
  auto info = t.lstat(path);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->mode, 0750u);
  EXPECT_FALSE(info->is_dir);
  EXPECT_THROW(t.upload_data("two", path, 0644), Failure);
  EXPECT_EQ(t.read_file(path), "one");
  ASSERT_EQ(symlink("/etc/passwd", (dir_ + "/link").c_str()), 0);
  EXPECT_THROW(t.upload_data("x", dir_ + "/link", 0644), Failure);
  EXPECT_TRUE(t.lstat(dir_ + "/link")->is_symlink);
  EXPECT_FALSE(t.lstat(dir_ + "/absent"));
  EXPECT_THROW(t.read_file(path, 2), Failure);
}

TEST_F(LocalTransportTest, StartedProcessCanBeWaitedForAndStopped) {
  LocalTransport t(host_);
  StartOptions so;
  so.pgid_file = dir_ + "/pgids";
  auto p = t.start({"sh", "-c", "echo ready; sleep 0.3; echo bye"}, so);
  EXPECT_TRUE(p->wait_for_output("ready", 5s));
  auto r = p->wait(5s);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out, "ready\nbye\n");
  EXPECT_EQ(t.read_file(dir_ + "/pgids"), std::to_string(p->pgid()) + "\n");

  auto server = t.start({"sh", "-c", "sleep 60 & sleep 60 & echo up; wait"}, {});
  ASSERT_TRUE(server->wait_for_output("up", 5s));
  EXPECT_FALSE(server->wait(100ms));
  const long pgid = server->pgid();
  RunResult stopped = server->stop(1s);
  EXPECT_EQ(stopped.signal, "TERM");
  EXPECT_TRUE(testing::gone_within([&] { return testing::group_running(pgid); }))
      << "group " << pgid << " left running";
}

TEST_F(LocalTransportTest, InterruptStopsAWaitAndKillsTheCommand) {
  LocalTransport t(host_);
  std::thread later([] {
    std::this_thread::sleep_for(300ms);
    set_pending_interrupt(SIGINT);
  });
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(t.run({"sleep", "30"}, {}), Failure);
  later.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  RunOptions cleanup;
  cleanup.during_interrupt = true;
  EXPECT_EQ(t.run({"true"}, cleanup).exit_status, 0);  // cleanup still runs
  set_pending_interrupt(0);
}

TEST_F(LocalTransportTest, NetnsHostsRunInsideTheirNamespace) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root for ip netns";
  const std::string ns = "lgu-" + std::to_string(getpid());
  LocalTransport root(host_);
  ASSERT_EQ(root.run({"ip", "netns", "add", ns}, {}).exit_status, 0);
  profile::Host h = host_;
  h.netns = ns;
  LocalTransport t(h);
  RunResult r = t.run({"ip", "-o", "link"}, {});
  root.run({"ip", "netns", "del", ns}, {});
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_NE(r.out.find("lo"), std::string::npos);
  EXPECT_EQ(r.out.find("eth0"), std::string::npos) << "saw the root namespace's links: " << r.out;
  EXPECT_EQ(t.describe(), "local (netns " + ns + ")");
}

}  // namespace
}  // namespace labgate::transport
