/* Proves the RHEL 5 filter bites: issues system calls newer than 2.6.18 (and
 * the socket flags 2.6.18 rejected) and checks the answers. With
 * `--expect rhel5` (run under rhel5_exec) they must fail as on RHEL 5 while
 * 2.6.18's own calls and its backports still work; with `--expect modern`
 * (run directly) the same calls must work, so the test can tell the two apart.
 * Raw syscall() so that no libc fallback hides what the kernel said. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static int failures;

/* rc < 0 with errno `rhel5_errno` expected under the filter; success (or any
 * error other than ENOSYS/that errno, e.g. EBADF for a bad fd) without it. */
static void check(const char* what, long rc, int err, int rhel5, int rhel5_errno) {
  const int refused = rc < 0 && err == rhel5_errno;
  const int ok = rhel5 ? refused : !refused;
  printf("%-44s %s%s%s\n", what, rc < 0 ? "error " : "ok", rc < 0 ? strerror(err) : "",
         ok ? "" : "   <-- unexpected");
  if (!ok) failures++;
}

#define CALL(expr) (errno = 0, rc = (expr), err = errno)

int main(int argc, char** argv) {
  int rhel5, fds[2], err;
  long rc;
  if (argc != 3 || strcmp(argv[1], "--expect") != 0 ||
      (strcmp(argv[2], "rhel5") != 0 && strcmp(argv[2], "modern") != 0)) {
    fprintf(stderr, "usage: rhel5_selftest --expect rhel5|modern\n");
    return 2;
  }
  rhel5 = strcmp(argv[2], "rhel5") == 0;
  /* Newer than 2.6.18: ENOSYS on RHEL 5. */
  CALL(syscall(SYS_accept4, -1, NULL, NULL, 0));
  check("accept4 (288, 2.6.28)", rc, err, rhel5, ENOSYS);
  CALL(syscall(SYS_pipe2, fds, 0));
  check("pipe2 (293, 2.6.27)", rc, err, rhel5, ENOSYS);
  CALL(syscall(SYS_epoll_create1, 0));
  check("epoll_create1 (291, 2.6.27)", rc, err, rhel5, ENOSYS);
  CALL(syscall(SYS_eventfd2, 0, 0));
  check("eventfd2 (290, 2.6.27)", rc, err, rhel5, ENOSYS);
  CALL(syscall(SYS_timerfd_create, 1 /* CLOCK_MONOTONIC */, 0));
  check("timerfd_create (283, 2.6.25)", rc, err, rhel5, ENOSYS);
  CALL(syscall(SYS_getrandom, fds, sizeof fds, 0));
  check("getrandom (318, 3.17)", rc, err, rhel5, ENOSYS);
  CALL(syscall(SYS_sendmmsg, -1, NULL, 0, 0));
  check("sendmmsg (307, 3.0)", rc, err, rhel5, ENOSYS);
  /* Flags 2.6.18 rejected: EINVAL on RHEL 5. */
  CALL(syscall(SYS_socket, AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  check("socket(SOCK_DGRAM | SOCK_CLOEXEC)", rc, err, rhel5, EINVAL);
  CALL(syscall(SYS_socket, AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0));
  check("socket(SOCK_STREAM | SOCK_NONBLOCK)", rc, err, rhel5, EINVAL);
  CALL(syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds));
  check("socketpair(SOCK_STREAM | SOCK_CLOEXEC)", rc, err, rhel5, EINVAL);
  /* What RHEL 5 has: these must work (or fail only for their bad arguments) either way. */
  CALL(syscall(SYS_socket, AF_INET, SOCK_DGRAM, 0));
  check("socket(SOCK_DGRAM)", rc, err, 0, EINVAL);
  CALL(syscall(SYS_pipe, fds));
  check("pipe (22)", rc, err, 0, ENOSYS);
  CALL(syscall(SYS_eventfd, 0));
  check("eventfd (284, backported to RHEL 5)", rc, err, 0, ENOSYS);
  CALL(syscall(SYS_fallocate, -1, 0, 0, 1));
  check("fallocate (285, backported; EBADF expected)", rc, err, 0, ENOSYS);
  CALL(syscall(SYS_recvmmsg, -1, NULL, 0, 0, NULL));
  check("recvmmsg (299, backported; EBADF expected)", rc, err, 0, ENOSYS);
  printf("%s: %d unexpected\n", rhel5 ? "under the RHEL 5 filter" : "without the filter", failures);
  return failures ? 1 : 0;
}
