/* One sample of the watch: reads the /proc files (and the SMI MSR) and turns
 * what changed since the last sample into a window. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "wt_state.h"

void wt_add_item(wt_window* w, char kind, int cpu_ix, int name, uint64_t delta) {
  if (w->n_items >= WT_ITEMS) {
    w->items_dropped++;
    return;
  }
  w->items[w->n_items].kind = (uint8_t)kind;
  w->items[w->n_items].cpu_ix = (uint8_t)cpu_ix;
  w->items[w->n_items].name = (uint16_t)name;
  w->items[w->n_items].delta = delta;
  w->n_items++;
}

/* Table counts -> items for what grew since the last sample. */
static void table_delta(wt_state* st, wt_window* w, char kind, const wt_names* names, uint64_t* cur,
                        uint64_t* prev) {
  int i, k, n = st->ncpus;
  for (i = 0; i < names->len; i++) {
    for (k = 0; k < n; k++) {
      uint64_t c = cur[i * n + k], p = prev[i * n + k];
      if (st->samples > 0 && c > p) wt_add_item(w, kind, k, i, c - p);
      prev[i * n + k] = c;
    }
  }
}

void wt_open_smi(wt_state* st) {
  int i;
  for (i = 0; i < st->ncpus; i++) {
    char path[64];
    uint64_t v;
    snprintf(path, sizeof(path), "/dev/cpu/%d/msr", st->cpus[i]);
    st->msr_fd[i] = open(path, O_RDONLY);
    if (st->msr_fd[i] < 0) {
      snprintf(st->smi_why, sizeof(st->smi_why), "not available: %s: %s (msr module not loaded, or not root)",
               path, strerror(errno));
    } else if (pread(st->msr_fd[i], &v, sizeof(v), 0x34) != (ssize_t)sizeof(v)) {
      snprintf(st->smi_why, sizeof(st->smi_why),
               "not available: MSR 0x34 (SMI count) unreadable on CPU %d: %s (not an Intel CPU, or a VM)",
               st->cpus[i], strerror(errno));
      close(st->msr_fd[i]);
      st->msr_fd[i] = -1;
    } else {
      st->smi_prev[i] = v;
    }
  }
}

void wt_open_sources(wt_state* st) {
  struct rlimit rl;
  st->fd_interrupts = open("/proc/interrupts", O_RDONLY);
  st->fd_softirqs = open("/proc/softirqs", O_RDONLY);
  st->fd_stat = open("/proc/stat", O_RDONLY);
  st->fd_proc = open("/proc", O_RDONLY | O_DIRECTORY);
  st->fd_loadavg = open("/proc/loadavg", O_RDONLY);
  st->has_softirqs = st->fd_softirqs >= 0;
  st->has_schedstat = access("/proc/self/schedstat", R_OK) == 0;
  /* The task scan keeps one file open per task: as many as the hard limit
   * allows, less a margin for everything else; the rest are opened per scan. */
  st->fds_left = 0;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
    if (rl.rlim_cur < rl.rlim_max && rl.rlim_cur < WT_SEEN + 64) {
      rl.rlim_cur = rl.rlim_max < WT_SEEN + 64 ? rl.rlim_max : WT_SEEN + 64;
      setrlimit(RLIMIT_NOFILE, &rl);
      getrlimit(RLIMIT_NOFILE, &rl);
    }
    st->fds_left = rl.rlim_cur > 64 ? (int)(rl.rlim_cur - 64) : 0;
  }
}

/* /proc/interrupts and /proc/stat: the costly reads (on a 2-vCPU VM, about
 * 110 us and 35 us of CPU per read against 20 us for /proc/softirqs), so taken
 * every irq_every samples, at each task scan and at the last. Their counters
 * are cumulative, so nothing is lost between reads: the window that reads them
 * carries what grew since the last read, with irq_since saying from when. */
static void read_irq_and_stat(wt_state* st, wt_window* w, uint64_t now) {
  wt_cpustat cs[WT_MAX_CPUS];
  int i;
  w->irq_since = st->last_irq_read;
  st->last_irq_read = now;
  st->forks_fresh = 0;
  if (st->fd_interrupts >= 0 && wt_reread(st, st->fd_interrupts, 0) > 0 &&
      wt_parse_per_cpu_table(st->buf, st->cpus, st->ncpus, &st->irq_names, st->irq_cur, 1) >= 0)
    table_delta(st, w, 'i', &st->irq_names, st->irq_cur, st->irq_prev);
  if (st->fd_stat < 0 || wt_reread(st, st->fd_stat, 1) <= 0) return;
  st->forks_fresh = wt_parse_forks(st->buf, &st->forks) == 0;
  if (wt_parse_stat(st->buf, st->cpus, st->ncpus, cs) > 0) {
    for (i = 0; i < st->ncpus; i++) {
      if (st->samples > 0) {
        w->cpu[i].irq_j = (uint32_t)(cs[i].irq - st->stat_prev[i].irq);
        w->cpu[i].softirq_j = (uint32_t)(cs[i].softirq - st->stat_prev[i].softirq);
        w->cpu[i].steal_j = (uint32_t)(cs[i].steal - st->stat_prev[i].steal);
      }
      st->stat_prev[i] = cs[i];
    }
  }
}

void wt_sample(wt_state* st, uint64_t now) {
  wt_window* w = &st->ring[st->samples % st->cap];
  const int scan = st->samples % st->task_every == 0 || st->last_sample;
  int i;
  memset(w, 0, sizeof(*w));
  w->t0 = st->last_t;
  w->t1 = now;
  w->tasks_since = st->last_task_scan;
  if (st->has_softirqs && wt_reread(st, st->fd_softirqs, 1) > 0 &&
      wt_parse_per_cpu_table(st->buf, st->cpus, st->ncpus, &st->softirq_names, st->softirq_cur, 0) >= 0)
    table_delta(st, w, 's', &st->softirq_names, st->softirq_cur, st->softirq_prev);
  if (st->samples % st->irq_every == 0 || scan) read_irq_and_stat(st, w, now);
  for (i = 0; i < st->ncpus; i++) {
    uint64_t v;
    w->cpu[i].smi = -1;
    if (st->msr_fd[i] >= 0 && pread(st->msr_fd[i], &v, sizeof(v), 0x34) == (ssize_t)sizeof(v)) {
      w->cpu[i].smi = (int32_t)(v - st->smi_prev[i]);
      st->smi_prev[i] = v;
    }
  }
  if (scan) {
    wt_scan_tasks(st, w);
    st->last_task_scan = now;
  }
  st->last_t = now;
  st->samples++;
}
