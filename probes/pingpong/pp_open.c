/* Open-loop ping-pong: requests leave on a fixed schedule (--rate) whatever the
 * replies do, and each round trip is measured from the request's SCHEDULED send
 * time. A stall then shows as a run of slow round trips instead of one (the
 * coordinated-omission correction). Replies are matched to requests by the
 * sequence number they echo; TCP replies arrive in request order, UDP ones may
 * not. A UDP reply later than --recv-timeout is a drop; TCP cannot lose one, so
 * there only --server-timeout bounds the wait. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "lg_measure_util.h"
#include "lg_net.h"
#include "pp.h"

/* Below this much time to the next event the loop spins instead of sleeping in
 * poll(), whose millisecond granularity would delay sends. */
#define PP_SPIN_NS 2000000ull

typedef struct open_state {
  double period_ns;
  uint64_t base;  /**< schedule origin: request k is due at base + k * period */
  uint64_t total; /**< requests to send, warm-up included */
  int tx_pending; /**< TCP: the current request is not fully written yet */
  size_t tx_off, rx_off;
} open_state;

static uint64_t sched(const open_state* o, uint64_t seq) {
  return o->base + (uint64_t)((double)seq * o->period_ns);
}

/* Sends every request that is due; returns -1 on a fatal error. */
static int send_due(pp_client* c, open_state* o, uint64_t now) {
  const pp_config* cfg = c->cfg;
  for (;;) {
    uint64_t seq;
    if (o->tx_pending) {
      ssize_t r = send(c->fd, c->tx + o->tx_off, cfg->size - o->tx_off, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (r < 0 && errno != EAGAIN && errno != EINTR) {
        pp_fail(c, "send to the server failed: %s", strerror(errno));
        return -1;
      }
      if (r > 0) o->tx_off += (size_t)r;
      if (o->tx_off < cfg->size) return 0; /* socket buffer full: the server is behind */
      o->tx_pending = 0;
    }
    /* A full window holds later requests back; their wait counts in their latency. */
    if (c->win.next >= o->total || sched(o, c->win.next) > now || !pp_seqwin_can_send(&c->win)) return 0;
    seq = pp_seqwin_send(&c->win);
    pp_phase(c, seq)->sent++;
    pp_put_hdr(c->tx, seq, sched(o, seq));
    if (cfg->udp) {
      /* A local EAGAIN loses the datagram; it is then booked as a drop. */
      if (send(c->fd, c->tx, cfg->size, MSG_DONTWAIT) < 0 && errno != EAGAIN && errno != EINTR) {
        pp_fail(c, "send to the server failed: %s%s", strerror(errno),
                errno == ECONNREFUSED ? " (ICMP port unreachable: no pingpong udp server there)" : "");
        return -1;
      }
    } else {
      o->tx_pending = 1;
      o->tx_off = 0;
    }
  }
}

static void book(pp_client* c, open_state* o, uint64_t seq, uint64_t t1) {
  if (pp_book_reply(c, seq)) pp_book_rtt(c, seq, t1 - sched(o, seq), t1);
}

/* Reads every reply that has arrived; returns -1 on a fatal error. */
static int receive_ready(pp_client* c, open_state* o) {
  const pp_config* cfg = c->cfg;
  for (;;) {
    ssize_t n;
    uint64_t t1, expected;
    if (cfg->udp) {
      n = recv(c->fd, c->rx, PP_MAX_UDP_SIZE + 1, MSG_DONTWAIT);
    } else {
      n = recv(c->fd, c->rx + o->rx_off, cfg->size - o->rx_off, MSG_DONTWAIT);
      if (n == 0) {
        pp_fail(c, "the server closed the connection (it exited or was killed)");
        return -1;
      }
    }
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return 0;
      pp_fail(c, "receive from the server failed: %s%s", strerror(errno),
              errno == ECONNREFUSED ? " (ICMP port unreachable: no pingpong server there any more)" : "");
      return -1;
    }
    t1 = lg_now_ns();
    if (cfg->udp) {
      if ((uint64_t)n != cfg->size)
        c->meas.invalid++;
      else
        book(c, o, pp_get_seq(c->rx), t1);
      continue;
    }
    o->rx_off += (size_t)n;
    if (o->rx_off < cfg->size) continue;
    o->rx_off = 0;
    /* A reply with no request outstanding has no expected sequence to name. */
    if (!pp_seqwin_oldest(&c->win, &expected)) {
      pp_fail(c, "reply carries sequence %llu, but no request is outstanding: the TCP stream is out of step",
              (unsigned long long)pp_get_seq(c->rx));
      return -1;
    }
    if (pp_get_seq(c->rx) != expected) {
      pp_fail(c, "reply carries sequence %llu, expected %llu: the TCP stream is out of step",
              (unsigned long long)pp_get_seq(c->rx), (unsigned long long)expected);
      return -1;
    }
    book(c, o, expected, t1);
  }
}

