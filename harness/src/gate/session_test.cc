// GateSession's orchestration on fakes: one transport per host, reached at
// once; the lease over those very transports; run directories and clean-up on
// every host at once; the lease released before any transport goes; a host
// that cannot be reached named once.
#include "labgate/gate/session.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>

#include "../deploy/remote_scripts.h"
#include "labgate/transport/fake_transport.h"
#include "labgate/util/exit_code.h"
#include "transport/dir_safe_test_util.h"

namespace labgate::gate {
namespace {

using transport::FakeTransport;

constexpr const char* kProbeDir = "/var/tmp/lg";
// What only the clean-up's script says (the sweep's stops other directories).
constexpr const char* kCleanUp = "stop_dir \"$1\"";

// The first three words of a remote script's argv (/bin/sh -c SCRIPT): what a
// FakeTransport rule matches, whatever paths follow.
std::vector<std::string> script_of(std::vector<std::string> argv) {
  argv.resize(3);
  return argv;
}

// Which hosts' transports exist now; made and destroyed on the session's threads.
struct Alive {
  std::mutex mutex;
  std::set<std::string> hosts;
  void add(const std::string& h) {
    std::lock_guard lock(mutex);
    hosts.insert(h);
  }
  void remove(const std::string& h) {
    std::lock_guard lock(mutex);
    hosts.erase(h);
  }
  std::vector<std::string> now() {
    std::lock_guard lock(mutex);
    return {hosts.begin(), hosts.end()};
  }
};

// A host as deployment sees it: probe_dir exists (root's, 0755), the run's
// directory is made and then reads back as ours; mkdir, the sweep and the
// clean-up answer as on a real host. Says when it is destroyed.
class FakeHost : public FakeTransport {
 public:
  FakeHost(const std::string& name, std::shared_ptr<Alive> alive)
      : FakeTransport(name), alive_(std::move(alive)) {
    alive_->add(name);
    FileInfo base;
    base.is_dir = true;
    base.mode = 0755;
    base.uid = 0;
    stats[kProbeDir] = base;
    on(script_of(deploy::sweep_and_make_private_dir_argv("/x", "/y", "z", "n")),
       ok(transport::testing::dir_safe_reply_from(*this, kProbeDir) + "uid 0\nstat 41c0 0 4096\nowner written\n"));
    on(script_of(deploy::cleanup_dir_argv("/x")), ok(""));
    on(script_of(deploy::cleanup_dir_then_argv("/x", {"y"})), ok("labgate-then 0\n"));
  }
  ~FakeHost() override { alive_->remove(host_name()); }
  std::optional<FileInfo> lstat(const std::string& path) override {
    auto info = FakeTransport::lstat(path);
    if (info || path.rfind(std::string(kProbeDir) + "/labgate-", 0) != 0) return info;
    FileInfo dir;
    dir.is_dir = true;
    dir.mode = 0700;
    dir.uid = 0;
    return dir;
  }

 private:
  std::shared_ptr<Alive> alive_;
};

// What the test saw, from every thread.
struct Seen {
  std::mutex mutex;
  std::map<std::string, std::vector<std::string>> steps;  // host -> what it did, in order
  std::vector<FakeHost*> made;
  std::vector<transport::Transport*> leased;  // the transports the lease was given
  std::vector<std::string> alive_at_release;  // which hosts were still connected then
  std::vector<std::string> cleaned_at_release;
  bool released = false;
  bool heartbeat_stopped = false;
  std::vector<std::string> released_early;  // hosts released inside their clean-up exec
};

class FakeLease : public LeaseHold {
 public:
  FakeLease(Seen& seen, std::shared_ptr<Alive> alive, bool early)
      : seen_(seen), alive_(std::move(alive)), early_(early) {}
  void stop_heartbeat() override {
    std::lock_guard lock(seen_.mutex);
    seen_.heartbeat_stopped = true;
  }
  std::vector<std::string> release_command(const std::string& host) override {
    if (!early_) return {};
    std::lock_guard lock(seen_.mutex);
    EXPECT_TRUE(seen_.heartbeat_stopped) << "released on " << host << " while the heartbeat ran";
    return {"release-lease", host};
  }
  void released(const std::string& host) override {
    std::lock_guard lock(seen_.mutex);
    seen_.released_early.push_back(host);
  }
  void release() override {
    std::lock_guard lock(seen_.mutex);
    if (seen_.released) return;
    seen_.released = true;
    seen_.alive_at_release = alive_->now();
    for (auto& [host, steps] : seen_.steps)
      for (const auto& s : steps)
        if (s.find(kCleanUp) != std::string::npos) seen_.cleaned_at_release.push_back(host);
  }
  bool lost() const override { return false; }
  std::string holder() const override { return "labgate run r1 by test"; }

