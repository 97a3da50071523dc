/* The watch's state: every buffer it will ever use, taken at start. */
#ifndef LABGATE_PROBES_WT_STATE_H
#define LABGATE_PROBES_WT_STATE_H

#include "wt.h"

#define WT_MAX_TASKS 1024
#define WT_SEEN 8192

typedef struct wt_task {
  int pid;
  char comm[32];
  uint64_t runtime_ns; /**< UINT64_MAX until seen twice */
} wt_task;

typedef struct wt_state {
  int cpus[WT_MAX_CPUS], ncpus;
  int self;            /**< our own pid: never a suspect */
  int has_softirqs;    /**< /proc/softirqs exists (2.6.31+) */
  unsigned task_every; /**< scan tasks every this many samples */
  int last_sample; /**< the window closed on stop: it scans the tasks whatever the count */
  wt_window* ring;     /**< the last `cap` windows */
  uint64_t cap, samples;
  uint64_t last_t, last_task_scan;
  wt_names irq_names, softirq_names;
  uint64_t irq_cur[WT_MAX_NAMES * WT_MAX_CPUS], irq_prev[WT_MAX_NAMES * WT_MAX_CPUS];
  uint64_t softirq_cur[WT_MAX_NAMES * WT_MAX_CPUS], softirq_prev[WT_MAX_NAMES * WT_MAX_CPUS];
  wt_cpustat stat_prev[WT_MAX_CPUS];
  int msr_fd[WT_MAX_CPUS];
  uint64_t smi_prev[WT_MAX_CPUS];
  char smi_why[192];     /**< empty when every watched CPU's SMI count is readable */
  int has_schedstat;     /**< /proc/self/schedstat exists: run time in ns */
  int seen_tid[WT_SEEN]; /**< every task's last run time, by tid (open addressing) */
  uint64_t seen_rt[WT_SEEN];
  wt_task tasks[WT_MAX_TASKS];
  int ntasks;
  uint64_t tasks_not_kept;
  char buf[262144]; /**< one /proc file at a time */
} wt_state;

void wt_open_smi(wt_state* st);
/** Takes one sample at `now` (CLOCK_MONOTONIC ns): the window since the last. */
void wt_sample(wt_state* st, uint64_t now);
/** The whole result: parameters, sources, names, tasks and the kept windows. */
void wt_write_json(const wt_state* st, FILE* out, uint64_t interval_ns, const char* status);

#endif