/* UDP requests whose receive timeout passed become drops. */
static void expire(pp_client* c, open_state* o, uint64_t now) {
  uint64_t seq;
  if (!c->cfg->udp) return;
  while (pp_seqwin_oldest(&c->win, &seq) && now >= sched(o, seq) + c->cfg->recv_timeout_ns) {
    pp_seqwin_drop(&c->win, seq);
    pp_phase(c, seq)->dropped++;
  }
}

/* Sleeps in poll() when the next event is far enough away, else returns to spin. */
static void wait_next(pp_client* c, open_state* o, uint64_t now) {
  uint64_t next = UINT64_MAX, oldest;
  if (c->cfg->busy_poll || o->tx_pending) return;
  if (c->win.next < o->total && pp_seqwin_can_send(&c->win)) next = sched(o, c->win.next);
  if (pp_seqwin_oldest(&c->win, &oldest)) {
    uint64_t limit = c->cfg->udp ? c->cfg->recv_timeout_ns : c->cfg->server_timeout_ns;
    if (sched(o, oldest) + limit < next) next = sched(o, oldest) + limit;
  }
  if (next > now + PP_SPIN_NS) lg_wait_fd(c->fd, POLLIN, next - PP_SPIN_NS / 2);
}

void pp_run_open(pp_client* c) {
  const pp_config* cfg = c->cfg;
  open_state o;
  uint64_t now, oldest, sched_end;
  memset(&o, 0, sizeof(o));
  o.period_ns = 1e9 / cfg->rate;
  o.base = lg_now_ns();
  c->first_measured = (uint64_t)ceil((double)cfg->warmup_ns / o.period_ns);
  o.total = (uint64_t)ceil((double)(cfg->warmup_ns + cfg->duration_ns) / o.period_ns);
  c->t_measure_start = o.base + cfg->warmup_ns;
  sched_end = c->t_measure_start + cfg->duration_ns;
  c->series_end = sched_end;
  c->last_reply_ns = o.base;
  lg_series_start(&c->series, c->t_measure_start);
  lg_set_nonblocking(c->fd, 1);
  while (!c->stop) {
    now = lg_now_ns();
    if (send_due(c, &o, now) < 0 || receive_ready(c, &o) < 0) break;
    now = lg_now_ns();
    expire(c, &o, now);
    if (c->win.next >= o.total && !o.tx_pending && !pp_seqwin_oldest(&c->win, &oldest)) break;
    if (pp_seqwin_oldest(&c->win, &oldest)) {
      uint64_t since = c->last_reply_ns > sched(&o, oldest) ? c->last_reply_ns : sched(&o, oldest);
      if (now > since + cfg->server_timeout_ns) {
        pp_fail(c, "no reply from the server for %.3f s (server stalled or gone)",
                (double)cfg->server_timeout_ns / 1e9);
        break;
      }
    }
    wait_next(c, &o, now);
  }
  now = lg_now_ns();
  /* The measured window is the schedule's, unless the run was cut short. */
  c->t_measure_end = (c->stop && now < sched_end) ? now : sched_end;
  lg_series_finish(&c->series, c->t_measure_end);
}
