/* Socket plumbing for the measuring probes, IPv4 and IPv6 (Linux 2.6.18 system calls only). */
#include "lg_net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "lg_measure_util.h"

int lg_addr(const char* ip, int port, lg_sockaddr* out) {
  memset(out, 0, sizeof(*out));
  if (port < 0 || port > 65535) return -1;
  if (inet_pton(AF_INET, ip, &out->in4.sin_addr) == 1) {
    out->in4.sin_family = AF_INET;
    out->in4.sin_port = htons((uint16_t)port);
    return 0;
  }
  if (inet_pton(AF_INET6, ip, &out->in6.sin6_addr) == 1) {
    out->in6.sin6_family = AF_INET6;
    out->in6.sin6_port = htons((uint16_t)port);
    return 0;
  }
  return -1;
}

socklen_t lg_addr_len(const lg_sockaddr* a) {
  return a->sa.sa_family == AF_INET6 ? (socklen_t)sizeof(a->in6) : (socklen_t)sizeof(a->in4);
}

int lg_addr_port(const lg_sockaddr* a) {
  return ntohs(a->sa.sa_family == AF_INET6 ? a->in6.sin6_port : a->in4.sin_port);
}

void lg_addr_set_port(lg_sockaddr* a, int port) {
  if (a->sa.sa_family == AF_INET6)
    a->in6.sin6_port = htons((uint16_t)port);
  else
    a->in4.sin_port = htons((uint16_t)port);
}

int lg_addr_same_host(const lg_sockaddr* a, const lg_sockaddr* b) {
  if (a->sa.sa_family != b->sa.sa_family) return 0;
  if (a->sa.sa_family == AF_INET6)
    return memcmp(&a->in6.sin6_addr, &b->in6.sin6_addr, sizeof(a->in6.sin6_addr)) == 0;
  return a->sa.sa_family == AF_INET && a->in4.sin_addr.s_addr == b->in4.sin_addr.s_addr;
}

const char* lg_addr_str(const lg_sockaddr* a, char* buf, size_t len) {
  char ip[INET6_ADDRSTRLEN];
  if (a->sa.sa_family == AF_INET6) {
    inet_ntop(AF_INET6, &a->in6.sin6_addr, ip, sizeof(ip));
    snprintf(buf, len, "[%s]:%d", ip, lg_addr_port(a));
  } else {
    inet_ntop(AF_INET, &a->in4.sin_addr, ip, sizeof(ip));
    snprintf(buf, len, "%s:%d", ip, lg_addr_port(a));
  }
  return buf;
}

int lg_socket(const lg_sockaddr* a, int type) {
  int fd = socket(a->sa.sa_family, type, 0);
  if (fd >= 0) fcntl(fd, F_SETFD, FD_CLOEXEC);
  return fd;
}

int lg_set_nonblocking(int fd, int on) {
  int flags = fcntl(fd, F_GETFL, 0);
  if (flags < 0) return -1;
  flags = on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
  return fcntl(fd, F_SETFL, flags);
}

static int bound_port(int fd) {
  lg_sockaddr got;
  socklen_t len = sizeof(got);
  if (getsockname(fd, &got.sa, &len) != 0) return -1;
  return lg_addr_port(&got);
}

static int bind_socket(int type, const lg_sockaddr* a, int* port, char* err, size_t errlen) {
  char where[80];
  int one = 1;
  int fd = lg_socket(a, type);
  if (fd < 0) {
    snprintf(err, errlen, "socket: %s", strerror(errno));
    return -1;
  }
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (bind(fd, &a->sa, lg_addr_len(a)) != 0) {
    snprintf(err, errlen, "cannot bind %s: %s", lg_addr_str(a, where, sizeof(where)), strerror(errno));
    close(fd);
    return -1;
  }
  if (type == SOCK_STREAM && listen(fd, 8) != 0) {
    snprintf(err, errlen, "cannot listen on %s: %s", lg_addr_str(a, where, sizeof(where)), strerror(errno));
    close(fd);
    return -1;
  }
  *port = bound_port(fd);
  return fd;
}

int lg_listen_tcp(const lg_sockaddr* a, int* port, char* err, size_t errlen) {
  return bind_socket(SOCK_STREAM, a, port, err, errlen);
}

int lg_bind_udp(const lg_sockaddr* a, int* port, char* err, size_t errlen) {
  return bind_socket(SOCK_DGRAM, a, port, err, errlen);
}

int lg_connect_tcp(const lg_sockaddr* a, uint64_t timeout_ns, char* err, size_t errlen) {
  char where[80];
  int soerr = 0;
  socklen_t len = sizeof(soerr);
  int fd = lg_socket(a, SOCK_STREAM);
  if (fd < 0) {
    snprintf(err, errlen, "socket: %s", strerror(errno));
    return -1;
  }
  lg_addr_str(a, where, sizeof(where));
  lg_set_nonblocking(fd, 1);
  if (connect(fd, &a->sa, lg_addr_len(a)) != 0) {
    int r;
    if (errno != EINPROGRESS) {
      snprintf(err, errlen, "cannot connect to %s: %s", where, strerror(errno));
      close(fd);
      return -1;
    }
    r = lg_wait_fd(fd, POLLOUT, lg_now_ns() + timeout_ns);
    if (r <= 0) {
      snprintf(err, errlen, "cannot connect to %s: %s", where,
               r == 0 ? "no answer within the connect timeout" : strerror(errno));
      close(fd);
      return -1;
    }
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) != 0 || soerr != 0) {
      snprintf(err, errlen, "cannot connect to %s: %s", where, strerror(soerr ? soerr : errno));
      close(fd);
      return -1;
    }
  }
  lg_set_nonblocking(fd, 0);
  return fd;
}

