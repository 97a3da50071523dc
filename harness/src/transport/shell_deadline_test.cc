// A request to labgate's shell while sshd is stopped: the wait for sshd to pass
// it on is bounded by its own limit (command_timeout), the command's by its own
// from the acknowledgement (issue 22 item 1: a 12 s stall failed a 7 s kill).
#include "shell_deadline.h"

#include <gtest/gtest.h>

namespace labgate::transport {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
const ShellDeadline::Clock::time_point t0{};

TEST(ShellDeadline, AKillSentWhileSshdIsStoppedFor12sIsNotTimedOutAt7s) {
  ShellDeadline d(t0, seconds(60), seconds(7));
  EXPECT_FALSE(d.expired(t0 + seconds(7)));
  EXPECT_FALSE(d.expired(t0 + seconds(12)));
  d.acknowledged(t0 + seconds(12));  // sshd runs again: the shell reads the kill
  EXPECT_FALSE(d.expired(t0 + seconds(18)));
  EXPECT_TRUE(d.expired(t0 + seconds(19)));  // the kill's own 7 s, from the acknowledgement
  ASSERT_TRUE(d.relay_time());
  EXPECT_EQ(*d.relay_time(), seconds(12));
  EXPECT_TRUE(d.relay_was_slow());
  EXPECT_EQ(d.command_time(t0 + seconds(13)), seconds(1));
}

TEST(ShellDeadline, AStepWithAShorterTimeoutStillWaitsCommandTimeoutForSshd) {
  // A 10 s counter read sent as the 12 s stall begins: sshd is waited for
  // within command_timeout, then the read has its own 10 s.
  ShellDeadline d(t0, answer_limit(seconds(10), seconds(60)), seconds(10));
  EXPECT_FALSE(d.expired(t0 + seconds(12)));
  d.acknowledged(t0 + seconds(12));
  EXPECT_FALSE(d.expired(t0 + seconds(21)));
  EXPECT_TRUE(d.expired(t0 + seconds(22)));
  // A step longer than command_timeout keeps its own for both.
  EXPECT_EQ(answer_limit(seconds(120), seconds(60)), seconds(120));
}

TEST(ShellDeadline, ASshdThatNeverPassesTheRequestOnIsGivenUpOnAtItsOwnLimit) {
  ShellDeadline d(t0, seconds(60), seconds(7));
  EXPECT_FALSE(d.expired(t0 + milliseconds(59999)));
  EXPECT_TRUE(d.expired(t0 + seconds(60)));
  EXPECT_FALSE(d.relay_time());
  EXPECT_FALSE(d.relay_was_slow());
}

TEST(ShellDeadline, AnAnsweringServerIsNotCalledSlowAndTheCommandKeepsItsOwnLimit) {
  ShellDeadline d(t0, seconds(60), seconds(7));
  d.acknowledged(t0 + milliseconds(300));  // a far bastion's round trip
  d.acknowledged(t0 + seconds(5));         // only the first acknowledgement counts
  EXPECT_FALSE(d.relay_was_slow());
  EXPECT_FALSE(d.expired(t0 + milliseconds(7299)));
  EXPECT_TRUE(d.expired(t0 + milliseconds(7300)));
}

}  // namespace
}  // namespace labgate::transport
