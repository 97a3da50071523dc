/* The pingpong server: echoes every request unchanged, one TCP client at a
 * time or any UDP sender (only the --peer address when given), until nobody
 * it serves has talked to it for --idle-timeout, or (--once) until its first
 * client is done. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "lg_anchor.h"
#include "lg_measure_util.h"
#include "lg_net.h"
#include "lg_net_peer.h"
#include "pp.h"

typedef struct server_stats {
  uint64_t connections, requests, bytes, size_mismatch, refused;
} server_stats;

static volatile int g_stop;
/* The server's monotonic -> realtime tie, for the receive stamp each reply carries. */
static lg_anchor g_anchor;

/* Replaces the request's send time (bytes 8..15) with this host's realtime
 * receive stamp: the client's one-way estimate (pp_oneway.h). The receive
 * stamp is already taken for the turnaround, so this costs an add and a store. */
static void stamp_reply(unsigned char* buf, size_t n, uint64_t t_read) {
  uint64_t real;
  if (n < PP_HDR) return;
  real = lg_anchor_real(&g_anchor, t_read);
  memcpy(buf + 8, &real, 8);
}

/* The server's outliers: its worst times per request, keyed by the request's
 * sequence number so the harness can join them with the client's round trips
 * without a shared clock. Where the kernel's receive stamp comes with the read
 * (UDP; TCP from Linux 4.13), that time runs from the request's arrival in the
 * socket to the reply sent: a server held off its CPU before its read (a stall
 * the client sees as a slow round trip) is kept, its wait as sock_wait_ns.
 * Else it is the turnaround, request read to reply sent. */
typedef struct server_tail {
  lg_outliers outliers;
  lg_moment moment;
  uint64_t stamped, unstamped; /* requests with and without their arrival stamp */
} server_tail;

/* Asks for arrival stamps on `fd` with each read; where the kernel refuses,
 * UDP outliers still get theirs from an ioctl (lg_moment_stamps). */
static int arrival_stamps(server_tail* t, int fd, int udp) {
  if (lg_rx_stamps_inline(fd)) {
    lg_moment_stamps_given(&t->moment);
    return 1;
  }
  lg_moment_stamps(&t->moment, fd, udp);
  return 0;
}

/* How long the request read at `t_read` (monotonic) lay in the socket: its
 * realtime arrival stamp carried over with the anchor's delta; -1 without one. */
static int64_t socket_wait(server_tail* t, uint64_t stamp_real, uint64_t t_read) {
  uint64_t read_real;
  if (stamp_real == 0) {
    t->unstamped++;
    return -1;
  }
  t->stamped++;
  read_real = lg_anchor_real(&g_anchor, t_read);
  return read_real > stamp_real ? (int64_t)(read_real - stamp_real) : 0;
}

/* Books the request in `buf` (n bytes), read at t_read after `waited` ns in
 * the socket (-1: not known) and answered at t_sent. Requests shorter than
 * PP_HDR carry no sequence number. */
static void book_turnaround(server_tail* t, int fd, const unsigned char* buf, size_t n, int64_t waited,
                            uint64_t t_read, uint64_t t_sent) {
  const uint64_t value = t_sent - t_read + (waited > 0 ? (uint64_t)waited : 0);
  uint64_t seq;
  if (n < PP_HDR) return;
  seq = pp_get_seq(buf);
  if (lg_outliers_wants(&t->outliers, value)) {
    lg_outlier r;
    r.value_ns = value;
    r.at_ns = t_sent;
    r.seq = seq;
    lg_moment_capture(&t->moment, &r, fd, t_read);
    /* The wait the value holds, not an ioctl's second reading of the same stamp. */
    if (waited >= 0) r.sock_wait_ns = waited;
    lg_outliers_add(&t->outliers, &r);
  } else {
    lg_moment_tick(&t->moment, seq + 1);
  }
}

