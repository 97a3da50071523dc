/* The mcast probe's publisher: sends the feed on a fixed schedule to the group
 * (out of the test interface, with the asked TTL, not looped back), reads the
 * subscribers' unicast replies between sends and books each round trip, from
 * the message's scheduled send time, in that subscriber's histogram. All memory
 * (one histogram per named subscriber) is taken before the first send. */
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

/* Below this much time to the next send the loop spins instead of sleeping in
 * poll(), whose millisecond granularity would delay sends. */
#define MC_SPIN_NS 2000000ull
/* How far past the schedule's end a publisher behind its rate may still send. */
#define MC_BEHIND_NS 100000000ull

typedef struct mc_sub_stats {
  lg_sockaddr addr;
  lg_hist* hist; /**< measured round trips, ns */
  uint64_t replies, warmup_replies, duplicated, invalid;
  uint64_t last_seq_plus1; /**< a reply to the same message as the one before is a duplicate */
} mc_sub_stats;

typedef struct mc_pub {
  const mc_config* cfg;
  int fd;
  unsigned char* tx;
  unsigned char rx[MC_MAX_SIZE + 1];
  mc_sub_stats subs[MC_MAX_SUBSCRIBERS];
  uint64_t sent, warmup_sent, send_errors, foreign;
  uint64_t first_measured, total;
  double period_ns;
  uint64_t base;
} mc_pub;

static uint64_t sched(const mc_pub* p, uint64_t seq) {
  return p->base + (uint64_t)((double)seq * p->period_ns);
}

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
    mc_hdr h;
    mc_sub_stats* s;
    ssize_t n = recvfrom(p->fd, p->rx, sizeof(p->rx), MSG_DONTWAIT, &from.sa, &flen);
    uint64_t t1 = lg_now_ns();
    if (n < 0) return; /* EAGAIN, or an ICMP error of a subscriber gone: nothing to book */
    s = find_sub(p, &from);
    if (s == NULL) {
      p->foreign++;
      continue;
    }
    if (mc_get_hdr(p->rx, (long)n, "LGMR", MC_REPLY_LEN, &h) != 0 || h.seq >= p->total) {
      s->invalid++;
      continue;
    }
    if (h.seq + 1 == s->last_seq_plus1) {
      s->duplicated++;
      continue;
    }
    s->last_seq_plus1 = h.seq + 1;
    if (h.seq < p->first_measured) {
      s->warmup_replies++;
      continue;
    }
    s->replies++;
    lg_hist_record(s->hist, t1 - sched(p, h.seq));
  }
}

static void send_msg(mc_pub* p, const lg_sockaddr* group, uint64_t seq, uint32_t flags, uint64_t ts) {
  mc_hdr h;
  h.flags = flags;
  h.seq = seq;
  h.ts = ts;
  h.first_measured = p->first_measured;
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
      (unsigned long long)p->sent, (unsigned long long)(planned - p->total),
      (unsigned long long)p->warmup_sent, (unsigned long long)p->send_errors, (unsigned long long)p->foreign);
  printf("\"warmup_excluded_s\":%.6f,\"duration_s\":%.6f,\"clock\":", (double)c->warmup_ns / 1e9,
         (double)(t_end - t_start) / 1e9);
  lg_json_clock(stdout, timer_cost);
  printf(",\"subscribers\":[");
  for (i = 0; i < c->n_subscribers; ++i) {
    const mc_sub_stats* s = &p->subs[i];
    /* Replies asked for: the measured messages whose number is a multiple of reply_every. */
    uint64_t expected = p->total <= p->first_measured
                            ? 0
                            : (p->total + c->reply_every - 1) / c->reply_every -
                                  (p->first_measured + c->reply_every - 1) / c->reply_every;
    printf("%s{\"address\":", i ? "," : "");
    lg_json_string(stdout, c->subscribers[i]);
    printf(
        ",\"replies\":%llu,\"replies_expected\":%llu,\"warmup_replies\":%llu,\"duplicated\":%llu,"
        "\"invalid\":%llu,\"histogram\":",
        (unsigned long long)s->replies, (unsigned long long)expected, (unsigned long long)s->warmup_replies,
        (unsigned long long)s->duplicated, (unsigned long long)s->invalid);
    lg_hist_write_json(s->hist, stdout);
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
    p.subs[i].hist = (lg_hist*)malloc(sizeof(lg_hist));
    if (p.subs[i].hist == NULL) {
      fprintf(stderr, "mcast: out of memory for subscriber histograms\n");
      return LG_EXIT_RUN;
    }
    lg_hist_reset(p.subs[i].hist);
    lg_prefault(p.subs[i].hist, sizeof(lg_hist));
  }
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
  p.period_ns = 1e9 / cfg->rate;
  p.first_measured = (uint64_t)((double)cfg->warmup_ns / p.period_ns + 0.999999);
  p.total = p.first_measured + (uint64_t)((double)cfg->duration_ns / p.period_ns + 0.5);
  if (p.total == p.first_measured) p.total++;
  p.base = lg_now_ns();
  t_start = p.base + cfg->warmup_ns;
  planned = p.total;
  while (seq < p.total && !stop) {
    uint64_t now = lg_now_ns(), due = sched(&p, seq);
    /* A publisher that cannot keep the rate stops at the schedule's end (plus a
     * margin) instead of sending late for ever: what it did not send is counted. */
    if (now > sched(&p, p.total) + MC_BEHIND_NS) break;
    if (due <= now) {
      send_msg(&p, &group, seq, 0, due);
      if (seq < p.first_measured)
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
  p.total = seq;
  deadline = lg_now_ns() + cfg->linger_ns;
  while (!stop && lg_wait_fd(p.fd, POLLIN, deadline) > 0) read_replies(&p);
  write_result(&p, planned, t_start, t_end, timer_cost);
  close(p.fd);
  for (i = 0; i < cfg->n_subscribers; ++i) free(p.subs[i].hist);
  free(p.tx);
  return LG_EXIT_OK;
}
