/* The stream client: sends as fast as the socket takes it (or on the fixed
 * schedule of --rate), times every send() call, and asks the server what
 * arrived. Throughput is the receiver's for UDP (what got through) and the
 * sender's for TCP (every byte is checked delivered). */
#include <errno.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#ifndef SIOCOUTQ
#define SIOCOUTQ TIOCOUTQ /* linux/sockios.h: bytes sent but not yet acknowledged */
#endif

#include "lg_measure_util.h"
#include "lg_net.h"
#include "lg_series.h"
#include "st.h"

typedef struct phase_count {
  unsigned long long sent, bytes, send_errors;
} phase_count;

typedef struct client {
  const st_config* cfg;
  int ctrl, data, udp_port;
  uint32_t token;
  unsigned char* buf;
  lg_hist* hist;
  lg_series series;
  phase_count warm, meas;
  /* --rate: measured sends that left a period or more after their scheduled
   * time, and the largest such lag (a starved sender catches up in a burst). */
  unsigned long long late_sends;
  uint64_t max_lag_ns;
  unsigned long long total_bytes; /**< every byte sent, both phases */
  st_report report;
  int got_report; /**< the server's REPORT line arrived (it may count zero: 100% loss) */
  uint64_t t_start, t_end;
  uint64_t series_end; /**< end of the measured window: a send finishing later goes in its last interval */
  volatile int stop;
  char error[512];
  char tuning[192]; /**< lg_describe_tuning() of the data socket, for the parameters */
} client;

static client g_client;

static void fail(client* c, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(client* c, const char* fmt, ...) {
  va_list ap;
  if (c->error[0] == '\0') {
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof(c->error), fmt, ap);
    va_end(ap);
  }
  c->stop = 1;
}

