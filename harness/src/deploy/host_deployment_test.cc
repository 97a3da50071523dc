// HostDeployment end to end on this machine (local transport, the real echo
// probe) and, for states a real host rarely shows, against a scripted host.
#include "labgate/deploy/host_deployment.h"

#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "labgate/deploy/digest.h"
#include "labgate/transport/fake_transport.h"
#include "labgate/util/exit_code.h"
#include "remote_scripts.h"
#include "deploy/local_host_test_util.h"
#include "transport/dir_safe_test_util.h"
#include "transport/proc_watch_test_util.h"
#include "util/recording_messages.h"

namespace labgate::deploy {
namespace {

using namespace std::chrono_literals;
namespace tt = transport::testing;
using transport::FakeTransport;

std::string echo_probe() { return testing::echo_probe_path(); }

std::string what_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Failure& e) {
    return e.what();
  }
  return "(no failure)";
}

class LocalDeployment : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(echo_probe())) << "build probe_echo first: " << echo_probe();
    host_ = testing::local_host_with_new_probe_dir("/tmp/labgate-deploy-XXXXXX");
    ASSERT_FALSE(host_.ssh.probe_dir.empty());
    t_ = transport::make_transport(host_);
  }
  void TearDown() override { t_->run({"rm", "-rf", host_.ssh.probe_dir}); }

  profile::Host host_;
  std::unique_ptr<transport::Transport> t_;
};

// The run's end on a host is one exec: the clean-up, then (the lease's release)
// right after it, whatever it returns.
TEST_F(LocalDeployment, CleanUpRunsTheNextCommandInTheSameExecAfterIt) {
  const std::string marker = host_.ssh.probe_dir + "/then-ran";
  {
    HostDeployment d(*t_, host_, "lab1", "run r1 by test");
    const std::string dir = d.dir();
    // Runs only once the directory is gone, i.e. after the clean-up.
    EXPECT_TRUE(d.cleanup({"sh", "-c", "[ ! -e \"$1\" ] && touch \"$2\"", "sh", dir, marker}));
    EXPECT_FALSE(t_->lstat(dir));
    EXPECT_TRUE(t_->lstat(marker));
    EXPECT_FALSE(d.cleanup({"true"}));  // already cleaned: nothing runs
  }
  HostDeployment e(*t_, host_, "lab1", "run r2 by test");
  EXPECT_FALSE(e.cleanup({"false"}));  // its failure is reported, the clean-up still done
  EXPECT_FALSE(t_->lstat(e.dir()));
}

TEST_F(LocalDeployment, PrivateDirInstallRunAndCleanup) {
  std::string dir;
  long server_group = 0;
  std::unique_ptr<transport::Process> server;  // outlives the deployment
  {
    HostDeployment d(*t_, host_, "lab1", "run r1 by test");
    dir = d.dir();
    // The lab, the host's own tag (its identity: shared storage), a random token.
    EXPECT_EQ(dir.rfind(host_.ssh.probe_dir + "/labgate-lab1.local-host.", 0), 0u) << dir;
    EXPECT_EQ(dir.size(), host_.ssh.probe_dir.size() + 1 + 13 + 11 + 16);
    auto info = t_->lstat(dir);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->mode, 0700u);
    EXPECT_EQ(t_->read_file(dir + "/owner"), "run r1 by test\n");

    const std::string probe = d.install(echo_probe());
    EXPECT_EQ(probe, dir + "/echo");
    EXPECT_EQ(d.install(echo_probe()), probe);  // once per run
    EXPECT_EQ(t_->lstat(probe)->mode, 0700u);
    auto r = d.run({probe, "a b", "$(x)"});
    EXPECT_EQ(r.out, "a b\n$(x)\n");

    server = d.start({"sh", "-c", "sleep 120 & echo up; wait"});
    ASSERT_TRUE(server->wait_for_output("up", 5s));
    server_group = server->pgid();
    // Its owner has not stopped it when the run ends: cleanup must.
  }
  EXPECT_FALSE(t_->lstat(dir)) << "run directory left behind";
  EXPECT_TRUE(tt::gone_within([&] { return tt::group_running(server_group); }));
}

TEST_F(LocalDeployment, TwoRunsGetDifferentDirectories) {
  HostDeployment a(*t_, host_, "lab1", "a"), b(*t_, host_, "lab1", "b");
  EXPECT_NE(a.dir(), b.dir());
}

