/* The stream server: one client session at a time (only from the --peer
 * address when given); swallows the payload and reports what arrived, until
 * nobody it serves has talked to it for --idle-timeout, or (--once) until its
 * first session is over. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lg_measure_util.h"
#include "lg_net.h"
#include "lg_net_peer.h"
#include "st.h"
#include "st_gaps.h"

#define ST_RECV_BUF (256u * 1024u)

typedef struct server {
  const st_config* cfg;
  int lfd, ufd, port, udp_port;
  unsigned char* buf;
  unsigned long long sessions, refused, stray;
  /** Its `foreign` counts reset connections and ignored datagrams. */
  lg_peer_filter peer;
  st_report all; /**< summed over every session, for the exit summary */
  st_gaps gaps;  /**< the worst receive gaps of every session's measured phase */
} server;

static volatile int g_stop;

static int send_report(int fd, const st_report* r, uint64_t deadline) {
  char line[ST_LINE_MAX];
  int n = snprintf(line, sizeof(line),
                   "REPORT datagrams=%llu bytes=%llu total_datagrams=%llu total_bytes=%llu "
                   "out_of_order=%llu\n",
                   r->datagrams, r->bytes, r->total_datagrams, r->total_bytes, r->out_of_order);
  return lg_write_full(fd, line, (size_t)n, deadline) == n ? 0 : -1;
}

/* TCP payload flows on the control connection until the client's EOF.
 * Returns 1 if the client went idle (time to exit), else 0. */
static int session_tcp(server* s, int fd, st_report* r) {
  for (;;) {
    ssize_t n = recv(fd, s->buf, ST_RECV_BUF, 0);
    if (n > 0) {
      r->total_bytes += (unsigned long long)n;
      st_gaps_tcp(&s->gaps, lg_now_ns(), (uint64_t)n);
      continue;
    }
    if (n == 0) break;
    if (errno == EINTR && !g_stop) continue;
    return (errno == EAGAIN || errno == EWOULDBLOCK) ? 1 : 0; /* SO_RCVTIMEO = idle timeout */
  }
  r->bytes = r->total_bytes;
  send_report(fd, r, lg_now_ns() + s->cfg->idle_timeout_ns);
  return 0;
}

/* Reads every datagram waiting on the UDP socket and counts this session's
 * (and times them into `gaps`, NULL for an earlier run's leftovers); returns
 * how many came from the peer (a stranger's are only counted foreign). */
static int drain_udp(server* s, uint32_t token, st_report* r, uint64_t* max_seq, st_gaps* gaps) {
  int from_peer = 0;
  for (;;) {
    uint64_t seq;
    uint32_t tok = 0;
    lg_sockaddr from;
    socklen_t flen = sizeof(from);
    ssize_t n = recvfrom(s->ufd, s->buf, ST_MAX_UDP_SIZE + 1, MSG_DONTWAIT, &from.sa, &flen);
    if (n < 0) return from_peer;
    if (!lg_peer_allows(&s->peer, &from)) continue;
    from_peer++;
    if (n >= ST_HDR) memcpy(&tok, s->buf + 12, 4);
    if (n < ST_HDR || tok != token) {
      s->stray++;
      continue;
    }
    memcpy(&seq, s->buf, 8);
    if (gaps != NULL) st_gaps_udp(gaps, lg_now_ns(), seq, s->buf[8] == 1);
    r->total_datagrams++;
    r->total_bytes += (unsigned long long)n;
    if (s->buf[8] == 1) {
      r->datagrams++;
      r->bytes += (unsigned long long)n;
    }
    if (seq + 1 < *max_seq)
      r->out_of_order++;
    else
      *max_seq = seq + 1;
  }
}

/* UDP payload arrives on the UDP socket; the control connection carries "END".
 * Returns 1 if the session went idle (time to exit), else 0. */
static int session_udp(server* s, int fd, uint32_t token, st_report* r) {
  uint64_t last = lg_now_ns(), max_seq = 0;
  while (!g_stop) {
    struct pollfd p[2];
    p[0].fd = s->ufd;
    p[1].fd = fd;
    p[0].events = p[1].events = POLLIN;
    p[0].revents = p[1].revents = 0;
    poll(p, 2, 100);
    /* Only the client's own datagrams (or its control line) are activity. */
    if (p[0].revents && drain_udp(s, token, r, &max_seq, &s->gaps) > 0) last = lg_now_ns();
    if (p[1].revents) {
      char line[ST_LINE_MAX];
      drain_udp(s, token, r, &max_seq, &s->gaps);
      if (lg_read_line(fd, line, sizeof(line), lg_now_ns() + s->cfg->idle_timeout_ns) > 0 &&
          strcmp(line, "END") == 0)
        send_report(fd, r, lg_now_ns() + s->cfg->idle_timeout_ns);
      return 0;
    }
    if (lg_now_ns() - last >= s->cfg->idle_timeout_ns) return 1;
  }
  return 0;
}

