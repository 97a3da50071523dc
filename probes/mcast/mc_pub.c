/* The mcast probe's publisher: sends the feed on a fixed schedule to the group
 * (out of the test interface, with the asked TTL, not looped back), reads the
 * subscribers' unicast replies between sends and books each (mc_book.c): the
 * round trip, from the message's scheduled send time, in that subscriber's
 * histogram, and the one-way delay to it from the reply's receive stamp. All
 * memory (per named subscriber: a round-trip and a one-way histogram) is taken
 * before the first send. */
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

/* Below this much time to the next send the loop spins instead of sleeping in
 * poll(), whose millisecond granularity would delay sends. */
#define MC_SPIN_NS 2000000ull
/* How far past the schedule's end a publisher behind its rate may still send. */
#define MC_BEHIND_NS 100000000ull

typedef struct mc_pub {
  const mc_config* cfg;
  int fd;
  unsigned char* tx;
  unsigned char rx[MC_MAX_SIZE + 1];
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

/* Reads every reply that has arrived. */
static void read_replies(mc_pub* p) {
  for (;;) {
    lg_sockaddr from;
    socklen_t flen = sizeof(from);
    mc_sub_stats* s;
    ssize_t n = recvfrom(p->fd, p->rx, sizeof(p->rx), MSG_DONTWAIT, &from.sa, &flen);
    uint64_t t4 = lg_now_ns();
    if (n < 0) return; /* EAGAIN, or an ICMP error of a subscriber gone: nothing to book */
    s = find_sub(p, &from);
    if (s == NULL) {
      p->foreign++;
      continue;
    }
    mc_book_reply(s, &p->sc, &p->anchor, p->rx, (long)n, t4);
  }
}

static void send_msg(mc_pub* p, const lg_sockaddr* group, uint64_t seq, uint32_t flags, uint64_t ts) {
  mc_hdr h;
  h.flags = flags;
  h.seq = seq;
  h.ts = ts;
  h.first_measured = p->sc.first_measured;
  mc_put_hdr(p->tx, "LGMC", &h);
  /* A local EAGAIN loses the message: the subscribers count it lost. */
  if (sendto(p->fd, p->tx, p->cfg->size, MSG_DONTWAIT, &group->sa, lg_addr_len(group)) < 0) p->send_errors++;
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
  int i;
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
      "\"send_errors\":%llu,\"foreign\":%llu},",
      (unsigned long long)p->sent, (unsigned long long)(planned - p->sc.total),
      (unsigned long long)p->warmup_sent, (unsigned long long)p->send_errors, (unsigned long long)p->foreign);
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
  p.tx = (unsigned char*)calloc(1, (size_t)cfg->size);
  if (p.tx == NULL) return LG_EXIT_RUN;
  lg_prefault(p.tx, (size_t)cfg->size);
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
      send_msg(&p, &group, seq, 0, due);
      if (seq < p.sc.first_measured)
        p.warmup_sent++;
      else
        p.sent++;
      ++seq;
      /* Behind its schedule the loop only sends: the replies are still read now
       * and then, or the socket would fill with the oldest and drop the rest. */
      if ((seq & 63) == 0) read_replies(&p);
      continue;
    }
    if (due - now > MC_SPIN_NS) {
      struct pollfd pfd = {p.fd, POLLIN, 0};
      poll(&pfd, 1, (int)((due - now - MC_SPIN_NS / 2) / 1000000ull));
    }
    read_replies(&p);
  }
  t_end = lg_now_ns();
  /* The end marker: its number is the count sent, so trailing losses are counted. */
  for (i = 0; i < MC_END_COPIES; ++i) {
    send_msg(&p, &group, seq, MC_FLAG_END, lg_now_ns());
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
