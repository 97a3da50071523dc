// GateSession on FakeLab hosts (a real HostDeployment on fake transports) and a
// fake lease: every host reached, the lease, every host's run directory; a failure
// names each failing host once and leaves nothing behind; probes are uploaded once
// and their digest checked. (session_test.cc: the one-connection and at-once steps.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gate/fake_lab_test_util.h"
#include "labgate/gate/session.h"

namespace labgate::gate {
namespace {

using ::testing::HasSubstr;
namespace lt = testing;

std::string failure_of(const std::function<void()>& f, ExitCode* code = nullptr) {
  try {
    f();
  } catch (const Failure& e) {
    if (code) *code = e.code();
    return e.what();
  }
  return "(no failure)";
}

class Session : public lt::FakeLabTest {
 protected:
  void SetUp() override {
    FakeLabTest::SetUp();
    load("");
  }
  /// Opening a session on `hosts` must fail: its message (and exit code).
  std::string open_fails(const std::vector<std::string>& hosts, ExitCode* code = nullptr) {
    return failure_of([&] { GateSession(profile_, hosts, "run1", lab_.boundaries()); }, code);
  }
  /// Commands that made (mkdir) or removed a run directory on `host`.
  int scripts(const std::string& host) { return lab_.host(host).count({"/bin/sh", "-c"}); }
};

TEST_F(Session, ReachesEveryHostTakesTheLeaseAndCleansUpOnClose) {
  {
    GateSession s(profile_, {"a", "b"}, "run1", lab_.boundaries());
    EXPECT_EQ(lab_.lease.taken_on, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(lab_.lease.released, 0);
    for (const char* h : {"a", "b"}) {
      // The sweep of leftovers (only under the lease) and the run's own directory: one exec.
      EXPECT_EQ(scripts(h), 1) << h;
      EXPECT_EQ(s.deployment(h).dir().rfind("/tmp/labgate-fakelab." + std::string(h) + ".", 0), 0u);
      // ... which writes the owner note too (an argument, not an upload).
      std::string note;
      for (const auto& c : lab_.host(h).calls())
        if (c.argv.size() > 8 && c.argv[2].find("mkdir -m 0700") != std::string::npos) note = c.argv[8];  // $5
      EXPECT_EQ(note, "labgate test run by tester");
      EXPECT_EQ(lab_.host(h).files.count(s.deployment(h).dir() + "/owner"), 0u);
    }
    EXPECT_EQ(&s.transport("a").host_name(), &lab_.host("a").host_name());
    s.close();
    EXPECT_EQ(lab_.lease.released, 1);
    for (const char* h : {"a", "b"}) EXPECT_EQ(scripts(h), 2) << h << ": its run directory was not removed";
    s.close();  // idempotent
  }
  EXPECT_EQ(lab_.lease.released, 1) << "released twice";
}

TEST_F(Session, AProbeIsUploadedOnceAndItsDigestChecked) {
  GateSession s(profile_, {"a", "b"}, "run1", lab_.boundaries());
  const std::string p = s.probe("a", "pingpong");
  EXPECT_EQ(p, s.deployment("a").dir() + "/pingpong");
  EXPECT_EQ(s.probe("a", "pingpong"), p);
  EXPECT_EQ(lab_.host("a").uploads().size(), 1u) << "the probe, once (the owner note rides on the mkdir)";
  EXPECT_EQ(lab_.host("a").digest_checks.size(), 1u);
  EXPECT_TRUE(lab_.host("b").digest_checks.empty());
}

TEST_F(Session, AHostThatCannotBeReachedIsNamedOnceAndNothingIsLeftBehind) {
  lab_.unreachable["b"] = "connection refused";
  ExitCode code = ExitCode::kPassed;
  const std::string msg = open_fails({"a", "b"}, &code);
  EXPECT_EQ(code, ExitCode::kCouldNotRun);
  EXPECT_EQ(msg, "host b: connection refused");
  EXPECT_EQ(lt::occurrences(msg, "host b"), 1);
  // Every host is reached before the lease is asked: a was reached, nothing was
  // made there and no lease was taken.
  EXPECT_EQ(scripts("a"), 0);
  EXPECT_TRUE(lab_.lease.taken_on.empty());
}

TEST_F(Session, EveryUnreachableHostIsNamedEachOnce) {
  lab_.unreachable["a"] = "no route to host";
  lab_.unreachable["b"] = "connection refused";
  const std::string msg = open_fails({"a", "b"});
  EXPECT_EQ(msg, "2 hosts cannot be reached:\n- host a: no route to host\n- host b: connection refused");
  EXPECT_TRUE(lab_.lease.taken_on.empty());
}

TEST_F(Session, ALeaseRefusalStopsBeforeAnyHostIsTouched) {
  lab_.lease.refuse = "lease 'fakelab' is held by labgate run 1 by alice@x pid 7 (waited 60s)";
  ExitCode code = ExitCode::kPassed;
  const std::string msg = open_fails({"a", "b"}, &code);
  EXPECT_EQ(code, ExitCode::kCouldNotRun);
  EXPECT_THAT(msg, HasSubstr("is held by labgate run 1 by alice"));
  // Reached (one connection each), but nothing run there without the lease.
  EXPECT_TRUE(lab_.host("a").calls().empty()) << "a host was touched without the lease";
  EXPECT_TRUE(lab_.host("b").calls().empty());
}

TEST_F(Session, AHostNotInTheProfileIsAUsageError) {
  ExitCode code = ExitCode::kPassed;
  const std::string msg = open_fails({"a", "c"}, &code);
  EXPECT_EQ(code, ExitCode::kUsageError);
  EXPECT_THAT(msg, HasSubstr("host 'c' is not in"));
  EXPECT_TRUE(lab_.lease.taken_on.empty());
}

TEST_F(Session, AHostOutsideTheSessionIsRefusedByName) {
  GateSession s(profile_, {"a"}, "run1", lab_.boundaries());
  EXPECT_THAT(failure_of([&] { s.transport("b"); }), HasSubstr("host 'b' is not part of this gate session"));
  EXPECT_TRUE(lab_.host("b").calls().empty());
}

TEST_F(Session, ACleanupFailureIsReportedAfterTryingEveryHost) {
  GateSession s(profile_, {"a", "b"}, "run1", lab_.boundaries());
  lab_.host("a").fail_on({"/bin/sh", "-c"}, "connection lost");
  const std::string msg = failure_of([&] { s.close(); });
  EXPECT_THAT(msg, HasSubstr("cleanup failed: host a: could not clean up"));
  EXPECT_EQ(scripts("b"), 2) << "b was not cleaned up after a failed";
  EXPECT_EQ(lab_.lease.released, 1);
}

TEST_F(Session, ABrokenLeaseIsSeen) {
  GateSession s(profile_, {"a", "b"}, "run1", lab_.boundaries());
  EXPECT_FALSE(s.lease_lost());
  lab_.lease.lost = true;
  EXPECT_TRUE(s.lease_lost());
}

}  // namespace
}  // namespace labgate::gate