static int handshake(client* c, const lg_sockaddr* addr) {
  const st_config* cfg = c->cfg;
  char line[ST_LINE_MAX], err[256];
  int one = 1, n;
  c->ctrl = lg_connect_tcp(addr, cfg->connect_timeout_ns, err, sizeof(err));
  if (c->ctrl < 0) {
    fail(c, "%s (is `stream server --proto %s` running there?)", err, cfg->udp ? "udp" : "tcp");
    return -1;
  }
  if (cfg->udp || cfg->nodelay) setsockopt(c->ctrl, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  lg_set_io_timeout(c->ctrl, cfg->server_timeout_ns);
  c->token = (uint32_t)(lg_now_ns() ^ ((uint64_t)getpid() << 16));
  n = snprintf(line, sizeof(line), "LGST %d %s %llu %u %llu\n", ST_VERSION, cfg->udp ? "udp" : "tcp",
               (unsigned long long)cfg->size, c->token, (unsigned long long)cfg->warmup_ns);
  if (lg_write_full(c->ctrl, line, (size_t)n, lg_now_ns() + cfg->server_timeout_ns) != n ||
      lg_read_line(c->ctrl, line, sizeof(line), lg_now_ns() + cfg->server_timeout_ns) <= 0) {
    fail(c, "the server at %s:%d did not answer the stream hello (not a stream server?)", cfg->addr,
         cfg->port);
    return -1;
  }
  if (sscanf(line, "OK %d", &c->udp_port) != 1) {
    fail(c, "the server refused: %s", line);
    return -1;
  }
  return 0;
}

static int open_data(client* c, const lg_sockaddr* addr) {
  lg_sockaddr u = *addr;
  char err[256];
  if (!c->cfg->udp) {
    c->data = c->ctrl;
    if (lg_tune_socket(c->data, 1, &c->cfg->tune, err, sizeof(err)) != 0) {
      fail(c, "%s", err);
      return -1;
    }
    lg_describe_tuning(c->data, 1, &c->cfg->tune, c->tuning, sizeof(c->tuning));
    return 0;
  }
  lg_addr_set_port(&u, c->udp_port);
  c->data = lg_socket(&u, SOCK_DGRAM);
  if (c->data < 0 || connect(c->data, &u.sa, lg_addr_len(&u)) != 0) {
    fail(c, "cannot set up UDP to %s:%d: %s", c->cfg->addr, c->udp_port, strerror(errno));
    return -1;
  }
  if (lg_tune_socket(c->data, 0, &c->cfg->tune, err, sizeof(err)) != 0) {
    fail(c, "%s", err);
    return -1;
  }
  lg_describe_tuning(c->data, 0, &c->cfg->tune, c->tuning, sizeof(c->tuning));
  lg_set_io_timeout(c->data, c->cfg->server_timeout_ns);
  return 0;
}

/* One send() call, timed. Returns 0 to go on, -1 to stop. */
static int send_one(client* c, int measuring, uint64_t seq, uint64_t* now) {
  const st_config* cfg = c->cfg;
  phase_count* k = measuring ? &c->meas : &c->warm;
  uint64_t t0, t1;
  ssize_t n;
  if (cfg->udp) {
    memcpy(c->buf, &seq, 8);
    c->buf[8] = (unsigned char)measuring;
    memcpy(c->buf + 12, &c->token, 4);
  }
  t0 = lg_now_ns();
  n = send(c->data, c->buf, cfg->size, MSG_NOSIGNAL);
  t1 = lg_now_ns();
  *now = t1;
  if (n < 0) {
    if (errno == EINTR) return c->stop ? -1 : 0;
    if (cfg->udp && errno == ENOBUFS) { /* a full device queue lost it locally: not sent */
      k->send_errors++;
      return 0;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK)
      fail(c, "one send() blocked for %.3f s: the receiver stopped taking data",
           (double)cfg->server_timeout_ns / 1e9);
    else
      fail(c, "send to the server failed: %s", strerror(errno));
    return -1;
  }
  k->sent++;
  k->bytes += (unsigned long long)n;
  c->total_bytes += (unsigned long long)n;
  if (measuring) {
    lg_hist_record(c->hist, t1 - t0);
    lg_series_record(&c->series, t1 < c->series_end ? t1 : c->series_end - 1, t1 - t0);
  }
  return 0;
}

/* --rate: waits until message `seq` is due (base + seq x period) but never past
 * `end`. Returns 1 if woken early (a signal): the caller re-checks and retries. */
static int wait_due(uint64_t base, uint64_t seq, double period_ns, uint64_t end, uint64_t* now) {
  uint64_t due = base + (uint64_t)((double)seq * period_ns), until = due < end ? due : end;
  struct timespec ts;
  if (due <= *now) return 0;
  ts.tv_sec = (time_t)(until / 1000000000ull);
  ts.tv_nsec = (long)(until % 1000000000ull);
  clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
  *now = lg_now_ns();
  return *now < until;
}

/* Unpaced, every send follows the last; with --rate, message k leaves at
 * start + k / rate whatever happened before it: a sender that fell behind sends
 * what is due at once (the offered rate stays the one asked), and says how late. */
static void run(client* c) {
  const double period = c->cfg->rate > 0 ? 1e9 / c->cfg->rate : 0;
  uint64_t now = lg_now_ns(), seq = 0, base = now;
  uint64_t warmup_end = now + c->cfg->warmup_ns, end = UINT64_MAX;
  int measuring = 0;
  while (!c->stop) {
    if (period > 0 && wait_due(base, seq, period, end, &now)) continue;
    if (!measuring && now >= warmup_end) {
      measuring = 1;
      c->t_start = now;
      end = now + c->cfg->duration_ns;
      c->series_end = end;
      lg_series_start(&c->series, now);
    }
    if (now >= end) break;
    if (period > 0 && measuring) {
      uint64_t lag = now - (base + (uint64_t)((double)seq * period));
      if ((double)lag >= period) c->late_sends++;
      if (lag > c->max_lag_ns) c->max_lag_ns = lag;
    }
    if (send_one(c, measuring, seq++, &now) < 0) break;
  }
  c->t_end = measuring ? now : 0;
  if (measuring) lg_series_finish(&c->series, now < end ? now : end);
}

/* The socket's retransmission timeout (ns), 0 when the kernel cannot say. */
static uint64_t retransmit_timeout_ns(int fd, unsigned* backoff) {
  struct tcp_info info;
  socklen_t len = sizeof(info);
  memset(&info, 0, sizeof(info));
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) return 0;
  *backoff = info.tcpi_backoff;
  return (uint64_t)info.tcpi_rto * 1000ull;
}

/* TCP: waits until the server has acknowledged every byte (and the FIN) that
 * the socket still held when the transfer ended. Over a lossy link a full send
 * buffer takes seconds to drain, and the server reports only after the last
 * byte, so the report's timeout runs from the last progress, not from the end
 * of the transfer; and while TCP backs off (its retransmission timeout doubles
 * after each loss of a retransmission: 0.2, 0.4 … 6.4 s) the next retransmission
 * is awaited too. Returns 0 when drained (or the kernel cannot say), -1 when
 * nothing was acknowledged for server_timeout plus the socket's current
 * retransmission timeout: *left is what was still queued. */
