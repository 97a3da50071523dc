/* The probe servers' peer filter (see lg_net_peer.h). */
#include "lg_net_peer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lg_net.h"

int lg_peer_set(lg_peer_filter* f, const char* ip) {
  memset(f, 0, sizeof(*f));
  if (ip == NULL) return 0;
  if (lg_addr(ip, 0, &f->addr) != 0) return -1;
  f->on = 1;
  return 0;
}

int lg_peer_allows(lg_peer_filter* f, const lg_sockaddr* from) {
  if (!f->on) return 1;
  if (lg_addr_same_host(from, &f->addr)) return 1;
  f->foreign++;
  return 0;
}

/* Closes with RST instead of FIN: the stranger learns at once that it was
 * refused, and the socket leaves no TIME_WAIT behind on the server. */
static void reset_close(int fd) {
  struct linger l;
  l.l_onoff = 1;
  l.l_linger = 0;
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
  close(fd);
}

int lg_accept_peer(int lfd, lg_peer_filter* f, uint64_t deadline_ns) {
  /* Non-blocking listener: a connection reset between poll() and accept()
   * must not leave accept() blocked past the deadline. Accepted sockets do not
   * inherit O_NONBLOCK on Linux, so the one returned is blocking. */
  lg_set_nonblocking(lfd, 1);
  for (;;) {
    lg_sockaddr from;
    socklen_t len = sizeof(from);
    int fd, r = lg_wait_fd(lfd, POLLIN, deadline_ns);
    if (r == 0) return -2;
    if (r < 0) return -1;
    memset(&from, 0, sizeof(from));
    fd = accept(lfd, &from.sa, &len);
    if (fd < 0) {
      if (errno == EINTR) return -1;
      continue; /* EAGAIN, ECONNABORTED: that connection is gone; keep waiting */
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC); /* accept4 is newer than 2.6.18 */
    if (lg_peer_allows(f, &from)) return fd;
    reset_close(fd);
  }
}
