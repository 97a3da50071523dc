// Two gate runs against one lab: the second waits for the first and fails
// naming it, or gets the lease once the first is done; never both hold it.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>

#include "lab_env.h"
#include "labgate/deploy/digest.h"
#include "labgate/lease/lab_lease.h"

namespace labgate::lab {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class LeaseOnLab : public LabTest {
 protected:
  void SetUp() override {
    LabTest::SetUp();
    if (!lab_ok()) return;
    // A lab name of its own, so a real gate run on this lab is never disturbed.
    lab_ = "labtest-lease-" + deploy::random_token(4);
    options_.wait = 3s;
    options_.poll = 200ms;
    options_.heartbeat = 1s;
    // The lease is keyed by each server's host key, whatever the lab is called.
    for (const char* h : {"a", "b"}) identity_[h] = transport::make_transport(host(h))->host_identity();
  }
  void TearDown() override {
    if (lab_ok()) {
      for (const char* h : {"a", "b"}) run_local({"rm", "-rf", on(h)});
    }
    LabTest::TearDown();
  }
  // The lease directory in host h's own /tmp, seen from here.
  std::string on(const std::string& h) { return lease::host_lease_dir(host_tmp(h), identity_.at(h), lab_); }
  std::string holder_on(const std::string& h) {
    std::ifstream f(on(h) + "/holder");
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    auto holder = lease::Holder::parse(text);
    return holder ? holder->run_id : "";
  }
  std::string lab_;
  std::map<std::string, std::string> identity_;
  lease::LeaseOptions options_;
  const std::vector<profile::Host> hosts_{host("b"), host("a")};  // deliberately unsorted
};

TEST_F(LeaseOnLab, SecondRunWaitsThenFailsNamingTheFirst) {
  lease::LabLease first(lab_, hosts_, lease::Holder::current("run-one"), options_);
  EXPECT_EQ(holder_on("a"), "run-one");
  EXPECT_EQ(holder_on("b"), "run-one");
  std::string msg;
  const auto t0 = Clock::now();
  std::thread second([&] {
    msg = could_not_run([&] { lease::LabLease(lab_, hosts_, lease::Holder::current("run-two"), options_); });
  });
  second.join();
  const auto waited = Clock::now() - t0;
  EXPECT_GE(waited, 3s);
  EXPECT_LT(waited, 15s);
  EXPECT_NE(msg.find("host a: the lab lease"), std::string::npos) << msg;  // a comes first: sorted
  EXPECT_NE(msg.find("run run-one"), std::string::npos) << msg;
  EXPECT_NE(msg.find("waited 3s"), std::string::npos) << msg;
  EXPECT_EQ(holder_on("a"), "run-one");
  EXPECT_EQ(holder_on("b"), "run-one");
}

TEST_F(LeaseOnLab, NeverBothHoldIt) {
  options_.wait = 30s;
  std::atomic<int> holding{0}, max_holding{0};
  auto run = [&](const std::string& id) {
    lease::LabLease l(lab_, hosts_, lease::Holder::current(id), options_);
    const int now = ++holding;
    max_holding = std::max(max_holding.load(), now);
    EXPECT_EQ(holder_on("a"), id);
    EXPECT_EQ(holder_on("b"), id);
    std::this_thread::sleep_for(1500ms);  // "measuring"
    --holding;
  };
  std::thread one(run, "concurrent-1"), two(run, "concurrent-2");
  one.join();
  two.join();
  EXPECT_EQ(max_holding.load(), 1);
  EXPECT_EQ(holder_on("a"), "");  // released
}

TEST_F(LeaseOnLab, TheCliShowsAndBreaksAStaleLease) {
  // A lease left by a harness on another machine whose heartbeat stopped.
  lease::Holder gone{"root", "harness-that-died", 4321, 1767268800, "dead-run", "", 0};
  for (const char* h : {"a", "b"}) {
    ASSERT_TRUE(run_local({"sh", "-c",
                           "mkdir \"$1\" && printf '%s' \"$2\" > \"$1/holder\" && "
                           "touch -d '1 hour ago' \"$1/heartbeat\"",
                           "sh", on(h), gone.serialize()})
                    .ok());
  }
  const std::string profile = temp_dir("lease") + "/lab.toml";
  std::ofstream(profile) << "[lab]\nname = \"" << lab_ << "\"\n\n[defaults.ssh]\nidentity = \"" << state_dir()
                         << "/id_rsa\"\nknown_hosts = \"" << state_dir()
                         << "/known_hosts\"\n\n[hosts.a]\naddress = \"" << address("a")
                         << "\"\n\n[hosts.b]\naddress = \"" << address("b") << "\"\n";
  auto r = run_local({LABGATE_BIN, "lease", "status", profile});
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_NE(r.out.find("host a: lab lease " + lab_ + ": held by root@harness-that-died pid 4321"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("STALE: its last heartbeat was"), std::string::npos) << r.out;
  // A run refuses to wait on it, and says how to break it.
  const std::string msg =
      could_not_run([&] { lease::LabLease(lab_, hosts_, lease::Holder::current("new-run"), options_); });
  EXPECT_NE(msg.find("labgate lease break PROFILE --host a"), std::string::npos) << msg;
  r = run_local({LABGATE_BIN, "lease", "break", profile, "--host", "a"});
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(holder_on("a"), "");
  EXPECT_EQ(holder_on("b"), "dead-run");
  r = run_local({LABGATE_BIN, "lease", "break", profile});
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_NO_THROW(lease::LabLease(lab_, hosts_, lease::Holder::current("new-run"), options_));
}

}  // namespace
}  // namespace labgate::lab
