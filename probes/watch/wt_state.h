/* The watch's state: every buffer it will ever use, taken at start. */
#ifndef LABGATE_PROBES_WT_STATE_H
#define LABGATE_PROBES_WT_STATE_H

#include "wt.h"

#define WT_MAX_TASKS 1024
#define WT_SEEN 8192

typedef struct wt_task {
  int pid;
  char comm[32];
} wt_task;

/** A task the scan follows: its run-time file kept open between scans. */
typedef struct wt_kept {
  int pid, tid;
  int fd;      /**< schedstat (or stat) of the task, -1: reopened each scan (no fd to spare) */
  int stat_fd; /**< with schedstat: its stat, opened when it first ran; -1: not open */
  uint64_t rt; /**< run time at the last scan, UINT64_MAX until read once */
} wt_kept;

/** A process the scan follows: its task directory kept open between listings. */
typedef struct wt_proc {
  int pid;
  int dir_fd;  /**< /proc/PID/task, -1: opened per listing (no fd to spare) */
  int counted; /**< at its last listing the directory's link count was 2 + its tasks (proc_task_getattr) */
  int known;   /**< listed once: its tasks are in the kept set */
  uint64_t cpu_ns; /**< its CPU clock (all its tasks' run time) at the last scan; UINT64_MAX: not read */
  int ran;         /**< a kept task of it ran by the last scan's reads: read them, not the clock */
} wt_proc;

typedef struct wt_state {
  int cpus[WT_MAX_CPUS], ncpus;
  int self;            /**< our own pid: never a suspect */
  const char* placement; /**< where the watch itself ran (--away), for its document */
  int has_softirqs;    /**< /proc/softirqs exists (2.6.31+) */
  unsigned task_every; /**< scan tasks every this many samples */
  unsigned irq_every;  /**< read /proc/interrupts and /proc/stat every this many samples */
  int fd_interrupts, fd_softirqs, fd_stat; /**< kept open: lseek(0) + read each sample */
  int last_sample; /**< the window closed on stop: it scans the tasks whatever the count */
  wt_window* ring;     /**< the last `cap` windows */
  uint64_t cap, samples;
  uint64_t last_t, last_task_scan, last_irq_read;
  wt_names irq_names, softirq_names;
  uint64_t irq_cur[WT_MAX_NAMES * WT_MAX_CPUS], irq_prev[WT_MAX_NAMES * WT_MAX_CPUS];
  uint64_t softirq_cur[WT_MAX_NAMES * WT_MAX_CPUS], softirq_prev[WT_MAX_NAMES * WT_MAX_CPUS];
  wt_cpustat stat_prev[WT_MAX_CPUS];
  int msr_fd[WT_MAX_CPUS];
  uint64_t smi_prev[WT_MAX_CPUS];
  char smi_why[192];     /**< empty when every watched CPU's SMI count is readable */
  int has_schedstat;     /**< /proc/self/schedstat exists: run time in ns */
  wt_kept kept[WT_SEEN]; /**< every task, sorted by pid then tid */
  wt_kept listed[WT_SEEN];      /**< scratch of a listing of /proc */
  int nkept, fds_left;          /**< fds_left: how many more files may stay open */
  int fd_proc, fd_loadavg;      /**< /proc (its listings), /proc/loadavg (the kernel's task count) */
  wt_proc procs[WT_SEEN], procs_listed[WT_SEEN]; /**< every process, sorted by pid; scratch */
  int nprocs;
  int pids[WT_SEEN], tids[WT_SEEN]; /**< scratch: one directory's numbers */
  char dents[32768];                /**< scratch: one getdents64 answer */
  int relist;                   /**< list /proc at the next scan (a kept task vanished) */
  int no_pread;                 /**< a /proc file refused pread (2.6.18's seq_file) */
  uint64_t forks, forks_listed; /**< /proc/stat "processes": now, and at the last listing */
  int forks_fresh;              /**< this sample read "processes" (else no scan may skip a process) */
  int cpu_clocks;               /**< another process's CPU clock is readable, by /proc's pids */
  wt_task tasks[WT_MAX_TASKS];
  int ntasks;
  uint64_t tasks_not_kept;
  uint64_t tasks_unlisted; /**< the most tasks one listing of /proc had no room for */
  char buf[262144]; /**< one /proc file at a time */
} wt_state;

void wt_open_smi(wt_state* st);
/** Opens the /proc tables and sizes the fd budget of the task scan. */
void wt_open_sources(wt_state* st);
void wt_add_item(wt_window* w, char kind, int cpu_ix, int name, uint64_t delta);
/** Reads an open /proc file from its start into st->buf; its length or -1. */
long wt_reread(wt_state* st, int fd, int one_record);
/** Whether the task scan may ask processes' CPU clocks (after wt_open_sources). */
void wt_open_cpu_clocks(wt_state* st);
/** The task scan: what ran on the watched CPUs since the last one, into `w`. */
void wt_scan_tasks(wt_state* st, wt_window* w);
/** Takes one sample at `now` (CLOCK_MONOTONIC ns): the window since the last. */
void wt_sample(wt_state* st, uint64_t now);
/** The whole result: parameters, sources, names, tasks and the kept windows. */
void wt_write_json(const wt_state* st, FILE* out, uint64_t interval_ns, const char* status);

#endif
