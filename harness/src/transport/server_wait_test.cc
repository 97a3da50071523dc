// Waiting for sshd's answer within a step's timeout, on a fake channel and a
// fake clock: a request still pending is asked again until it is answered or
// the step's time is up; a refusal is asked again after a growing pause; a
// broken session is not asked again; the give-up message says what happened.
#include "server_wait.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace labgate::transport {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

/// A channel request whose server answers after `silent` attempts, each of
/// which costs `per_attempt` on a fake clock (libssh's own wait), as a sshd
/// stopped for that long does; `refusals` first answers no that many times.
struct FakeChannel {
  int silent = 0;
  int refusals = 0;
  bool breaks = false;
  std::chrono::nanoseconds per_attempt = 5s;
  ServerWait::Clock::time_point clock{};
  int asked = 0;
  std::vector<std::chrono::milliseconds> pauses;

  ServerAnswer attempt() {
    ++asked;
    clock += per_attempt;
    if (breaks) return ServerAnswer::kFailed;
    if (refusals > 0) {
      --refusals;
      return ServerAnswer::kRefused;
    }
    if (silent > 0) {
      --silent;
      return ServerAnswer::kNoAnswerYet;
    }
    return ServerAnswer::kDone;
  }
  ServerWait wait(std::chrono::nanoseconds limit) {
    ServerWait w;
    w.limit = limit;
    w.now = [this] { return clock; };
    w.pause = [this](std::chrono::milliseconds d) {
      pauses.push_back(d);
      clock += d;
    };
    return w;
  }
  WaitOutcome run(std::chrono::nanoseconds limit) {
    return wait_for_answer([this] { return attempt(); }, wait(limit));
  }
};

TEST(ServerWait, AServerSilentForAWhileIsAskedAgainUntilItAnswers) {
  FakeChannel ch;
  ch.silent = 2;  // sshd stopped for ~12 s: two of libssh's 5 s waits pass unanswered
  const WaitOutcome w = ch.run(60s);
  EXPECT_EQ(w.last, ServerAnswer::kDone);
  EXPECT_EQ(ch.asked, 3);
  EXPECT_TRUE(w.was_slow());
  EXPECT_GE(w.waited, 15s);
}

TEST(ServerWait, AnAnswerAtOnceIsOneAttemptAndNotSlow) {
  FakeChannel ch;
  ch.per_attempt = 1ms;
  const WaitOutcome w = ch.run(60s);
  EXPECT_EQ(w.last, ServerAnswer::kDone);
  EXPECT_EQ(w.attempts, 1);
  EXPECT_FALSE(w.was_slow());
  EXPECT_TRUE(ch.pauses.empty());
}

TEST(ServerWait, AServerThatNeverAnswersIsGivenUpOnAtTheStepsTimeoutAndSaidSo) {
  FakeChannel ch;
  ch.silent = 1000;
  const WaitOutcome w = ch.run(60s);
  EXPECT_EQ(w.last, ServerAnswer::kNoAnswerYet);
  EXPECT_EQ(ch.asked, 12) << "60 s of 5 s waits";
  EXPECT_GE(w.waited, 60s);
  EXPECT_LT(w.waited, 61s);
  const std::string why = describe_no_answer("open a session channel", w);
  EXPECT_THAT(why, HasSubstr("did not open a session channel within 60.0"));
  EXPECT_THAT(why, HasSubstr("asked 12 times"));
  EXPECT_THAT(why, HasSubstr("sshd stopped, swapping or overloaded"));
}

TEST(ServerWait, ARefusalIsAskedAgainAfterAGrowingPause) {
  FakeChannel ch;
  ch.per_attempt = 1ms;
  ch.refusals = 4;
  const WaitOutcome w = ch.run(60s);
  EXPECT_EQ(w.last, ServerAnswer::kDone);
  EXPECT_EQ(ch.asked, 5);
  EXPECT_THAT(ch.pauses, ElementsAre(50ms, 100ms, 200ms, 400ms));
}

TEST(ServerWait, RefusalsUntilTheTimeoutEndRefused) {
  FakeChannel ch;
  ch.per_attempt = 1ms;
  ch.refusals = 1000;
  const WaitOutcome w = ch.run(3s);
  EXPECT_EQ(w.last, ServerAnswer::kRefused);
  EXPECT_LE(w.waited, 3s + 10ms);
  EXPECT_GE(w.waited, 3s);
}

TEST(ServerWait, ABrokenSessionIsNotAskedAgain) {
  FakeChannel ch;
  ch.breaks = true;
  const WaitOutcome w = ch.run(60s);
  EXPECT_EQ(w.last, ServerAnswer::kFailed);
  EXPECT_EQ(ch.asked, 1);
}

}  // namespace
}  // namespace labgate::transport