TEST_F(LocalDeployment, SweepRemovesWhatADeadRunLeftBehind) {
  // What a harness that died mid-run leaves: its directory and a running,
  // recorded, marked process group.
  const std::string leftover = host_.ssh.probe_dir + "/labgate-lab1.local-host." + random_token(8);
  ASSERT_TRUE(t_->run(make_private_dir_argv(leftover, host_.ssh.probe_dir, "dead run")).ok());
  // Another host's live run in the same (shared) probe_dir: never touched.
  const std::string theirs = host_.ssh.probe_dir + "/labgate-lab1.hk-00112233aabbccdd." + random_token(8);
  ASSERT_TRUE(t_->run(make_private_dir_argv(theirs, host_.ssh.probe_dir, "their run")).ok());
  transport::StartOptions so;
  so.pgid_file = leftover + "/pgids";
  // (The handle stays ours only so the process is reaped; nothing stops it.)
  auto orphan = t_->start({"env", "LABGATE_RUN=" + leftover, "sh", "-c", "sleep 120 & echo up; wait"}, so);
  ASSERT_TRUE(orphan->wait_for_output("up", 5s));
  const long group = orphan->pgid();

  labgate::testing::RecordingMessages told;
  HostDeployment next(*t_, host_, "lab1", "next run", /*sweep_leftovers=*/true, told);
  ASSERT_EQ(next.swept().size(), 1u);
  EXPECT_EQ(next.swept()[0], leftover);
  // Said where the run tells (its Reporter), not around it.
  EXPECT_EQ(told.of("warning "), std::vector<std::string>{"warning host " + host_.name + ": removed " +
                                                          leftover + " left behind by an earlier run"});
  EXPECT_FALSE(t_->lstat(leftover));
  EXPECT_TRUE(t_->lstat(next.dir()));
  EXPECT_TRUE(t_->lstat(theirs)) << "a host's sweep removed another host's run directory";
  EXPECT_TRUE(tt::gone_within([&] { return tt::group_running(group); }));
}

// `sh -c "setsid sleep 303 & exec sleep 304"` as a command test: the setsid'd
// grandchild leaves the recorded group, but not the run's marker.
TEST_F(LocalDeployment, CleanupStopsSetsidDescendantsByTheRunsMarker) {
  std::string dir, grandchild, child;
  {
    HostDeployment d(*t_, host_, "lab1", "setsid");
    dir = d.dir();
    // Durations unique to this test process, so a parallel run is never counted.
    const std::string tag = "." + std::to_string(getpid());
    grandchild = "sleep 303" + tag;
    child = "sleep 304" + tag;
    auto p = d.start({"sh", "-c", "setsid " + grandchild + " & exec " + child});
    ASSERT_TRUE(tt::gone_within([&] { return tt::pids_with_cmdline(grandchild).empty(); }))
        << "the test did not start what it meant to";
    p->stop(std::chrono::milliseconds(200));  // the command test ends: its group goes
    ASSERT_FALSE(tt::pids_with_cmdline(grandchild).empty()) << "setsid did not take it out of the group";
  }
  EXPECT_FALSE(t_->lstat(dir));
  EXPECT_TRUE(tt::gone_within([&] { return !tt::pids_with_cmdline(grandchild).empty(); }))
      << "the setsid'd grandchild survived the clean-up";
  EXPECT_TRUE(tt::pids_with_cmdline(child).empty());
}

TEST_F(LocalDeployment, RefusesUnsafeProbeDirs) {
  profile::Host h = host_;
  h.ssh.probe_dir = host_.ssh.probe_dir + "/absent";
  EXPECT_NE(what_of([&] { HostDeployment(*t_, h, "lab1", "x"); }).find("does not exist"), std::string::npos);
  h.ssh.probe_dir = host_.ssh.probe_dir + "/open";
  ASSERT_EQ(mkdir(h.ssh.probe_dir.c_str(), 0777), 0);
  ASSERT_EQ(chmod(h.ssh.probe_dir.c_str(), 0777), 0);
  EXPECT_NE(what_of([&] { HostDeployment(*t_, h, "lab1", "x"); }).find("without the sticky bit"),
            std::string::npos);
  ASSERT_EQ(chmod(h.ssh.probe_dir.c_str(), 01777), 0);
  EXPECT_NO_THROW(HostDeployment(*t_, h, "lab1", "x"));
  h.ssh.probe_dir = host_.ssh.probe_dir + "/link";
  ASSERT_EQ(symlink("/tmp", h.ssh.probe_dir.c_str()), 0);
  EXPECT_NE(what_of([&] { HostDeployment(*t_, h, "lab1", "x"); }).find("is a symlink"), std::string::npos);
  h.ssh.probe_dir = "relative/dir";
  EXPECT_NE(what_of([&] { HostDeployment(*t_, h, "lab1", "x"); }).find("absolute"), std::string::npos);
}

