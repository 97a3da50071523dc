// The lease over several hosts on fakes: tried on every host at once over the
// caller's transports, released on every host at once, and, when another run
// holds one, the fixed order that keeps two runs from deadlocking (hold nothing
// after the host waited for); a host that refuses is named once.
#include <gtest/gtest.h>

#include <mutex>

#include "labgate/lease/lab_lease.h"
#include "labgate/transport/fake_transport.h"
#include "transport/dir_safe_test_util.h"
#include "labgate/util/exit_code.h"
#include "lease_scripts.h"

namespace labgate::lease {
namespace {

using namespace std::chrono_literals;
using transport::FakeTransport;

std::vector<std::string> script_of(std::vector<std::string> argv) {
  argv.resize(3);
  return argv;
}
const auto kTake = script_of(take_argv("/x"));
const auto kRelease = script_of(release_argv("/x", "r"));

// A lease held by a live run on another machine (fresh heartbeat): waited for.
std::string held_by_other() {
  Holder other{"ops", "elsewhere", 7, 1767268800, "other-run", "lab1", 60};
  return "HELD\n" + other.serialize() + "\nheartbeat_age=1\n";
}

class LeaseOrder : public ::testing::Test {
 protected:
  void SetUp() override {
    options_.root = "/var/tmp";
    options_.wait = 5s;
    options_.poll = 10ms;
    options_.heartbeat = 1h;  // no beat during a test
    options_.make_transport = [](const profile::Host& h) -> std::unique_ptr<transport::Transport> {
      ADD_FAILURE() << "the lease opened its own transport to " << h.name;
      return std::make_unique<FakeTransport>(h.name);
    };
    for (const char* n : {"c", "a", "b"}) {  // any order given; taken sorted
      auto t = std::make_unique<FakeTransport>(n);
      t->identity = std::string("hk-") + n;
      t->on(kTake, FakeTransport::ok(transport::testing::dir_safe_reply("/var/tmp") + "TAKEN\n"));
      t->on(kRelease, FakeTransport::ok(""));
      const std::string name = n;
      t->on_step = [this, name](const std::string& what) {
        std::lock_guard lock(mutex_);
        const bool take = what.find("mkdir -m 0755") != std::string::npos;
        const bool rel = !take && what.find("rm -rf") != std::string::npos;
        if (take || rel) order_.push_back(name + (take ? " take" : " release"));
      };
      hosts_[n] = std::move(t);
    }
  }
  std::vector<LeaseTarget> targets() {
    std::vector<LeaseTarget> out;
    for (const char* n : {"c", "a", "b"}) {
      profile::Host h;
      h.name = n;
      out.push_back({h, hosts_[n].get()});
    }
    return out;
  }
  std::vector<std::string> of(const std::string& host) {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (const auto& s : order_)
      if (s.rfind(host + " ", 0) == 0) out.push_back(s.substr(host.size() + 1));
    return out;
  }
  // Holds each host's `step` until all three have reached it.
  void meet_on(const std::string& step) {
    for (auto& [name, t] : hosts_) {
      auto inner = t->on_step;
      const std::string n = name;
      t->on_step = [this, inner, step, n](const std::string& what) {
        inner(what);
        if (what.find(step) != std::string::npos && !meeting_.arrive()) {
          std::lock_guard lock(mutex_);
          alone_.push_back(n);
        }
      };
    }
  }

