/* jitter: timer-jitter probe (HP-TimeTest / sysjitter style) for labgate. One
 * forked child per listed CPU spins on the clock; the parent collects their
 * results from a shared mapping and prints one JSON document. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jt.h"
#include "lg_measure_util.h"
#include "probe_common.h"

static const char kUsage[] =
    "usage: jitter [--cpus LIST] [--duration 10s] [--warmup 0s] [--threshold 10us]\n"
    "              [--interval 1s] [--max-events 1000] [--progress]\n"
    "On each CPU of LIST (e.g. 0,1 or 2-3) a pinned child reads CLOCK_MONOTONIC back\n"
    "(without --cpus: one child, not pinned, reported as cpu_asked -1)\n"
    "to back for the duration; every gap between two reads goes into that CPU's\n"
    "histogram, and each gap over the threshold is listed with its time (up to\n"
    "--max-events per CPU; the rest are counted). Prints one JSON document.\n"
    "Exit status: 0 measured, 2 usage error, 3 could not measure.\n";

static void parse_cpus(jt_config* cfg, const char* text) {
  const char* p = text;
  while (*p) {
    char* end;
    long lo = strtol(p, &end, 10), hi;
    if (end == p || lo < 0 || lo > 4095)
      lg_usage_error("jitter", "--cpus: '%s' is not a CPU list (e.g. 0,1 or 2-3)", text);
    hi = lo;
    if (*end == '-') {
      p = end + 1;
      hi = strtol(p, &end, 10);
      if (end == p || hi < lo || hi > 4095) lg_usage_error("jitter", "--cpus: bad range in '%s'", text);
    }
    for (; lo <= hi; lo++) {
      int i;
      for (i = 0; i < cfg->ncpus; i++)
        if (cfg->cpus[i] == lo) lg_usage_error("jitter", "--cpus: CPU %ld listed twice", lo);
      if (cfg->ncpus == JT_MAX_CPUS) lg_usage_error("jitter", "--cpus: more than %d CPUs", JT_MAX_CPUS);
      cfg->cpus[cfg->ncpus++] = (int)lo;
    }
    if (*end == ',')
      end++;
    else if (*end != '\0')
      lg_usage_error("jitter", "--cpus: '%s' is not a CPU list (e.g. 0,1 or 2-3)", text);
    p = end;
  }
  if (cfg->ncpus == 0) lg_usage_error("jitter", "--cpus: empty list");
}

static uint64_t duration_arg(const char* flag, const char* text) {
  return lg_duration_arg("jitter", flag, text);
}

static void parse_args(jt_config* cfg, int argc, char** argv) {
  static const struct option opts[] = {{"cpus", required_argument, 0, 'c'},
                                       {"duration", required_argument, 0, 'd'},
                                       {"warmup", required_argument, 0, 'w'},
                                       {"threshold", required_argument, 0, 't'},
                                       {"interval", required_argument, 0, 'i'},
                                       {"max-events", required_argument, 0, 'm'},
                                       {"help", no_argument, 0, 'h'},
                                       {"progress", no_argument, 0, 'p'},
                                       {0, 0, 0, 0}};
  int opt;
  long v;
  opterr = 0;
  while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
    switch (opt) {
      case 'c':
        parse_cpus(cfg, optarg);
        break;
      case 'd':
        cfg->duration_ns = duration_arg("--duration", optarg);
        break;
      case 'w':
        cfg->warmup_ns = duration_arg("--warmup", optarg);
        break;
      case 't':
        cfg->threshold_ns = duration_arg("--threshold", optarg);
        break;
      case 'i':
        cfg->interval_ns = duration_arg("--interval", optarg);
        break;
      case 'm':
        if (lg_parse_long(optarg, 0, 1000000, &v) != 0)
          lg_usage_error("jitter", "--max-events: '%s' is not an integer in [0, 1000000]", optarg);
        cfg->max_events = (uint64_t)v;
        break;
      case 'p':
        cfg->progress = 1;
        break;
      case 'h':
        fputs(kUsage, stdout);
        exit(0);
      default:
        lg_usage_error("jitter", "unknown option or missing value: '%s'", argv[optind - 1]);
    }
  }
  if (optind < argc) lg_usage_error("jitter", "unexpected argument '%s'", argv[optind]);
  if (cfg->ncpus == 0) cfg->cpus[cfg->ncpus++] = -1; /* one child wherever the scheduler puts it */
  if (cfg->duration_ns == 0) lg_usage_error("jitter", "--duration must be > 0");
  if (cfg->interval_ns < LG_PROBE_MIN_INTERVAL_NS) lg_usage_error("jitter", "--interval must be >= 1ms");
  if (lg_series_capacity(cfg->interval_ns, cfg->duration_ns) == 0)
    lg_usage_error("jitter", "--interval is too short for --duration (over 10 million intervals)");
}

static volatile int g_stop;

/* Waits for every child until the deadline; kills them all if it passes or a
 * stop signal comes. Returns 0 when all exited on their own. */
static int reap(pid_t* pids, int n, uint64_t deadline) {
  int left = n, i, status;
  while (left > 0) {
    pid_t p = waitpid(-1, &status, WNOHANG);
    if (p > 0) {
      left--;
      continue;
    }
    if (g_stop || lg_now_ns() >= deadline) break;
    usleep(20000);
  }
  if (left == 0) return 0;
  for (i = 0; i < n; i++) kill(pids[i], SIGKILL);
  while (waitpid(-1, &status, 0) > 0) {
  }
  return -1;
}