// A full probe_dir: the owner note, written by the request that makes the run's
// directory, fails; named with the kernel's reason and the bytes free there,
// and the directory is removed.
TEST_F(LocalDeployment, AFullProbeDirIsNamedWithTheBytesFree) {
  ASSERT_EQ(geteuid(), 0u) << "mounting a small tmpfs needs root (CI runs as root)";
  const std::string full = host_.ssh.probe_dir + "/full";
  ASSERT_EQ(mkdir(full.c_str(), 0755), 0);
  ASSERT_EQ(mount("labgate-full", full.c_str(), "tmpfs", 0, "size=64k"), 0) << strerror(errno);
  std::ofstream(full + "/filler") << std::string(64 * 1024, 'x');
  profile::Host h = host_;
  h.ssh.probe_dir = full;
  const std::string msg = what_of([&] { HostDeployment(*t_, h, "lab1", "run r1 by test"); });
  const std::string left = t_->run({"sh", "-c", "ls -A \"$1\" | grep -c labgate-", "sh", full}).out;
  umount(full.c_str());
  EXPECT_NE(
      msg.find("host l: cannot write the owner note into the run's directory " + full + "/labgate-lab1."),
      std::string::npos)
      << msg;
  EXPECT_NE(msg.find("No space left on device; 0 bytes free on " + full), std::string::npos) << msg;
  EXPECT_EQ(left, "0\n") << "the run's directory was left behind";
}

// Issue 22: probe_dir = "/tmp/etclink/default" with etclink -> /etc once put the
// run's directory in the real /etc/default; only the last component was checked.
TEST_F(LocalDeployment, RefusesASymlinkAnywhereOnTheProbeDirsPath) {
  namespace fs = std::filesystem;
  const std::string base = host_.ssh.probe_dir;
  fs::create_directories(base + "/real/default");
  fs::create_directory_symlink(base + "/real", base + "/etclink");
  profile::Host h = host_;
  h.ssh.probe_dir = base + "/etclink/default";
  const std::string why = what_of([&] { HostDeployment(*t_, h, "lab1", "x"); });
  EXPECT_NE(why.find("host l: probe_dir " + h.ssh.probe_dir + ": " + base + "/etclink is a symlink"),
            std::string::npos)
      << why;
  // What it resolves to is offered: the profile may name that instead.
  EXPECT_NE(why.find("probe_dir = \"" + base + "/real/default\""), std::string::npos) << why;
  EXPECT_TRUE(fs::is_empty(base + "/real/default")) << "something was made through the symlink";
  // Named as what it resolves to, it is used.
  h.ssh.probe_dir = base + "/real/default";
  EXPECT_NO_THROW(HostDeployment(*t_, h, "lab1", "x"));
  // A world-writable directory without the sticky bit above it is as bad as one at the end.
  fs::create_directories(base + "/open/inner");
  ASSERT_EQ(chmod((base + "/open").c_str(), 0777), 0);
  h.ssh.probe_dir = base + "/open/inner";
  EXPECT_NE(what_of([&] { HostDeployment(*t_, h, "lab1", "x"); })
                .find(base + "/open is world-writable without the sticky bit (mode 0777); any user could "
                             "replace what follows it"),
            std::string::npos);
}

// An ancestor owned by someone else: that user could swap what follows it.
TEST(ScriptedProbeDir, RefusesAProbeDirBelowADirectoryAnotherUserOwns) {
  FakeTransport t("h");
  transport::Transport::FileInfo dir;
  dir.is_dir = true;
  dir.mode = 0755;
  dir.uid = 0;
  t.stats["/u01/lg"] = dir;
  dir.uid = 54321;  // oracle's /u01
  t.stats["/u01"] = dir;
  // The host's shell saw the same and wrote no note (remote_scripts_test runs it).
  t.on({"/bin/sh", "-c"}, FakeTransport::ok(tt::dir_safe_reply_from(t, "/u01/lg") +
                                            "uid 1000\nstat 41c0 1000 4096\nowner refused: /u01 is owned by uid 54321\n"));
  profile::Host h;
  h.name = "h";
  h.ssh.probe_dir = "/u01/lg";
  const std::string why = what_of([&] { HostDeployment(t, h, "lab1", "x"); });
  EXPECT_NE(why.find("host h: probe_dir /u01/lg: /u01 is owned by uid 54321, neither root nor the login user "
                     "(uid 1000)"),
            std::string::npos)
      << why;
}

