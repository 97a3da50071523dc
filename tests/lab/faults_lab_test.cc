// Faults on the lab: a command past command_timeout is killed on the host; sshd
// killed in the middle of a command is reported in time and the next run leaves
// nothing behind; too much output is cut off; Ctrl-C still cleans up.
#include <gtest/gtest.h>
#include <signal.h>

#include <thread>

#include "lab_env.h"
#include "labgate/deploy/host_deployment.h"
#include "labgate/transport/interrupt.h"
#include "labgate/util/exit_code.h"

namespace labgate::lab {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class FaultsOnLab : public LabTest {
 protected:
  void TearDown() override {
    if (lab_ok()) restore_lab();  // destructive tests leave the lab as they found it
    transport::set_pending_interrupt(0);
    LabTest::TearDown();
  }
  bool gone_within(const std::string& host, const std::string& needle, std::chrono::seconds limit = 5s) {
    const auto until = Clock::now() + limit;
    while (!pids_matching(host, needle).empty()) {
      if (Clock::now() > until) return false;
      std::this_thread::sleep_for(100ms);
    }
    return true;
  }
};

TEST_F(FaultsOnLab, CommandPastCommandTimeoutIsKilledOnTheHost) {
  for (const int port : {22, 2222}) {
    profile::Host h = host("a", port, port == 2222);
    h.ssh.command_timeout = 2s;
    auto t = transport::make_transport(h);
    const std::string marker = "labgate-timeout-" + std::to_string(port);
    const auto t0 = Clock::now();
    // A group: the sleeper, and a child of it that ignores SIGTERM.
    auto r = t->run({"sh", "-c", "(trap '' TERM; exec sleep 301) & exec sleep 300", marker});
    EXPECT_TRUE(r.timed_out);
    EXPECT_LT(Clock::now() - t0, 10s);
    EXPECT_TRUE(gone_within("a", "sleep 30"))
        << "still running on host a after the timeout (port " << port << ")";
    EXPECT_TRUE(t->run({"true"}).ok());  // and the session is still usable
  }
}

TEST_F(FaultsOnLab, SshdKilledMidCommandIsReportedAndTheRerunLeavesNothing) {
  profile::Host h = host("b");
  h.ssh.command_timeout = 60s;
  std::string first_dir;
  {
    auto t = transport::make_transport(h);
    deploy::HostDeployment d(*t, h, "labtest-drop", "run that loses its server");
    first_dir = d.dir();
    std::thread killer([] {
      std::this_thread::sleep_for(1500ms);
      kill_sshd("b");
    });
    const auto t0 = Clock::now();
    const std::string msg = could_not_run([&] { d.run({"sleep", "302"}); });
    killer.join();
    EXPECT_LT(Clock::now() - t0, 15s) << "took too long to notice";
    EXPECT_NE(msg.find("host b"), std::string::npos) << msg;
    EXPECT_NE(msg.find("connection lost while running"), std::string::npos) << msg;
    EXPECT_NE(msg.find("sleep 302"), std::string::npos) << msg;
    // sshd is gone, so the sleeper is an orphan on the host and cleanup cannot
    // reach it: the destructor reports, and must not hang.
    const auto t1 = Clock::now();
    EXPECT_THROW(d.cleanup(), Failure);
    EXPECT_LT(Clock::now() - t1, 15s);
  }
  EXPECT_FALSE(pids_matching("b", "sleep 302").empty()) << "expected the orphan the next run must clean";
  restore_lab();
  // The rerun (holding the lease, so it may sweep) stops the orphan and removes
  // the directory; after its own cleanup nothing of either run is left.
  {
    auto t = transport::make_transport(h);
    deploy::HostDeployment d(*t, h, "labtest-drop", "rerun", /*sweep_leftovers=*/true);
    EXPECT_EQ(d.swept(), std::vector<std::string>{first_dir});
    EXPECT_TRUE(gone_within("b", "sleep 302"));
  }
  const auto left =
      run_local({"sh", "-c", "ls -d \"$1\"/labgate-labtest-drop.* 2>/dev/null; true", "sh", host_tmp("b")});
  EXPECT_EQ(left.out, "") << "directories left on host b";
  EXPECT_TRUE(pids_matching("b", "sleep 302").empty());
}

TEST_F(FaultsOnLab, EndlessOutputIsCutOffAndStopped) {
  profile::Host h = host("a");
  auto t = transport::make_transport(h);
  transport::RunOptions o;
  o.output_limit = 1u << 20;
  const std::string msg = could_not_run([&] { t->run({"yes", "labgate-flood"}, o); });
  EXPECT_NE(msg.find("more than 1 MiB to stdout"), std::string::npos) << msg;
  EXPECT_TRUE(gone_within("a", "labgate-flood"));
}

TEST_F(FaultsOnLab, InterruptStopsTheCommandAndCleanupStillRuns) {
  profile::Host h = host("a");
  auto t = transport::make_transport(h);
  std::string dir;
  {
    deploy::HostDeployment d(*t, h, "labtest-int", "interrupted run");
    dir = d.dir();
    std::thread ctrl_c([] {
      std::this_thread::sleep_for(1s);
      transport::set_pending_interrupt(SIGINT);
    });
    const std::string msg = could_not_run([&] { d.run({"sleep", "303"}); });
    ctrl_c.join();
    EXPECT_NE(msg.find("interrupted by SIGINT"), std::string::npos) << msg;
  }  // cleanup runs with the interrupt still pending
  EXPECT_FALSE(t->lstat(dir));
  EXPECT_TRUE(gone_within("a", "sleep 303"));
}

TEST_F(FaultsOnLab, AnIdleSessionSurvivesAServerRestart) {
  profile::Host h = host("b", 2222, true);
  auto t = transport::make_transport(h);
  ASSERT_TRUE(t->run({"true"}).ok());
  kill_sshd("b");
  restore_lab();
  // The old session is dead; nothing was running on it, so the transport may
  // quietly open a new one.
  EXPECT_TRUE(t->run({"true"}).ok());
  kill_sshd("b");
  restore_lab();
  EXPECT_TRUE(t->lstat("/"));
}

TEST_F(FaultsOnLab, StoppingAServerKillsItsWholeGroupOnTheHost) {
  profile::Host h = host("a");
  auto t = transport::make_transport(h);
  auto server = t->start({"sh", "-c", "sleep 305 & (trap '' TERM; sleep 306) & echo ready; wait"});
  ASSERT_TRUE(server->wait_for_output("ready", 10s));
  EXPECT_EQ(pids_matching("a", "sleep 30").size(), 3u);  // sh and its two sleepers
  EXPECT_FALSE(server->wait(200ms));
  server->stop(1s);
  EXPECT_TRUE(gone_within("a", "sleep 30"));
  EXPECT_TRUE(t->run({"true"}).ok());
}

TEST_F(FaultsOnLab, LegacyModeMakesPortTwentyTwoAnOldServerToo) {
  auto r = run_local(
      {std::string(LABGATE_SOURCE_DIR) + "/ci/lab", "up", "--legacy", "--pair", std::to_string(pair())});
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_NE(r.out.find("port 22 legacy"), std::string::npos) << r.out;
  const std::string msg =
      could_not_run([] { transport::make_transport(host("a", 22, false))->run({"true"}); });
  EXPECT_NE(msg.find("legacy_algorithms = true"), std::string::npos) << msg;
  EXPECT_TRUE(transport::make_transport(host("a", 22, true))->run({"true"}).ok());
  // TearDown's `ci/lab up` (no --legacy) makes port 22 modern again.
}

// The management link to host a stops carrying packets, as when a switch port
// dies: no FIN, no RST, just silence. (This kernel has no netem; an nftables
// rule in the root namespace drops everything sent to a instead.)
class LinkCutOnLab : public FaultsOnLab {
 protected:
  std::string table() const { return "labgate_labtest_cut" + std::to_string(pair()); }
  void cut() {
    auto r = run_local({"nft", "add table ip " + table() + "; add chain ip " + table() +
                                   " out { type filter hook output priority 0; }; add rule ip " + table() +
                                   " out ip daddr " + address("a") + " drop"});
    ASSERT_TRUE(r.ok()) << r.err;
  }
  void heal() { run_local({"nft", "delete table ip " + table()}); }
  void TearDown() override {
    heal();
    FaultsOnLab::TearDown();
  }
};

TEST_F(LinkCutOnLab, ConnectTimeoutIsHonoured) {
  cut();
  profile::Host h = host("a");
  h.ssh.connect_timeout = 2s;
  const auto t0 = Clock::now();
  const std::string msg = could_not_run([&] { transport::make_transport(h)->run({"true"}); });
  const auto took = Clock::now() - t0;
  EXPECT_GE(took, 1500ms);
  EXPECT_LT(took, 6s);
  EXPECT_NE(msg.find("host a (root@" + address("a") + ":22): cannot connect"), std::string::npos) << msg;
}

TEST_F(LinkCutOnLab, ADeadLinkUnderAQuietCommandIsNoticedByKeepalives) {
  profile::Host h = host("a");
  h.ssh.command_timeout = 120s;
  std::string first_dir;
  {
    auto t = transport::make_transport(h);
    deploy::HostDeployment d(*t, h, "labtest-cut", "run whose link dies");
    first_dir = d.dir();
    std::thread cutter([this] {
      std::this_thread::sleep_for(1s);
      cut();
    });
    const auto t0 = Clock::now();
    const std::string msg = could_not_run([&] { d.run({"sleep", "304"}); });
    cutter.join();
    // The command is quiet: only keepalives put bytes on the wire, and the
    // kernel gives up on them after TCP_USER_TIMEOUT (20 s), not after 120 s.
    EXPECT_LT(Clock::now() - t0, 40s);
    EXPECT_NE(msg.find("connection lost while running"), std::string::npos) << msg;
    EXPECT_THROW(d.cleanup(), Failure);  // the host is still unreachable
  }
  heal();
  // sshd never noticed: the sleeper still runs until a run holding the lease sweeps it.
  EXPECT_FALSE(pids_matching("a", "sleep 304").empty());
  auto t = transport::make_transport(h);
  deploy::HostDeployment next(*t, h, "labtest-cut", "next run", /*sweep_leftovers=*/true);
  EXPECT_EQ(next.swept(), std::vector<std::string>{first_dir});
  EXPECT_TRUE(gone_within("a", "sleep 304"));
}

}  // namespace
}  // namespace labgate::lab