 private:
  Seen& seen_;
  std::shared_ptr<Alive> alive_;
  bool early_;
};

class GateSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    profile_.path = "test.toml";
    profile_.lab_name = "lab1";
    for (const char* n : {"a", "b"}) {
      profile::Host h;
      h.name = n;
      h.address = std::string("198.18.0.") + (n[0] == 'a' ? "2" : "6");
      h.ssh.probe_dir = kProbeDir;
      profile_.hosts.push_back(h);
    }
  }

  // Fakes that record every step; `meet` (if set) holds a step until both
  // hosts have reached it, recording whether they did.
  SessionBoundaries fakes(const std::string& meet_on = "", std::set<std::string> unreachable = {},
                          bool early_release = false) {
    SessionBoundaries b;
    b.connect = [this, meet_on, unreachable](const profile::Host& h) -> std::unique_ptr<transport::Transport> {
      auto t = std::make_unique<FakeHost>(h.name, alive_);
      const std::string name = h.name;
      const bool down = unreachable.count(name) > 0;
      t->on_step = [this, meet_on, name, down](const std::string& what) {
        {
          std::lock_guard lock(seen_.mutex);
          seen_.steps[name].push_back(what);
        }
        if (what == "connect" && down) throw Failure(ExitCode::kCouldNotRun, "host " + name + " (x): refused");
        if (!meet_on.empty() && what.find(meet_on) != std::string::npos && !meeting_.arrive()) {
          std::lock_guard lock(seen_.mutex);
          alone_.insert(name + ": " + meet_on);
        }
      };
      std::lock_guard lock(seen_.mutex);
      seen_.made.push_back(t.get());
      return t;
    };
    b.take_lease = [this, early_release](const profile::Profile&, std::vector<lease::LeaseTarget> targets,
                                         const std::string&, util::Messages&) {
      std::lock_guard lock(seen_.mutex);
      for (const auto& t : targets) seen_.leased.push_back(t.transport);
      return std::make_unique<FakeLease>(seen_, alive_, early_release);
    };
    return b;
  }

  profile::Profile profile_;
  std::shared_ptr<Alive> alive_ = std::make_shared<Alive>();
  Seen seen_;
  transport::Rendezvous meeting_{2};
  std::set<std::string> alone_;  // steps a host reached while the other did not
};

TEST_F(GateSessionTest, OneTransportPerHostCarriesTheLeaseTheRunDirectoryAndTheCleanUp) {
  {
    GateSession s(profile_, {"a", "b"}, "r1", fakes());
    ASSERT_EQ(seen_.made.size(), 2u);  // one transport per host, for everything
    std::set<transport::Transport*> made(seen_.made.begin(), seen_.made.end());
    std::set<transport::Transport*> leased(seen_.leased.begin(), seen_.leased.end());
    EXPECT_EQ(leased, made);
    EXPECT_TRUE(made.count(&s.transport("a")) && made.count(&s.transport("b")));
    EXPECT_EQ(s.deployment("a").dir().rfind(std::string(kProbeDir) + "/labgate-lab1.a.", 0), 0u);
    s.close();
  }
  for (const char* h : {"a", "b"}) {
    const auto& steps = seen_.steps[h];
    ASSERT_FALSE(steps.empty());
    EXPECT_EQ(steps.front(), "connect");
    EXPECT_EQ(std::count(steps.begin(), steps.end(), "connect"), 1) << h;
  }
}

