/* watch: the noise watch probe. Samples, for the given CPUs at a bounded rate,
 * what else ran or interrupted there, and prints one JSON document of windows
 * when its duration ends or it is told to stop (SIGTERM/SIGINT). */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lg_measure_util.h"
#include "probe_common.h"
#include "wt_state.h"

static const char kUsage[] =
    "usage: watch --cpus C[,C...] [--interval 10ms] [--duration 60s] [--keep N] [--task-every N]\n"
    "             [--irq-every N] [--away]\n"
    "Samples /proc/softirqs and the SMI count (MSR 0x34) every --interval (>= 1ms),\n"
    "/proc/interrupts and /proc/stat every --irq-every samples (default 5) and the\n"
    "tasks on those CPUs every --task-every samples (default 10), keeping the last\n"
    "--keep windows (default 6000), and prints\n"
    "one JSON document at the end of --duration or on SIGTERM/SIGINT. --away runs the\n"
    "watch itself on the other CPUs, where there are any. Exit 0, 2 usage.\n";

static wt_state g_st;
static volatile int g_stop;

static int parse_cpus(const char* arg, wt_state* st) {
  const char* p = arg;
  while (*p) {
    char* end;
    long c = strtol(p, &end, 10);
    if (end == p || c < 0 || c > 4095 || st->ncpus >= WT_MAX_CPUS) return -1;
    st->cpus[st->ncpus++] = (int)c;
    if (*end == ',')
      end++;
    else if (*end != '\0')
      return -1;
    p = end;
  }
  return st->ncpus > 0 ? 0 : -1;
}

/* --away: the watched CPUs are the measured ones, and a watch waking there every
 * interval would be noise it then watches. Said in the document either way. */
static const char* move_away(const wt_state* st) {
  cpu_set_t set;
  int i;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return "on any CPU: sched_getaffinity failed";
  for (i = 0; i < st->ncpus; i++)
    if (st->cpus[i] < CPU_SETSIZE) CPU_CLR(st->cpus[i], &set);
  if (CPU_COUNT(&set) == 0) return "on the watched CPUs: no other CPU is allowed to it";
  if (sched_setaffinity(0, sizeof(set), &set) != 0) return "on any CPU: sched_setaffinity failed";
  return "away from the watched CPUs";
}

static void sleep_until(uint64_t t) {
  struct timespec ts;
  ts.tv_sec = (time_t)(t / 1000000000ull);
  ts.tv_nsec = (long)(t % 1000000000ull);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR && !g_stop) {
  }
}

int main(int argc, char** argv) {
  static const struct option opts[] = {{"cpus", required_argument, 0, 'c'},
                                       {"interval", required_argument, 0, 'i'},
                                       {"duration", required_argument, 0, 'd'},
                                       {"keep", required_argument, 0, 'k'},
                                       {"task-every", required_argument, 0, 't'},
                                       {"irq-every", required_argument, 0, 'q'},
                                       {"away", no_argument, 0, 'a'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
  wt_state* st = &g_st;
  int away = 0;
  uint64_t interval = 10000000ull, duration = 0, next, end;
  long keep = 6000, every = 10, irq_every = 5;
  int opt, i;
  if (lg_probe_common_flags(argc, argv, "watch")) return 0;
  opterr = 0;
  while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
    switch (opt) {
      case 'c':
        if (parse_cpus(optarg, st) != 0)
          lg_usage_error("watch", "--cpus: '%s' is not a list of CPUs (at most %d)", optarg, WT_MAX_CPUS);
        break;
      case 'i':
        if (lg_parse_duration_ns(optarg, &interval) != 0 || interval < 1000000ull)
          lg_usage_error("watch", "--interval: '%s' is not a duration >= 1ms", optarg);
        break;
      case 'd':
        if (lg_parse_duration_ns(optarg, &duration) != 0)
          lg_usage_error("watch", "--duration: '%s' is not a duration", optarg);
        break;
      case 'k':
        if (lg_parse_long(optarg, 2, 1000000, &keep) != 0)
          lg_usage_error("watch", "--keep: '%s' is not in [2, 1000000]", optarg);
        break;
      case 't':
        if (lg_parse_long(optarg, 1, 100000, &every) != 0)
          lg_usage_error("watch", "--task-every: '%s' is not in [1, 100000]", optarg);
        break;
      case 'q':
        if (lg_parse_long(optarg, 1, 100000, &irq_every) != 0)
          lg_usage_error("watch", "--irq-every: '%s' is not in [1, 100000]", optarg);
        break;
      case 'a':
        away = 1;
        break;
      case 'h':
        fputs(kUsage, stdout);
        return 0;
      default:
        lg_usage_error("watch", "unknown option or missing value: '%s'", argv[optind - 1]);
    }
  }
  if (optind < argc) lg_usage_error("watch", "unexpected argument '%s'", argv[optind]);
  if (st->ncpus == 0) lg_usage_error("watch", "--cpus is required");
  st->cap = (uint64_t)keep;
  st->task_every = (unsigned)every;
  st->irq_every = (unsigned)irq_every;
  st->self = (int)getpid();
  st->placement = away ? move_away(st) : "on any CPU (not asked to keep away)";
  st->ring = (wt_window*)calloc(st->cap, sizeof(wt_window));
  if (st->ring == NULL) {
    fprintf(stderr, "watch: cannot allocate %ld windows\n", keep);
    return LG_EXIT_RUN;
  }
  lg_prefault(st->ring, st->cap * sizeof(wt_window));
  wt_open_sources(st);
  wt_open_cpu_clocks(st);
  for (i = 0; i < st->ncpus; i++) st->msr_fd[i] = -1;
  wt_open_smi(st);
  lg_install_stop_handlers(&g_stop);
  next = lg_now_ns();
  end = duration ? next + duration : UINT64_MAX;
  st->last_t = next;
  st->last_task_scan = next;
  st->last_irq_read = next;
  while (!g_stop) {
    wt_sample(st, lg_now_ns());
    next += interval;
    if (next >= end) break;
    sleep_until(next);
  }
  /* Told to stop mid-interval (the probe beside it has ended): one last, shorter
   * window, so the probe's last moments are watched too. */
  if (g_stop) {
    st->last_sample = 1;
    wt_sample(st, lg_now_ns());
  }
  wt_write_json(st, stdout, interval, "ok");
  fflush(stdout);
  return LG_EXIT_OK;
}
