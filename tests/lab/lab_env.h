// What the lab tests need to know about the built-in lab (ci/lab) and do to it:
// which pair, its hosts as profile entries, commands inside its namespaces,
// killing and restarting its sshds. Every test starts with LabTest, which fails
// loudly when the lab is not up (unless LABGATE_SKIP_LAB=1 says to skip).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "labgate/profile/profile.h"
#include "labgate/transport/transport.h"

namespace labgate::lab {

/// The lab pair under test: LABGATE_LAB_PAIR (default 1).
int pair();
/// Namespace of host "a" or "b" of the pair ("lg-a" for pair 1, "lg2-a" for 2).
std::string netns(const std::string& host);
/// Management address of host "a" or "b".
std::string address(const std::string& host);
/// <repo>/.lab/pairN: keys, known_hosts, sshd pid files and logs.
std::string state_dir();

/// Host "a" or "b"'s own /tmp, as seen from this machine (ci/lab binds it over
/// /tmp for the host's sshd and sessions): what a run leaves there is visible here.
std::string host_tmp(const std::string& host);

/// Host "a" or "b" as a profile would have it, on `port` (22 modern, 2222
/// legacy-only), with the lab's key and known_hosts.
profile::Host host(const std::string& name, int port = 22, bool legacy = false);

/// Pids in host's namespace whose command line contains `needle` (a pgrep -f
/// confined to the namespace); zombies excluded.
std::vector<long> pids_matching(const std::string& host, const std::string& needle);
/// Kills every sshd process of host's namespace (listeners and sessions), but
/// not the commands they were running: the listeners first, then, once they are
/// gone, the sessions (so no reconnect reaches a listener still up).
void kill_sshd(const std::string& host);
/// `ci/lab up --pair N`: restarts what is down. Fails the test if it fails.
void restore_lab();
/// Runs `ci/lab` (or anything) in the repository; result as for a transport.
transport::RunResult run_local(const std::vector<std::string>& argv,
                               std::chrono::seconds timeout = std::chrono::seconds(120));

/// Every lab test derives from this: it checks once per process that we are
/// root and `ci/lab status` says the pair is up, and fails (or, with
/// LABGATE_SKIP_LAB=1, skips) every test otherwise.
class LabTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  /// True once SetUp found the lab up: fixtures restore the lab only then.
  bool lab_ok() const { return lab_ok_; }
  /// Scratch dirs made by temp_dir during the test are removed here.
  std::vector<std::string> scratch_;
  std::string temp_dir(const std::string& tag);

 private:
  bool lab_ok_ = false;
};

/// Expects `f` to throw labgate::Failure with exit code 3 and returns its message.
std::string could_not_run(const std::function<void()>& f);

}  // namespace labgate::lab
