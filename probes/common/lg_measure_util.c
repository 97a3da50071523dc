/* Units, clock, CPU placement and environment facts for the measuring probes. */
#include "lg_measure_util.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Splits "1.5ms" into 1.5 and "ms"; rejects empty numbers, negatives and junk. */
static int split_number(const char* text, double* value, const char** unit) {
  char* end;
  if (text == NULL || *text == '\0' || *text == '-' || *text == '+') return -1;
  errno = 0;
  *value = strtod(text, &end);
  if (end == text || errno != 0 || *value != *value) return -1;
  *unit = end;
  return 0;
}

int lg_parse_duration_ns(const char* text, uint64_t* out) {
  static const struct {
    const char* unit;
    double ns;
  } units[] = {{"ns", 1.0}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"m", 60e9}, {"h", 3600e9}};
  double v;
  const char* unit;
  size_t i;
  if (split_number(text, &v, &unit) != 0) return -1;
  if (*unit == '\0') {
    if (v != 0.0) return -1; /* a bare number is ambiguous: seconds? ms? */
    *out = 0;
    return 0;
  }
  for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
    if (strcmp(unit, units[i].unit) == 0) {
      double ns = v * units[i].ns;
      if (ns > 1e18) return -1;
      *out = (uint64_t)(ns + 0.5);
      return 0;
    }
  }
  return -1;
}

int lg_parse_size(const char* text, uint64_t* out) {
  double v;
  const char* unit;
  double mult;
  if (split_number(text, &v, &unit) != 0) return -1;
  if (*unit == '\0' || strcmp(unit, "B") == 0)
    mult = 1;
  else if (strcmp(unit, "KiB") == 0)
    mult = 1024;
  else if (strcmp(unit, "MiB") == 0)
    mult = 1024.0 * 1024;
  else
    return -1;
  v *= mult;
  if (v != (double)(uint64_t)v || v > 1e12) return -1; /* whole bytes only */
  *out = (uint64_t)v;
  return 0;
}

int lg_parse_rate(const char* text, double* out) {
  double v;
  const char* unit;
  if (split_number(text, &v, &unit) != 0) return -1;
  if (*unit != '\0' && strcmp(unit, "/s") != 0) return -1;
  if (!(v > 0) || v > LG_PROBE_MAX_RATE) return -1;
  *out = v;
  return 0;
}

int lg_parse_long(const char* text, long min, long max, long* out) {
  char* end;
  long v;
  if (text == NULL || *text == '\0') return -1;
  errno = 0;
  v = strtol(text, &end, 10);
  if (*end != '\0' || errno != 0 || v < min || v > max) return -1;
  *out = v;
  return 0;
}

void lg_usage_error(const char* probe, const char* fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", probe);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (try %s --help)\n", probe);
  exit(LG_EXIT_USAGE);
}

uint64_t lg_duration_arg(const char* probe, const char* flag, const char* text) {
  uint64_t v;
  if (lg_parse_duration_ns(text, &v) != 0)
    lg_usage_error(probe, "%s: '%s' is not a duration (e.g. 250us, 100ms, 2s, 5m)", flag, text);
  return v;
}

long lg_long_arg(const char* probe, const char* flag, const char* text, long min, long max) {
  long v;
  if (lg_parse_long(text, min, max, &v) != 0)
    lg_usage_error(probe, "%s: '%s' is not an integer in [%ld, %ld]", flag, text, min, max);
  return v;
}

uint64_t lg_size_arg(const char* probe, const char* flag, const char* text) {
  uint64_t v;
  if (lg_parse_size(text, &v) != 0 || v == 0)
    lg_usage_error(probe, "%s: '%s' is not a size (e.g. 16KiB, 1GiB)", flag, text);
  return v;
}

int lg_pin_cpu(int cpu) {
  cpu_set_t set;
  if (cpu < 0 || cpu >= CPU_SETSIZE) {
    errno = EINVAL;
    return -1;
  }
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof(set), &set);
}

/* Field 39 of /proc/self/stat; the comm field (2) may hold spaces, so count
 * from the closing parenthesis. */
static int cpu_from_proc_stat(void) {
  char buf[1024];
  FILE* f = fopen("/proc/self/stat", "r");
  size_t n;
  char* p;
  int field = 2;
  if (f == NULL) return -1;
  n = fread(buf, 1, sizeof(buf) - 1, f);
  fclose(f);
  buf[n] = '\0';
  p = strrchr(buf, ')');
  if (p == NULL) return -1;
  while (*p && field < 39) {
    if (*p == ' ') field++;
    p++;
  }
  return field == 39 ? atoi(p) : -1;
}

