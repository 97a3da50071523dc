// The lab lease on this machine (local transport, a private lease root): waits,
// fails naming the holder, stale leases, heartbeats, releasing only our own.
#include "labgate/lease/lab_lease.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

#include "labgate/transport/fake_transport.h"
#include "transport/dir_safe_test_util.h"
#include "labgate/util/exit_code.h"
#include "lease_scripts.h"
#include "util/recording_messages.h"

namespace labgate::lease {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class LabLeaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/labgate-lease-test-XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    root_ = tmpl;
    options_.root = root_;
    options_.wait = 1s;
    options_.poll = 100ms;
    options_.heartbeat = 1s;
    host_.name = "a";
    host_.address = "local";
    t_ = transport::make_transport(host_);
    dir_ = host_lease_dir(*options_.root, "local-host", "lab1");  // keyed by the host, not the lab
  }
  void TearDown() override { t_->run({"rm", "-rf", root_}); }

  // A lease directory as another run would have left it.
  void plant(const Holder& h, const std::string& heartbeat_age) {
    transport::RunOptions o;
    o.input = h.serialize();
    ASSERT_TRUE(t_->run(take_argv(dir_), o).ok());
    ASSERT_TRUE(t_->run({"touch", "-d", heartbeat_age, dir_ + "/heartbeat"}).ok());
  }
  std::string failure_of(const std::function<void()>& f) {
    try {
      f();
    } catch (const Failure& e) {
      EXPECT_EQ(e.code(), ExitCode::kCouldNotRun);
      return e.what();
    }
    return "(no failure)";
  }

  std::string root_;  // a test may unset options_.root
  LeaseOptions options_;
  profile::Host host_;
  std::unique_ptr<transport::Transport> t_;
  std::string dir_;
};

TEST_F(LabLeaseTest, SecondRunWaitsThenFailsNamingTheFirst) {
  LabLease first("lab1", {host_}, Holder::current("first-run"), options_);
  EXPECT_EQ(Holder::parse(t_->read_file(dir_ + "/holder"))->run_id, "first-run");
  const auto t0 = Clock::now();
  const std::string msg =
      failure_of([&] { LabLease("lab1", {host_}, Holder::current("second-run"), options_); });
  EXPECT_GE(Clock::now() - t0, 1s);
  EXPECT_NE(msg.find("held by"), std::string::npos) << msg;
  EXPECT_NE(msg.find("run first-run"), std::string::npos) << msg;
  EXPECT_NE(msg.find("waited 1s"), std::string::npos) << msg;
  EXPECT_EQ(Holder::parse(t_->read_file(dir_ + "/holder"))->run_id, "first-run");  // untouched
}

