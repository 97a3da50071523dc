/* The mcast probe's subscriber: joins the group on the test interface (any
 * source, or the one SSM source), says so on one line, then reads the feed,
 * books every message in its own accounting (mc_track) and answers 1 in
 * --reply-every by unicast, from its test address, to the publisher. Ends at
 * the publisher's end marker, after --idle-timeout without a message, or on a
 * signal, and prints what it counted. The feed is read in batches (mc_io.h),
 * each message with the kernel's own receive stamp. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lg_anchor.h"
#include "lg_measure_util.h"
#include "lg_net.h"
#include "mc.h"
#include "mc_io.h"
#include "mc_track.h"

/* 2^16 sequence numbers of reordering are told from loss; older is too late. */
#define MC_TRACK_BITS 16

typedef struct mc_sub {
  const mc_config* cfg;
  int fd, reply_fd;
  mc_rx rx;
  mc_track track;
  int tracking;
  uint64_t total; /**< messages the publisher sent (from its end marker); 0 = not seen */
  lg_anchor anchor; /**< monotonic -> realtime: the replies' receive stamps (one add each) */
  uint64_t replies_sent, reply_errors, invalid, foreign_source;
  const char* exit_reason;
} mc_sub;

static void print_header(const mc_config* c, const char* status) {
  printf("{\"format\":\"labgate-probe-1\",\"probe\":\"mcast\",\"role\":\"subscriber\",\"status\":\"%s\",",
         status);
  printf("\"parameters\":{\"group\":");
  lg_json_string(stdout, c->group);
  printf(",\"port\":%d,\"bind\":", c->port);
  lg_json_string(stdout, c->bind);
  printf(",\"source\":");
  if (c->source)
    lg_json_string(stdout, c->source);
  else
    printf("null");
  printf(",\"reply_every\":%llu}", (unsigned long long)c->reply_every);
}

static int fail(const mc_config* c, const char* fmt, const char* a, const char* b) {
  char err[320];
  snprintf(err, sizeof(err), fmt, a, b);
  print_header(c, "error");
  printf(",\"error\":");
  lg_json_string(stdout, err);
  printf("}\n");
  fflush(stdout);
  fprintf(stderr, "mcast: %s\n", err);
  return LG_EXIT_RUN;
}

/* Binds the group's port on the group address (only that group's datagrams
 * arrive) and joins it on the interface that has `bind`. */
static int join(mc_sub* s, char* err, size_t errlen) {
  const mc_config* c = s->cfg;
  lg_sockaddr g, ifa, src;
  int one = 1, port = c->port;
  if (lg_addr(c->group, c->port, &g) != 0 || g.sa.sa_family != AF_INET) {
    snprintf(err, errlen, "--group %s is not an IPv4 address", c->group);
    return -1;
  }
  if (lg_addr(c->bind, 0, &ifa) != 0 || ifa.sa.sa_family != AF_INET) {
    snprintf(err, errlen, "--bind %s is not an IPv4 address", c->bind);
    return -1;
  }
  s->fd = lg_socket(&g, SOCK_DGRAM);
  if (s->fd < 0) {
    snprintf(err, errlen, "socket: %s", strerror(errno));
    return -1;
  }
  /* Several subscribers (or a second run) on one host share the group's port. */
  setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (bind(s->fd, &g.sa, lg_addr_len(&g)) != 0) {
    snprintf(err, errlen, "bind %s:%d: %s", c->group, port, strerror(errno));
    return -1;
  }
  if (c->source) {
    struct ip_mreq_source m;
    if (lg_addr(c->source, 0, &src) != 0 || src.sa.sa_family != AF_INET) {
      snprintf(err, errlen, "--source %s is not an IPv4 address", c->source);
      return -1;
    }
    memset(&m, 0, sizeof(m));
    m.imr_multiaddr = g.in4.sin_addr;
    m.imr_interface = ifa.in4.sin_addr;
    m.imr_sourceaddr = src.in4.sin_addr;
    if (setsockopt(s->fd, IPPROTO_IP, IP_ADD_SOURCE_MEMBERSHIP, &m, sizeof(m)) != 0) {
      snprintf(err, errlen, "IP_ADD_SOURCE_MEMBERSHIP %s source %s on %s: %s", c->group, c->source, c->bind,
               strerror(errno));
      return -1;
    }
  } else {
    struct ip_mreq m;
    m.imr_multiaddr = g.in4.sin_addr;
    m.imr_interface = ifa.in4.sin_addr;
    if (setsockopt(s->fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m, sizeof(m)) != 0) {
      snprintf(err, errlen, "IP_ADD_MEMBERSHIP %s on %s: %s%s", c->group, c->bind, strerror(errno),
               errno == ENOBUFS ? " (igmp_max_memberships reached?)" : "");
      return -1;
    }
  }
  /* A deeper receive buffer rides out the subscriber's scheduling stalls. */
  if (lg_tune_socket(s->fd, 0, &c->tune, err, errlen) != 0) return -1;
  port = 0;
  s->reply_fd = lg_bind_udp(&ifa, &port, err, errlen);
  return s->reply_fd < 0 ? -1 : 0;
}

/* The reply carries this host's realtime receive stamp of the message (the
 * kernel's, SO_TIMESTAMPNS; else taken right after its read): the publisher's
 * one-way estimate (mc.h). It is also the reply's send stamp, earlier than the
 * send itself, which only widens the estimate's bound (lg_owest.h says why). */
