/* cmdrun: kind = "command" for labgate. Runs one argv N times (or for a
 * duration) on the target and times each run with CLOCK_MONOTONIC from just
 * before fork() to the return of waitpid(): the command's own cost plus one
 * fork+exec, nothing of SSH or a shell. It is the one probe that starts other
 * programs, because starting the profile's program is what it measures.
 *
 * Why a probe and not a remote shell loop: RHEL 5's /bin/sh (bash 3.2) has no
 * sub-second clock, and `date +%s%N` would add two fork+execs of date (a
 * millisecond or more on old hardware) to every figure; one SSH exec per run
 * would add a channel set-up of several ms. The probe's own floor is measured
 * (fork+exec of itself doing nothing) and printed beside, never subtracted. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lg_measure_util.h"
#include "probe_common.h"

static const char kUsage[] =
    "usage:\n"
    "  cmdrun (--count N | --duration D) [--pause D] [--timeout 30s] [--scratch DIR] -- ARGV...\n"
    "Runs ARGV (found on PATH, no shell) COUNT times, or until DURATION has passed,\n"
    "with stdin and stdout on /dev/null, and prints one JSON document: per run the\n"
    "wall time in ns, the exit status and whether it was killed at the timeout, the\n"
    "first failure's stderr (200 bytes, kept in an unlinked file in DIR), and the\n"
    "fork+exec floor measured on this host. Exit status: 0 ran (whatever the runs\n"
    "returned), 2 usage error, 3 could not run at all.\n";

#define NOOP_FLAG "--labgate-cmdrun-noop"
#define OVERHEAD_RUNS 9
#define STDERR_KEEP 200

enum { OPT_COUNT = 256, OPT_DURATION, OPT_PAUSE, OPT_TIMEOUT, OPT_SCRATCH, OPT_HELP };

static const struct option kOptions[] = {{"count", required_argument, 0, OPT_COUNT},
                                         {"duration", required_argument, 0, OPT_DURATION},
                                         {"pause", required_argument, 0, OPT_PAUSE},
                                         {"timeout", required_argument, 0, OPT_TIMEOUT},
                                         {"scratch", required_argument, 0, OPT_SCRATCH},
                                         {"help", no_argument, 0, OPT_HELP},
                                         {0, 0, 0, 0}};

typedef struct {
  uint64_t wall_ns;
  int status; /* exit status, or 128+signal when killed by a signal */
  int timed_out;
} run_t;

/* The running child's process group, for the alarm and stop handlers. */
static volatile pid_t g_child = 0;
static volatile int g_timed_out = 0;
static volatile int g_stop = 0;

static void on_alarm(int sig) {
  (void)sig;
  if (g_child > 0) {
    g_timed_out = 1;
    kill(-g_child, SIGKILL);
  }
}

static void on_stop(int sig) {
  (void)sig;
  g_stop = 1;
  if (g_child > 0) kill(-g_child, SIGKILL);
}

static void set_timer(uint64_t ns) {
  struct itimerval it;
  memset(&it, 0, sizeof(it));
  it.it_value.tv_sec = (time_t)(ns / 1000000000ull);
  it.it_value.tv_usec = (suseconds_t)((ns % 1000000000ull) / 1000);
  if (ns > 0 && it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0) it.it_value.tv_usec = 1;
  setitimer(ITIMER_REAL, &it, NULL);
}

