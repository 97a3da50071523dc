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

TEST(Interrupt, SecondSignalGetsTheDefaultAction) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    install_interrupt_handlers();
    std::raise(SIGINT);
    if (pending_interrupt() != SIGINT) _exit(10);
    std::raise(SIGINT);  // a user pressing Ctrl-C again: this one kills
    _exit(11);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGINT);
}

}  // namespace
}  // namespace labgate::transport
