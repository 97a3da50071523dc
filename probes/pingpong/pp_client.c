/* The pingpong client: connects, runs the closed or open loop, prints the result. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lg_measure_util.h"
#include "lg_net.h"
#include "pp.h"

/* 2^18 requests may be in flight in open loop (256 KiB of state). */
#define PP_WINDOW_BITS 18

static pp_client g_client;

void pp_fail(pp_client* c, const char* fmt, ...) {
  va_list ap;
  if (c->error[0] == '\0') {
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof(c->error), fmt, ap);
    va_end(ap);
  }
  c->stop = 1;
}

int pp_book_reply(pp_client* c, uint64_t seq) {
  int ooo;
  pp_reply_kind kind = pp_seqwin_reply(&c->win, seq, &ooo);
  pp_counters* k;
  if (kind == PP_REPLY_UNKNOWN) {
    (c->t_measure_start ? &c->meas : &c->warm)->invalid++;
    return 0;
  }
  k = pp_phase(c, seq);
  if (ooo) k->out_of_order++;
  if (kind == PP_REPLY_DUP) k->duplicated++;
  if (kind == PP_REPLY_LATE) k->late++;
  return kind == PP_REPLY_OK;
}

void pp_capture(pp_client* c, uint64_t seq, uint64_t rtt_ns, uint64_t t1) {
  lg_moment_keep(&c->moment, &c->outliers, c->fd, seq, rtt_ns, t1, t1);
}

void pp_follow_p50(pp_client* c) {
  const lg_interval* last;
  c->series_seen = c->series.len;
  if (c->cfg->outlier_ns > 0 || !c->cfg->forensics || c->series.len == 0) return;
  last = &c->series.items[c->series.len - 1];
  if (last->count > 0) c->outliers.threshold_ns = 10 * last->p50_ns;
}

static int tcp_connect(pp_client* c, const lg_sockaddr* addr) {
  const pp_config* cfg = c->cfg;
  char err[256];
  uint32_t hello[4], answer[4];
  int one = 1;
  int fd = lg_connect_tcp(addr, cfg->connect_timeout_ns, err, sizeof(err));
  if (fd < 0) {
    pp_fail(c, "%s (is `pingpong server --proto tcp` running there?)", err);
    return -1;
  }
  if (cfg->nodelay) setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  if (lg_tune_socket(fd, 1, &cfg->tune, err, sizeof(err)) != 0) {
    pp_fail(c, "%s", err);
    close(fd);
    return -1;
  }
  lg_describe_tuning(fd, 1, &cfg->tune, c->tuning, sizeof(c->tuning));
  lg_set_io_timeout(fd, cfg->server_timeout_ns);
  memcpy(&hello[0], "LGPP", 4);
  hello[1] = htonl(PP_VERSION);
  hello[2] = htonl((uint32_t)cfg->size);
  hello[3] = 0;
  if (lg_write_full(fd, hello, sizeof(hello), lg_now_ns() + cfg->server_timeout_ns) !=
          (ssize_t)sizeof(hello) ||
      lg_read_full(fd, answer, sizeof(answer), lg_now_ns() + cfg->server_timeout_ns, 0) !=
          (ssize_t)sizeof(answer) ||
      memcmp(&answer[0], "LGPP", 4) != 0) {
    pp_fail(c, "the server at %s:%d did not answer the pingpong hello (not a pingpong %s server?)", cfg->addr,
            cfg->port, "tcp");
    close(fd);
    return -1;
  }
  if (ntohl(answer[1]) != 0) {
    pp_fail(c, "the server refused message size %llu (it serves size %u)", (unsigned long long)cfg->size,
            ntohl(answer[2]));
    close(fd);
    return -1;
  }
  return fd;
}