/* One run of argv: fork, exec, wait. errfd (or -1) receives the child's stderr. */
static run_t run_once(char** argv, int errfd, uint64_t timeout_ns) {
  run_t r;
  int status = 0;
  pid_t pid;
  memset(&r, 0, sizeof(r));
  if (errfd >= 0) {
    if (ftruncate(errfd, 0) != 0) { /* a full disk only loses the stderr excerpt */
    }
    lseek(errfd, 0, SEEK_SET);
  }
  g_timed_out = 0;
  const uint64_t t0 = lg_now_ns();
  pid = fork();
  if (pid < 0) {
    r.status = -1;
    return r;
  }
  if (pid == 0) {
    int null = open("/dev/null", O_RDWR);
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* the probe killed outright takes its run along */
    signal(SIGALRM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    if (null >= 0) {
      dup2(null, 0);
      dup2(null, 1);
      if (errfd < 0) dup2(null, 2);
    }
    if (errfd >= 0) dup2(errfd, 2);
    execvp(argv[0], argv);
    fprintf(stderr, "cmdrun: cannot execute %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid); /* also here: the alarm may fire before the child runs */
  g_child = pid;
  if (timeout_ns > 0) set_timer(timeout_ns);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.wall_ns = lg_now_ns() - t0;
  set_timer(0);
  kill(-pid, SIGKILL); /* whatever the command left in its group does not outlive the run */
  g_child = 0;
  r.timed_out = g_timed_out;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

static int cmp_u64(const void* a, const void* b) {
  const uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
  return x < y ? -1 : x > y;
}

static void sleep_ns(uint64_t ns) {
  struct timespec ts;
  ts.tv_sec = (time_t)(ns / 1000000000ull);
  ts.tv_nsec = (long)(ns % 1000000000ull);
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !g_stop) {
  }
}

static void json_error(const char* why) {
  printf("{\"format\":\"labgate-probe-1\",\"probe\":\"cmdrun\",\"status\":\"error\",\"error\":");
  lg_json_string(stdout, why);
  printf("}\n");
}

int main(int argc, char** argv) {
  long count = -1;
  uint64_t duration_ns = 0, pause_ns = 0, timeout_ns = 30000000000ull;
  const char* scratch = NULL;
  int opt, errfd = -1, i;
  uint64_t overhead[OVERHEAD_RUNS];
  char self_noop[] = NOOP_FLAG;
  char self_path[] = "/proc/self/exe";
  char* noop_argv[3];
  char first_err[STDERR_KEEP + 1];
  int have_failure = 0;
  run_t* runs = NULL;
  size_t n = 0, cap = 0;
  struct sigaction sa;

  if (argc == 2 && strcmp(argv[1], NOOP_FLAG) == 0) return 0;
  if (lg_probe_common_flags(argc, argv, "cmdrun")) return 0;
  opterr = 0;
  while ((opt = getopt_long(argc, argv, "+", kOptions, NULL)) != -1) {
    uint64_t v;
    switch (opt) {
      case OPT_COUNT:
        if (lg_parse_long(optarg, 1, 100000000L, &count) != 0)
          lg_usage_error("cmdrun", "--count: '%s' is not an integer in [1, 100000000]", optarg);
        break;
      case OPT_DURATION:
      case OPT_PAUSE:
      case OPT_TIMEOUT:
        if (lg_parse_duration_ns(optarg, &v) != 0)
          lg_usage_error("cmdrun", "'%s' is not a duration (e.g. 100ms, 2s)", optarg);
        if (opt == OPT_DURATION) duration_ns = v;
        if (opt == OPT_PAUSE) pause_ns = v;
        if (opt == OPT_TIMEOUT) timeout_ns = v;
        break;
      case OPT_SCRATCH:
        scratch = optarg;
        break;
      case OPT_HELP:
        fputs(kUsage, stdout);
        return 0;
      default:
        lg_usage_error("cmdrun", "unknown option or missing value: '%s'", argv[optind - 1]);
    }
  }
  if (optind >= argc)
    lg_usage_error("cmdrun", "no command: put it after --, e.g. -- dig @ns1 example.internal");
  if ((count > 0) == (duration_ns > 0))
    lg_usage_error("cmdrun", "give exactly one of --count and --duration");
  if (timeout_ns == 0) lg_usage_error("cmdrun", "--timeout must be > 0");

  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_alarm; /* no SA_RESTART: waitpid and nanosleep return on a signal */
  sigaction(SIGALRM, &sa, NULL);
  sa.sa_handler = on_stop;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  if (scratch != NULL) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/cmdrun-stderr.%ld", scratch, (long)getpid());
    errfd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (errfd < 0) {
      char why[4400];
      snprintf(why, sizeof(why), "cannot create %s: %s", path, strerror(errno));
      json_error(why);
      return LG_EXIT_RUN;
    }
    unlink(path); /* nothing to clean up, whatever happens */
  }

  /* The floor: fork+exec of this static binary doing nothing, then wait. */
  noop_argv[0] = self_path;
  noop_argv[1] = self_noop;
  noop_argv[2] = NULL;
  for (i = 0; i < OVERHEAD_RUNS; ++i) {
    run_t r = run_once(noop_argv, -1, 5000000000ull);
    overhead[i] = r.status == 0 ? r.wall_ns : 0;
  }
  qsort(overhead, OVERHEAD_RUNS, sizeof(overhead[0]), cmp_u64);

  first_err[0] = '\0';
  const uint64_t start = lg_now_ns();
  while (!g_stop) {
    if (count > 0 ? (long)n >= count : lg_now_ns() - start >= duration_ns) break;
    if (n > 0 && pause_ns > 0) sleep_ns(pause_ns);
    if (n == cap) {
      run_t* grown;
      cap = cap ? cap * 2 : 1024;
      grown = realloc(runs, cap * sizeof(*runs));
      if (grown == NULL) {
        json_error("out of memory for the run records");
        return LG_EXIT_RUN;
      }
      runs = grown;
    }
    runs[n] = run_once(argv + optind, errfd, timeout_ns);
    if (runs[n].status < 0) {
      char why[256];
      snprintf(why, sizeof(why), "fork failed: %s", strerror(errno));
      json_error(why);
      return LG_EXIT_RUN;
    }
    if (!have_failure && (runs[n].timed_out || runs[n].status != 0)) {
      have_failure = 1;
      if (errfd >= 0) {
        ssize_t got = pread(errfd, first_err, STDERR_KEEP, 0);
        first_err[got > 0 ? got : 0] = '\0';
      }
    }
    ++n;
  }
  const uint64_t elapsed = lg_now_ns() - start;

  printf(
      "{\"format\":\"labgate-probe-1\",\"probe\":\"cmdrun\",\"status\":\"ok\",\"clock\":\"CLOCK_MONOTONIC\"");
  printf(",\"interrupted\":%s,\"elapsed_ns\":%llu", g_stop ? "true" : "false", (unsigned long long)elapsed);
  printf(",\"exec_overhead_p50_ns\":%llu", (unsigned long long)overhead[OVERHEAD_RUNS / 2]);
  printf(",\"first_failure_stderr\":");
  lg_json_string(stdout, first_err);
  printf(",\"runs\":[");
  for (size_t k = 0; k < n; ++k)
    printf("%s[%llu,%d,%d]", k ? "," : "", (unsigned long long)runs[k].wall_ns, runs[k].status,
           runs[k].timed_out);
  printf("]}\n");
  free(runs);
  return LG_EXIT_OK;
}
