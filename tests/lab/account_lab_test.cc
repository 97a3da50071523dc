// Issue 13 on the lab's real sshd and real sudo (`ci/lab up --pair 14 --accounts`):
// a non-root operator with a banner-printing ~/.bashrc or a tcsh login shell,
// sudo -n with NOPASSWD on host a (also under `Defaults requiretty`) and with a
// password on host b, facts that need root without become, a probe_dir both
// hosts mount, the lease across two lab names, and setsid'd descendants.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "lab_env.h"
#include "labgate/deploy/host_deployment.h"
#include "labgate/facts/parse.h"
#include "labgate/lease/lab_lease.h"
#include "labgate/util/exit_code.h"

namespace labgate::lab {
namespace {

// A checkout under /tmp keeps its lab state under /var/lib behind a symlink (see
// ci/lab); once the host's own /tmp is bound over /tmp, only the real path is seen.
std::string real_path(const std::string& p) {
  std::error_code ec;
  const auto real = std::filesystem::weakly_canonical(p, ec);
  return ec ? p : real.string();
}

using namespace std::chrono_literals;

// Collects what labgate logs at warning level and above while it lives.
class WarningCapture {
 public:
  WarningCapture() : sink_(std::make_shared<spdlog::sinks::ostream_sink_mt>(out_)) {
    sink_->set_level(spdlog::level::warn);
    spdlog::default_logger()->sinks().push_back(sink_);
  }
  ~WarningCapture() {
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
  }
  std::string text() const { return out_.str(); }