TEST_F(GateSessionTest, TheLeaseIsReleasedAfterTheCleanUpAndBeforeAnyTransportGoes) {
  {
    GateSession s(profile_, {"a", "b"}, "r1", fakes());
  }  // the destructor closes
  EXPECT_TRUE(seen_.released);
  EXPECT_EQ(seen_.alive_at_release, (std::vector<std::string>{"a", "b"}));
  std::sort(seen_.cleaned_at_release.begin(), seen_.cleaned_at_release.end());
  EXPECT_EQ(seen_.cleaned_at_release, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(alive_->now().empty());  // and then every transport is gone
}

TEST_F(GateSessionTest, EachHostsCleanUpAndLeaseReleaseAreOneExec) {
  {
    GateSession s(profile_, {"a", "b"}, "r1", fakes("", {}, /*early_release=*/true));
  }
  std::sort(seen_.released_early.begin(), seen_.released_early.end());
  EXPECT_EQ(seen_.released_early, (std::vector<std::string>{"a", "b"}));
  for (const char* h : {"a", "b"}) {
    const auto& steps = seen_.steps[h];
    const auto last = std::find_if(steps.begin(), steps.end(),
                                   [](const std::string& x) { return x.find(kCleanUp) != std::string::npos; });
    ASSERT_NE(last, steps.end()) << h << " was not cleaned up";
    EXPECT_NE(last->find("release-lease " + std::string(h)), std::string::npos) << *last;
    EXPECT_EQ(last + 1, steps.end()) << h << ": another exec after the clean-up: " << *(last + 1);
  }
  EXPECT_TRUE(seen_.released);  // and the hold is let go of, before the transports
  EXPECT_EQ(seen_.alive_at_release, (std::vector<std::string>{"a", "b"}));
}

// A gate run's session has each host prepare for its probes and tools (SSH:
// the spare channel) right after connecting, before the lease and the run
// directory; `check`'s session starts none and prepares for none (issue 23).
TEST_F(GateSessionTest, ARunsSessionPreparesEachHostForProcessesRightAfterConnecting) {
  for (const bool processes : {false, true}) {
    seen_.steps.clear();
    SessionBoundaries b = fakes();
    b.processes = processes;
    {
      GateSession s(profile_, {"a", "b"}, "r1", b);
    }
    for (const char* h : {"a", "b"}) {
      const auto& steps = seen_.steps[h];
      ASSERT_GE(steps.size(), 2u) << h;
      EXPECT_EQ(std::count(steps.begin(), steps.end(), "prepare processes"), processes ? 1 : 0) << h;
      if (processes) {
        EXPECT_EQ(steps[1], "prepare processes") << h;
      }
    }
  }
}

TEST_F(GateSessionTest, HostsAreConnectedAtOnce) {
  GateSession s(profile_, {"a", "b"}, "r1", fakes("connect"));
  EXPECT_TRUE(alone_.empty()) << *alone_.begin();
}

TEST_F(GateSessionTest, RunDirectoriesAreMadeAtOnce) {
  GateSession s(profile_, {"a", "b"}, "r1", fakes("mkdir -m 0700"));
  EXPECT_TRUE(alone_.empty()) << *alone_.begin();
}

TEST_F(GateSessionTest, HostsAreCleanedUpAtOnce) {
  GateSession s(profile_, {"a", "b"}, "r1", fakes(kCleanUp));
  s.close();
  EXPECT_TRUE(alone_.empty()) << *alone_.begin();
}

TEST_F(GateSessionTest, AnUnreachableHostIsNamedOnceAndNothingIsLeased) {
  std::string msg;
  try {
    GateSession s(profile_, {"a", "b"}, "r1", fakes("", {"b"}));
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    msg = f.what();
  }
  EXPECT_EQ(msg, "host b (x): refused");
  EXPECT_TRUE(seen_.leased.empty());
  EXPECT_TRUE(alive_->now().empty());  // host a's connection is closed again
}

TEST_F(GateSessionTest, TwoUnreachableHostsAreEachNamedOnce) {
  std::string msg;
  try {
    GateSession s(profile_, {"a", "b"}, "r1", fakes("", {"a", "b"}));
  } catch (const Failure& f) {
    msg = f.what();
  }
  EXPECT_EQ(msg, "2 hosts cannot be reached:\n- host a (x): refused\n- host b (x): refused");
}

TEST_F(GateSessionTest, ALeaseLongerThanTheLongestCommandIsRecorded) {
  profile_.hosts[0].ssh.command_timeout = std::chrono::seconds(60);
  profile_.hosts[1].ssh.command_timeout = std::chrono::seconds(300);
  const auto o = session_lease_options(profile_, profile_.hosts);
  EXPECT_GE(o.heartbeat * o.stale_after_beats, std::chrono::seconds(300) + o.heartbeat);
  profile_.hosts[1].ssh.command_timeout = std::chrono::seconds(5);
  EXPECT_EQ(session_lease_options(profile_, profile_.hosts).stale_after_beats, 7);  // 60 s / 10 s + 1
}

}  // namespace
}  // namespace labgate::gate
