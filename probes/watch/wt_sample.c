/* One sample of the watch: reads the /proc files (and the SMI MSR) and turns
 * what changed since the last sample into a window. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wt_state.h"

/* Reads a whole small file into st->buf; returns its length or -1. */
static long slurp(wt_state* st, const char* path) {
  int fd = open(path, O_RDONLY);
  long n = 0;
  ssize_t r;
  if (fd < 0) return -1;
  while ((r = read(fd, st->buf + n, sizeof(st->buf) - 1 - (size_t)n)) > 0) n += r;
  close(fd);
  st->buf[n] = '\0';
  return r < 0 ? -1 : n;
}

static void add_item(wt_window* w, char kind, int cpu_ix, int name, uint64_t delta) {
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
      if (st->samples > 0 && c > p) add_item(w, kind, k, i, c - p);
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

static wt_task* task_slot(wt_state* st, int pid, const char* comm) {
  int i;
  for (i = 0; i < st->ntasks; i++) {
    if (st->tasks[i].pid == pid && strcmp(st->tasks[i].comm, comm) == 0) return &st->tasks[i];
  }
  if (st->ntasks >= WT_MAX_TASKS) {
    st->tasks_not_kept++;
    return NULL;
  }
  st->tasks[st->ntasks].pid = pid;
  snprintf(st->tasks[st->ntasks].comm, sizeof(st->tasks[0].comm), "%s", comm);
  st->tasks[st->ntasks].runtime_ns = UINT64_MAX; /* first sight: no growth known yet */
  return &st->tasks[st->ntasks++];
}

/* The slot of `tid` in the seen table (0 = free), or NULL when it is full. */
static int seen_slot(wt_state* st, int tid) {
  unsigned h = (unsigned)tid * 2654435761u, k;
  for (k = 0; k < WT_SEEN; k++) {
    unsigned i = (h + k) % WT_SEEN;
    if (st->seen_tid[i] == tid || st->seen_tid[i] == 0) return (int)i;
  }
  return -1;
}

/* One task: a schedstat read (cheap) tells whether it ran since the last scan;
 * only then is its stat read (comm, CPU). Without schedstat every stat is read. */
static void scan_task(wt_state* st, wt_window* w, int pid, int tid) {
  char path[64], comm[32];
  int cpu, i, slot = -1;
  uint64_t jiffies, rt = 0, before = UINT64_MAX;
  wt_task* t;
  if (st->has_schedstat) {
    snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, tid);
    if (slurp(st, path) <= 0) return;
    rt = strtoull(st->buf, NULL, 10);
    slot = seen_slot(st, tid);
    if (slot >= 0) {
      if (st->seen_tid[slot] == tid) before = st->seen_rt[slot];
      st->seen_tid[slot] = tid;
      st->seen_rt[slot] = rt;
      if (before == rt) return; /* did not run */
    }
  }
  snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
  if (slurp(st, path) <= 0 || wt_parse_task_stat(st->buf, comm, sizeof(comm), &cpu, &jiffies) != 0) return;
  for (i = 0; i < st->ncpus && st->cpus[i] != cpu; i++) {
  }
  if (i == st->ncpus || (t = task_slot(st, tid, comm)) == NULL) return; /* not on a watched CPU */
  if (!st->has_schedstat) { /* its stat is read every scan: the last value is fresh */
    rt = jiffies * (1000000000ull / 100);
    before = t->runtime_ns;
  }
  if (before != UINT64_MAX && rt > before) add_item(w, 't', i, (int)(t - st->tasks), rt - before);
  t->runtime_ns = rt;
}

static void scan_tasks(wt_state* st, wt_window* w) {
  DIR* procs = opendir("/proc");
  struct dirent* p;
  if (procs == NULL) return;
  while ((p = readdir(procs)) != NULL) {
    char tdir[48];
    DIR* tasks;
    struct dirent* t;
    int pid;
    if (p->d_name[0] < '0' || p->d_name[0] > '9') continue;
    pid = atoi(p->d_name);
    snprintf(tdir, sizeof(tdir), "/proc/%d/task", pid);
    if ((tasks = opendir(tdir)) == NULL) continue;
    while ((t = readdir(tasks)) != NULL) {
      if (t->d_name[0] >= '0' && t->d_name[0] <= '9' && atoi(t->d_name) != st->self)
        scan_task(st, w, pid, atoi(t->d_name));
    }
    closedir(tasks);
  }
  closedir(procs);
}

void wt_sample(wt_state* st, uint64_t now) {
  wt_window* w = &st->ring[st->samples % st->cap];
  wt_cpustat cs[WT_MAX_CPUS];
  int i;
  memset(w, 0, sizeof(*w));
  w->t0 = st->last_t;
  w->t1 = now;
  w->tasks_since = st->last_task_scan;
  if (slurp(st, "/proc/interrupts") > 0 &&
      wt_parse_per_cpu_table(st->buf, st->cpus, st->ncpus, &st->irq_names, st->irq_cur, 1) >= 0)
    table_delta(st, w, 'i', &st->irq_names, st->irq_cur, st->irq_prev);
  if (st->has_softirqs && slurp(st, "/proc/softirqs") > 0 &&
      wt_parse_per_cpu_table(st->buf, st->cpus, st->ncpus, &st->softirq_names, st->softirq_cur, 0) >= 0)
    table_delta(st, w, 's', &st->softirq_names, st->softirq_cur, st->softirq_prev);
  if (slurp(st, "/proc/stat") > 0 && wt_parse_stat(st->buf, st->cpus, st->ncpus, cs) > 0) {
    for (i = 0; i < st->ncpus; i++) {
      if (st->samples > 0) {
        w->cpu[i].irq_j = (uint32_t)(cs[i].irq - st->stat_prev[i].irq);
        w->cpu[i].softirq_j = (uint32_t)(cs[i].softirq - st->stat_prev[i].softirq);
        w->cpu[i].steal_j = (uint32_t)(cs[i].steal - st->stat_prev[i].steal);
      }
      st->stat_prev[i] = cs[i];
    }
  }
  for (i = 0; i < st->ncpus; i++) {
    uint64_t v;
    w->cpu[i].smi = -1;
    if (st->msr_fd[i] >= 0 && pread(st->msr_fd[i], &v, sizeof(v), 0x34) == (ssize_t)sizeof(v)) {
      w->cpu[i].smi = (int32_t)(v - st->smi_prev[i]);
      st->smi_prev[i] = v;
    }
  }
  if (st->samples % st->task_every == 0 || st->last_sample) {
    scan_tasks(st, w);
    st->last_task_scan = now;
  }
  st->last_t = now;
  st->samples++;
}
