/* The mcast probe's publisher: sends the feed on a fixed schedule to the group
 * (out of the test interface, with the asked TTL, not looped back), reads the
 * subscribers' unicast replies between sends and books each (mc_book.c): the
 * round trip, from the message's scheduled send time, in that subscriber's
 * histogram, and the one-way delay to it from the reply's receive stamp. All
 * memory (per named subscriber: a round-trip and a one-way histogram) is taken
 * before the first send. Every message due is sent in one sendmmsg (more than
 * one only when behind the schedule), and the replies are read in batches, each
 * stamped by the kernel on arrival (mc_io.h): so the replies need not be read
 * between every two sends, and a wait shorter than MC_SPIN_NS spins on the
 * clock alone, not on a system call. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "labgate/stats/hist_core.h"
#include "lg_measure_util.h"
#include "lg_net.h"
#include "mc.h"
#include "mc_book.h"
#include "mc_io.h"

/* Below this much time to the next send the loop spins instead of sleeping in
 * poll(), whose millisecond granularity would delay sends. */
#define MC_SPIN_NS 2000000ull
/* How far past the schedule's end a publisher behind its rate may still send. */
#define MC_BEHIND_NS 100000000ull
/* While sending, the replies are read at least this often: with the kernel's
 * stamps their round trips do not depend on it, only the socket's backlog does. */
#define MC_READ_EVERY_NS 200000ull
/* At most this many bytes of messages in one sendmmsg (and its buffer). */
#define MC_TX_BYTES 262144u

typedef struct mc_pub {
  const mc_config* cfg;
  int fd;
  unsigned char* tx; /**< tx_slots messages of cfg->size bytes, one sendmmsg's */
  int tx_slots, tx_batched;
  uint64_t batches, last_read_ns;
  mc_rx rx;
  mc_sub_stats subs[MC_MAX_SUBSCRIBERS];
  lg_anchor anchor; /**< the publisher's monotonic -> realtime tie, for the one-way stores */
  uint64_t sent, warmup_sent, send_errors, foreign;
  mc_sched sc;
} mc_pub;

static mc_sub_stats* find_sub(mc_pub* p, const lg_sockaddr* from) {
  int i;
  for (i = 0; i < p->cfg->n_subscribers; ++i)
    if (lg_addr_same_host(&p->subs[i].addr, from)) return &p->subs[i];
  return NULL;
}

/* Reads every reply that has arrived; each booked at its own arrival (the
 * kernel's realtime stamp, back to monotonic through the anchor). */
static void read_replies(mc_pub* p) {
  int i, n;
  p->last_read_ns = lg_now_ns();
  while ((n = mc_rx_read(&p->rx, &p->anchor)) > 0) {
    for (i = 0; i < n; ++i) {
      mc_sub_stats* s = find_sub(p, &p->rx.from[i]);
      uint64_t t4 = (uint64_t)((int64_t)p->rx.real_ns[i] - p->anchor.delta_ns);
      if (s == NULL) {
        p->foreign++;
        continue;
      }
      mc_book_reply(s, &p->sc, &p->anchor, p->rx.buf[i], (long)p->rx.msg[i].msg_len, t4);
    }
  }
  /* n < 0: an ICMP error of a subscriber gone: nothing to book */
}

/* Sends messages seq .. seq + n - 1, each stamped with its own scheduled time. */
static void send_msgs(mc_pub* p, const lg_sockaddr* group, uint64_t seq, int n, uint32_t flags) {
  int i;
  for (i = 0; i < n; ++i) {
    mc_hdr h;
    h.flags = flags;
    h.seq = seq + (uint64_t)i;
    h.ts = flags & MC_FLAG_END ? lg_now_ns() : mc_sched_at(&p->sc, seq + (uint64_t)i);
    h.first_measured = p->sc.first_measured;
    mc_put_hdr(p->tx + (size_t)i * p->cfg->size, "LGMC", &h);
  }
  /* A local EAGAIN loses the message: the subscribers count it lost. */
  p->send_errors += (uint64_t)mc_send_all(p->fd, group, p->tx, n, (size_t)p->cfg->size, &p->tx_batched);
  p->batches++;
}

/* Opens the sending socket: bound to the interface address (the replies come
 * back to it), multicast out of that interface, TTL as asked, no loopback. */
