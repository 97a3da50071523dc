// The harness's interrupt flag with real signals: the first one asks for an
// orderly stop, a second one of the same kind ends the process the usual way.
#include "labgate/transport/interrupt.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include "labgate/util/exit_code.h"

namespace labgate::transport {
namespace {

TEST(Interrupt, FirstSignalSetsTheFlagAndStopsWork) {
  install_interrupt_handlers();
  ASSERT_EQ(pending_interrupt(), 0);
  EXPECT_NO_THROW(throw_if_interrupted("idle"));
  std::raise(SIGTERM);
  EXPECT_EQ(pending_interrupt(), SIGTERM);
  try {
    throw_if_interrupted("uploading probes");
    FAIL();
  } catch (const Failure& f) {
    EXPECT_EQ(f.code(), ExitCode::kCouldNotRun);
    EXPECT_STREQ(f.what(), "interrupted by SIGTERM while uploading probes");
  }
  set_pending_interrupt(0);
  std::signal(SIGINT, SIG_DFL);  // leave the test process as it was
  std::signal(SIGTERM, SIG_DFL);
}

TEST(Interrupt, EverySignalOnlyAsksForTheStopAndTheFirstNamesIt) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    install_interrupt_handlers();
    std::raise(SIGINT);
    if (pending_interrupt() != SIGINT) _exit(10);
    // Ctrl-C again 50 ms later, then the terminal closing: the clean-up must go on.
    std::raise(SIGINT);
    std::raise(SIGHUP);
    std::raise(SIGTERM);
    _exit(pending_interrupt() == SIGINT ? 0 : 11);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(Interrupt, SignalNames) {
  EXPECT_EQ(signal_name(SIGINT), "SIGINT");
  EXPECT_EQ(signal_name(SIGHUP), "SIGHUP");
  EXPECT_EQ(signal_name(SIGTERM), "SIGTERM");
}

}  // namespace
}  // namespace labgate::transport