TEST(RunDirPrefix, LabNamesMustBeSafeInAFileName) {
  EXPECT_EQ(run_dir_prefix("lab-pair1"), "labgate-lab-pair1.");
  for (const char* bad : {"", "a/b", "../x", ".hidden", "-x", "a b", "a$b"}) {
    EXPECT_THROW(run_dir_prefix(bad), Failure) << bad;
  }
}

// What the run directory's script prints for `info` (remote_scripts.h): its
// uid line, its stat line and whether the shell wrote the owner note.
std::string made_dir_output(const transport::Transport::FileInfo& info, long uid, bool note_written) {
  char line[64];
  const unsigned type = info.is_symlink ? S_IFLNK : info.is_dir ? S_IFDIR : S_IFREG;
  std::snprintf(line, sizeof line, "stat %x %ld 4096\n", type | info.mode, info.uid);
  return "uid " + std::to_string(uid) + "\n" + line +
         (note_written ? "owner written\n" : "owner refused: not what the shell expects\n");
}

// A scripted host: states a real host should never show, and exact messages.
// lstat reports /tmp as a sticky directory; the run directory's script reports
// it as `run_dir`, with the owner note written only if the shell says so.
struct ScriptedHost : FakeTransport {
  using FakeTransport::FakeTransport;
  bool interrupt_at_dir = false;  // a Ctrl-C right after the mkdir
  bool note_written = true;
  FileInfo run_dir = [] {
    FileInfo f;
    f.is_dir = true;
    f.mode = 0700;
    f.uid = 0;
    return f;
  }();
  std::optional<FileInfo> lstat(const std::string& p) override {
    if (p == "/tmp") {
      FileInfo f;
      f.is_dir = true;
      f.mode = 01777;
      return f;
    }
    return FakeTransport::lstat(p);
  }
  transport::RunResult run(const std::vector<std::string>& argv,
                           const transport::RunOptions& o = {}) override {
    transport::RunResult r = FakeTransport::run(argv, o);  // recorded, and a scripted failure wins
    if (argv.size() < 3 || argv[2].find("mkdir -m 0700") == std::string::npos || !r.ok()) return r;
    if (interrupt_at_dir) throw Failure(ExitCode::kCouldNotRun, "interrupted by SIGINT after the mkdir");
    // As the host's shell: probe_dir's components first, stopping (exit 0,
    // nothing made) at one it refuses.
    r.out = tt::dir_safe_reply_from(*this, argv.at(5));
    for (const auto& info : transport::parse_dir_safe(r.out))
      if (!info || info->is_symlink || !info->is_dir) return r;
    r.out += made_dir_output(run_dir, 0, note_written);
    return r;
  }
};

class ScriptedDeployment : public ::testing::Test {
 protected:
  void SetUp() override {
    host_.name = "a";
    host_.address = "10.0.0.1";
    host_.ssh.probe_dir = "/tmp";
    fake_.on({"/bin/sh", "-c"}, FakeTransport::ok("0\n"));  // the mkdir and cleanup scripts
  }
  profile::Host host_;
  ScriptedHost fake_{"a"};
};

TEST_F(ScriptedDeployment, RefusesADirectoryThatIsNotWhatItCreated) {
  fake_.note_written = false;  // as the host's shell, seeing the same
  fake_.run_dir.mode = 0755;
  std::string msg = what_of([&] { HostDeployment(fake_, host_, "lab1", "x"); });
  EXPECT_NE(msg.find("mode is 0755, not 0700"), std::string::npos) << msg;
  EXPECT_EQ(fake_.calls().size(), 1u);  // not ours: it is not removed
  fake_.run_dir.mode = 0700;
  fake_.run_dir.uid = 1000;
  msg = what_of([&] { HostDeployment(fake_, host_, "lab1", "x"); });
  EXPECT_NE(msg.find("owned by uid 1000, not by us (uid 0)"), std::string::npos) << msg;
  fake_.run_dir.uid = 0;
  fake_.run_dir.is_symlink = true;
  msg = what_of([&] { HostDeployment(fake_, host_, "lab1", "x"); });
  EXPECT_NE(msg.find("not a directory"), std::string::npos) << msg;
}