static int open_socket(const mc_config* cfg, char* err, size_t errlen) {
  lg_sockaddr local;
  struct in_addr ifaddr;
  unsigned char ttl = (unsigned char)cfg->ttl, loop = 0;
  int port = 0, fd;
  if (lg_addr(cfg->bind, 0, &local) != 0 || local.sa.sa_family != AF_INET) {
    snprintf(err, errlen, "--bind %s is not an IPv4 address", cfg->bind);
    return -1;
  }
  fd = lg_bind_udp(&local, &port, err, errlen);
  if (fd < 0) return -1;
  ifaddr = local.in4.sin_addr;
  if (lg_tune_socket(fd, 0, &cfg->tune, err, errlen) != 0) {
    close(fd);
    return -1;
  }
  if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &ifaddr, sizeof(ifaddr)) != 0 ||
      setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof(ttl)) != 0 ||
      setsockopt(fd, IPPROTO_IP, IP_MULTICAST_LOOP, &loop, sizeof(loop)) != 0) {
    snprintf(err, errlen, "multicast options on %s: %s", cfg->bind, strerror(errno));
    close(fd);
    return -1;
  }
  return fd;
}

static void write_result(mc_pub* p, uint64_t planned, uint64_t t_start, uint64_t t_end, double timer_cost) {
  const mc_config* c = p->cfg;
  char tuned[160];
  int i;
  lg_describe_tuning(p->fd, 0, &c->tune, tuned, sizeof(tuned));
  printf(
      "{\"format\":\"labgate-probe-1\",\"probe\":\"mcast\",\"role\":\"publisher\",\"kind\":\"udp_multicast\","
      "\"status\":\"ok\",\"metric\":\"round_trip\",\"parameters\":{\"group\":");
  lg_json_string(stdout, c->group);
  printf(",\"port\":%d,\"bind\":", c->port);
  lg_json_string(stdout, c->bind);
  printf(
      ",\"size\":%llu,\"ttl\":%d,\"rate_per_s\":%.3f,\"duration_s\":%.6f,\"warmup_s\":%.6f,\"reply_every\":%"
      "llu},",
      (unsigned long long)c->size, c->ttl, c->rate, (double)c->duration_ns / 1e9, (double)c->warmup_ns / 1e9,
      (unsigned long long)c->reply_every);
  printf(
      "\"counters\":{\"measured\":{\"sent\":%llu,\"not_sent\":%llu},\"warmup\":{\"sent\":%llu},"
      "\"send_errors\":%llu,\"foreign\":%llu,\"send_calls\":%llu},\"batched_sends\":%s,"
      "\"receive_stamps\":\"%s\"%s,",
      (unsigned long long)p->sent, (unsigned long long)(planned - p->sc.total),
      (unsigned long long)p->warmup_sent, (unsigned long long)p->send_errors, (unsigned long long)p->foreign,
      (unsigned long long)p->batches, p->tx_batched ? "true" : "false", mc_stamp_name(p->rx.stamps), tuned);
  printf("\"warmup_excluded_s\":%.6f,\"duration_s\":%.6f,\"clock\":", (double)c->warmup_ns / 1e9,
         (double)(t_end - t_start) / 1e9);
  lg_json_clock(stdout, timer_cost);
  printf(",\"subscribers\":[");
  for (i = 0; i < c->n_subscribers; ++i) {
    const mc_sub_stats* s = &p->subs[i];
    /* Replies asked for: the measured messages whose number is a multiple of reply_every. */
    uint64_t expected = p->sc.total <= p->sc.first_measured
                            ? 0
                            : (p->sc.total + c->reply_every - 1) / c->reply_every -
                                  (p->sc.first_measured + c->reply_every - 1) / c->reply_every;
    printf("%s{\"address\":", i ? "," : "");
    lg_json_string(stdout, c->subscribers[i]);
    printf(
        ",\"replies\":%llu,\"replies_expected\":%llu,\"warmup_replies\":%llu,\"duplicated\":%llu,"
        "\"invalid\":%llu,\"histogram\":",
        (unsigned long long)s->replies, (unsigned long long)expected, (unsigned long long)s->warmup_replies,
        (unsigned long long)s->duplicated, (unsigned long long)s->invalid);
    lg_hist_write_json(s->hist, stdout);
    /* One-way publisher->subscriber, from the stamped replies only (1 in reply_every). */
    printf(",\"one_way\":");
    lg_ow_write_json(&s->ow, &p->anchor, stdout);
    printf("}");
  }
  printf("],\"memory\":");
  lg_json_memory(stdout);
  printf("}\n");
  fflush(stdout);
}

