/* The noise watch probe: what else happened on the test's CPUs, window by
 * window (CLOCK_MONOTONIC, the probes' clock), so that a latency outlier on
 * this host joins with the interrupts, softirqs, steal, other tasks and SMIs
 * around it. Parsers of /proc text are pure functions over a buffer (unit-tested
 * on recorded RHEL 5.8 / 7 / 9 files); memory is fixed at start. */
#ifndef LABGATE_PROBES_WT_H
#define LABGATE_PROBES_WT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WT_MAX_CPUS 16
#define WT_MAX_NAMES 512
#define WT_NAME_LEN 48
#define WT_ITEMS 32 /* interrupt/softirq/task entries per window */

/** Names seen in /proc/interrupts or /proc/softirqs, in first-seen order. */
typedef struct wt_names {
  char name[WT_MAX_NAMES][WT_NAME_LEN];
  int len;
  int full; /**< a name did not fit (more than WT_MAX_NAMES) */
  int next; /**< the index the next line had last time: lines keep their order between reads */
} wt_names;

/** Per watched CPU from a /proc/stat "cpuN" line, in jiffies (USER_HZ). */
typedef struct wt_cpustat {
  uint64_t irq, softirq, steal;
  int seen;
} wt_cpustat;

/** /proc/interrupts or /proc/softirqs: for each line, its name's index in
 * `names` (added when new) and its count on each watched CPU, into
 * counts[index * ncpus + i] (room for WT_MAX_NAMES * ncpus). Returns the number
 * of lines read, -1 if the header (CPU0 CPU1 ...) is missing. */
int wt_parse_per_cpu_table(const char* text, const int* cpus, int ncpus, wt_names* names, uint64_t* counts,
                           int irq_style);

/** /proc/stat: fills out[i] for cpus[i] (irq, softirq, steal; steal 0 before
 * 2.6.11). Returns how many of the CPUs were found. */
int wt_parse_stat(const char* text, const int* cpus, int ncpus, wt_cpustat* out);

/** /proc/stat's "processes" line: tasks created since boot (every fork and
 * clone, threads too). Returns 0 and sets *forks, or -1 when absent. */
int wt_parse_forks(const char* text, uint64_t* forks);

/** /proc/PID/task/TID/stat: comm, the CPU it last ran on (field 39) and
 * utime+stime (jiffies). Returns 0 or -1. */
int wt_parse_task_stat(const char* text, char* comm, size_t comm_len, int* cpu, uint64_t* jiffies);

/** /proc/loadavg's "running/total": the number of tasks (threads) there are.
 * Returns 0 and sets *tasks, or -1. */
int wt_parse_loadavg_tasks(const char* text, uint64_t* tasks);

/** A getdents64 buffer of `len` bytes (struct linux_dirent64 records: d_ino 8,
 * d_off 8, d_reclen 2, d_type 1, d_name): the entries whose name is a number
 * (a /proc pid or a task's tid), appended to out[*n] while *n < max; the
 * numbers that did not fit are added to *over. Returns -1 when a record's
 * length runs past the buffer (not a getdents64 answer), else 0. */
int wt_parse_dirents(const char* buf, long len, int* out, int* n, int max, uint64_t* over);

/** One entry of a window: an interrupt or softirq count, or a task's run time. */
typedef struct wt_item {
  uint8_t kind;   /**< 'i' interrupt, 's' softirq, 't' task */
  uint8_t cpu_ix; /**< index into the watched CPUs */
  uint16_t name;  /**< interrupt/softirq name index; task: index into the task table */
  uint32_t pad;
  uint64_t delta; /**< count, or task run time in ns */
} wt_item;

typedef struct wt_window {
  uint64_t t0, t1;      /**< CLOCK_MONOTONIC ns */
  uint64_t irq_since;   /**< the interrupt entries and cpu jiffies cover [irq_since, t1]; 0: not read */
  uint64_t tasks_since; /**< the task entries cover [tasks_since, t1] (scanned less often) */
  struct {
    uint32_t irq_j, softirq_j, steal_j;
    int32_t smi; /**< -1: not available */
  } cpu[WT_MAX_CPUS];
  uint16_t n_items, items_dropped;
  wt_item items[WT_ITEMS];
} wt_window;

#endif