// The note is the host's shell's last act after its own checks: one request for
// the mkdir, the stat and the note, no upload. Refused there, the run does not
// use the directory, and removes it (its checks found it ours).
TEST_F(ScriptedDeployment, TheOwnerNoteRidesOnTheMkdirAndARefusalStopsTheRun) {
  {
    HostDeployment d(fake_, host_, "lab1", "run r1 by tester");
    ASSERT_EQ(fake_.calls().size(), 1u);
    EXPECT_EQ(fake_.calls()[0].argv.at(6), "run r1 by tester");
    EXPECT_TRUE(fake_.uploads().empty());
  }
  fake_.note_written = false;
  const std::size_t before = fake_.calls().size();
  const std::string msg = what_of([&] { HostDeployment(fake_, host_, "lab1", "x"); });
  EXPECT_NE(msg.find("the owner note was not written (not what the shell expects); refusing to use it"),
            std::string::npos)
      << msg;
  ASSERT_EQ(fake_.calls().size(), before + 2);
  EXPECT_EQ(fake_.calls()[before + 1].argv, cleanup_dir_argv(fake_.calls()[before].argv.at(4)));
}

TEST_F(ScriptedDeployment, ACtrlCRightAfterTheMkdirStillRemovesTheDirectory) {
  fake_.interrupt_at_dir = true;
  const std::string msg = what_of([&] { HostDeployment(fake_, host_, "lab1", "x"); });
  EXPECT_NE(msg.find("interrupted by SIGINT"), std::string::npos) << msg;
  // The mkdir, then the cleanup of that same directory (the constructor threw,
  // so no destructor would ever have removed it).
  ASSERT_EQ(fake_.calls().size(), 2u);
  const auto& mkdir = fake_.calls()[0].argv;
  const auto& cleanup = fake_.calls()[1].argv;
  EXPECT_NE(mkdir.at(2).find("mkdir"), std::string::npos);
  EXPECT_EQ(cleanup, cleanup_dir_argv(mkdir.at(4)));
}

// Round trips of a run's start on a host (issue 23): probe_dir resolved, the
// sweep, the mkdir and the owner note are one request, and nothing else
// crosses (no lstat of its own); a round trip put back fails here.
TEST_F(ScriptedDeployment, TheRunDirectoryIsOneRequestWithProbeDirResolvedInIt) {
  std::vector<std::string> steps;
  fake_.on_step = [&](const std::string& what) { steps.push_back(what); };
  HostDeployment d(fake_, host_, "lab1", "x", /*sweep_leftovers=*/true);
  ASSERT_EQ(steps.size(), 1u) << steps.back();
  EXPECT_EQ(steps[0].rfind("/bin/sh -c", 0), 0u) << steps[0];
  ASSERT_EQ(fake_.calls().size(), 1u);
  const auto& argv = fake_.calls()[0].argv;
  EXPECT_EQ(argv.back(), "/tmp");  // probe_dir's components ride at the end
  EXPECT_NE(argv[2].find("dir_safe \"$@\" || exit 0\n"), std::string::npos);
}

// The host's shell refused probe_dir before its mkdir: the same message as an
// lstat would give, and nothing removed (nothing was made).
TEST_F(ScriptedDeployment, AProbeDirTheShellRefusesIsNamedAndNothingIsRemoved) {
  host_.ssh.probe_dir = "/var/lg";
  FakeTransport::FileInfo link;
  link.is_symlink = true;
  link.mode = 0777;
  fake_.stats["/var/lg"] = link;
  fake_.on({"readlink"}, FakeTransport::ok("/private/lg\n"));
  const std::string msg = what_of([&] { HostDeployment(fake_, host_, "lab1", "x"); });
  EXPECT_NE(msg.find("host a: probe_dir /var/lg"), std::string::npos) << msg;
  EXPECT_NE(msg.find("symlink"), std::string::npos) << msg;
  for (const auto& c : fake_.calls()) EXPECT_EQ(c.argv[2].find("stop_dir"), std::string::npos) << "a clean-up ran";
}

