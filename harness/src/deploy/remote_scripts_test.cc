// Deployment's remote scripts run for real (local transport, real processes).
#include "remote_scripts.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "labgate/transport/remote_dir.h"
#include "labgate/transport/stat_line.h"
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

TEST_F(RemoteScripts, MakePrivateDirIsExclusiveAndReportsWhatItMade) {
  const std::string dir = base_ + "/run";
  auto r = t_->run(make_private_dir_argv(dir, base_, "run r1 by 'me' $(x)"));
  ASSERT_TRUE(r.ok()) << r.err;
  // One request: probe_dir resolved (its components' lstat), the uid, the
  // directory's lstat, and the owner note written.
  const std::string u = std::to_string(getuid());
  const auto paths = transport::parse_dir_safe(r.out);
  ASSERT_EQ(paths.size(), transport::remote_dir_paths(base_).size()) << r.out;
  EXPECT_TRUE(paths.back() && paths.back()->is_dir) << r.out;
  EXPECT_EQ(r.out.substr(r.out.find("uid "), r.out.find("stat ") - r.out.find("uid ")), "uid " + u + "\n")
      << r.out;
  const auto stat_at = r.out.find("stat ");
  ASSERT_NE(stat_at, std::string::npos) << r.out;
  const auto reported = transport::parse_stat_line(r.out.substr(stat_at + 5, r.out.find('\n', stat_at) - stat_at - 5));
  ASSERT_TRUE(reported);
  EXPECT_TRUE(reported->is_dir);
  EXPECT_EQ(reported->mode, 0700u);
  EXPECT_EQ(std::to_string(reported->uid), u);
  EXPECT_NE(r.out.find("\nowner written\n"), std::string::npos) << r.out;
  EXPECT_EQ(t_->read_file(dir + "/owner"), "run r1 by 'me' $(x)\n");
  EXPECT_EQ(t_->lstat(dir + "/owner")->mode, 0600u);
  EXPECT_TRUE(t_->lstat(dir + "/boot"));
  auto info = t_->lstat(dir);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->mode, 0700u);
  EXPECT_FALSE(t_->run(make_private_dir_argv(dir, base_, "x")).ok());
  ASSERT_EQ(symlink(base_.c_str(), (base_ + "/planted").c_str()), 0);
  EXPECT_FALSE(t_->run(make_private_dir_argv(base_ + "/planted", base_, "x")).ok());
  EXPECT_FALSE(t_->lstat(base_ + "/owner")) << "a note written through the planted symlink";
}

// The owner note is written only after the host's shell has made the caller's
// checks: below a directory another user owns (who could swap the run's
// directory for a symlink between the checks and the write), none is written.
TEST_F(RemoteScripts, NoOwnerNoteBelowADirectoryAnotherUserOwns) {
  ASSERT_EQ(geteuid(), 0u) << "giving a directory to another user needs root (CI runs as root)";
  const std::string theirs = base_ + "/theirs";
  ASSERT_EQ(mkdir(theirs.c_str(), 0755), 0);
  ASSERT_EQ(chown(theirs.c_str(), 65534, 65534), 0);
  const std::string dir = theirs + "/run";
  auto r = t_->run(make_private_dir_argv(dir, theirs, "x"));
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_NE(r.out.find("owner refused: " + theirs + " is owned by uid 65534\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("owner written"), std::string::npos) << r.out;
  EXPECT_FALSE(t_->lstat(dir + "/owner"));
  EXPECT_FALSE(t_->lstat(dir + "/boot"));
  // A symlink as probe_dir: the script stops at its "path" line, before any
  // mkdir (the caller names it as resolve_remote_dir would).
  const std::string link = base_ + "/link";
  ASSERT_EQ(symlink(base_.c_str(), link.c_str()), 0);
  r = t_->run(make_private_dir_argv(link + "/run2", link, "x"));
  ASSERT_TRUE(r.ok()) << r.err;
  const auto seen = transport::parse_dir_safe(r.out);
  ASSERT_FALSE(seen.empty()) << r.out;
  EXPECT_TRUE(seen.back() && seen.back()->is_symlink) << r.out;
  EXPECT_EQ(r.out.find("uid "), std::string::npos) << "went on past a symlinked probe_dir: " << r.out;
  EXPECT_FALSE(t_->lstat(base_ + "/run2")) << "made through the symlink";
}

TEST_F(RemoteScripts, CleanupStopsRecordedGroupsAndRemovesTheDir) {
  const std::string dir = base_ + "/run";
  ASSERT_TRUE(t_->run(make_private_dir_argv(dir, base_, "x")).ok());
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
  ASSERT_TRUE(t_->run(make_private_dir_argv(dir, base_, "x")).ok());
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
  for (const auto& d : {dead, mine, other_lab}) ASSERT_TRUE(t_->run(make_private_dir_argv(d, base_, "x")).ok());
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
  for (const auto& d : {dead, clone}) ASSERT_TRUE(t_->run(make_private_dir_argv(d, base_, "x")).ok());
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
  r = t_->run(sweep_and_make_private_dir_argv(mine, base_, prefix, "x", 5));
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_NE(r.out.find("kept " + clone + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("uid " + std::to_string(getuid())), std::string::npos) << r.out;
  EXPECT_TRUE(t_->lstat(mine + "/boot"));
  EXPECT_NE(r.out.find("owner written\n"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace labgate::deploy