  LeaseOptions options_;
  std::map<std::string, std::unique_ptr<FakeTransport>> hosts_;
  std::mutex mutex_;
  std::vector<std::string> order_;
  transport::Rendezvous meeting_{3};
  std::vector<std::string> alone_;
};

TEST_F(LeaseOrder, EveryHostIsTakenAtOnceOverTheCallersTransports) {
  meet_on("mkdir -m 0755");
  LabLease lease("lab1", targets(), Holder::current("r1"), options_);
  EXPECT_TRUE(alone_.empty()) << alone_.size() << " host(s) were tried alone";
  for (const char* n : {"a", "b", "c"}) EXPECT_EQ(of(n), (std::vector<std::string>{"take"})) << n;
}

TEST_F(LeaseOrder, EveryHostIsReleasedAtOnce) {
  LabLease lease("lab1", targets(), Holder::current("r1"), options_);
  meet_on("rm -rf");
  lease.release();
  EXPECT_TRUE(alone_.empty()) << alone_.size() << " host(s) were released alone";
  for (const char* n : {"a", "b", "c"}) EXPECT_EQ(of(n), (std::vector<std::string>{"take", "release"})) << n;
}

TEST_F(LeaseOrder, AHostReleasedByTheCallersLastExecIsLeftAloneByRelease) {
  LabLease lease("lab1", targets(), Holder::current("r1"), options_);
  lease.stop_heartbeat();
  EXPECT_EQ(lease.release_argv_for("b"), release_argv("/var/tmp/labgate-lease-hk-b", "r1"));
  EXPECT_TRUE(lease.release_argv_for("nowhere").empty());
  lease.released("b");  // the caller ran it in b's clean-up exec
  lease.release();
  EXPECT_EQ(of("a"), (std::vector<std::string>{"take", "release"}));
  EXPECT_EQ(of("b"), (std::vector<std::string>{"take"}));
  EXPECT_EQ(of("c"), (std::vector<std::string>{"take", "release"}));
}

TEST_F(LeaseOrder, WhileWaitingForAHostNoLaterHostIsHeld) {
  // b is held by another run for two tries. a (before it) is kept; c (after
  // it) is given back at once and taken again only once b is ours.
  hosts_["b"]->once(kTake, FakeTransport::ok(transport::testing::dir_safe_reply("/var/tmp") + held_by_other()));
  hosts_["b"]->once(kTake, FakeTransport::ok(held_by_other()));
  LabLease lease("lab1", targets(), Holder::current("r1"), options_);
  EXPECT_EQ(of("a"), (std::vector<std::string>{"take"}));
  EXPECT_EQ(of("b"), (std::vector<std::string>{"take", "take", "take"}));
  EXPECT_EQ(of("c"), (std::vector<std::string>{"take", "release", "take"}));
  // c's second take comes after b is ours.
  std::lock_guard lock(mutex_);
  const auto b_ours = std::find(order_.rbegin(), order_.rend(), "b take");
  const auto c_again = std::find(order_.rbegin(), order_.rend(), "c take");
  EXPECT_LT(c_again - order_.rbegin(), b_ours - order_.rbegin()) << "c retaken before b was ours";
}

TEST_F(LeaseOrder, AHostThatRefusesIsNamedOnceAndTheOthersAreGivenBack) {
  hosts_["b"]->fail_on(kTake, "connection lost while running the take");
  std::string msg;
  try {
    LabLease lease("lab1", targets(), Holder::current("r1"), options_);
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    msg = f.what();
  }
  EXPECT_EQ(msg, "host b: connection lost while running the take");
  EXPECT_EQ(of("a"), (std::vector<std::string>{"take", "release"}));
  EXPECT_EQ(of("c"), (std::vector<std::string>{"take", "release"}));
}

TEST_F(LeaseOrder, AHeldHostThatStaysHeldFailsNamingItsHolderOnce) {
  options_.wait = 50ms;
  hosts_["a"]->on(kTake, FakeTransport::ok(transport::testing::dir_safe_reply("/var/tmp") + held_by_other()));
  std::string msg;
  try {
    LabLease lease("lab1", targets(), Holder::current("r1"), options_);
  } catch (const Failure& f) {
    msg = f.what();
  }
  EXPECT_EQ(msg.rfind("host a: the lab lease /var/tmp/labgate-lease-hk-a is held by ops@elsewhere", 0), 0u) << msg;
  EXPECT_EQ(msg.find("host a", 1), std::string::npos) << msg;
  // b and c were given back as soon as a turned out held, and never retried.
  EXPECT_EQ(of("b"), (std::vector<std::string>{"take", "release"}));
  EXPECT_EQ(of("c"), (std::vector<std::string>{"take", "release"}));
}

}  // namespace
}  // namespace labgate::lease
