// Suites as child processes of `labgate run`, with signal forwarding (see suite_child.h).
#include "suite_child.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "labgate/util/exit_code.h"

namespace labgate::cli {
namespace {

volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_signal = 0;

extern "C" void forward_signal(int sig) {
  if (g_signal == 0) g_signal = sig;
  // The child suite cleans up its hosts on SIGINT/SIGTERM; the caller waits for it.
  if (g_child > 0) ::kill(g_child, sig);
}

}  // namespace

void install_suite_forwarding() {
  struct sigaction sa {};
  sa.sa_handler = forward_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

int run_suite_child(const std::string& program, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  spdlog::debug("running {}", program);
  // Blocked across fork: a signal arriving before g_child is set is forwarded
  // once it is, not lost.
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  ::sigprocmask(SIG_BLOCK, &block, &old);
  if (g_signal != 0) {  // came before we blocked: this suite must not start
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
    spdlog::warn("not starting {}: the run was interrupted by {}", program, signal_name(g_signal));
    return 3;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
    throw Failure(ExitCode::kCouldNotRun, "fork for " + program + " failed: " + std::strerror(errno));
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(SIGINT, &dfl, nullptr);
    ::sigaction(SIGTERM, &dfl, nullptr);
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
    ::execv(program.c_str(), argv.data());
    std::cerr << "labgate run: cannot execute " << program << ": " << std::strerror(errno) << "\n";
    ::_exit(3);
  }
  ::setpgid(pid, pid);  // also from here, so the group exists before any signal reaches it
  g_child = pid;
  ::sigprocmask(SIG_SETMASK, &old, nullptr);  // a signal held back is forwarded now
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_child = 0;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  spdlog::error("{} died of {}", program, signal_name(WTERMSIG(status)));
  return 3;
}

int harness_interrupted() { return g_signal; }

void reset_harness_interrupt() { g_signal = 0; }

std::string signal_name(int signo) {
  if (signo == SIGINT) return "SIGINT";
  if (signo == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signo);
}

}  // namespace labgate::cli
