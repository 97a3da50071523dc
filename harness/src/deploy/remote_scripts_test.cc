// Deployment's remote scripts run for real (local transport, real processes).
#include "remote_scripts.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "labgate/transport/transport.h"
#include "transport/proc_watch_test_util.h"

namespace labgate::deploy {
namespace {

using namespace std::chrono_literals;
namespace tt = transport::testing;

class RemoteScripts : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/labgate-scripts-XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    base_ = tmpl;
    profile::Host h;
    h.name = "local";
    h.address = "local";
    t_ = transport::make_transport(h);
  }
  void TearDown() override { t_->run({"rm", "-rf", base_}); }

  // Starts a sleeper in `dir`'s recorded groups, marked (or not) as the run's.
  std::unique_ptr<transport::Process> sleeper(const std::string& dir, bool marked) {
    std::vector<std::string> argv{"sh", "-c", "sleep 120 & sleep 120 & echo up; wait"};
    if (marked) argv.insert(argv.begin(), {"env", std::string(kRunMarkerVar) + "=" + dir});
    transport::StartOptions o;
    o.pgid_file = dir + "/pgids";
    auto p = t_->start(argv, o);
    EXPECT_TRUE(p->wait_for_output("up", 5s));
    return p;
  }

  std::string base_;
  std::unique_ptr<transport::Transport> t_;
};

TEST_F(RemoteScripts, MakePrivateDirIsExclusiveAndPrintsTheUid) {
  const std::string dir = base_ + "/run";
  auto r = t_->run(make_private_dir_argv(dir));
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out, std::to_string(getuid()) + "\n");
  auto info = t_->lstat(dir);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->mode, 0700u);
  EXPECT_FALSE(t_->run(make_private_dir_argv(dir)).ok());
  ASSERT_EQ(symlink(base_.c_str(), (base_ + "/planted").c_str()), 0);
  EXPECT_FALSE(t_->run(make_private_dir_argv(base_ + "/planted")).ok());
}

TEST_F(RemoteScripts, CleanupStopsRecordedGroupsAndRemovesTheDir) {
  const std::string dir = base_ + "/run";
  ASSERT_TRUE(t_->run(make_private_dir_argv(dir)).ok());
  auto a = sleeper(dir, true);
  auto b = sleeper(dir, true);
  const long ga = a->pgid(), gb = b->pgid();
  auto r = t_->run(cleanup_dir_argv(dir, 10));
  EXPECT_TRUE(r.ok()) << r.err;
  EXPECT_FALSE(t_->lstat(dir));
  EXPECT_TRUE(tt::gone_within([&] { return tt::group_running(ga) || tt::group_running(gb); }));
}

TEST_F(RemoteScripts, CleanupSparesAGroupWhoseLeaderIsNotOurs) {
  // A pid in pgids whose live leader lacks the run marker is someone else's
  // (the pid was reused): it must survive.
  const std::string dir = base_ + "/run";
  ASSERT_TRUE(t_->run(make_private_dir_argv(dir)).ok());
  auto foreign = sleeper(dir, false);
  EXPECT_TRUE(t_->run(cleanup_dir_argv(dir, 5)).ok());
  EXPECT_FALSE(t_->lstat(dir));
  EXPECT_TRUE(tt::group_running(foreign->pgid()));
  foreign->stop(1s);
}

TEST_F(RemoteScripts, CleanupNeverFollowsASymlink) {
  const std::string victim = base_ + "/victim";
  ASSERT_EQ(mkdir(victim.c_str(), 0755), 0);
  std::ofstream(victim + "/keep") << "x";
  ASSERT_EQ(symlink(victim.c_str(), (base_ + "/run").c_str()), 0);
  EXPECT_TRUE(t_->run(cleanup_dir_argv(base_ + "/run")).ok());
  EXPECT_TRUE(t_->lstat(victim + "/keep"));
}

TEST_F(RemoteScripts, SweepRemovesOnlyOtherRunsOfThisLab) {
  const std::string prefix = "labgate-lab1.";
  const std::string dead = base_ + "/" + prefix + "dead", mine = base_ + "/" + prefix + "mine";
  const std::string other_lab = base_ + "/labgate-lab2.x";
  for (const auto& d : {dead, mine, other_lab}) ASSERT_TRUE(t_->run(make_private_dir_argv(d)).ok());
  ASSERT_EQ(symlink(other_lab.c_str(), (base_ + "/" + prefix + "link").c_str()), 0);
  auto orphan = sleeper(dead, true);
  const long g = orphan->pgid();
  auto r = t_->run(sweep_leftovers_argv(base_, prefix, mine, 5));
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out, dead + "\n");
  EXPECT_FALSE(t_->lstat(dead));
  EXPECT_TRUE(t_->lstat(mine));
  EXPECT_TRUE(t_->lstat(other_lab));
  EXPECT_TRUE(tt::gone_within([&] { return tt::group_running(g); }));
  EXPECT_TRUE(t_->run(sweep_leftovers_argv(base_ + "/none", prefix, "", 5)).ok());  // nothing to do
}

// Issue 22: two cloned hosts (one host key, so one directory prefix) on storage
// both mount: host b's sweep once removed host a's live run directory. Only a
// directory provably of a run that is over goes: made in this boot on this machine.
TEST_F(RemoteScripts, SweepNeverRemovesWhatAnotherMachineMade) {
  const std::string prefix = "labgate-lab1.hk-0011223344556677.";
  const std::string dead = base_ + "/" + prefix + "dead", clone = base_ + "/" + prefix + "clone";
  const std::string fresh = base_ + "/" + prefix + "fresh";
  for (const auto& d : {dead, clone}) ASSERT_TRUE(t_->run(make_private_dir_argv(d)).ok());
  std::ifstream boot_in("/proc/sys/kernel/random/boot_id");
  std::string boot;
  std::getline(boot_in, boot);
  std::ifstream stamped(dead + "/boot");
  std::string written;
  std::getline(stamped, written);
  EXPECT_EQ(written.substr(0, written.find(' ')), boot) << "the run's directory records the machine's boot";
  // The clone's: its own boot id (every machine's differs).
  std::ofstream(clone + "/boot", std::ios::trunc) << "0a1b2c3d-0000-4000-8000-00000000c10e\n";
  // A directory without a boot file, made a moment ago: perhaps being made right now.
  ASSERT_EQ(mkdir(fresh.c_str(), 0700), 0);
  auto r = t_->run(sweep_leftovers_argv(base_, prefix, "", 5));
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out, dead + "\n");
  EXPECT_FALSE(t_->lstat(dead));
  EXPECT_TRUE(t_->lstat(clone)) << "the sweep removed a directory another machine made";
  EXPECT_TRUE(t_->lstat(fresh));
  EXPECT_NE(r.err.find("kept " + clone), std::string::npos) << r.err;
  // The start of a run says the same on its stdout, and still makes its directory.
  const std::string mine = base_ + "/" + prefix + "mine";
  r = t_->run(sweep_and_make_private_dir_argv(mine, base_, prefix, 5));
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_NE(r.out.find("kept " + clone + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("uid " + std::to_string(getuid())), std::string::npos) << r.out;
  EXPECT_TRUE(t_->lstat(mine + "/boot"));
}

}  // namespace
}  // namespace labgate::deploy
