// The one-shell framing against a real /bin/sh on pipes: several commands in
// one shell, each with its own output, stderr, status and stdin; output that
// imitates a marker, or lacks a final newline, never ends a reply early; a
// command cannot read the requests that follow it, nor leave state behind.
#include "shell_protocol.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "labgate/transport/shell_quote.h"

namespace labgate::transport {
namespace {

using ::testing::HasSubstr;

/// /bin/sh reading its stdin from a pipe, as labgate's shell reads the channel.
class PipedShell {
 public:
  PipedShell() {
    int in[2], out[2], err[2];
    if (pipe(in) || pipe(out) || pipe(err)) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      dup2(err[1], 2);
      for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
      execl("/bin/sh", "sh", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    in_ = in[1];
    out_ = out[0];
    err_ = err[0];
  }
  ~PipedShell() {
    close(in_);
    close(out_);
    close(err_);
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  /// Sends request `id` and reads until its reply is complete (or 10 s pass).
  RunResult run(long id, const std::vector<std::string>& argv, std::string_view input = "",
                std::size_t limit = 1 << 20) {
    const std::string req = shell_request(token, id, argv, input);
    EXPECT_EQ(req.find('\n'), req.size() - 1) << "a request is one line";
    EXPECT_EQ(write(in_, req.data(), req.size()), static_cast<ssize_t>(req.size()));
    ShellReply reply(token, id, limit);
    acknowledged_early = false;
    for (int i = 0; i < 1000 && !reply.done(); ++i) {
      acknowledged_early = acknowledged_early || reply.started();
      pollfd p[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
      poll(p, 2, 10);
      char buf[4096];
      if (p[0].revents & POLLIN) {
        const ssize_t n = read(out_, buf, sizeof buf);
        if (n > 0) reply.feed_out(std::string_view(buf, static_cast<size_t>(n)));
      }
      if (p[1].revents & POLLIN) {
        const ssize_t n = read(err_, buf, sizeof buf);
        if (n > 0) reply.feed_err(std::string_view(buf, static_cast<size_t>(n)));
      }
    }
    EXPECT_TRUE(reply.done()) << "no complete reply to request " << id;
    EXPECT_TRUE(reply.started()) << "a complete reply without the acknowledgement";
    overflowed = reply.overflowed();
    return reply.result();
  }
  std::string token = "0123456789abcdef";
  bool overflowed = false;
  /// The acknowledgement was seen while the command still ran.
  bool acknowledged_early = false;

 private:
  pid_t pid_;
  int in_, out_, err_;
};

TEST(ShellProtocol, EachCommandGetsItsOwnOutputErrorsAndStatusInOneShell) {
  PipedShell sh;
  auto r = sh.run(1, {"echo", "hello world"});
  EXPECT_EQ(r.out, "hello world\n");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.exit_status, 0);
  r = sh.run(2, sh_argv("echo to-err >&2; printf 'no newline'; exit 3", {}));
  EXPECT_EQ(r.out, "no newline");
  EXPECT_EQ(r.err, "to-err\n");
  EXPECT_EQ(r.exit_status, 3);
  r = sh.run(3, {"/nonexistent/program"});
  EXPECT_EQ(r.exit_status, 127);
  EXPECT_THAT(r.err, HasSubstr("nonexistent"));
}

TEST(ShellProtocol, InputReachesTheCommandAndNothingReadsTheFollowingRequests) {
  PipedShell sh;
  const std::string input = "line one\nback\\slash 'quote' \"dq\" $HOME !bang %d\n\tend";
  auto r = sh.run(1, {"cat"}, input);
  EXPECT_EQ(r.out, input);
  // Without input the command's stdin is empty, not the shell's: the next request survives.
  r = sh.run(2, {"cat"});
  EXPECT_EQ(r.out, "");
  r = sh.run(3, {"echo", "still here"});
  EXPECT_EQ(r.out, "still here\n");
}

TEST(ShellProtocol, OutputImitatingAMarkerDoesNotEndTheReply) {
  PipedShell sh;
  // The marker of this very request, but with another token: only the real one ends it.
  auto r = sh.run(
      7, sh_argv("printf '\\n\\037lg-ffffffffffffffff 7 0\\nafter\\n'; printf '\\n\\037lg-x 7\\n' >&2", {}));
  EXPECT_THAT(r.out, HasSubstr("after"));
  EXPECT_THAT(r.out, HasSubstr("lg-ffffffffffffffff 7 0"));
  EXPECT_EQ(r.exit_status, 0);
}

TEST(ShellProtocol, TheShellAcknowledgesARequestBeforeTheCommandEndsAndTheAckIsNotOutput) {
  PipedShell sh;
  // What sshd's relay delays (a stopped server) ends at the acknowledgement;
  // the command's own time starts there (shell_deadline.h).
  auto r = sh.run(1, sh_argv("sleep 0.3; echo done", {}));
  EXPECT_TRUE(sh.acknowledged_early);
  EXPECT_EQ(r.out, "done\n");
  // A background writer of request 2 prints into request 3's time, before its acknowledgement.
  sh.run(2, sh_argv("(sleep 0.2; echo stray) &", {}));
  usleep(400 * 1000);
  r = sh.run(3, {"echo", "mine"});
  EXPECT_EQ(r.out, "mine\n");
}

TEST(ShellProtocol, ACommandLeavesNoStateForTheNext) {
  PipedShell sh;
  sh.run(1, sh_argv("cd /; X=set; exit 0", {}));
  auto r = sh.run(2, sh_argv("echo \"${X:-unset}\"", {}));
  EXPECT_EQ(r.out, "unset\n");
  // An exec inside a command replaces its subshell, not labgate's shell.
  r = sh.run(3, sh_argv("exec true", {}));
  EXPECT_EQ(r.exit_status, 0);
  r = sh.run(4, {"echo", "alive"});
  EXPECT_EQ(r.out, "alive\n");
}

TEST(ShellProtocol, LargeOutputIsBoundedAndOverflowIsSaid) {
  PipedShell sh;
  auto r = sh.run(1, sh_argv("head -c 300000 /dev/zero | tr '\\0' x", {}), "", 1000);
  EXPECT_TRUE(sh.overflowed);
  EXPECT_EQ(r.out.size(), 1000u);
  r = sh.run(2, sh_argv("head -c 300000 /dev/zero | tr '\\0' y", {}));
  EXPECT_FALSE(sh.overflowed);
  EXPECT_EQ(r.out.size(), 300000u);
  EXPECT_EQ(r.out.find_first_not_of('y'), std::string::npos);
}

}  // namespace
}  // namespace labgate::transport