static int udp_connect(pp_client* c, const lg_sockaddr* addr) {
  /* A connected UDP socket turns the server's ICMP port-unreachable into
   * ECONNREFUSED, so a missing server is reported instead of timing out. */
  char err[256];
  int fd = lg_socket(addr, SOCK_DGRAM);
  if (fd < 0 || connect(fd, &addr->sa, lg_addr_len(addr)) != 0) {
    pp_fail(c, "cannot set up UDP to %s:%d: %s", c->cfg->addr, c->cfg->port, strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
  }
  if (lg_tune_socket(fd, 0, &c->cfg->tune, err, sizeof(err)) != 0) {
    pp_fail(c, "%s", err);
    close(fd);
    return -1;
  }
  lg_describe_tuning(fd, 0, &c->cfg->tune, c->tuning, sizeof(c->tuning));
  lg_set_io_timeout(fd, c->cfg->recv_timeout_ns);
  return fd;
}

static void print_counters(const char* name, const pp_counters* k) {
  printf(
      "\"%s\":{\"sent\":%llu,\"received\":%llu,\"dropped\":%llu,\"duplicated\":%llu,\"out_of_order\":%llu,"
      "\"late\":%llu,\"invalid\":%llu}",
      name, (unsigned long long)k->sent, (unsigned long long)k->received, (unsigned long long)k->dropped,
      (unsigned long long)k->duplicated, (unsigned long long)k->out_of_order, (unsigned long long)k->late,
      (unsigned long long)k->invalid);
}

static void print_result(pp_client* c, int cpu_start, int cpu_end, const char* cpu_src, double timer_cost) {
  const pp_config* cfg = c->cfg;
  uint64_t duration = c->t_measure_end > c->t_measure_start ? c->t_measure_end - c->t_measure_start : 0;
  printf("{\"format\":\"labgate-probe-1\",\"probe\":\"pingpong\",\"role\":\"client\",\"kind\":\"%s\",",
         cfg->udp ? "udp_rr" : "tcp_rr");
  printf("\"status\":\"%s\",", c->error[0] ? "error" : "ok");
  if (c->error[0]) {
    printf("\"error\":");
    lg_json_string(stdout, c->error);
    printf(",");
  }
  printf("\"metric\":\"round_trip\",\"parameters\":{\"proto\":\"%s\",\"connect\":", cfg->udp ? "udp" : "tcp");
  lg_json_string(stdout, cfg->addr);
  printf(
      ",\"port\":%d,\"size\":%llu,\"duration_s\":%.6f,\"warmup_s\":%.6f,\"interval_s\":%.6f,"
      "\"cpu_asked\":%d,\"cpu_actual\":%d,\"cpu_actual_end\":%d,\"cpu_actual_source\":\"%s\","
      "\"nodelay\":%s,\"busy_poll\":%s,\"mode\":\"%s\",\"rate_per_s\":%.6g,\"recv_timeout_s\":%.6f,"
      "\"server_timeout_s\":%.6f,\"forensics\":%s%s},",
      cfg->port, (unsigned long long)cfg->size, (double)cfg->duration_ns / 1e9, (double)cfg->warmup_ns / 1e9,
      (double)cfg->interval_ns / 1e9, cfg->cpu, cpu_start, cpu_end, cpu_src,
      (cfg->nodelay && !cfg->udp) ? "true" : "false", cfg->busy_poll ? "true" : "false",
      cfg->rate > 0 ? "open_loop" : "closed_loop", cfg->rate, (double)cfg->recv_timeout_ns / 1e9,
      (double)cfg->server_timeout_ns / 1e9, cfg->forensics ? "true" : "false", c->tuning);
  printf("\"counters\":{");
  print_counters("measured", &c->meas);
  printf(",");
  print_counters("warmup", &c->warm);
  printf("}");
  lg_write_measured(stdout, c->hist, &c->series, cfg->warmup_ns, duration, timer_cost);
  printf(",\"outliers\":");
  lg_outliers_write_json(&c->outliers, stdout);
  printf(",\"outlier_sources\":");
  lg_moment_write_json(&c->moment, stdout);
  printf(",\"one_way\":");
  if (c->one_way)
    pp_ow_write_json(&c->ow, stdout);
  else
    printf("null"); /* requests shorter than PP_HDR carry no stamps; --forensics off */
  printf(",\"outlier_threshold_source\":\"%s\"}\n", cfg->outlier_ns > 0 ? "outlier" : "10x_interval_p50");
  fflush(stdout);
}

/* Takes every buffer the run needs before it starts: nothing grows afterwards. */
static int allocate(pp_client* c) {
  const pp_config* cfg = c->cfg;
  c->hist = (lg_hist*)malloc(sizeof(lg_hist));
  c->tx = (unsigned char*)calloc(1, cfg->size);
  c->rx = (unsigned char*)calloc(1, cfg->udp ? PP_MAX_UDP_SIZE + 1 : cfg->size);
  if (c->hist == NULL || c->tx == NULL || c->rx == NULL) return -1;
  lg_hist_reset(c->hist);
  lg_prefault(c->hist, sizeof(lg_hist));
  if (lg_series_init(&c->series, cfg->interval_ns, cfg->duration_ns) != 0) return -1;
  /* Forensics off: a store of no capacity and no threshold wants no sample. */
  if (lg_outliers_init(&c->outliers, cfg->forensics ? cfg->worst : 0, cfg->forensics ? LG_OUTLIERS_OVER_DEFAULT : 0,
                       cfg->forensics ? cfg->outlier_ns : 0) != 0)
    return -1;
  if (pp_ow_init(&c->ow) != 0) return -1;
  return pp_seqwin_init(&c->win, PP_WINDOW_BITS);
}

int pp_run_client(const pp_config* cfg) {
  pp_client* c = &g_client;
  lg_sockaddr addr;
  const char* cpu_src = "none";
  int cpu_start, cpu_end;
  double timer_cost;
  uint64_t margin_s;
  memset(c, 0, sizeof(*c));
  c->cfg = cfg;
  c->fd = -1;
  c->first_measured = UINT64_MAX;
  c->series_end = UINT64_MAX;
  lg_install_stop_handlers(&c->stop);
  /* Every wait has its own deadline; this is the backstop should one be missed. */
  margin_s = (cfg->connect_timeout_ns + cfg->warmup_ns + cfg->duration_ns + 2 * cfg->server_timeout_ns) /
                 1000000000ull +
             5;
  lg_arm_deadline("pingpong client", (unsigned)margin_s);
  if (lg_addr(cfg->addr, cfg->port, &addr) != 0)
    lg_usage_error("pingpong", "--connect: '%s' is not a numeric IPv4 or IPv6 address", cfg->addr);
  if (allocate(c) != 0) {
    fprintf(stderr,
            "pingpong client: cannot allocate the run's buffers (interval too short for the duration?)\n");
    return LG_EXIT_RUN;
  }
  if (cfg->progress)
    lg_series_set_progress(&c->series, 2, c->hist, cfg->udp ? "udp_rr" : "tcp_rr", cfg->duration_ns);
  if (cfg->cpu >= 0 && lg_pin_cpu(cfg->cpu) != 0)
    pp_fail(c, "cannot pin to CPU %d: %s", cfg->cpu, strerror(errno));
  cpu_start = lg_current_cpu(&cpu_src);
  timer_cost = lg_timer_cost_ns();
  c->one_way = cfg->forensics && cfg->size >= PP_HDR;
  if (cfg->forensics)
    lg_moment_init(&c->moment, 1);
  else
    lg_moment_off(&c->moment, "not available: --forensics off");
  if (!c->error[0]) c->fd = cfg->udp ? udp_connect(c, &addr) : tcp_connect(c, &addr);
  if (c->fd >= 0) {
    if (cfg->forensics) lg_moment_stamps(&c->moment, c->fd, cfg->udp);
    if (cfg->rate > 0)
      pp_run_open(c);
    else
      pp_run_closed(c);
    if (cfg->udp) { /* UDP has no end of session: tell a --once server (a lost one: its idle timeout) */
      int i;
      for (i = 0; i < PP_BYE_COPIES; i++) (void)send(c->fd, PP_BYE, PP_BYE_LEN, 0);
    }
    close(c->fd);
  }
  if (c->stop && !c->error[0]) pp_fail(c, "stopped by a signal before the end of the run");
  cpu_end = lg_current_cpu(&cpu_src);
  print_result(c, cpu_start, cpu_end, cpu_src, timer_cost);
  if (c->error[0]) fprintf(stderr, "pingpong client: %s\n", c->error);
  return c->error[0] ? LG_EXIT_RUN : LG_EXIT_OK;
}