/* 1: the kernel has the getcpu system call (2.6.19+), -1: not, 0: not asked yet. */
static int g_has_getcpu;

int lg_current_cpu(const char** source) {
  /* Whether the kernel has getcpu is asked once, of the system call; after that
   * sched_getcpu reads the vDSO's getcpu (no system call, a few ns; it makes the
   * system call where there is none). Outlier capture calls this per outlier
   * and per window: a system call there was half its cost. Asking the system
   * call first keeps a vDSO from answering where the kernel would not (under
   * the RHEL 5 emulation, which filters system calls only): 2.6.18 reads /proc. */
  unsigned first = 0;
  int cpu;
  if (g_has_getcpu == 0) g_has_getcpu = syscall(SYS_getcpu, &first, NULL, NULL) == 0 ? 1 : -1;
  if (g_has_getcpu > 0 && (cpu = sched_getcpu()) >= 0) {
    *source = "getcpu";
    return cpu;
  }
  *source = "proc_stat";
  return cpu_from_proc_stat();
}

void lg_clock_source(char* buf, size_t len) {
  FILE* f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
  size_t n;
  snprintf(buf, len, "unknown");
  if (f == NULL) return;
  if (fgets(buf, (int)len, f) == NULL) snprintf(buf, len, "unknown");
  fclose(f);
  n = strlen(buf);
  while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = '\0';
}

double lg_timer_cost_ns(void) {
  enum { kCalls = 200000 };
  uint64_t start, end;
  volatile uint64_t sink = 0;
  int i;
  lg_now_ns(); /* fault in the vDSO page before timing */
  start = lg_now_ns();
  for (i = 0; i < kCalls; i++) sink += lg_now_ns();
  end = lg_now_ns();
  (void)sink;
  return (double)(end - start) / kCalls;
}

long lg_max_rss_kb(const char** source) {
  struct rusage ru;
  char line[256];
  FILE* f = fopen("/proc/self/status", "r");
  if (f != NULL) {
    while (fgets(line, sizeof(line), f) != NULL) {
      if (strncmp(line, "VmHWM:", 6) == 0) {
        fclose(f);
        *source = "proc_status_vmhwm";
        return atol(line + 6);
      }
    }
    fclose(f);
  }
  *source = "getrusage";
  return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

void lg_json_string(FILE* out, const char* s) {
  const unsigned char* p = (const unsigned char*)s;
  fputc('"', out);
  for (; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(out, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(out, "\\u%04x", *p);
    else
      fputc(*p, out);
  }
  fputc('"', out);
}

static volatile int* stop_flag;

static void on_stop(int sig) {
  (void)sig;
  if (stop_flag) *stop_flag = 1;
}

void lg_prefault(void* p, size_t n) {
  volatile char* c = (volatile char*)p;
  size_t i;
  for (i = 0; i < n; i += 4096) c[i] = 0;
  if (n > 0) c[n - 1] = 0;
}

int lg_stop_requested(void) { return stop_flag != NULL && *stop_flag; }

void lg_install_stop_handlers(volatile int* flag) {
  struct sigaction sa;
  stop_flag = flag;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_stop; /* no SA_RESTART: a blocked poll() returns EINTR */
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
}

static char deadline_msg[160];

static void on_deadline(int sig) {
  (void)sig;
  if (write(2, deadline_msg, strlen(deadline_msg)) < 0) _exit(LG_EXIT_RUN);
  _exit(LG_EXIT_RUN);
}

void lg_arm_deadline(const char* probe, unsigned seconds) {
  snprintf(deadline_msg, sizeof(deadline_msg),
           "%s: hard deadline (%u s: the run plus its margin) passed; giving up\n", probe, seconds);
  signal(SIGALRM, on_deadline);
  alarm(seconds);
}

void lg_json_memory(FILE* out) {
  const char* source = "none";
  long kb = lg_max_rss_kb(&source);
  fprintf(out, "{\"max_rss_kb\":%ld,\"source\":\"%s\"}", kb, source);
}

void lg_json_clock(FILE* out, double timer_cost_ns) {
  char source[64];
  lg_clock_source(source, sizeof(source));
  fprintf(out, "{\"source\":");
  lg_json_string(out, source);
  fprintf(out, ",\"timer_cost_ns\":%.1f}", timer_cost_ns);
}