// Another run held the lease when our mkdir ran and released it (rm -rf) before
// the script looked: the take tries again instead of calling the path one it
// "cannot create" (a fresh-clone CI's LeaseOnLab.NeverBothHoldIt hit this race).
TEST_F(LabLeaseTest, ALeaseReleasedBetweenOurMkdirAndTheCheckIsTakenOnTheNextTry) {
  const std::string shims = root_ + "/shims";
  ASSERT_TRUE(t_->run({"mkdir", shims}).ok());
  // mkdir fails once, as it does when the directory exists, and leaves nothing.
  ASSERT_TRUE(t_->run({"sh", "-c",
                       "printf '%s\\n' '#!/bin/sh' "
                       "'[ -e \"$0.failed\" ] && exec /bin/mkdir \"$@\"' "
                       "': > \"$0.failed\"; exit 1' > \"$1/mkdir\" && chmod +x \"$1/mkdir\"",
                       "sh", shims})
                  .ok());
  std::vector<std::string> argv{"env", "PATH=" + shims + ":/usr/bin:/bin"};
  for (const auto& a : take_argv(dir_)) argv.push_back(a);
  transport::RunOptions o;
  o.input = Holder::current("after-the-race").serialize();
  const auto r = t_->run(argv, o);
  EXPECT_TRUE(r.ok()) << r.err;
  EXPECT_NE(r.out.find("TAKEN"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(Holder::parse(t_->read_file(dir_ + "/holder"))->run_id, "after-the-race");
}

// Takes the lease for real, then reports a Ctrl-C: the signal landed while the
// take command ran on the host.
struct InterruptedTake : transport::FakeTransport {
  InterruptedTake(transport::Transport& real, std::string dir)
      : FakeTransport("a"), real_(real), dir_(std::move(dir)) {
    identity = "local-host";
  }
  transport::RunResult run(const std::vector<std::string>& argv, const transport::RunOptions& o) override {
    auto r = real_.run(argv, o);
    if (argv.size() > 2 && argv[2] == take_argv(dir_)[2])  // the take (its first resolves the root too)
      throw Failure(ExitCode::kCouldNotRun, "interrupted by SIGINT while taking it");
    return r;
  }
  std::optional<FileInfo> lstat(const std::string& path) override { return real_.lstat(path); }
  transport::Transport& real_;
  std::string dir_;
};

TEST_F(LabLeaseTest, ACtrlCWhileTakingItLeavesNoLeaseBehind) {
  options_.make_transport = [this](const profile::Host&) -> std::unique_ptr<transport::Transport> {
    return std::make_unique<InterruptedTake>(*t_, dir_);
  };
  const std::string msg =
      failure_of([&] { LabLease("lab1", {host_}, Holder::current("cut-run"), options_); });
  EXPECT_NE(msg.find("interrupted by SIGINT"), std::string::npos) << msg;
  EXPECT_FALSE(t_->lstat(dir_)) << "the lease taken as the run stopped is still there";
}

// A host that cannot be reached fails before anything could be taken on it:
// no "remove the lease taken as the run stopped" attempt (none was taken).
struct Unreachable : transport::FakeTransport {
  explicit Unreachable(std::shared_ptr<int> runs) : FakeTransport("a"), runs_(std::move(runs)) {}
  std::string host_identity() override {
    throw Failure(ExitCode::kCouldNotRun, "host a (root@198.18.0.250:22): connection timed out");
  }
  transport::RunResult run(const std::vector<std::string>& argv, const transport::RunOptions& o) override {
    ++*runs_;
    return FakeTransport::run(argv, o);
  }
  std::shared_ptr<int> runs_;  // outlives the transport, which the failing lease destroys
};

TEST_F(LabLeaseTest, AnUnreachableHostFailsWithoutTouchingALease) {
  auto runs = std::make_shared<int>(0);
  options_.make_transport = [runs](const profile::Host&) -> std::unique_ptr<transport::Transport> {
    return std::make_unique<Unreachable>(runs);
  };
  const std::string msg = failure_of([&] { LabLease("lab1", {host_}, Holder::current("x"), options_); });
  EXPECT_NE(msg.find("connection timed out"), std::string::npos) << msg;
  EXPECT_EQ(*runs, 0) << "ran a command on an unreachable host (a lease removal that nothing took)";
}

// Another process's lease with the same run id (two runs started in the same
// second with one --suffix) is not ours: the second run waits, then fails.
TEST_F(LabLeaseTest, ALeaseWithOurRunIdFromAnotherProcessIsNotOurs) {
  Holder other = Holder::current("20260101-120000-nightly");
  other.pid = static_cast<long>(getppid());  // alive, on this machine, not us
  plant(other, "now");
  const std::string msg =
      failure_of([&] { LabLease("lab1", {host_}, Holder::current("20260101-120000-nightly"), options_); });
  EXPECT_NE(msg.find("held by"), std::string::npos) << msg;
  EXPECT_NE(msg.find("pid " + std::to_string(getppid())), std::string::npos) << msg;
  EXPECT_EQ(Holder::parse(t_->read_file(dir_ + "/holder"))->pid, getppid());  // untouched
}

// Another run's take met between its mkdir and its holder file: being taken,
// so waited for (lease_wait), not failed at once as stale. Only a lease directory
// that has stayed without a holder is stale.
TEST_F(LabLeaseTest, ALeaseBeingTakenIsWaitedForAndAnOldEmptyOneIsStale) {
  ASSERT_TRUE(t_->run({"mkdir", dir_}).ok());
  const auto t0 = Clock::now();
  std::string msg = failure_of([&] { LabLease("lab1", {host_}, Holder::current("second"), options_); });
  EXPECT_GE(Clock::now() - t0, 1s);
  EXPECT_NE(msg.find("is held by an unknown holder; waited 1s"), std::string::npos) << msg;
  ASSERT_TRUE(t_->run({"touch", "-d", "1 hour ago", dir_}).ok());
  msg = failure_of([&] { LabLease("lab1", {host_}, Holder::current("second"), options_); });
  EXPECT_NE(msg.find("looks stale: it records no holder"), std::string::npos) << msg;
}

// Issue 22: a lease_dir through a symlink (/tmp/etclink/default, etclink -> /etc)
// put the lease in the link's target. Every component is looked at first.
TEST_F(LabLeaseTest, ALeaseRootThroughASymlinkIsRefusedBeforeAnythingIsWritten) {
  ASSERT_TRUE(t_->run({"mkdir", "-p", root_ + "/real/default"}).ok());
  ASSERT_TRUE(t_->run({"ln", "-s", root_ + "/real", root_ + "/etclink"}).ok());
  options_.root = root_ + "/etclink/default";
  const std::string msg = failure_of([&] { LabLease("lab1", {host_}, Holder::current("r"), options_); });
  EXPECT_NE(msg.find("host a: lease_dir (probe_dir) " + root_ + "/etclink/default: " + root_ +
                     "/etclink is a symlink"),
            std::string::npos)
      << msg;
  EXPECT_EQ(t_->run({"ls", "-A", root_ + "/real/default"}).out, "")
      << "the lease was taken through the symlink";
}

// The holder's release removes the holder file, then the directory: a take that
// looks in between finds neither holder nor directory age, and looks again.
TEST_F(LabLeaseTest, ALeaseReleasedWhileWeLookedIsTakenOnTheNextLook) {
  transport::FakeTransport t("a");
  t.identity = "hk-0123456789abcdef";
  const std::string dir = host_lease_dir(*options_.root, t.identity, "lab1");
  // The first take resolves the lease root in the same request.
  t.once(take_argv(dir), transport::FakeTransport::ok(transport::testing::dir_safe_reply(*options_.root) + "HELD\n\n"));
  t.once(take_argv(dir), transport::FakeTransport::ok("TAKEN\n"));
  t.on({"/bin/sh"}, transport::FakeTransport::ok("ours\n"));  // heartbeat, release
  LabLease l("lab1", std::vector<LeaseTarget>{{host_, &t}}, Holder::current("r2"), options_);
  l.release();
}

// The run's first request on a host resolves the lease root and takes the
// lease (issue 23: far hosts): no lstat of its own before it.
TEST_F(LabLeaseTest, TheFirstTakeResolvesTheRootInTheSameRequest) {
  transport::FakeTransport t("a");
  t.identity = "hk-0123456789abcdef";
  const std::string dir = host_lease_dir(*options_.root, t.identity, "lab1");
  t.on({"/bin/sh"}, transport::FakeTransport::ok("ours\n"));  // release
  t.on(take_argv(dir), transport::FakeTransport::ok(transport::testing::dir_safe_reply(*options_.root) + "TAKEN\n"));
  {
    LabLease l("lab1", std::vector<LeaseTarget>{{host_, &t}}, Holder::current("r3"), options_);
    ASSERT_EQ(t.calls().size(), 1u);
    EXPECT_EQ(t.calls()[0].argv, take_argv(dir, transport::remote_dir_paths(*options_.root)));
  }
  for (const auto& c : t.calls()) EXPECT_EQ(c.argv.at(0), "/bin/sh");
}

// A full lease_dir (default: probe_dir): the take's write of its holder file
// fails, and that is named with the bytes free there, as the host itself says,
// not as a lease labgate "cannot read" (what a full /u01 once printed).
TEST_F(LabLeaseTest, AFullLeaseDirIsNamedWithTheBytesFree) {
  transport::FakeTransport full("a");
  full.identity = "hk-0123456789abcdef";
  options_.root = "/u01/labgate";
  const std::string dir = host_lease_dir("/u01/labgate", full.identity, "lab1");
  // The write-failure diagnosis (a test write and df), then the take itself.
  full.on({"/bin/sh"},
          transport::FakeTransport::ok("write: dd: error writing '/u01/labgate/.labgate-space-test.7': "
                                       "No space left on device\nfree: 0 /u01\n"));
  full.on(take_argv(dir),
          transport::FakeTransport::exit_with(1, "cat: write error: No space left on device\n"));
  const std::string msg = failure_of([&] {
    LabLease("lab1", std::vector<LeaseTarget>{{host_, &full}}, Holder::current("x"), options_);
  });
  EXPECT_NE(
      msg.find("host a: cannot take the lab lease " + dir + " (exit 1): cat: write error: No space left"),
      std::string::npos)
      << msg;
  EXPECT_NE(msg.find("(No space left on device; 0 bytes free on /u01)"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("cannot read"), std::string::npos) << msg;
}

TEST_F(LabLeaseTest, SecondRunGetsItWhenTheFirstReleases) {
  auto first =
      std::make_unique<LabLease>("lab1", std::vector<profile::Host>{host_}, Holder::current("r1"), options_);
  options_.wait = 10s;
  std::thread releaser([&] {
    std::this_thread::sleep_for(500ms);
    first.reset();
  });
  const auto t0 = Clock::now();
  labgate::testing::RecordingMessages told;
  LabLease second("lab1", {host_}, Holder::current("r2"), options_, told);
  releaser.join();
  EXPECT_GE(Clock::now() - t0, 400ms);
  // The wait is said once, where the run tells (its Reporter), naming the holder.
  const auto waits = told.of("info ");
  ASSERT_EQ(waits.size(), 1u) << ::testing::PrintToString(told.events());
  EXPECT_NE(waits[0].find("info host a: lab lease held by "), std::string::npos) << waits[0];
  EXPECT_NE(waits[0].find("; waiting up to "), std::string::npos) << waits[0];
  EXPECT_EQ(Holder::parse(t_->read_file(dir_ + "/holder"))->run_id, "r2");
  second.release();
  EXPECT_FALSE(t_->lstat(dir_));
}

TEST_F(LabLeaseTest, AStaleLeaseOfAnotherMachineIsReportedAndCanBeBroken) {
  Holder other{"root", "harness-elsewhere", 999, 1767268800, "old-run", "other-lab", 0};
  plant(other, "10 minutes ago");
  const auto t0 = Clock::now();
  std::string msg = failure_of([&] { LabLease("lab1", {host_}, Holder::current("new"), options_); });
  EXPECT_LT(Clock::now() - t0, 1s) << "a stale lease is no reason to wait";
  EXPECT_NE(msg.find("looks stale"), std::string::npos) << msg;
  EXPECT_NE(msg.find("root@harness-elsewhere pid 999"), std::string::npos) << msg;
  EXPECT_NE(msg.find("labgate lease break PROFILE --host a"), std::string::npos) << msg;

  auto status = inspect("lab1", {host_}, options_);
  ASSERT_EQ(status.size(), 1u);
  EXPECT_TRUE(status[0].held && status[0].stale);
  EXPECT_GE(*status[0].heartbeat_age, 590);
  auto broken = break_lease("lab1", {host_}, options_, false);
  EXPECT_TRUE(broken[0].stale);
  EXPECT_FALSE(t_->lstat(dir_));
  EXPECT_NO_THROW(LabLease("lab1", {host_}, Holder::current("new"), options_));
}

TEST_F(LabLeaseTest, ALiveLeaseIsNotBrokenWithoutForce) {
  LabLease live("lab1", {host_}, Holder::current("live"), options_);
  const std::string msg = failure_of([&] { break_lease("lab1", {host_}, options_, false); });
  EXPECT_NE(msg.find("looks alive"), std::string::npos) << msg;
  EXPECT_TRUE(t_->lstat(dir_));
  break_lease("lab1", {host_}, options_, true);
  EXPECT_FALSE(t_->lstat(dir_));
}

TEST_F(LabLeaseTest, ALeaseOfADeadHarnessOnThisMachineIsBrokenAutomatically) {
  Holder dead = Holder::current("crashed-run");  // this process, but that run is not active
  plant(dead, "now");
  LabLease lease("lab1", {host_}, Holder::current("next"), options_);
  EXPECT_EQ(Holder::parse(t_->read_file(dir_ + "/holder"))->run_id, "next");
}

TEST_F(LabLeaseTest, HeartbeatKeepsItFreshAndNoticesALoss) {
  options_.heartbeat = 200ms;
  LabLease lease("lab1", {host_}, Holder::current("beating"), options_);
  ASSERT_TRUE(t_->run({"touch", "-d", "1 hour ago", dir_ + "/heartbeat"}).ok());
  std::this_thread::sleep_for(700ms);
  auto status = inspect("lab1", {host_}, options_);
  EXPECT_LE(*status[0].heartbeat_age, 2);
  EXPECT_FALSE(lease.lost());
  // Someone breaks it and another run takes it: ours is lost, theirs is kept.
  break_lease("lab1", {host_}, options_, true);
  Holder thief{"root", "elsewhere", 1, 1, "thief", "", 0};
  plant(thief, "now");
  for (int i = 0; i < 50 && !lease.lost(); ++i) std::this_thread::sleep_for(50ms);
  EXPECT_TRUE(lease.lost());
  lease.release();
  EXPECT_EQ(Holder::parse(t_->read_file(dir_ + "/holder"))->run_id, "thief");
}

TEST_F(LabLeaseTest, APlantedSymlinkIsRefused) {
  ASSERT_EQ(symlink("/etc", dir_.c_str()), 0);
  const std::string msg = failure_of([&] { LabLease("lab1", {host_}, Holder::current("x"), options_); });
  EXPECT_NE(msg.find("not a directory"), std::string::npos) << msg;
}

TEST_F(LabLeaseTest, TwoProfilesWithDifferentLabNamesForTheSameHostExcludeEachOther) {
  LabLease first("ctp-pair-1", {host_}, Holder::current("profile-one"), options_);
  const std::string msg =
      failure_of([&] { LabLease("renamed-pair", {host_}, Holder::current("profile-two"), options_); });
  EXPECT_NE(msg.find("run profile-one of lab ctp-pair-1"), std::string::npos) << msg;
  EXPECT_NE(msg.find(dir_), std::string::npos) << msg;
}

TEST_F(LabLeaseTest, OverTheCallersTransportNoOtherConnectionIsOpened) {
  options_.make_transport = [](const profile::Host& h) -> std::unique_ptr<transport::Transport> {
    ADD_FAILURE() << "the lease opened its own transport to " << h.name;
    return nullptr;
  };
  {
    LabLease lease("lab1", std::vector<LeaseTarget>{{host_, t_.get()}}, Holder::current("shared"), options_);
    EXPECT_EQ(Holder::parse(t_->read_file(dir_ + "/holder"))->run_id, "shared");
  }
  EXPECT_FALSE(t_->lstat(dir_)) << "released over the same transport";
}

TEST_F(LabLeaseTest, AHolderThatSaysItsHeartbeatMayWaitLongIsNotCalledStaleEarly) {
  Holder patient{"root", "elsewhere", 7, 1767268800, "long-measurement", "lab1", 3600};
  plant(patient, "10 minutes ago");  // well past our 6 s, well within its hour
  const std::string msg = failure_of([&] { LabLease("lab1", {host_}, Holder::current("next"), options_); });
  EXPECT_EQ(msg.find("looks stale"), std::string::npos) << msg;
  EXPECT_NE(msg.find("waited 1s"), std::string::npos) << msg;
  EXPECT_FALSE(inspect("lab1", {host_}, options_).at(0).stale);
}

TEST_F(LabLeaseTest, WithoutAnOverrideItLivesInTheHostsLeaseDir) {
  const std::string root = root_;
  options_.root.reset();
  host_.ssh.probe_dir = "/nonexistent-probe-dir";
  host_.ssh.lease_dir = root;
  LabLease lease("lab1", {host_}, Holder::current("in-lease-dir"), options_);
  EXPECT_EQ(Holder::parse(t_->read_file(dir_ + "/holder"))->run_id, "in-lease-dir");
  host_.ssh.lease_dir.reset();
  host_.ssh.probe_dir = root;  // the default: probe_dir
  EXPECT_EQ(inspect("lab1", {host_}, options_).at(0).dir, dir_);
}

TEST(LeaseDir, LabNameMustBeSafe) {
  EXPECT_EQ(lease_dir("lab-pair1"), "/tmp/labgate-lease-lab-pair1");
  EXPECT_THROW(lease_dir("../x"), Failure);
  EXPECT_THROW(lease_dir(""), Failure);
  EXPECT_EQ(host_lease_dir("/var/tmp", "hk-0123456789abcdef", "lab"),
            "/var/tmp/labgate-lease-hk-0123456789abcdef");
  EXPECT_EQ(host_lease_dir("/var/tmp", "", "lab"), "/var/tmp/labgate-lease-lab");
  EXPECT_THROW(host_lease_dir("/var/tmp", "../etc", "lab"), Failure);
}

TEST(ParseState, AllShapes) {
  EXPECT_EQ(parse_state("motd noise\nTAKEN\n")->kind, RemoteLeaseState::Kind::kTaken);
  EXPECT_EQ(parse_state("FREE\n")->kind, RemoteLeaseState::Kind::kFree);
  auto held = parse_state("HELD\nrun_id=r\nhost=h\npid=7\n\nheartbeat_age=42\n");
  ASSERT_TRUE(held);
  EXPECT_EQ(held->holder->run_id, "r");
  EXPECT_EQ(*held->heartbeat_age, 42);
  EXPECT_FALSE(parse_state("HELD\n\n")->holder);
  auto taking = parse_state("HELD\n\ndir_age=0\n");  // made, its holder file not written yet
  ASSERT_TRUE(taking);
  EXPECT_FALSE(taking->holder);
  EXPECT_FALSE(taking->heartbeat_age);
  EXPECT_EQ(*taking->dir_age, 0);
  // A holder file's own lines never stand for the script's (it prints its after).
  EXPECT_EQ(*parse_state("HELD\nrun_id=r\nhost=h\ndir_age=99\n\ndir_age=3\n")->dir_age, 3);
  EXPECT_FALSE(parse_state("garbage"));
}

}  // namespace
}  // namespace labgate::lease