/* Returns 1 if the session ended by going idle. */
static int session(server* s, int fd) {
  char line[ST_LINE_MAX], proto[8], answer[64];
  unsigned version = 0, token = 0;
  unsigned long long size = 0, warmup_ns = 0;
  st_report r;
  int idle;
  memset(&r, 0, sizeof(r));
  lg_set_io_timeout(fd, s->cfg->idle_timeout_ns);
  /* Inherited from the listener on current kernels; set again for those that do not. */
  if (!s->cfg->udp && lg_tune_socket(fd, 1, &s->cfg->tune, line, sizeof(line)) != 0) {
    fprintf(stderr, "stream server: %s\n", line);
    return 0;
  }
  if (lg_read_line(fd, line, sizeof(line), lg_now_ns() + s->cfg->idle_timeout_ns) <= 0) return 0;
  /* The warm-up (5th field) is absent from an older client's hello: then every gap counts. */
  if (sscanf(line, "LGST %u %7s %llu %u %llu", &version, proto, &size, &token, &warmup_ns) < 4 ||
      version != ST_VERSION ||
      strcmp(proto, s->cfg->udp ? "udp" : "tcp") != 0 || size == 0 ||
      size > (s->cfg->udp ? ST_MAX_UDP_SIZE : ST_MAX_TCP_SIZE)) {
    snprintf(answer, sizeof(answer), "ERR this server serves stream version %d over %s\n", ST_VERSION,
             s->cfg->udp ? "udp" : "tcp");
    lg_write_full(fd, answer, strlen(answer), lg_now_ns() + s->cfg->idle_timeout_ns);
    s->refused++;
    return 0;
  }
  if (s->cfg->udp) { /* discard leftovers of an earlier run before the client starts */
    uint64_t ignored = 0;
    drain_udp(s, token ^ 0xffffffffu, &r, &ignored, NULL);
    memset(&r, 0, sizeof(r));
  }
  snprintf(answer, sizeof(answer), "OK %d\n", s->cfg->udp ? s->udp_port : 0);
  if (lg_write_full(fd, answer, strlen(answer), lg_now_ns() + s->cfg->idle_timeout_ns) < 0) return 0;
  s->sessions++;
  st_gaps_session(&s->gaps, s->cfg->udp ? s->ufd : fd, warmup_ns);
  idle = s->cfg->udp ? session_udp(s, fd, token, &r) : session_tcp(s, fd, &r);
  s->all.datagrams += r.datagrams;
  s->all.bytes += r.bytes;
  s->all.total_datagrams += r.total_datagrams;
  s->all.total_bytes += r.total_bytes;
  s->all.out_of_order += r.out_of_order;
  return idle;
}

/* Connections from anyone but the peer are reset by lg_accept_peer and do not
 * count as activity: a stranger cannot keep the server alive. */
static const char* serve(server* s) {
  uint64_t last = lg_now_ns();
  while (!g_stop) {
    int fd = lg_accept_peer(s->lfd, &s->peer, last + s->cfg->idle_timeout_ns);
    int idle;
    if (fd == -2) return "idle_timeout";
    if (fd < 0) continue; /* EINTR: re-check g_stop */
    idle = session(s, fd);
    close(fd);
    last = lg_now_ns();
    if (idle) return "idle_timeout";
    if (s->cfg->once) return "once"; /* the harness need not stop it: no second round trip */
  }
  return "signal";
}

