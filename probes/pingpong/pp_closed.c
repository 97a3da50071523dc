/* Closed-loop ping-pong (netperf TCP_RR/UDP_RR, sockperf ping-pong): one request
 * in flight; its round trip is timed from just before send() to just after the
 * reply's last byte is read. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "lg_measure_util.h"
#include "lg_net.h"
#include "pp.h"

/* TCP cannot lose a reply, so the only wait bound is the server timeout; a
 * reply that does not match its request means the stream is out of step. */
static int tcp_round_trip(pp_client* c, uint64_t seq, uint64_t t0, uint64_t* t1) {
  const pp_config* cfg = c->cfg;
  uint64_t deadline = t0 + cfg->server_timeout_ns;
  ssize_t r = lg_write_full(c->fd, c->tx, cfg->size, deadline);
  if (r == (ssize_t)cfg->size) r = lg_read_full(c->fd, c->rx, cfg->size, deadline, cfg->busy_poll);
  *t1 = lg_now_ns();
  if (r == -1 && errno == EINTR) return -1; /* the stop flag is set */
  if (r == 0) {
    pp_fail(c, "the server closed the connection (it exited or was killed)");
    return -1;
  }
  if (r == -2) {
    pp_fail(c, "no reply from the server for %.3f s (server stalled or gone)",
            (double)cfg->server_timeout_ns / 1e9);
    return -1;
  }
  if (r < 0) {
    pp_fail(c, "connection to the server failed: %s", strerror(errno));
    return -1;
  }
  if (cfg->size >= PP_HDR && pp_get_seq(c->rx) != seq) {
    pp_fail(c, "reply carries sequence %llu, request was %llu: the TCP stream is out of step",
            (unsigned long long)pp_get_seq(c->rx), (unsigned long long)seq);
    return -1;
  }
  return pp_book_reply(c, seq);
}

/* UDP: wait until the reply to `seq` or the receive timeout; stray replies (late,
 * duplicated, foreign) are booked on the way. Returns 1 on a round trip, 0 on a drop. */
static int udp_round_trip(pp_client* c, uint64_t seq, uint64_t t0, uint64_t* t1) {
  const pp_config* cfg = c->cfg;
  uint64_t deadline = t0 + cfg->recv_timeout_ns;
  int strays = 0;
  if (send(c->fd, c->tx, cfg->size, 0) < 0 && errno != EINTR) {
    pp_fail(c, "send to the server failed: %s", strerror(errno));
    return -1;
  }
  for (;;) {
    ssize_t n;
    /* After a stray reply the blocking recv's own timeout would restart; wait
     * on the remaining time instead. */
    if (strays && !cfg->busy_poll && lg_wait_fd(c->fd, POLLIN, deadline) == 0) break;
    n = recv(c->fd, c->rx, PP_MAX_UDP_SIZE + 1, (cfg->busy_poll || strays) ? MSG_DONTWAIT : 0);
    *t1 = lg_now_ns();
    if (n < 0) {
      if (errno == ECONNREFUSED) {
        pp_fail(c,
                "the server at %s:%d refused (ICMP port unreachable): no pingpong udp server there any more",
                cfg->addr, cfg->port);
        return -1;
      }
      if (errno == EINTR && c->stop) return -1;
      if (*t1 >= deadline) break;
      continue;
    }
    if ((uint64_t)n != cfg->size) {
      (c->t_measure_start ? &c->meas : &c->warm)->invalid++;
    } else {
      uint64_t got = pp_get_seq(c->rx);
      if (pp_book_reply(c, got) && got == seq) return 1;
    }
    strays = 1;
    if (*t1 >= deadline) break;
  }
  pp_seqwin_drop(&c->win, seq);
  pp_phase(c, seq)->dropped++;
  return 0;
}

void pp_run_closed(pp_client* c) {
  const pp_config* cfg = c->cfg;
  uint64_t now = lg_now_ns();
  uint64_t warmup_end = now + cfg->warmup_ns, end = UINT64_MAX;
  int measuring = 0;
  c->last_reply_ns = now;
  while (!c->stop) {
    uint64_t seq, t0, t1;
    int r;
    if (!measuring && now >= warmup_end) {
      measuring = 1;
      c->first_measured = c->win.next;
      c->t_measure_start = now;
      end = now + cfg->duration_ns;
      c->series_end = end;
      lg_series_start(&c->series, now);
    }
    if (now >= end) break;
    seq = pp_seqwin_send(&c->win);
    pp_phase(c, seq)->sent++;
    t0 = lg_now_ns();
    if (cfg->size >= PP_HDR) pp_put_hdr(c->tx, seq, t0);
    r = cfg->udp ? udp_round_trip(c, seq, t0, &t1) : tcp_round_trip(c, seq, t0, &t1);
    if (r < 0) break;
    if (r == 1) pp_book_rtt(c, seq, t1 - t0, t1);
    if (t1 - c->last_reply_ns > cfg->server_timeout_ns)
      pp_fail(c, "no reply from the server for %.3f s (server stalled or gone)",
              (double)cfg->server_timeout_ns / 1e9);
    now = t1;
  }
  c->t_measure_end = measuring ? now : 0;
  if (measuring) lg_series_finish(&c->series, now < end ? now : end);
}