int lg_wait_fd(int fd, short events, uint64_t deadline_ns) {
  for (;;) {
    struct pollfd p;
    uint64_t now = lg_now_ns();
    int ms, r;
    if (now >= deadline_ns) return 0;
    /* Round up: poll's millisecond timeout must not wake before the deadline. */
    ms = (int)((deadline_ns - now + 999999) / 1000000);
    p.fd = fd;
    p.events = events;
    p.revents = 0;
    r = poll(&p, 1, ms);
    if (r > 0) return 1;
    if (r < 0) return -1;
  }
}

#ifndef SO_TIMESTAMPNS
#define SO_TIMESTAMPNS 35
#endif
#ifndef SCM_TIMESTAMPNS
#define SCM_TIMESTAMPNS SO_TIMESTAMPNS
#endif

int lg_rx_stamps_inline(int fd) {
  int one = 1;
  if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) == 0) return 1;
  return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMP, &one, sizeof(one)) == 0 ? 2 : 0; /* 2.6.18 */
}

uint64_t lg_cmsg_rx_stamp(const struct msghdr* msg) {
  struct cmsghdr* c;
  for (c = CMSG_FIRSTHDR((struct msghdr*)msg); c != NULL; c = CMSG_NXTHDR((struct msghdr*)msg, c)) {
    if (c->cmsg_level != SOL_SOCKET) continue;
    if (c->cmsg_type == SCM_TIMESTAMPNS && c->cmsg_len >= CMSG_LEN(sizeof(struct timespec))) {
      struct timespec ts;
      memcpy(&ts, CMSG_DATA(c), sizeof(ts));
      return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    }
    if (c->cmsg_type == SCM_TIMESTAMP && c->cmsg_len >= CMSG_LEN(sizeof(struct timeval))) {
      struct timeval tv;
      memcpy(&tv, CMSG_DATA(c), sizeof(tv));
      return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
    }
  }
  return 0;
}

/* One recv, or with `stamp` a recvmsg that also takes the packet's receive stamp. */
static ssize_t recv_one(int fd, void* p, size_t len, int flags, uint64_t* stamp) {
  struct iovec iov;
  struct msghdr msg;
  union {
    struct cmsghdr align;
    char bytes[LG_RX_STAMP_CONTROL];
  } control;
  ssize_t r;
  uint64_t s;
  if (stamp == NULL) return recv(fd, p, len, flags);
  iov.iov_base = p;
  iov.iov_len = len;
  memset(&msg, 0, sizeof(msg));
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.bytes;
  msg.msg_controllen = sizeof(control.bytes);
  r = recvmsg(fd, &msg, flags);
  if (r > 0 && (s = lg_cmsg_rx_stamp(&msg)) != 0) *stamp = s;
  return r;
}

ssize_t lg_read_full(int fd, void* buf, size_t n, uint64_t deadline_ns, int busy) {
  return lg_read_full_stamped(fd, buf, n, deadline_ns, busy, NULL);
}

ssize_t lg_read_full_stamped(int fd, void* buf, size_t n, uint64_t deadline_ns, int busy, uint64_t* stamp_real) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = recv_one(fd, (char*)buf + got, n - got, busy ? MSG_DONTWAIT : 0, stamp_real);
    if (r > 0) {
      got += (size_t)r;
      continue;
    }
    if (r == 0) return 0;
    /* A stopped-and-continued process sees EINTR from a socket with a timeout
     * (signal(7)); only a stop request should end the read. */
    if (errno == EINTR && !lg_stop_requested()) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
    /* Blocking sockets get here when SO_RCVTIMEO expires; busy ones at once. */
    if (lg_now_ns() >= deadline_ns) return -2;
  }
  return (ssize_t)n;
}

ssize_t lg_write_full(int fd, const void* buf, size_t n, uint64_t deadline_ns) {
  size_t put = 0;
  while (put < n) {
    ssize_t r = send(fd, (const char*)buf + put, n - put, MSG_NOSIGNAL);
    if (r > 0) {
      put += (size_t)r;
      continue;
    }
    if (r < 0 && errno == EINTR && !lg_stop_requested()) continue;
    if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return -1;
    if (lg_now_ns() >= deadline_ns) return -2;
  }
  return (ssize_t)n;
}

ssize_t lg_read_line(int fd, char* buf, size_t len, uint64_t deadline_ns) {
  size_t n = 0;
  while (n + 1 < len) {
    ssize_t r = lg_read_full(fd, buf + n, 1, deadline_ns, 0);
    if (r != 1) return (r == 0 && n > 0) ? -1 : r;
    if (buf[n] == '\n') {
      buf[n] = '\0';
      return (ssize_t)n;
    }
    n++;
  }
  return -1;
}

int lg_set_io_timeout(int fd, uint64_t ns) {
  struct timeval tv;
  tv.tv_sec = (time_t)(ns / 1000000000ull);
  tv.tv_usec = (suseconds_t)((ns % 1000000000ull) / 1000);
  if (tv.tv_sec == 0 && tv.tv_usec == 0) tv.tv_usec = 1000; /* 0 would mean "forever" */
  if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0) return -1;
  return setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}