static int open_sockets(server* s, const lg_sockaddr* addr) {
  char err[256];
  lg_sockaddr u = *addr;
  s->lfd = lg_listen_tcp(addr, &s->port, err, sizeof(err));
  if (s->lfd >= 0 && s->cfg->udp) {
    /* Same port number for UDP when free, so one firewall hole serves both. */
    lg_addr_set_port(&u, s->port);
    s->ufd = lg_bind_udp(&u, &s->udp_port, err, sizeof(err));
    if (s->ufd < 0 && s->cfg->port == 0) {
      lg_addr_set_port(&u, 0);
      s->ufd = lg_bind_udp(&u, &s->udp_port, err, sizeof(err));
    }
  }
  if (s->lfd >= 0 && lg_tune_socket(s->lfd, !s->cfg->udp, &s->cfg->tune, err, sizeof(err)) != 0) {
    close(s->lfd);
    s->lfd = -1;
  }
  if (s->cfg->udp && s->ufd >= 0 && lg_tune_socket(s->ufd, 0, &s->cfg->tune, err, sizeof(err)) != 0) {
    close(s->ufd);
    s->ufd = -1;
  }
  if (s->lfd < 0 || (s->cfg->udp && s->ufd < 0)) {
    fprintf(stderr, "stream server: %s\n", err);
    return -1;
  }
  return 0;
}

int st_run_server(const st_config* cfg) {
  lg_sockaddr addr;
  server s;
  const char* cpu_src = "none";
  const char* reason;
  int cpu_actual;
  memset(&s, 0, sizeof(s));
  s.cfg = cfg;
  s.ufd = -1;
  lg_install_stop_handlers(&g_stop);
  if (lg_addr(cfg->addr, cfg->port, &addr) != 0)
    lg_usage_error("stream", "--bind: '%s' is not a numeric IPv4 or IPv6 address", cfg->addr);
  if (lg_peer_set(&s.peer, cfg->peer) != 0)
    lg_usage_error("stream", "--peer: '%s' is not a numeric IPv4 or IPv6 address", cfg->peer);
  if (cfg->cpu >= 0 && lg_pin_cpu(cfg->cpu) != 0) {
    fprintf(stderr, "stream server: cannot pin to CPU %d: %s\n", cfg->cpu, strerror(errno));
    return LG_EXIT_RUN;
  }
  cpu_actual = lg_current_cpu(&cpu_src);
  s.buf = (unsigned char*)malloc(ST_RECV_BUF);
  if (s.buf == NULL || st_gaps_init(&s.gaps, cfg->udp, LG_OUTLIERS_WORST_DEFAULT) != 0 ||
      open_sockets(&s, &addr) != 0)
    return LG_EXIT_RUN;
  /* The harness waits for this line to learn the port (port 0 = any free one). */
  printf(
      "{\"format\":\"labgate-probe-1\",\"probe\":\"stream\",\"role\":\"server\",\"event\":\"listening\","
      "\"proto\":\"%s\",\"address\":",
      cfg->udp ? "udp" : "tcp");
  lg_json_string(stdout, cfg->addr);
  printf(",\"port\":%d,\"udp_port\":%d}\n", s.port, s.udp_port);
  fflush(stdout);
  reason = serve(&s);
  printf(
      "{\"format\":\"labgate-probe-1\",\"probe\":\"stream\",\"role\":\"server\",\"status\":\"ok\","
      "\"exit_reason\":\"%s\",\"parameters\":{\"proto\":\"%s\",\"bind\":",
      reason, cfg->udp ? "udp" : "tcp");
  lg_json_string(stdout, cfg->addr);
  printf(",\"peer\":");
  if (cfg->peer)
    lg_json_string(stdout, cfg->peer);
  else
    printf("null");
  printf(
      ",\"port\":%d,\"udp_port\":%d,\"cpu_asked\":%d,\"cpu_actual\":%d,\"cpu_actual_source\":\"%s\","
      "\"idle_timeout_s\":%.3f,\"once\":%s},\"counters\":{\"sessions\":%llu,\"refused\":%llu,"
      "\"foreign\":%llu,\"stray_datagrams\":%llu,"
      "\"datagrams\":%llu,\"bytes\":%llu,\"total_datagrams\":%llu,\"total_bytes\":%llu},\"memory\":",
      s.port, s.udp_port, cfg->cpu, cpu_actual, cpu_src, (double)cfg->idle_timeout_ns / 1e9,
      cfg->once ? "true" : "false", s.sessions, s.refused, s.peer.foreign, s.stray, s.all.datagrams,
      s.all.bytes, s.all.total_datagrams, s.all.total_bytes);
  lg_json_memory(stdout);
  st_gaps_write_json(&s.gaps, stdout);
  printf("}\n");
  fflush(stdout);
  st_gaps_free(&s.gaps);
  return LG_EXIT_OK;
}
