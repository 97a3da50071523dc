/* The watch's task scan: which other tasks ran on the watched CPUs, and for how
 * long, since the last scan.
 *
 * Cheap because every task's run-time file (/proc/PID/task/TID/schedstat, or
 * its stat without schedstat) stays open between scans and is re-read from
 * offset 0, and /proc is listed again only when a task may be missing from the
 * kept set. The evidence stays complete: a task that is not kept was created
 * after the last listing, and every fork or clone (threads too) raises /proc/stat's
 * "processes" count, which the sample reads just before each scan; so the scan
 * lists /proc whenever that count moved (or a kept task vanished, which also
 * covers a reused tid), and otherwise the kept set is every task there is. A
 * task born and dead between two scans is missed, as it was when /proc was
 * listed at every scan. Only the tasks whose run time grew have their stat read
 * (comm, CPU), as before. System calls: open, lseek, read, close, getdents:
 * all in 2.6.18. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wt_state.h"

long wt_reread(wt_state* st, int fd, int one_record) {
  const size_t cap = sizeof(st->buf) - 1;
  long n = 0;
  ssize_t r;
  /* pread where the file allows it (one system call); 2.6.18's seq_file
   * refuses it (ESPIPE): lseek + read from then on. A seq_file read returns at
   * most its buffer (a page at first), so a table is read until the end; a
   * one-record file (a task's schedstat or stat) is whole after one read. */
  if (!st->no_pread) {
    r = pread(fd, st->buf, cap, 0);
    if (r < 0 && errno == ESPIPE) st->no_pread = 1;
    while (!st->no_pread && r > 0 && !one_record && (n += r) < (long)cap)
      r = pread(fd, st->buf + n, cap - (size_t)n, n);
    if (one_record && r > 0) n = r;
  }
  if (st->no_pread) {
    if (lseek(fd, 0, SEEK_SET) != 0) return -1;
    n = 0;
    while ((r = read(fd, st->buf + n, cap - (size_t)n)) > 0 && (n += r) < (long)cap && !one_record) {
    }
  }
  st->buf[n] = '\0';
  return r < 0 ? -1 : n;
}

static long read_path(wt_state* st, const char* path) {
  int fd = open(path, O_RDONLY);
  long n;
  if (fd < 0) return -1;
  n = wt_reread(st, fd, 1);
  close(fd);
  return n;
}

static void runtime_path(const wt_state* st, const wt_kept* k, char* path, size_t len) {
  snprintf(path, len, "/proc/%d/task/%d/%s", k->pid, k->tid, st->has_schedstat ? "schedstat" : "stat");
}

static void close_kept(wt_state* st, wt_kept* k) {
  if (k->fd >= 0) close(k->fd), st->fds_left++;
  if (k->stat_fd >= 0) close(k->stat_fd), st->fds_left++;
  k->fd = k->stat_fd = -1;
}

static int by_tid(const void* a, const void* b) {
  const wt_kept* x = (const wt_kept*)a;
  const wt_kept* y = (const wt_kept*)b;
  return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Every task of /proc into st->listed (sorted), itself left out. */
static int list_tasks(wt_state* st) {
  DIR* procs = opendir("/proc");
  struct dirent* p;
  int n = 0;
  uint64_t over = 0;
  if (procs == NULL) return -1;
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
      int tid = atoi(t->d_name);
      if (t->d_name[0] < '0' || t->d_name[0] > '9' || tid == st->self) continue;
      if (n >= WT_SEEN) {
        over++;
        continue;
      }
      st->listed[n].pid = pid;
      st->listed[n].tid = tid;
      st->listed[n].fd = st->listed[n].stat_fd = -1;
      st->listed[n].rt = UINT64_MAX;
      n++;
    }
    closedir(tasks);
  }
  closedir(procs);
  if (over > st->tasks_unlisted) st->tasks_unlisted = over;
  qsort(st->listed, (size_t)n, sizeof(st->listed[0]), by_tid);
  return n;
}

/* The kept set becomes the listing: known tasks keep their fd and last run
 * time, new ones get an fd while the budget lasts, gone ones are closed. */
static void relist(wt_state* st) {
  int n = list_tasks(st), i = 0, j = 0;
  if (n < 0) return;
  for (j = 0; j < n; j++) {
    wt_kept* l = &st->listed[j];
    while (i < st->nkept && st->kept[i].tid < l->tid) close_kept(st, &st->kept[i++]); /* gone */
    if (i < st->nkept && st->kept[i].tid == l->tid) {
      *l = st->kept[i++];
    } else if (st->fds_left > 0) {
      char path[64];
      runtime_path(st, l, path, sizeof(path));
      if ((l->fd = open(path, O_RDONLY)) >= 0) st->fds_left--;
    }
  }
  for (; i < st->nkept; i++) close_kept(st, &st->kept[i]);
  memcpy(st->kept, st->listed, (size_t)n * sizeof(st->kept[0]));
  st->nkept = n;
  st->relist = 0;
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
  return &st->tasks[st->ntasks++];
}

/* One kept task: its run time now (schedstat's first field in ns, or the
 * stat's utime+stime in jiffies), and if it grew, where it ran. Returns -1 when
 * the task is gone. */
static int scan_one(wt_state* st, wt_window* w, wt_kept* k) {
  char path[64], comm[32];
  int cpu = -1, i;
  uint64_t rt, jiffies, before = k->rt;
  wt_task* t;
  if (k->fd >= 0 ? wt_reread(st, k->fd, 1) <= 0
                 : (runtime_path(st, k, path, sizeof(path)), read_path(st, path) <= 0))
    return -1;
  if (st->has_schedstat) {
    rt = strtoull(st->buf, NULL, 10);
  } else {
    if (wt_parse_task_stat(st->buf, comm, sizeof(comm), &cpu, &jiffies) != 0) return -1;
    rt = jiffies * (1000000000ull / 100);
  }
  k->rt = rt;
  if (before == UINT64_MAX || rt <= before) return 0; /* first sight, or did not run */
  if (st->has_schedstat) { /* it ran: where (its stat, kept open too once it has run) */
    snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", k->pid, k->tid);
    if (k->stat_fd < 0 && st->fds_left > 0 && (k->stat_fd = open(path, O_RDONLY)) >= 0) st->fds_left--;
    if ((k->stat_fd >= 0 ? wt_reread(st, k->stat_fd, 1) : read_path(st, path)) <= 0 ||
        wt_parse_task_stat(st->buf, comm, sizeof(comm), &cpu, &jiffies) != 0)
      return 0;
  }
  for (i = 0; i < st->ncpus && st->cpus[i] != cpu; i++) {
  }
  if (i < st->ncpus && (t = task_slot(st, k->tid, comm)) != NULL)
    wt_add_item(w, 't', i, (int)(t - st->tasks), rt - before);
  return 0;
}

void wt_scan_tasks(wt_state* st, wt_window* w) {
  int i, n = 0;
  if (st->relist || st->forks != st->forks_listed || st->nkept == 0) {
    st->forks_listed = st->forks; /* read before the listing: a fork after it moves the count again */
    relist(st);
  }
  for (i = 0; i < st->nkept; i++) {
    if (scan_one(st, w, &st->kept[i]) != 0) { /* gone (or its tid reused): drop it, list again */
      close_kept(st, &st->kept[i]);
      st->relist = 1;
      continue;
    }
    st->kept[n++] = st->kept[i];
  }
  st->nkept = n;
}