static void print_slot(const jt_config* cfg, jt_slot* s) {
  jt_event* ev = jt_events(s, cfg);
  uint64_t i;
  printf(
      "{\"cpu_asked\":%d,\"cpu_actual\":%d,\"cpu_actual_end\":%d,\"cpu_actual_source\":\"%s\",\"duration_s\":"
      "%.6f,"
      "\"samples\":%llu,\"over_threshold\":%llu,\"events_not_listed\":%llu,\"events\":[",
      s->cpu_asked, s->cpu_actual, s->cpu_actual_end, s->cpu_source, (double)s->measured_ns / 1e9,
      (unsigned long long)jt_hist(s)->total, (unsigned long long)s->over_threshold,
      (unsigned long long)(s->over_threshold - s->events_len));
  for (i = 0; i < s->events_len; i++)
    printf("%s{\"at_s\":%.9f,\"gap_ns\":%llu}", i ? "," : "", (double)ev[i].at_ns / 1e9,
           (unsigned long long)ev[i].gap_ns);
  printf("],\"histogram\":");
  lg_hist_write_json(jt_hist(s), stdout);
  printf(",\"series\":");
  lg_series_write_json(&s->series, stdout);
  printf(",\"outliers\":");
  lg_outliers_write_json(&s->outliers, stdout);
  printf(",\"outlier_sources\":");
  lg_moment_write_json(&s->moment, stdout);
  printf("}");
}

static void print_result(const jt_config* cfg, char* region, size_t slot_size, const char* error,
                         double timer_cost) {
  struct rusage ru;
  int i;
  printf("{\"format\":\"labgate-probe-1\",\"probe\":\"jitter\",\"kind\":\"jitter\",\"status\":\"%s\",",
         error ? "error" : "ok");
  if (error) {
    printf("\"error\":");
    lg_json_string(stdout, error);
    printf(",");
  }
  printf("\"metric\":\"clock_gap\",\"parameters\":{\"cpus\":["); /* -1: not pinned */
  for (i = 0; i < cfg->ncpus; i++) printf("%s%d", i ? "," : "", cfg->cpus[i]);
  printf(
      "],\"duration_s\":%.6f,\"warmup_s\":%.6f,\"interval_s\":%.6f,\"threshold_ns\":%llu,\"max_events\":%llu}"
      ",",
      (double)cfg->duration_ns / 1e9, (double)cfg->warmup_ns / 1e9, (double)cfg->interval_ns / 1e9,
      (unsigned long long)cfg->threshold_ns, (unsigned long long)cfg->max_events);
  printf("\"warmup_excluded_s\":%.6f,\"duration_s\":%.6f,\"clock\":", (double)cfg->warmup_ns / 1e9,
         (double)cfg->duration_ns / 1e9);
  lg_json_clock(stdout, timer_cost);
  printf(",\"per_cpu\":[");
  for (i = 0; i < cfg->ncpus; i++) {
    jt_slot* s = (jt_slot*)(region + (size_t)i * slot_size);
    if (i) printf(",");
    if (s->done && !s->pin_errno)
      print_slot(cfg, s);
    else
      printf("{\"cpu_asked\":%d,\"samples\":0}", s->cpu_asked);
  }
  getrusage(RUSAGE_CHILDREN, &ru);
  printf("],\"memory\":");
  lg_json_memory(stdout);
  printf(",\"children_max_rss_kb\":%ld}\n", ru.ru_maxrss);
  fflush(stdout);
}

int main(int argc, char** argv) {
  jt_config cfg;
  pid_t pids[JT_MAX_CPUS];
  char error[256] = "";
  char* region;
  size_t slot_size;
  double timer_cost;
  int i, started = 0;
  if (lg_probe_common_flags(argc, argv, "jitter")) return 0;
  memset(&cfg, 0, sizeof(cfg));
  cfg.duration_ns = 10000000000ull;
  cfg.interval_ns = 1000000000ull;
  cfg.threshold_ns = 10000;
  cfg.max_events = 1000;
  parse_args(&cfg, argc, argv);
  lg_install_stop_handlers(&g_stop);
  timer_cost = lg_timer_cost_ns();
  slot_size = jt_slot_size(&cfg);
  region = (char*)mmap(NULL, slot_size * (size_t)cfg.ncpus, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (region == MAP_FAILED) {
    fprintf(stderr, "jitter: cannot map %zu bytes for results: %s\n", slot_size * (size_t)cfg.ncpus,
            strerror(errno));
    return LG_EXIT_RUN;
  }
  for (i = 0; i < cfg.ncpus; i++) {
    jt_slot* s = (jt_slot*)(region + (size_t)i * slot_size);
    s->cpu_asked = cfg.cpus[i];
    pids[i] = fork();
    if (pids[i] == 0) {
      jt_spin(&cfg, s);
      _exit(0);
    }
    if (pids[i] < 0) {
      snprintf(error, sizeof(error), "fork failed: %s", strerror(errno));
      break;
    }
    started++;
  }
  if (reap(pids, started, lg_now_ns() + cfg.warmup_ns + cfg.duration_ns + 10000000000ull) != 0 && !error[0])
    snprintf(error, sizeof(error),
             g_stop ? "stopped by a signal before the end of the run"
                    : "a measuring child overran the run by 10 s and was killed");
  for (i = 0; i < started && !error[0]; i++) {
    jt_slot* s = (jt_slot*)(region + (size_t)i * slot_size);
    if (s->pin_errno)
      snprintf(error, sizeof(error), "cannot pin to CPU %d: %s", s->cpu_asked, strerror(s->pin_errno));
    else if (!s->done)
      snprintf(error, sizeof(error), "the child on CPU %d died before finishing", s->cpu_asked);
  }
  print_result(&cfg, region, slot_size, error[0] ? error : NULL, timer_cost);
  if (error[0]) fprintf(stderr, "jitter: %s\n", error);
  return error[0] ? LG_EXIT_RUN : LG_EXIT_OK;
}