 private:
  std::ostringstream out_;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

int count_of(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

const std::string kEcho = std::string(LABGATE_PROBE_DIR) + "/echo";
const std::string kFacts = std::string(LABGATE_PROBE_DIR) + "/facts";
const std::string kShared = "/var/tmp/labgate-shared";  // one directory, mounted on a and b

class AccountsOnLab : public LabTest {
 protected:
  void SetUp() override {
    LabTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_TRUE(std::filesystem::exists(state_dir() + "/accounts"))
        << "pair " << pair() << " has no operator accounts: run `ci/lab up --pair " << pair()
        << " --accounts`";
  }
  // Host h as the operator `user` (labgate-ops: bash with a banner; labgate-csh: tcsh).
  static profile::Host as(const std::string& h, const std::string& user, bool become) {
    profile::Host host = lab::host(h);
    host.ssh.user = user;
    host.ssh.probe_dir = kShared;
    if (become) host.ssh.become = "sudo";
    return host;
  }
  static std::string sudoers(const std::string& h) { return state_dir() + "/sudoers-" + h; }
};

TEST_F(AccountsOnLab, BannersAndCshLoginShellsNeverReachAResult) {
  for (const std::string user : {"labgate-ops", "labgate-csh"}) {
    SCOPED_TRACE(user);
    profile::Host h = as("a", user, false);
    h.ssh.probe_dir = "/tmp";  // labgate-csh does not own the shared directory
    auto t = transport::make_transport(h);
    // The login shell prints "*** Authorized use only ***" before every command.
    const auto r =
        t->run({"sh", "-c", "printf '%s|' \"$@\"; echo \"$LC_ALL\"", "sh", "it's", "a\nb", "!x $y"});
    EXPECT_EQ(r.out, "it's|a\nb|!x $y|C\n");
    EXPECT_TRUE(r.ok()) << r.err;
    // Files (SFTP would read the banner as protocol: exec + cat instead), the
    // run directory and a probe, all verified by digest.
    std::string dir;
    {
      deploy::HostDeployment d(*t, h, "labtest-acct", "account test");
      dir = d.dir();
      EXPECT_EQ(t->lstat(dir)->mode, 0700u);
      EXPECT_EQ(d.run({d.install(kEcho), "probe ran"}).out, "probe ran\n");
    }
    EXPECT_FALSE(t->lstat(dir)) << dir << " left behind";
  }
}

TEST_F(AccountsOnLab, SudoNopasswdRunsTheFactsProbeAsRootOnA) {
  profile::Host h = as("a", "labgate-ops", true);
  auto t = transport::make_transport(h);
  deploy::HostDeployment d(*t, h, "labtest-acct", "sudo test");
  ASSERT_EQ(d.root_access(), deploy::RootAccess::kSudo);
  const auto r = d.run_privileged({d.install(kFacts), "--sections", "sysctl", "--sysctl", "kernel.cad_pid"});
  ASSERT_TRUE(r.ok()) << r.err;
  const auto f = facts::parse_facts(r.out, "host a");
  EXPECT_TRUE(f.sysctl.at("kernel.cad_pid").value) << f.sysctl.at("kernel.cad_pid").error;  // 0600 root
}

TEST_F(AccountsOnLab, WithoutBecomeARootOnlyFactIsNotCheckableAndSaysNeedsRoot) {
  profile::Host h = as("a", "labgate-ops", false);
  auto t = transport::make_transport(h);
  deploy::HostDeployment d(*t, h, "labtest-acct", "no become");
  const auto r = d.run_privileged({d.install(kFacts), "--sections", "sysctl", "--sysctl", "kernel.cad_pid"});
  ASSERT_TRUE(r.ok()) << r.err;
  const auto& fact = facts::parse_facts(r.out, "host a").sysctl.at("kernel.cad_pid");
  EXPECT_FALSE(fact.value);
  EXPECT_FALSE(fact.missing);
  EXPECT_NE(fact.error.find("needs root"), std::string::npos) << fact.error;
}

TEST_F(AccountsOnLab, APasswordRequiringSudoOnBIsExit3WithTheSudoersLines) {
  profile::Host h = as("b", "labgate-ops", true);
  auto t = transport::make_transport(h);
  deploy::HostDeployment d(*t, h, "labtest-acct", "password sudo");
  const std::string probe = d.install(kFacts);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string msg = could_not_run([&] { d.run_privileged({probe, "--sections", "os"}); });
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s) << "waited on a password prompt";
  EXPECT_NE(msg.find("host b: `" + probe + "` needs root"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sudo wants a password (sudo: a password is required)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("labgate-ops ALL=(root) NOPASSWD: " + kShared + "/labgate-*/facts"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("Defaults:labgate-ops !requiretty"), std::string::npos) << msg;
}

// RHEL 5/6 sudoers: `Defaults requiretty`. With the suggested per-user
// exception (as ci/lab writes it) sudo -n works; without it, it is named.
TEST_F(AccountsOnLab, RequirettyWithoutTheExceptionIsNamedAndWithItWorks) {
  const std::string file = sudoers("a");
  std::ifstream in(file);
  const std::string saved((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_NE(saved.find("Defaults:labgate-ops !requiretty"), std::string::npos);
  ASSERT_NE(saved.find("Defaults requiretty"), std::string::npos);
  profile::Host h = as("a", "labgate-ops", true);
  auto t = transport::make_transport(h);
  deploy::HostDeployment d(*t, h, "labtest-acct", "requiretty");
  const std::string probe = d.install(kFacts);
  EXPECT_TRUE(d.run_privileged({probe, "--sections", "os"}).ok());  // the exception in place
  std::string without = saved;
  without.erase(without.find("Defaults:labgate-ops !requiretty"), 32);
  std::ofstream(file, std::ios::trunc) << without;  // same inode: the host's bind mount sees it
  const std::string msg = could_not_run([&] { d.run_privileged({probe, "--sections", "os"}); });
  std::ofstream(file, std::ios::trunc) << saved;
  EXPECT_NE(msg.find("sudoers has `Defaults requiretty`"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Defaults:labgate-ops !requiretty"), std::string::npos) << msg;
}

TEST_F(AccountsOnLab, AProbeDirTheOperatorDoesNotOwnIsRefusedWithSudo) {
  profile::Host h = as("a", "labgate-ops", true);
  h.ssh.probe_dir = "/tmp";  // root's, 1777: anyone could plant what sudo then runs as root
  auto t = transport::make_transport(h);
  const std::string msg = could_not_run([&] { deploy::HostDeployment(*t, h, "labtest-acct", "x"); });
  EXPECT_NE(msg.find("nobody but the login user may write there"), std::string::npos) << msg;
  EXPECT_NE(msg.find("mkdir -m 0700"), std::string::npos) << msg;
}

// RAC's /u01: both hosts see one directory. b's sweep of leftovers must not
// touch a's live run, and each host's directory names its host.
TEST_F(AccountsOnLab, ASharedProbeDirKeepsEachHostsRunsApart) {
  profile::Host ha = as("a", "labgate-ops", false), hb = as("b", "labgate-ops", false);
  auto ta = transport::make_transport(ha), tb = transport::make_transport(hb);
  deploy::HostDeployment on_a(*ta, ha, "labtest-acct", "a's live run");
  ASSERT_TRUE(tb->lstat(on_a.dir())) << "the lab's shared directory is not shared";
  EXPECT_NE(on_a.dir().find("." + ta->host_identity() + "."), std::string::npos) << on_a.dir();
  deploy::HostDeployment on_b(*tb, hb, "labtest-acct", "b's run", /*sweep_leftovers=*/true);
  EXPECT_TRUE(on_b.swept().empty());
  EXPECT_TRUE(ta->lstat(on_a.dir())) << "b's sweep removed a's live run directory";
}

TEST_F(AccountsOnLab, TwoLabNamesForTheSameServersExcludeEachOther) {
  lease::LeaseOptions o;
  o.wait = 1s;
  o.poll = 200ms;
  const std::vector<profile::Host> hosts{as("a", "labgate-ops", false), as("b", "labgate-ops", false)};
  lease::LabLease first("labtest-profile-one", hosts, lease::Holder::current("run-one"), o);
  const std::string msg = could_not_run(
      [&] { lease::LabLease("labtest-profile-two", hosts, lease::Holder::current("run-two"), o); });
  EXPECT_NE(msg.find("host a: the lab lease " + kShared + "/labgate-lease-hk-"), std::string::npos) << msg;
  EXPECT_NE(msg.find("run run-one of lab labtest-profile-one"), std::string::npos) << msg;
}

// sshd `MaxSessions 1`: the SFTP channel that an upload leaves open takes the
// only session, and the next command's channel is refused. That is named as
// what it is, not "is Subsystem sftp configured?" nor a lost connection.
TEST_F(AccountsOnLab, MaxSessionsOneStillServesEveryStepAndNamesTheCauseOnce) {
  // Not under /tmp: the sshd's own /tmp is host a's, bound over it.
  const std::string dir = real_path(state_dir()) + "/maxsessions-test";
  run_local({"mkdir", "-p", dir});
  scratch_.push_back(dir);
  std::ifstream in(state_dir() + "/sshd-a-22.conf");
  std::string conf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto swap = [&](const std::string& from, const std::string& to) {
    const auto at = conf.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    conf.replace(at, conf.find('\n', at) - at, to);
  };
  swap("ListenAddress ", "ListenAddress " + address("a") + ":2223");
  swap("PidFile ", "PidFile " + dir + "/sshd.pid");
  swap("MaxSessions ", "MaxSessions 1");
  std::ofstream(dir + "/sshd.conf") << conf;
  // The same host keys, known on this port too.
  std::ifstream kh(state_dir() + "/known_hosts");
  std::ofstream known(dir + "/known_hosts");
  for (std::string line; std::getline(kh, line);)
    if (line.rfind(address("a") + " ", 0) == 0)
      known << "[" << address("a") << "]:2223" << line.substr(address("a").size()) << "\n";
  known.close();
  // As ci/lab starts host a's sshds: its own /tmp and root's home bound in.
  const auto started =
      run_local({"ip", "netns", "exec", netns("a"), "sh", "-c",
                 "mount --bind \"$1\" /tmp && mount --bind \"$2\" /root && "
                 "exec /usr/sbin/sshd -f \"$3\" -E \"$4\"",
                 "sh", host_tmp("a"), real_path(state_dir() + "/home-a"), dir + "/sshd.conf", dir + "/sshd.log"});
  ASSERT_TRUE(started.ok()) << started.err;
  profile::Host h = host("a");
  h.ssh.port = 2223;
  h.ssh.known_hosts = dir + "/known_hosts";
  std::string msg;
  {
    const WarningCapture warnings;
    auto t = transport::make_transport(h);
    for (int i = 0; i < 50; ++i) {  // until the new sshd listens
      try {
        t->run({"true"});
        break;
      } catch (const labgate::Failure&) {
        std::this_thread::sleep_for(100ms);
      }
    }
    const std::string file = "/tmp/labgate-labtest-maxsessions-" + std::to_string(getpid());
    // One channel after another works: the upload's SFTP channel stays open and
    // the command after it needs the one slot, so labgate closes its idle SFTP
    // channel and waits out the moment sshd takes to free a closed session's
    // slot. (Before, the command was refused, and so was a run's clean-up and
    // lease release right after its last command: the lease was left behind.)
    t->upload_data("one session\n", file, 0600);
    const auto rm = t->run({"rm", "-f", file});
    EXPECT_TRUE(rm.ok()) << rm.describe() << rm.err;
    EXPECT_FALSE(t->lstat(file)) << file << " was not removed";  // SFTP again: it holds the slot once more
    // Two at once: a running command holds the slot (sshd keeps it until the
    // command exits), so the one beside it goes over a second connection, and
    // the warning names MaxSessions as the cause, once.
    auto sleeper = t->start({"sleep", "2"});
    const auto beside = t->run({"echo", "beside"});
    EXPECT_TRUE(beside.ok()) << beside.describe() << beside.err;
    EXPECT_EQ(beside.out, "beside\n");
    const auto slept = sleeper->wait(std::chrono::seconds(10));
    EXPECT_TRUE(slept && slept->ok()) << "the first command was cut by the second";
    msg = warnings.text();
  }
  // Our sshd and whatever session of it is left: found by its config's path.
  for (const long pid : pids_matching("a", dir + "/sshd.conf")) ::kill(static_cast<pid_t>(pid), SIGTERM);
  for (int i = 0; i < 50 && !pids_matching("a", dir + "/sshd.conf").empty(); ++i)
    std::this_thread::sleep_for(50ms);
  EXPECT_TRUE(pids_matching("a", dir + "/sshd.conf").empty()) << "the MaxSessions 1 sshd is still running";
  EXPECT_NE(msg.find("MaxSessions"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("MaxSessions"), msg.rfind("MaxSessions")) << "said more than once: " << msg;
  EXPECT_NE(msg.find("opens connection 2 to this host"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("Subsystem sftp"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("connection lost"), std::string::npos) << msg;
  const std::string log = read_text(dir + "/sshd.log");
  EXPECT_EQ(count_of(log, "Accepted publickey"), 2) << "one connection, and a second for the command beside: " << log;
  run_local({"sh", "-c", "rm -f \"$1\"/labgate-labtest-maxsessions-*", "sh", host_tmp("a")});
}

// A full remote disk and a noexec probe_dir over real sshd and its SFTP server:
// the cause by name (with the bytes left), never "failure" or ": ok"; and a
// second test on the noexec directory gets the same diagnosis, not "exists".
TEST_F(AccountsOnLab, AFullDiskAndANoexecProbeDirAreNamedEveryTime) {
  profile::Host h = host("a");  // root: SFTP, no banner
  auto t = transport::make_transport(h);
  const std::string mnt = "/tmp/labgate-labtest-small-" + std::to_string(getpid());
  ASSERT_TRUE(t->run({"mkdir", mnt}).ok());
  auto m = t->run({"mount", "-t", "tmpfs", "-o", "size=96k,mode=1777", "tmpfs", mnt});
  ASSERT_TRUE(m.ok()) << m.err;
  h.ssh.probe_dir = mnt;
  std::string full, noexec_first, noexec_second;
  {
    deploy::HostDeployment d(*t, h, "labtest-acct", "full disk");
    full = could_not_run([&] { d.install(kFacts); });  // the facts probe (~150 KB) is larger than the disk
  }
  ASSERT_TRUE(t->run({"mount", "-o", "remount,noexec,size=16m", mnt}).ok());
  {
    deploy::HostDeployment d(*t, h, "labtest-acct", "noexec");
    noexec_first = could_not_run([&] { d.install(kEcho); });
    noexec_second = could_not_run([&] { d.install(kEcho); });
  }
  t->run({"umount", mnt});
  t->run({"rmdir", mnt});
  EXPECT_NE(full.find("SFTP write to " + mnt + "/labgate-labtest-acct."), std::string::npos) << full;
  EXPECT_NE(full.find("No space left on device"), std::string::npos) << full;
  EXPECT_NE(full.find("bytes free on " + mnt), std::string::npos) << full;
  EXPECT_EQ(full.find(": ok"), std::string::npos) << full;
  EXPECT_NE(noexec_first.find("mounted with `noexec`"), std::string::npos) << noexec_first;
  EXPECT_EQ(noexec_second, noexec_first);
}

TEST_F(AccountsOnLab, SetsidDescendantsOfACommandAreCleanedUp) {
  profile::Host h = as("b", "labgate-ops", false);
  auto t = transport::make_transport(h);
  {
    deploy::HostDeployment d(*t, h, "labtest-acct", "setsid");
    transport::RunOptions o;
    o.timeout = 2s;
    const auto r = d.run({"sh", "-c", "setsid sleep 303 & exec sleep 304"}, o);
    EXPECT_TRUE(r.timed_out);
    EXPECT_FALSE(pids_matching("b", "sleep 303").empty()) << "setsid's sleep did not start";
  }
  for (int i = 0; i < 50 && !pids_matching("b", "sleep 303").empty(); ++i) std::this_thread::sleep_for(100ms);
  EXPECT_TRUE(pids_matching("b", "sleep 303").empty()) << "the setsid'd grandchild survived the clean-up";
  EXPECT_TRUE(pids_matching("b", "sleep 304").empty());
}

}  // namespace
}  // namespace labgate::lab