TEST_F(ScriptedDeployment, AnExistingNameIsRefused) {
  fake_.once({"/bin/sh", "-c"}, FakeTransport::exit_with(1, "mkdir: cannot create directory: File exists\n"));
  const std::string msg = what_of([&] { HostDeployment(fake_, host_, "lab1", "x"); });
  EXPECT_NE(msg.find("refusing to use it"), std::string::npos) << msg;
  EXPECT_EQ(fake_.calls().size(), 1u);  // someone else's: never removed
}

TEST_F(ScriptedDeployment, NoexecProbeDirIsNamedWithItsMountOption) {
  HostDeployment d(fake_, host_, "lab1", "x");
  fake_.once({"env"},
             FakeTransport::exit_with(126, "bash: line 1: " + d.dir() + "/echo: Permission denied\n"));
  fake_.on({"cat", "/proc/mounts"},
           FakeTransport::ok("/dev/root / ext3 rw 0 0\ntmpfs /tmp tmpfs rw,nosuid,nodev,noexec 0 0\n"));
  const std::string msg = what_of([&] { d.install(echo_probe()); });
  EXPECT_NE(msg.find("host a: cannot execute probes in " + d.dir()), std::string::npos) << msg;
  EXPECT_NE(msg.find("/tmp (tmpfs), mounted with `noexec`"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Set probe_dir"), std::string::npos) << msg;
}

TEST_F(ScriptedDeployment, ASecondTestOnANoexecProbeDirGetsTheSameDiagnosis) {
  HostDeployment d(fake_, host_, "lab1", "x");
  fake_.on({"env"}, FakeTransport::exit_with(126, "sh: " + d.dir() + "/echo: Permission denied\n"));
  fake_.on({"cat", "/proc/mounts"}, FakeTransport::ok("tmpfs /tmp tmpfs rw,noexec 0 0\n"));
  const std::string first = what_of([&] { d.install(echo_probe()); });
  const std::string second = what_of([&] { d.install(echo_probe()); });
  EXPECT_NE(first.find("noexec"), std::string::npos) << first;
  EXPECT_EQ(second, first);
  int probe_uploads = 0;
  for (const auto& u : fake_.uploads()) probe_uploads += u.path == d.dir() + "/echo";
  EXPECT_EQ(probe_uploads, 1) << "uploaded again onto the refused file";
}

TEST_F(ScriptedDeployment, ADigestMismatchIsReported) {
  HostDeployment d(fake_, host_, "lab1", "x");
  fake_.once({"env"}, FakeTransport::ok(std::string(64, '0') + "\n"));
  const std::string msg = what_of([&] { d.install(echo_probe()); });
  EXPECT_NE(msg.find("is not the file uploaded"), std::string::npos) << msg;
  EXPECT_NE(msg.find(sha256_file_hex(echo_probe())), std::string::npos) << msg;
}

TEST_F(ScriptedDeployment, GarbageInsteadOfADigestIsCutAndEscapedInTheMessage) {
  HostDeployment d(fake_, host_, "lab1", "x");
  std::string garbage(1u << 20, '\x1b');
  garbage[0] = '\xff';
  fake_.once({"env"}, FakeTransport::ok(garbage));
  const std::string msg = what_of([&] { d.install(echo_probe()); });
  EXPECT_NE(msg.find("is not the file uploaded: it reports SHA-256 \\xff\\x1b"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(1048576 bytes in all)"), std::string::npos) << msg;
  EXPECT_LT(msg.size(), 2000u);
  EXPECT_EQ(msg.find('\x1b'), std::string::npos);
}

TEST_F(ScriptedDeployment, CleanupFailureSurvivesOneReconnectThenReports) {
  auto d = std::make_unique<HostDeployment>(fake_, host_, "lab1", "x");
  ScriptedHost& f = fake_;
  f.once({"/bin/sh", "-c"}, FakeTransport::exit_with(1, "rm: cannot remove"));
  f.once({"/bin/sh", "-c"}, FakeTransport::ok());
  EXPECT_NO_THROW(d->cleanup());  // second attempt worked
  HostDeployment e(fake_, host_, "lab1", "y");
  f.fail_on({"/bin/sh", "-c"}, "connection lost");
  const std::string msg = what_of([&] { e.cleanup(); });
  EXPECT_NE(msg.find("could not clean up " + e.dir()), std::string::npos) << msg;
  EXPECT_NE(msg.find("next run that takes the lab lease"), std::string::npos) << msg;
}

}  // namespace
}  // namespace labgate::deploy