static int wait_acknowledged(client* c, int* left, uint64_t* rto, unsigned* backoff) {
  const uint64_t patience = c->cfg->server_timeout_ns;
  uint64_t now = lg_now_ns(), progress = now;
  int queued = 0, last;
  struct timespec step = {0, 10000000}; /* 10 ms */
  if (ioctl(c->ctrl, SIOCOUTQ, &queued) != 0) return 0;
  last = queued;
  while (queued > 1) { /* 1: only the FIN's sequence number is outstanding */
    *rto = retransmit_timeout_ns(c->ctrl, backoff);
    if (now - progress >= patience + *rto) {
      *left = queued;
      return -1;
    }
    nanosleep(&step, NULL);
    if (ioctl(c->ctrl, SIOCOUTQ, &queued) != 0) return 0;
    now = lg_now_ns();
    if (queued < last) {
      last = queued;
      progress = now;
    }
  }
  return 0;
}

/* Ends the transfer and reads the server's REPORT line. */
static void collect(client* c) {
  const st_config* cfg = c->cfg;
  char line[ST_LINE_MAX];
  ssize_t r;
  if (cfg->udp) {
    struct timespec pause;
    pause.tv_sec = (time_t)(cfg->drain_ns / 1000000000ull);
    pause.tv_nsec = (long)(cfg->drain_ns % 1000000000ull);
    nanosleep(&pause, NULL); /* let datagrams in flight land before asking */
    r = lg_write_full(c->ctrl, "END\n", 4, lg_now_ns() + cfg->server_timeout_ns) == 4 ? 0 : -1;
  } else {
    int left = 0;
    uint64_t rto = 0;
    unsigned backoff = 0;
    r = shutdown(c->ctrl, SHUT_WR);
    if (r == 0 && wait_acknowledged(c, &left, &rto, &backoff) != 0) {
      fail(c, "the server acknowledged nothing for %.3f s while %d bytes of the transfer were still "
              "queued, TCP retransmitting every %.3f s (backoff %u): server stopped, or the link "
              "lost everything",
           (double)(cfg->server_timeout_ns + rto) / 1e9, left, (double)rto / 1e9, backoff);
      return;
    }
  }
  if (r == 0) r = lg_read_line(c->ctrl, line, sizeof(line), lg_now_ns() + cfg->server_timeout_ns);
  if (r <= 0 ||
      sscanf(line, "REPORT datagrams=%llu bytes=%llu total_datagrams=%llu total_bytes=%llu out_of_order=%llu",
             &c->report.datagrams, &c->report.bytes, &c->report.total_datagrams, &c->report.total_bytes,
             &c->report.out_of_order) != 5) {
    fail(c, "the server sent no report within %.3f s after the transfer (server gone?)",
         (double)cfg->server_timeout_ns / 1e9);
    return;
  }
  c->got_report = 1;
  if (!cfg->udp && c->report.total_bytes != c->total_bytes)
    fail(c, "the server received %llu bytes but %llu were sent", c->report.total_bytes, c->total_bytes);
}

static void print_result(client* c, int cpu_start, int cpu_end, const char* cpu_src, double timer_cost) {
  const st_config* cfg = c->cfg;
  uint64_t duration = c->t_end > c->t_start ? c->t_end - c->t_start : 0;
  double secs = (double)duration / 1e9;
  /* TCP: the server cannot split its byte count by phase, but equal totals prove
   * every measured byte arrived. UDP: the server counted the measured phase. */
  unsigned long long recv_msgs = cfg->udp ? c->report.datagrams : c->meas.sent;
  unsigned long long recv_bytes = cfg->udp ? c->report.bytes : c->meas.bytes;
  unsigned long long lost = c->meas.sent > recv_msgs ? c->meas.sent - recv_msgs : 0;
  printf("{\"format\":\"labgate-probe-1\",\"probe\":\"stream\",\"role\":\"client\",\"kind\":\"%s\",",
         cfg->udp ? "udp_stream" : "tcp_stream");
  printf("\"status\":\"%s\",", c->error[0] ? "error" : "ok");
  if (c->error[0]) {
    printf("\"error\":");
    lg_json_string(stdout, c->error);
    printf(",");
  }
  printf("\"metric\":\"send_time\",\"parameters\":{\"proto\":\"%s\",\"connect\":", cfg->udp ? "udp" : "tcp");
  lg_json_string(stdout, cfg->addr);
  printf(
      ",\"port\":%d,\"udp_port\":%d,\"size\":%llu,\"duration_s\":%.6f,\"warmup_s\":%.6f,\"interval_s\":%.6f,"
      "\"cpu_asked\":%d,\"cpu_actual\":%d,\"cpu_actual_end\":%d,\"cpu_actual_source\":\"%s\",\"nodelay\":%s,"
      "\"drain_s\":%.6f,\"server_timeout_s\":%.6f,\"mode\":\"%s\",\"rate_per_s\":%.6g%s},",
      cfg->port, c->udp_port, (unsigned long long)cfg->size, (double)cfg->duration_ns / 1e9,
      (double)cfg->warmup_ns / 1e9, (double)cfg->interval_ns / 1e9, cfg->cpu, cpu_start, cpu_end, cpu_src,
      (cfg->nodelay && !cfg->udp) ? "true" : "false", (double)cfg->drain_ns / 1e9,
      (double)cfg->server_timeout_ns / 1e9, cfg->rate > 0 ? "open_loop" : "unpaced", cfg->rate, c->tuning);
  printf(
      "\"counters\":{\"measured\":{\"sent\":%llu,\"sent_bytes\":%llu,\"received\":%llu,\"received_bytes\":%"
      "llu,"
      "\"lost\":%llu,\"out_of_order\":%llu,\"send_errors\":%llu,\"late_sends\":%llu,\"max_lag_ns\":%llu},"
      "\"warmup\":{\"sent\":%llu,\"sent_bytes\":%"
      "llu},"
      "\"client_total_bytes\":%llu,\"server_total_bytes\":%llu,\"server_total_datagrams\":%llu}",
      c->meas.sent, c->meas.bytes, recv_msgs, recv_bytes, lost, c->report.out_of_order, c->meas.send_errors,
      c->late_sends, (unsigned long long)c->max_lag_ns,
      c->warm.sent, c->warm.bytes, c->total_bytes, c->report.total_bytes, c->report.total_datagrams);
  if (secs > 0 && c->got_report) {
    printf(",\"throughput_bps\":%.1f,\"send_throughput_bps\":%.1f", (double)recv_bytes * 8 / secs,
           (double)c->meas.bytes * 8 / secs);
    if (cfg->udp && c->meas.sent > 0) printf(",\"loss_fraction\":%.9f", (double)lost / (double)c->meas.sent);
  }
  lg_write_measured(stdout, c->hist, &c->series, cfg->warmup_ns, duration, timer_cost);
  printf("}\n");
  fflush(stdout);
}

