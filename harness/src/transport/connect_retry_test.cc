// Connecting again when sshd hangs up before login, on a fake connection and a
// fake clock: dropped N times then let in connects; dropped until
// connect_timeout names MaxStartups; a refused port, a host key or a login
// refused is never asked again.
#include "connect_retry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "labgate/util/exit_code.h"

namespace labgate::transport {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

constexpr const char* kReset = "host b (root@198.18.0.22:22): cannot connect: Connection reset by peer";

/// A server that hangs up on the first `drops` connections (each costing 3 ms
/// on a fake clock), then lets one in; or fails every attempt with `other`.
struct FakeServer {
  int drops = 0;
  std::string drop_message = kReset;
  std::string other;
  ServerWait::Clock::time_point clock{};
  int tried = 0;

  void connect() {
    ++tried;
    clock += 3ms;
    if (!other.empty()) throw Failure(ExitCode::kCouldNotRun, other);
    if (drops > 0) {
      --drops;
      throw Failure(ExitCode::kCouldNotRun, drop_message);
    }
  }
  int run(std::chrono::nanoseconds limit) {
    ServerWait w;
    w.limit = limit;
    w.now = [this] { return clock; };
    w.pause = [this](std::chrono::milliseconds d) { clock += d; };
    return connect_retrying_drops(
        "host b", [this] { connect(); }, w);
  }
};

TEST(ConnectRetry, AServerThatHangsUpAFewTimesIsAskedAgainAndLetsUsIn) {
  FakeServer server;
  server.drops = 3;  // another client held MaxStartups' only slot for ~350 ms
  EXPECT_EQ(server.run(5s), 4);
  EXPECT_EQ(server.tried, 4);
}

TEST(ConnectRetry, HangUpsUntilConnectTimeoutNameMaxStartups) {
  FakeServer server;
  server.drops = 1000;
  try {
    server.run(5s);
    FAIL() << "connected to a server that hung up every time";
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    EXPECT_THAT(f.what(), HasSubstr(kReset));
    EXPECT_THAT(f.what(), HasSubstr("sshd MaxStartups or a full listen queue is the likely cause"));
    EXPECT_THAT(f.what(), HasSubstr("within 5.0"));
  }
  // 50, 100, 200, 400, 800 ms, then 1 s pauses: about ten attempts in 5 s, not hundreds.
  EXPECT_GE(server.tried, 8);
  EXPECT_LE(server.tried, 12);
}

TEST(ConnectRetry, WhatAnotherAttemptCannotChangeIsThrownAtOnce) {
  for (const char* other : {"host b (root@198.18.0.22:22): cannot connect: Connection refused",
                            "host b (root@198.18.0.22:22): HOST KEY CHANGED. The server presents ...",
                            "host b (root@198.18.0.22:22): login refused for user root (tried key ...)",
                            "host b (root@198.18.0.22:22): login failed: Connection reset by peer"}) {
    FakeServer server;
    server.other = other;
    EXPECT_THROW(server.run(5s), Failure) << other;
    EXPECT_EQ(server.tried, 1) << other;
  }
}

TEST(ConnectRetry, EachHangUpLibsshReportsCounts) {
  for (const char* why :
       {"Connection reset by peer", "Socket error: disconnected", "Connection closed by remote host"})
    EXPECT_TRUE(turned_away_before_login(std::string("jump host 1 of 1 (u@j:22): cannot connect: ") + why))
        << why;
  EXPECT_FALSE(turned_away_before_login("host b: cannot connect: Connection refused"));
  EXPECT_FALSE(turned_away_before_login("host b: cannot connect: Timeout connecting to 198.18.0.22"));
}

}  // namespace
}  // namespace labgate::transport