/* The hello exchange; returns the client's message size, or 0 if refused. */
static uint32_t tcp_hello(const pp_config* cfg, int fd, server_stats* st) {
  uint32_t in[4], out[4];
  uint32_t size;
  if (lg_read_full(fd, in, sizeof(in), lg_now_ns() + cfg->idle_timeout_ns, 0) != (ssize_t)sizeof(in) ||
      memcmp(&in[0], "LGPP", 4) != 0 || ntohl(in[1]) != PP_VERSION)
    return 0;
  size = ntohl(in[2]);
  memcpy(&out[0], "LGPP", 4);
  out[1] = htonl(0);
  out[2] = htonl(cfg->size_given ? (uint32_t)cfg->size : size);
  out[3] = 0;
  if (size == 0 || size > PP_MAX_TCP_SIZE || (cfg->size_given && size != cfg->size)) {
    out[1] = htonl(1);
    st->refused++;
    size = 0;
  }
  if (lg_write_full(fd, out, sizeof(out), lg_now_ns() + cfg->idle_timeout_ns) != (ssize_t)sizeof(out))
    return 0;
  return size;
}

/* Serves one connection; returns 1 if it ended by going idle (time to exit). */
static int serve_tcp(const pp_config* cfg, int fd, unsigned char* buf, server_stats* st, server_tail* t) {
  char err[256];
  int one = 1;
  uint32_t size;
  uint64_t now;
  int stamped;
  if (cfg->nodelay) setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  /* Inherited from the listener on current kernels; set again for those that do not. */
  if (lg_tune_socket(fd, 1, &cfg->tune, err, sizeof(err)) != 0) {
    fprintf(stderr, "pingpong server: %s\n", err);
    return 0;
  }
  lg_set_io_timeout(fd, cfg->idle_timeout_ns);
  size = tcp_hello(cfg, fd, st);
  if (size == 0) return 0;
  stamped = cfg->forensics ? arrival_stamps(t, fd, 0) : 0;
  now = lg_now_ns();
  while (!g_stop) {
    /* The two clock reads each request already had (for the deadlines) time its turnaround. */
    uint64_t stamp = 0, t_read;
    ssize_t r = lg_read_full_stamped(fd, buf, size, now + cfg->idle_timeout_ns, cfg->busy_poll,
                                     stamped ? &stamp : NULL);
    int64_t waited;
    if (r == -2) return 1;
    if (r <= 0) return 0; /* EOF: the client is done; error: drop the connection */
    t_read = lg_now_ns();
    if (!cfg->forensics) { /* an echo and the deadline's clock read, nothing more */
      if (lg_write_full(fd, buf, size, t_read + cfg->idle_timeout_ns) != (ssize_t)size) return 0;
      now = t_read;
      st->requests++;
      st->bytes += size;
      continue;
    }
    waited = stamped ? socket_wait(t, stamp, t_read) : -1;
    stamp_reply(buf, size, t_read);
    if (lg_write_full(fd, buf, size, t_read + cfg->idle_timeout_ns) != (ssize_t)size) return 0;
    now = lg_now_ns();
    st->requests++;
    st->bytes += size;
    book_turnaround(t, fd, buf, size, waited, t_read, now);
  }
  return 0;
}

/* Connections from anyone but the peer are reset by lg_accept_peer and do not
 * count as activity: a stranger cannot keep the server alive. */
static const char* run_tcp(const pp_config* cfg, int lfd, lg_peer_filter* peer, unsigned char* buf,
                           server_stats* st, server_tail* t) {
  uint64_t last = lg_now_ns();
  while (!g_stop) {
    int fd = lg_accept_peer(lfd, peer, last + cfg->idle_timeout_ns);
    int idle;
    if (fd == -2) return "idle_timeout";
    if (fd < 0) continue; /* EINTR: re-check g_stop */
    st->connections++;
    idle = serve_tcp(cfg, fd, buf, st, t);
    close(fd);
    last = lg_now_ns();
    if (idle) return "idle_timeout";
    if (cfg->once) return "once"; /* the harness need not stop it: no second round trip */
  }
  return "signal";
}