int st_run_client(const st_config* cfg) {
  client* c = &g_client;
  lg_sockaddr addr;
  const char* cpu_src = "none";
  int cpu_start, cpu_end;
  double timer_cost;
  memset(c, 0, sizeof(*c));
  c->cfg = cfg;
  c->ctrl = c->data = -1;
  lg_install_stop_handlers(&c->stop);
  /* Every wait has its own deadline; this is the backstop should one be missed.
   * Over TCP it leaves room for the send buffer to drain after the transfer
   * (ST_TCP_DRAIN_S): on a lossy link that takes seconds while TCP backs off,
   * and wait_acknowledged ends a drain that stops progressing by itself. */
  lg_arm_deadline("stream client", (unsigned)((cfg->connect_timeout_ns + cfg->warmup_ns + cfg->duration_ns +
                                               cfg->drain_ns + 3 * cfg->server_timeout_ns) /
                                                  1000000000ull +
                                              5 + (cfg->udp ? 0 : ST_TCP_DRAIN_S)));
  if (lg_addr(cfg->addr, cfg->port, &addr) != 0)
    lg_usage_error("stream", "--connect: '%s' is not a numeric IPv4 or IPv6 address", cfg->addr);
  c->buf = (unsigned char*)calloc(1, cfg->size);
  c->hist = (lg_hist*)malloc(sizeof(lg_hist));
  if (c->buf == NULL || c->hist == NULL ||
      lg_series_init(&c->series, cfg->interval_ns, cfg->duration_ns) != 0) {
    fprintf(stderr,
            "stream client: cannot allocate the run's buffers (interval too short for the duration?)\n");
    return LG_EXIT_RUN;
  }
  lg_hist_reset(c->hist);
  lg_prefault(c->hist, sizeof(lg_hist));
  if (cfg->progress)
    lg_series_set_progress(&c->series, 2, c->hist, cfg->udp ? "udp_stream" : "tcp_stream", cfg->duration_ns);
  if (cfg->cpu >= 0 && lg_pin_cpu(cfg->cpu) != 0)
    fail(c, "cannot pin to CPU %d: %s", cfg->cpu, strerror(errno));
  cpu_start = lg_current_cpu(&cpu_src);
  timer_cost = lg_timer_cost_ns();
  if (!c->error[0] && handshake(c, &addr) == 0 && open_data(c, &addr) == 0) {
    run(c);
    if (!c->stop) collect(c);
  }
  if (c->stop && !c->error[0]) fail(c, "stopped by a signal before the end of the run");
  if (c->data >= 0 && c->data != c->ctrl) close(c->data);
  if (c->ctrl >= 0) close(c->ctrl);
  cpu_end = lg_current_cpu(&cpu_src);
  print_result(c, cpu_start, cpu_end, cpu_src, timer_cost);
  if (c->error[0]) fprintf(stderr, "stream client: %s\n", c->error);
  return c->error[0] ? LG_EXIT_RUN : LG_EXIT_OK;
}
