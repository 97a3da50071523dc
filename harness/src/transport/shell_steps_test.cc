// The ShellSteps scope marks only its own thread's commands as housekeeping
// steps, nested scopes included: the lease heartbeat's thread and a probe run on
// another thread keep channels of their own while a step is in the shell.
#include "labgate/transport/shell_steps.h"

#include <gtest/gtest.h>

#include <thread>

namespace labgate::transport {
namespace {

TEST(ShellSteps, MarksOnlyItsOwnThreadAndOnlyWhileItLives) {
  EXPECT_FALSE(ShellSteps::active());
  {
    ShellSteps outer;
    EXPECT_TRUE(ShellSteps::active());
    bool other_thread = true;
    std::thread([&] { other_thread = ShellSteps::active(); }).join();
    EXPECT_FALSE(other_thread) << "another thread's commands were taken for housekeeping steps";
    {
      ShellSteps inner;
      EXPECT_TRUE(ShellSteps::active());
    }
    EXPECT_TRUE(ShellSteps::active()) << "an inner scope ended the outer one";
  }
  EXPECT_FALSE(ShellSteps::active());
}

}  // namespace
}  // namespace labgate::transport