static void answer(mc_sub* s, const mc_hdr* h, const lg_sockaddr* to, uint64_t received_real_ns) {
  unsigned char r[MC_REPLY_LEN];
  mc_put_reply(r, h, (int64_t)received_real_ns);
  if (sendto(s->reply_fd, r, MC_REPLY_LEN, MSG_DONTWAIT, &to->sa, lg_addr_len(to)) < 0)
    s->reply_errors++;
  else
    s->replies_sent++;
}

/* Reads every message that has arrived; returns 1 once the end marker came. */
static int read_feed(mc_sub* s, uint64_t* last_msg_ns) {
  const mc_config* c = s->cfg;
  for (;;) {
    int i, n = mc_rx_read(&s->rx, &s->anchor);
    if (n <= 0) return 0;
    *last_msg_ns = lg_now_ns();
    for (i = 0; i < n; ++i) {
      mc_hdr h;
      if (mc_get_hdr(s->rx.buf[i], (long)s->rx.msg[i].msg_len, "LGMC", MC_HDR, &h) != 0) {
        s->invalid++;
        continue;
      }
      if (!s->tracking) {
        if (mc_track_init(&s->track, MC_TRACK_BITS, h.first_measured) != 0) return 0;
        s->tracking = 1;
      }
      if (h.flags & MC_FLAG_END) {
        s->total = h.seq;
        return 1;
      }
      mc_track_seen(&s->track, h.seq);
      if (h.seq % c->reply_every == 0) answer(s, &h, &s->rx.from[i], s->rx.real_ns[i]);
    }
  }
}

static void write_result(mc_sub* s) {
  const mc_track* t = &s->track;
  uint64_t expected = s->total > t->first ? s->total - t->first : t->next - t->first;
  print_header(s->cfg, "ok");
  printf(",\"exit_reason\":\"%s\",\"end_seen\":%s,", s->exit_reason, s->total ? "true" : "false");
  printf(
      "\"counters\":{\"measured\":{\"expected\":%llu,\"received\":%llu,\"lost\":%llu,\"duplicated\":%llu,"
      "\"out_of_order\":%llu,\"too_late\":%llu,\"longest_gap\":%llu,\"gaps\":%llu},"
      "\"warmup\":{\"received\":%llu},\"replies_sent\":%llu,\"reply_errors\":%llu,\"invalid\":%llu},",
      (unsigned long long)(s->tracking ? expected : 0), (unsigned long long)t->received,
      (unsigned long long)t->lost, (unsigned long long)t->duplicated, (unsigned long long)t->out_of_order,
      (unsigned long long)t->too_late, (unsigned long long)t->longest_gap, (unsigned long long)t->gaps,
      (unsigned long long)t->warmup_received, (unsigned long long)s->replies_sent,
      (unsigned long long)s->reply_errors, (unsigned long long)s->invalid);
  /* Its clock tie: the truth of the publisher's offset estimate on hosts that share one clock. */
  printf("\"anchor\":");
  lg_anchor_write_json(&s->anchor, stdout);
  printf(",\"receive_stamps\":\"%s\",\"batched_reads\":%s", mc_stamp_name(s->rx.stamps),
         s->rx.batched ? "true" : "false");
  {
    char tuned[160];
    lg_describe_tuning(s->fd, 0, &s->cfg->tune, tuned, sizeof(tuned));
    printf("%s", tuned);
  }
  printf(",\"memory\":");
  lg_json_memory(stdout);
  printf("}\n");
  fflush(stdout);
}

int mc_run_subscriber(const mc_config* cfg) {
  static mc_sub s; /* large (a receive buffer): not on the stack */
  char err[256];
  volatile int stop = 0;
  uint64_t last_msg_ns;
  memset(&s, 0, sizeof(s));
  s.cfg = cfg;
  if (join(&s, err, sizeof(err)) != 0) return fail(cfg, "%s%s", err, "");
  mc_rx_init(&s.rx, s.fd);
  lg_anchor_take(&s.anchor);
  lg_install_stop_handlers(&stop);
  /* Joined: the harness starts the publisher only after this line. */
  printf(
      "{\"format\":\"labgate-probe-1\",\"probe\":\"mcast\",\"role\":\"subscriber\",\"event\":\"joined\","
      "\"group\":");
  lg_json_string(stdout, cfg->group);
  printf(",\"port\":%d,\"bind\":", cfg->port);
  lg_json_string(stdout, cfg->bind);
  printf("}\n");
  fflush(stdout);
  last_msg_ns = lg_now_ns();
  s.exit_reason = "idle_timeout";
  for (;;) {
    int r;
    if (stop) {
      s.exit_reason = "signal";
      break;
    }
    r = lg_wait_fd(s.fd, POLLIN, last_msg_ns + cfg->idle_timeout_ns);
    if (r == 0) break;
    if (r < 0 && errno != EINTR) return fail(cfg, "poll: %s%s", strerror(errno), "");
    if (r > 0 && read_feed(&s, &last_msg_ns)) {
      s.exit_reason = "end";
      break;
    }
  }
  if (!s.tracking) mc_track_init(&s.track, 0, 0);
  mc_track_finish(&s.track, s.total);
  write_result(&s);
  close(s.fd);
  close(s.reply_fd);
  mc_track_free(&s.track);
  return LG_EXIT_OK;
}