static const char* run_udp(const pp_config* cfg, int fd, lg_peer_filter* peer, unsigned char* buf,
                           server_stats* st, server_tail* t) {
  uint64_t last = lg_now_ns();
  /* The stamp rides on the read (recvmsg's control data): no system call more per request. */
  union {
    struct cmsghdr align;
    char bytes[LG_RX_STAMP_CONTROL];
  } control;
  const int stamped = cfg->forensics ? arrival_stamps(t, fd, 1) : 0;
  /* Wake at least every 100 ms so the idle deadline is honoured to that grain. */
  lg_set_io_timeout(fd, cfg->idle_timeout_ns < 100000000ull ? cfg->idle_timeout_ns : 100000000ull);
  while (!g_stop) {
    lg_sockaddr from;
    struct iovec iov;
    struct msghdr msg;
    ssize_t n;
    int64_t waited;
    iov.iov_base = buf;
    iov.iov_len = PP_MAX_UDP_SIZE;
    memset(&msg, 0, sizeof(msg));
    msg.msg_name = &from;
    msg.msg_namelen = sizeof(from);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = stamped ? control.bytes : NULL;
    msg.msg_controllen = stamped ? sizeof(control.bytes) : 0;
    n = recvmsg(fd, &msg, cfg->busy_poll ? MSG_DONTWAIT : 0);
    /* A datagram from a stranger gets no answer and is not activity. */
    if (n < 0 || !lg_peer_allows(peer, &from)) {
      if (lg_now_ns() - last >= cfg->idle_timeout_ns) return "idle_timeout";
      continue;
    }
    last = lg_now_ns();
    if (n == PP_BYE_LEN && memcmp(buf, PP_BYE, PP_BYE_LEN) == 0) { /* the client's end, not a request */
      if (cfg->once) return "once";
      continue;
    }
    if (cfg->size_given && (uint64_t)n != cfg->size) st->size_mismatch++;
    if (!cfg->forensics) { /* an echo, nothing more */
      sendto(fd, buf, (size_t)n, 0, &from.sa, msg.msg_namelen);
      st->requests++;
      st->bytes += (uint64_t)n;
      continue;
    }
    /* After the end check: the BYE is no request, so its stamp is not counted. */
    waited = stamped ? socket_wait(t, lg_cmsg_rx_stamp(&msg), last) : -1;
    stamp_reply(buf, (size_t)n, last);
    sendto(fd, buf, (size_t)n, 0, &from.sa, msg.msg_namelen);
    st->requests++;
    st->bytes += (uint64_t)n;
    book_turnaround(t, fd, buf, (size_t)n, waited, last, lg_now_ns());
  }
  return "signal";
}

static void print_summary(const pp_config* cfg, int port, int cpu_actual, const char* cpu_src,
                          const char* reason, const server_stats* st, const lg_peer_filter* peer,
                          const server_tail* t) {
  printf("{\"format\":\"labgate-probe-1\",\"probe\":\"pingpong\",\"role\":\"server\",\"status\":\"ok\",");
  printf("\"exit_reason\":\"%s\",\"parameters\":{\"proto\":\"%s\",\"bind\":", reason,
         cfg->udp ? "udp" : "tcp");
  lg_json_string(stdout, cfg->addr);
  printf(",\"peer\":");
  if (cfg->peer)
    lg_json_string(stdout, cfg->peer);
  else
    printf("null");
  printf(
      ",\"port\":%d,\"size\":%llu,\"cpu_asked\":%d,\"cpu_actual\":%d,\"cpu_actual_source\":\"%s\","
      "\"nodelay\":%s,\"busy_poll\":%s,\"idle_timeout_s\":%.3f,\"once\":%s,\"forensics\":%s},",
      port, cfg->size_given ? (unsigned long long)cfg->size : 0ull, cfg->cpu, cpu_actual, cpu_src,
      cfg->nodelay ? "true" : "false", cfg->busy_poll ? "true" : "false", (double)cfg->idle_timeout_ns / 1e9,
      cfg->once ? "true" : "false", cfg->forensics ? "true" : "false");
  printf(
      "\"counters\":{\"connections\":%llu,\"requests\":%llu,\"bytes\":%llu,\"size_mismatch\":%llu,"
      "\"refused\":%llu,\"foreign\":%llu},\"memory\":",
      (unsigned long long)st->connections, (unsigned long long)st->requests, (unsigned long long)st->bytes,
      (unsigned long long)st->size_mismatch, (unsigned long long)st->refused, peer->foreign);
  lg_json_memory(stdout);
  printf(",\"anchor\":");
  lg_anchor_write_json(&g_anchor, stdout);
  /* What the outliers' values time: from the request's arrival in the socket, or from its read. */
  printf(",\"turnaround_from\":\"%s\",\"arrival_stamps\":{\"stamped\":%llu,\"unstamped\":%llu}",
         t->stamped > 0 ? "arrival" : "read", (unsigned long long)t->stamped, (unsigned long long)t->unstamped);
  printf(",\"turnaround_outliers\":");
  lg_outliers_write_json(&t->outliers, stdout);
  printf(",\"outlier_sources\":");
  lg_moment_write_json(&t->moment, stdout);
  printf("}\n");
  fflush(stdout);
}

