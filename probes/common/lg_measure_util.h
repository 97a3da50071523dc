/* What the measuring probes (pingpong, stream, jitter) share: parsing of the
 * units their flags take, the monotonic clock, CPU placement, the environment
 * facts every result carries (clock source, timer cost, memory), and JSON
 * string output. Everything here runs on Linux 2.6.18. */
#ifndef LABGATE_PROBES_LG_MEASURE_UTIL_H
#define LABGATE_PROBES_LG_MEASURE_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "labgate/measure/probe_limits.h"

/* Exit statuses of the measuring probes, the same meaning as labgate's own:
 * 0 measured, 2 usage error (bad flag or value), 3 could not measure (peer
 * gone, connect refused, deadline passed). */
#define LG_EXIT_OK 0
#define LG_EXIT_USAGE 2
#define LG_EXIT_RUN 3

/** Nanoseconds from CLOCK_MONOTONIC (never steps backwards, unlike gettimeofday). */
static inline uint64_t lg_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/** "250ns", "85us", "1.5ms", "2s", "5m", "1h" (a unit is required, "0" aside).
 * Returns 0 on success, -1 if the text is not a duration. */
int lg_parse_duration_ns(const char* text, uint64_t* out);

/** "64", "16KiB", "1MiB" (bytes). Returns 0 or -1. */
int lg_parse_size(const char* text, uint64_t* out);

/** "20000/s" or "20000" (messages per second, > 0). Returns 0 or -1. */
int lg_parse_rate(const char* text, double* out);

/** A decimal integer in [min, max]. Returns 0 or -1. */
int lg_parse_long(const char* text, long min, long max, long* out);

/** Prints "<probe>: <message>" on stderr and exits with LG_EXIT_USAGE. */
void lg_usage_error(const char* probe, const char* fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/** A command-line value of `flag` for `probe`, or lg_usage_error() saying what
 * was expected: a duration ("250us", "2s"), an integer in [min, max], a size
 * greater than 0 ("16KiB"). */
uint64_t lg_duration_arg(const char* probe, const char* flag, const char* text);
long lg_long_arg(const char* probe, const char* flag, const char* text, long min, long max);
uint64_t lg_size_arg(const char* probe, const char* flag, const char* text);

/** Pins the calling process to one CPU. Returns 0, or -1 with errno set. */
int lg_pin_cpu(int cpu);

/** The CPU the caller runs on now, or -1. `*source` names how it was learned:
 * "getcpu" (the vDSO's where there is one, else the system call; Linux >=
 * 2.6.19) or "proc_stat" (/proc/self/stat field 39, which 2.6.18 has). */
int lg_current_cpu(const char** source);

/** The kernel's clock source ("tsc", "hpet", "acpi_pm"...) or "unknown". */
void lg_clock_source(char* buf, size_t len);

/** Average cost of one clock_gettime(CLOCK_MONOTONIC) call in ns, measured now. */
double lg_timer_cost_ns(void);

/** Peak resident memory of this program in KiB: VmHWM from /proc/self/status
 * (2.6.18 has it; it starts afresh at exec, unlike getrusage's ru_maxrss, which
 * would count a launcher such as `ip netns exec`), else ru_maxrss (which 2.6.18
 * leaves 0). `*source` says which. */
long lg_max_rss_kb(const char** source);

/** Writes `s` as a JSON string literal (quoted, escaped). */
void lg_json_string(FILE* out, const char* s);

/** Ignores SIGPIPE and makes SIGINT/SIGTERM set *flag instead of killing, so a
 * probe that is told to stop still prints what it measured. */
void lg_install_stop_handlers(volatile int* flag);

/** Arms a last-resort deadline: if the process is still running `seconds` from
 * now it prints "<probe>: hard deadline ... passed" on stderr and exits with
 * LG_EXIT_RUN, so no caller ever waits on a wedged probe for ever. */
void lg_arm_deadline(const char* probe, unsigned seconds);

/** Writes to every page of [p, p+n) so it is resident before measuring starts.
 * memset(0) is not enough: the compiler may fold malloc+memset into calloc, and
 * calloc leaves fresh pages unmapped, to be faulted in one by one mid-run. */
void lg_prefault(void* p, size_t n);

/** Whether SIGINT/SIGTERM arrived since lg_install_stop_handlers. */
int lg_stop_requested(void);

/** Writes a JSON object {"max_rss_kb":N,"source":"..."}. */
void lg_json_memory(FILE* out);

/** Writes a JSON object {"source":"tsc","timer_cost_ns":21.4}; the cost is
 * measured by the caller before the run, so it describes the run's conditions. */
void lg_json_clock(FILE* out, double timer_cost_ns);

#endif
