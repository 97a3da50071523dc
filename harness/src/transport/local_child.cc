// One local command in its own process group (see local_child.h).
#include "local_child.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/process/args.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace labgate::transport {

namespace bp = boost::process;
using Clock = std::chrono::steady_clock;

namespace {
// PATH lookup as execvp does it (Boost's search_path would pull in
// Boost.Filesystem, a compiled library, for one loop).
std::string search_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    std::string dir = dirs.substr(start, end - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}
}  // namespace

std::string signal_abbrev(int signo) {
  const char* abbrev = sigabbrev_np(signo);
  return abbrev ? abbrev : std::to_string(signo);
}

namespace {
// A child that exits before reading all its stdin (a `cat` on a full disk) must
// be an EPIPE here, not a SIGPIPE that kills the harness: SIGPIPE is blocked on
// this thread for the write, and one it raised is taken back before unblocking.
ssize_t write_no_sigpipe(int fd, const char* data, std::size_t size) {
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  sigset_t pending;
  sigpending(&pending);
  const bool was_pending = sigismember(&pending, SIGPIPE) == 1;
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  const ssize_t w = write(fd, data, size);
  const int saved = errno;
  if (w < 0 && errno == EPIPE && !was_pending) {
    const timespec zero{0, 0};
    sigtimedwait(&pipe_only, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = saved;
  return w;
}
}  // namespace

LocalChild::LocalChild(const std::vector<std::string>& argv, std::string input, std::size_t output_limit)
    : out_(output_limit), err_(output_limit), input_(std::move(input)) {
  std::string exe = argv.at(0);
  if (exe.find('/') == std::string::npos) {
    const std::string found = search_path(exe);
    if (found.empty()) {
      exit_status_ = 127;
      err_.append(argv[0] + ": command not found\n");
      reaped_ = true;
      return;
    }
    exe = found;
  }
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  try {
    // Its own process group, so a timeout or stop reaches everything it forks.
    child_.emplace(
        bp::exe = exe, bp::args = args, bp::std_out > out_pipe_, bp::std_err > err_pipe_,
        bp::std_in < in_pipe_, bp::extend::on_exec_setup = [](auto&) { setpgid(0, 0); });
  } catch (const bp::process_error& e) {
    const int code = e.code().value();
    exit_status_ = (code == ENOENT) ? 127 : 126;
    err_.append(argv[0] + ": " + std::strerror(code) + "\n");
    reaped_ = true;
    return;
  }
  pgid_ = child_->id();
  out_fd_ = out_pipe_.native_source();
  err_fd_ = err_pipe_.native_source();
  in_fd_ = in_pipe_.native_sink();
  for (int fd : {out_fd_, err_fd_, in_fd_}) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  if (input_.empty()) {
    in_pipe_.close();  // closes both ends we hold: the child sees EOF at once
    in_fd_ = -1;
  }
}

LocalChild::~LocalChild() {
  if (!reaped_) kill_group(std::chrono::milliseconds(500));
}

bool LocalChild::pump(std::chrono::milliseconds max_wait) {
  if (reaped_ && out_fd_ < 0 && err_fd_ < 0) return true;
  const auto deadline = Clock::now() + max_wait;
  for (;;) {
    pollfd fds[3];
    int n = 0;
    if (out_fd_ >= 0) fds[n++] = {out_fd_, POLLIN, 0};
    if (err_fd_ >= 0) fds[n++] = {err_fd_, POLLIN, 0};
    if (in_fd_ >= 0) fds[n++] = {in_fd_, POLLOUT, 0};
    if (n == 0) {
      // Output is done; the process may still run with its streams closed.
      reap(false);
      if (reaped_) return true;
      if (Clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    const int ready = poll(fds, n, static_cast<int>(std::max<long long>(0, std::min<long long>(left, 100))));
    bool moved = false;
    for (int i = 0; i < n && ready > 0; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == in_fd_) {
        const ssize_t w = write_no_sigpipe(in_fd_, input_.data() + input_sent_, input_.size() - input_sent_);
        if (w > 0) input_sent_ += static_cast<std::size_t>(w);
        if (w < 0 || input_sent_ == input_.size()) {  // done, or the child closed stdin
          in_pipe_.close();
          in_fd_ = -1;
        }
        moved = true;
        continue;
      }
      char buf[32768];
      const ssize_t r = read(fds[i].fd, buf, sizeof buf);
      if (r > 0) {
        (fds[i].fd == out_fd_ ? out_ : err_).append(std::string_view(buf, static_cast<std::size_t>(r)));
        moved = true;
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        if (fds[i].fd == out_fd_) {
          out_pipe_.close();
          out_fd_ = -1;
        } else {
          err_pipe_.close();
          err_fd_ = -1;
        }
        moved = true;
      }
    }
    if (out_fd_ < 0 && err_fd_ < 0) {
      reap(false);
      if (reaped_) return true;
    }
    if (moved || Clock::now() >= deadline) return false;
  }
}

void LocalChild::reap(bool block) {
  if (reaped_ || !child_) return;
  int status = 0;
  const pid_t r = waitpid(static_cast<pid_t>(child_->id()), &status, block ? 0 : WNOHANG);
  if (r == 0) return;
  reaped_ = true;
  child_->detach();  // reaped here; Boost must not wait or terminate it again
  if (r < 0) return;
  if (WIFEXITED(status)) exit_status_ = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) signal_ = signal_abbrev(WTERMSIG(status));
}

void LocalChild::kill_group(std::chrono::milliseconds grace) {
  if (pgid_ <= 0) return;
  ::kill(static_cast<pid_t>(-pgid_), SIGTERM);
  const auto until = Clock::now() + grace;
  // Collect output while the group exits; SIGKILL what is left at the deadline.
  while (Clock::now() < until) {
    if (pump(std::chrono::milliseconds(50))) break;
  }
  ::kill(static_cast<pid_t>(-pgid_), SIGKILL);
  reap(true);
  for (int i = 0; i < 20 && (out_fd_ >= 0 || err_fd_ >= 0); ++i) pump(std::chrono::milliseconds(50));
  out_pipe_.close();
  err_pipe_.close();
  out_fd_ = err_fd_ = -1;
}

void LocalChild::fill(RunResult& r) {
  r.out = std::move(out_.text());
  r.err = std::move(err_.text());
  r.exit_status = signal_.empty() ? exit_status_ : -1;
  r.signal = signal_;
}

}  // namespace labgate::transport