int mc_run_publisher(const mc_config* cfg) {
  static mc_pub p; /* large (a receive buffer): not on the stack */
  lg_sockaddr group;
  char err[256];
  double timer_cost;
  uint64_t seq = 0, t_start, t_end, deadline, planned;
  volatile int stop = 0;
  int i;
  memset(&p, 0, sizeof(p));
  p.cfg = cfg;
  if (lg_addr(cfg->group, cfg->port, &group) != 0)
    lg_usage_error("mcast", "--group %s is not an address", cfg->group);
  for (i = 0; i < cfg->n_subscribers; ++i) {
    if (lg_addr(cfg->subscribers[i], 0, &p.subs[i].addr) != 0)
      lg_usage_error("mcast", "--subscriber %s is not a numeric address", cfg->subscribers[i]);
    if (mc_sub_stats_init(&p.subs[i]) != 0) {
      fprintf(stderr, "mcast: out of memory for subscriber histograms\n");
      return LG_EXIT_RUN;
    }
  }
  lg_anchor_take(&p.anchor);
  p.tx_slots = (int)(MC_TX_BYTES / cfg->size);
  if (p.tx_slots < 1) p.tx_slots = 1;
  if (p.tx_slots > MC_BATCH) p.tx_slots = MC_BATCH;
  p.tx_batched = 1;
  p.tx = (unsigned char*)calloc((size_t)p.tx_slots, (size_t)cfg->size);
  if (p.tx == NULL) return LG_EXIT_RUN;
  lg_prefault(p.tx, (size_t)p.tx_slots * (size_t)cfg->size);
  p.fd = open_socket(cfg, err, sizeof(err));
  if (p.fd < 0) {
    printf(
        "{\"format\":\"labgate-probe-1\",\"probe\":\"mcast\",\"role\":\"publisher\",\"status\":\"error\","
        "\"error\":");
    lg_json_string(stdout, err);
    printf("}\n");
    fprintf(stderr, "mcast: %s\n", err);
    return LG_EXIT_RUN;
  }
  mc_rx_init(&p.rx, p.fd);
  lg_install_stop_handlers(&stop);
  lg_arm_deadline("mcast",
                  (unsigned)((cfg->warmup_ns + cfg->duration_ns + cfg->linger_ns) / 1000000000ull) + 10);
  timer_cost = lg_timer_cost_ns();
  p.sc.period_ns = 1e9 / cfg->rate;
  p.sc.first_measured = (uint64_t)((double)cfg->warmup_ns / p.sc.period_ns + 0.999999);
  p.sc.total = p.sc.first_measured + (uint64_t)((double)cfg->duration_ns / p.sc.period_ns + 0.5);
  if (p.sc.total == p.sc.first_measured) p.sc.total++;
  p.sc.base = lg_now_ns();
  t_start = p.sc.base + cfg->warmup_ns;
  planned = p.sc.total;
  while (seq < p.sc.total && !stop) {
    uint64_t now = lg_now_ns(), due = mc_sched_at(&p.sc, seq);
    /* A publisher that cannot keep the rate stops at the schedule's end (plus a
     * margin) instead of sending late for ever: what it did not send is counted. */
    if (now > mc_sched_at(&p.sc, p.sc.total) + MC_BEHIND_NS) break;
    if (due <= now) {
      /* Every message due by now, in one send: one message on schedule, more
       * only behind it. Each carries its own scheduled time. */
      int n = 1, k;
      while (n < p.tx_slots && seq + (uint64_t)n < p.sc.total && mc_sched_at(&p.sc, seq + (uint64_t)n) <= now) ++n;
      send_msgs(&p, &group, seq, n, 0);
      for (k = 0; k < n; ++k)
        if (seq + (uint64_t)k < p.sc.first_measured)
          p.warmup_sent++;
        else
          p.sent++;
      seq += (uint64_t)n;
      /* Behind its schedule the loop only sends: the replies are still read now
       * and then, or the socket would fill with the oldest and drop the rest. */
      if (now - p.last_read_ns >= MC_READ_EVERY_NS) read_replies(&p);
      continue;
    }
    if (due - now > MC_SPIN_NS) {
      struct pollfd pfd = {p.fd, POLLIN, 0};
      poll(&pfd, 1, (int)((due - now - MC_SPIN_NS / 2) / 1000000ull));
      read_replies(&p);
    } else if (p.rx.stamps == MC_STAMP_USER || now - p.last_read_ns >= MC_READ_EVERY_NS) {
      /* Stamped by the kernel, a reply's round trip does not wait on this read;
       * stamped here, it does: then every turn of the loop reads, as before. */
      read_replies(&p);
    }
  }
  t_end = lg_now_ns();
  /* The end marker: its number is the count sent, so trailing losses are counted. */
  for (i = 0; i < MC_END_COPIES; ++i) {
    send_msgs(&p, &group, seq, 1, MC_FLAG_END);
    read_replies(&p);
  }
  p.sc.total = seq;
  deadline = lg_now_ns() + cfg->linger_ns;
  while (!stop && lg_wait_fd(p.fd, POLLIN, deadline) > 0) read_replies(&p);
  write_result(&p, planned, t_start, t_end, timer_cost);
  close(p.fd);
  for (i = 0; i < cfg->n_subscribers; ++i) mc_sub_stats_free(&p.subs[i]);
  free(p.tx);
  return LG_EXIT_OK;
}
