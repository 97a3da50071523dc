/* SO_SNDBUF/SO_RCVBUF and TCP_CONGESTION on a probe's socket (2.6.18 has both). */
#include "lg_tune.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* musl's headers may predate it; the value is the kernel's since 2.6.13. */
#ifndef TCP_CONGESTION
#define TCP_CONGESTION 13
#endif

int lg_tune_socket(int fd, int tcp, const lg_tuning* t, char* err, size_t errlen) {
  if (t->buffer > 0) {
    int size = t->buffer > 0x7fffffffull ? 0x7fffffff : (int)t->buffer;
    /* On a server's listener this comes before any SYN, so accepted sockets inherit
     * it and their window scale fits it; on a client it follows connect(). */
    if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size)) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size)) != 0) {
      snprintf(err, errlen, "SO_SNDBUF/SO_RCVBUF %d: %s", size, strerror(errno));
      return -1;
    }
  }
  if (tcp && t->congestion != NULL &&
      setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, t->congestion, (socklen_t)strlen(t->congestion)) != 0) {
    snprintf(err, errlen,
             "TCP_CONGESTION \"%s\": %s (the kernel offers what "
             "/proc/sys/net/ipv4/tcp_available_congestion_control lists)",
             t->congestion, strerror(errno));
    return -1;
  }
  return 0;
}

void lg_describe_tuning(int fd, int tcp, const lg_tuning* t, char* buf, size_t len) {
  int snd = -1, rcv = -1;
  char name[32];
  socklen_t l = sizeof(snd);
  size_t n;
  getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &snd, &l);
  l = sizeof(rcv);
  getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, &l);
  snprintf(buf, len, ",\"socket_buffer_asked\":%llu,\"sndbuf\":%d,\"rcvbuf\":%d",
           (unsigned long long)t->buffer, snd, rcv);
  memset(name, 0, sizeof(name));
  l = sizeof(name) - 1;
  if (!tcp || getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &l) != 0) return;
  name[sizeof(name) - 1] = '\0';
  n = strlen(buf);
  /* Algorithm names are [a-z0-9_]: no JSON escaping needed, but be sure. */
  for (l = 0; name[l] != '\0'; ++l)
    if (name[l] == '"' || name[l] == '\\' || (unsigned char)name[l] < 0x20) name[l] = '_';
  if (n < len) snprintf(buf + n, len - n, ",\"congestion\":\"%s\"", name);
}