int pp_run_server(const pp_config* cfg) {
  lg_sockaddr addr;
  char err[256];
  int fd, port = 0, cpu_actual;
  const char* cpu_src = "none";
  const char* reason;
  server_stats st;
  static server_tail tail;
  lg_peer_filter peer;
  unsigned char* buf;
  memset(&st, 0, sizeof(st));
  lg_install_stop_handlers(&g_stop);
  if (lg_addr(cfg->addr, cfg->port, &addr) != 0)
    lg_usage_error("pingpong", "--bind: '%s' is not a numeric IPv4 or IPv6 address", cfg->addr);
  if (lg_peer_set(&peer, cfg->peer) != 0)
    lg_usage_error("pingpong", "--peer: '%s' is not a numeric IPv4 or IPv6 address", cfg->peer);
  if (cfg->cpu >= 0 && lg_pin_cpu(cfg->cpu) != 0) {
    fprintf(stderr, "pingpong server: cannot pin to CPU %d: %s\n", cfg->cpu, strerror(errno));
    return LG_EXIT_RUN;
  }
  cpu_actual = lg_current_cpu(&cpu_src);
  buf = (unsigned char*)malloc(PP_MAX_TCP_SIZE);
  if (buf == NULL || lg_outliers_init(&tail.outliers, cfg->worst, 0, 0) != 0) return LG_EXIT_RUN;
  if (cfg->forensics)
    lg_moment_init(&tail.moment, 1);
  else
    lg_moment_off(&tail.moment, "not available: --forensics off");
  lg_anchor_take(&g_anchor);
  fd = cfg->udp ? lg_bind_udp(&addr, &port, err, sizeof(err)) : lg_listen_tcp(&addr, &port, err, sizeof(err));
  if (fd >= 0 && lg_tune_socket(fd, !cfg->udp, &cfg->tune, err, sizeof(err)) != 0) {
    close(fd);
    fd = -1;
  }
  if (fd < 0) {
    fprintf(stderr, "pingpong server: %s\n", err);
    return LG_EXIT_RUN;
  }
  /* The harness waits for this line to learn the port (port 0 = any free one). */
  printf(
      "{\"format\":\"labgate-probe-1\",\"probe\":\"pingpong\",\"role\":\"server\",\"event\":\"listening\","
      "\"proto\":\"%s\",\"address\":",
      cfg->udp ? "udp" : "tcp");
  lg_json_string(stdout, cfg->addr);
  printf(",\"port\":%d}\n", port);
  fflush(stdout);
  reason = cfg->udp ? run_udp(cfg, fd, &peer, buf, &st, &tail) : run_tcp(cfg, fd, &peer, buf, &st, &tail);
  close(fd);
  print_summary(cfg, port, cpu_actual, cpu_src, reason, &st, &peer, &tail);
  free(buf);
  return LG_EXIT_OK;
}
