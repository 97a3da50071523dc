/* The watch's task scan: which other tasks ran on the watched CPUs, and for how
 * long, since the last scan.
 *
 * Cheap because every task's run-time file (/proc/PID/task/TID/schedstat, or
 * its stat without schedstat) stays open between scans and is re-read from
 * offset 0, and the tasks are listed again only when one may be missing from
 * the kept set. The evidence stays complete: a task that is not kept was
 * created after the last listing, and every fork or clone (threads too) raises
 * /proc/stat's "processes" count, which the sample reads just before each scan;
 * so the scan looks again whenever that count moved (or a kept task vanished,
 * which also covers a reused tid). Looking again is, in order of cost:
 * - nothing, when the kernel's count of tasks (/proc/loadavg) is every task
 *   kept plus this watch: the tasks born since have ended again;
 * - listing /proc (new processes) and, if that count now matches, keeping the
 *   known processes as they were;
 * - else asking each known process's task directory, kept open, for its link
 *   count, 2 + its threads (fs/proc's proc_task_getattr, 2.6.18 too), and
 *   listing only those whose count differs from the tasks kept for them (a
 *   thread was born; one that ended was dropped when its file failed), that
 *   have none kept (the pid may be a new process's) or whose last listing did
 *   not confirm the relation (a kernel whose count does not follow the threads
 *   is listed every time, as all were before).
 * A task born and dead between two scans is missed, as it always was; one born
 * in a race with a kept task's end (a few microseconds apart, between the
 * scan's read of it and the count) is found one scan later. A process whose
 * CPU clock did not move since the last scan is not read at all (see
 * wt_scan_tasks). Only the tasks whose run time grew have their stat read
 * (comm, CPU). System calls: open, lseek, read, pread, fstat, getdents64,
 * close, readlink, clock_gettime: all in 2.6.18. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "wt_state.h"

long wt_reread(wt_state* st, int fd, int one_record) {
  const size_t cap = sizeof(st->buf) - 1;
  long n = 0;
  ssize_t r;
  /* pread where the file allows it (one system call); 2.6.18's seq_file
   * refuses it (ESPIPE): lseek + read from then on. A seq_file read returns at
   * most its buffer (a page at first), so a table is read until the end; a
   * one-record file is whole after one read: a task's schedstat or stat, and
   * /proc/stat and /proc/softirqs, each printed by one show (single_open, in
   * 2.6.18 and 2.6.31 as now); only /proc/interrupts is a record per IRQ. */
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

static int by_number(const void* a, const void* b) {
  const int x = *(const int*)a, y = *(const int*)b;
  return (x > y) - (x < y);
}

/* The numbered entries of a directory (its kept fd from offset 0, else opened
 * by path for this listing), sorted, into out[*n]. Returns -1 when it cannot
 * be read (a process that has just ended). */
static int list_numbers(wt_state* st, int fd, const char* path, int* out, int* n, uint64_t* over) {
  const int own = fd < 0;
  long got;
  *n = 0;
  if (own ? (fd = open(path, O_RDONLY | O_DIRECTORY)) < 0 : lseek(fd, 0, SEEK_SET) != 0) return -1;
  while ((got = syscall(SYS_getdents64, fd, st->dents, sizeof(st->dents))) > 0 &&
         wt_parse_dirents(st->dents, got, out, n, WT_SEEN, over) == 0) {
  }
  if (own) close(fd);
  if (got < 0) return -1;
  qsort(out, (size_t)*n, sizeof(out[0]), by_number);
  return 0;
}

static void forget_proc(wt_state* st, wt_proc* pr) {
  if (pr->dir_fd >= 0) close(pr->dir_fd), st->fds_left++;
  pr->dir_fd = -1;
}

/* A known process whose task directory says, by its link count, that it has
 * exactly the tasks kept for it (kept[i..j), plus this watch in its own). */
static int same_tasks(const wt_state* st, const wt_proc* pr, int kept_n) {
  struct stat sb;
  if (!pr->counted || pr->dir_fd < 0 || (kept_n == 0 && pr->pid != st->self)) return 0;
  return fstat(pr->dir_fd, &sb) == 0 && (long)sb.st_nlink == 2L + kept_n + (pr->pid == st->self);
}

/* Lists one process's task directory into st->listed[*nk]: tasks kept before
 * (kept[i..j), sorted by tid) keep their files and last run time, new ones
 * get a run-time file while the budget lasts, gone ones are closed. */
static void list_process(wt_state* st, wt_proc* pr, int i, int j, int* nk, uint64_t* over) {
  char path[48];
  struct stat sb;
  long nlink = -1;
  int ntids = 0, t, m = i;
  uint64_t tids_over = 0;
  snprintf(path, sizeof(path), "/proc/%d/task", pr->pid);
  if (pr->dir_fd >= 0 && i == j && pr->pid != st->self) forget_proc(st, pr); /* its pid may be a new process's */
  if (pr->dir_fd < 0 && st->fds_left > 0 && (pr->dir_fd = open(path, O_RDONLY | O_DIRECTORY)) >= 0) st->fds_left--;
  if (pr->dir_fd >= 0 && fstat(pr->dir_fd, &sb) == 0) nlink = (long)sb.st_nlink;
  if (list_numbers(st, pr->dir_fd, path, st->tids, &ntids, &tids_over) < 0) ntids = 0;
  /* Link count read before the listing: equal only if no thread came or went in between. */
  pr->counted = tids_over == 0 && nlink == 2L + ntids;
  *over += tids_over;
  for (t = 0; t < ntids; t++) {
    const int tid = st->tids[t];
    wt_kept* l;
    if (tid == st->self) continue;
    while (m < j && st->kept[m].tid < tid) close_kept(st, &st->kept[m++]); /* gone */
    if (*nk >= WT_SEEN) {
      (*over)++;
      continue;
    }
    l = &st->listed[(*nk)++];
    if (m < j && st->kept[m].tid == tid) {
      *l = st->kept[m++];
      continue;
    }
    l->pid = pr->pid;
    l->tid = tid;
    l->fd = l->stat_fd = -1;
    l->rt = UINT64_MAX;
    if (st->fds_left > 0) {
      char rpath[64];
      runtime_path(st, l, rpath, sizeof(rpath));
      if ((l->fd = open(rpath, O_RDONLY)) >= 0) st->fds_left--;
    }
  }
  while (m < j) close_kept(st, &st->kept[m++]);
}

/* The kept set becomes the processes of st->pids: each one's tasks are either
 * kept as they were or its task directory is listed again. `ask_links`: a
 * known process is kept as it was when its directory's link count says so;
 * without it, whenever it still has a task kept (the caller then checks the
 * total against the kernel's). */
static void merge(wt_state* st, int npids, int ask_links, uint64_t* over) {
  int np = 0, nk = 0, i = 0, p = 0, k;
  for (k = 0; k < npids; k++) {
    const int pid = st->pids[k];
    wt_proc pr;
    int j, same;
    while (p < st->nprocs && st->procs[p].pid < pid) forget_proc(st, &st->procs[p++]); /* ended */
    while (i < st->nkept && st->kept[i].pid < pid) close_kept(st, &st->kept[i++]);
    if (p < st->nprocs && st->procs[p].pid == pid) {
      pr = st->procs[p++];
    } else {
      pr.pid = pid;
      pr.dir_fd = -1;
      pr.counted = 0;
      pr.known = 0;
      pr.cpu_ns = UINT64_MAX;
      pr.ran = 0;
    }
    for (j = i; j < st->nkept && st->kept[j].pid == pid; j++) {
    }
    same = ask_links ? same_tasks(st, &pr, j - i) : pr.known && (j > i || pid == st->self);
    if (same && nk + (j - i) <= WT_SEEN) {
      memcpy(&st->listed[nk], &st->kept[i], (size_t)(j - i) * sizeof(st->kept[0]));
      nk += j - i;
    } else {
      list_process(st, &pr, i, j, &nk, over);
      pr.known = 1;
    }
    i = j;
    st->procs_listed[np++] = pr;
  }
  while (p < st->nprocs) forget_proc(st, &st->procs[p++]);
  while (i < st->nkept) close_kept(st, &st->kept[i++]);
  memcpy(st->procs, st->procs_listed, (size_t)np * sizeof(st->procs[0]));
  st->nprocs = np;
  memcpy(st->kept, st->listed, (size_t)nk * sizeof(st->kept[0]));
  st->nkept = nk;
}

/* How many tasks the kernel has (/proc/loadavg's "running/total"), or 0 when
 * it cannot say. */
static uint64_t kernel_tasks(wt_state* st) {
  uint64_t tasks = 0;
  if (st->fd_loadavg < 0 || wt_reread(st, st->fd_loadavg, 1) <= 0 || wt_parse_loadavg_tasks(st->buf, &tasks) != 0)
    return 0;
  return tasks;
}

/* The kept set becomes what /proc holds now. Nothing to do when the kernel's
 * count of tasks is every task kept plus this watch: any task born since the
 * last listing would make it larger (a kept one that ended was dropped by the
 * scan). Otherwise /proc itself is listed (new processes) and the known
 * processes are kept as they were if the count, read again, now matches;
 * failing that, each known process's link count is asked. */
static void relist(wt_state* st) {
  int npids = 0;
  uint64_t over = 0;
  st->relist = 0;
  if (st->nkept > 0 && kernel_tasks(st) == (uint64_t)st->nkept + 1) return;
  if (list_numbers(st, st->fd_proc, "/proc", st->pids, &npids, &over) < 0) {
    st->relist = 1; /* at the next scan, then */
    return;
  }
  merge(st, npids, 0, &over);
  if (over > 0 || kernel_tasks(st) != (uint64_t)st->nkept + 1) merge(st, npids, 1, &over);
  if (over > st->tasks_unlisted) st->tasks_unlisted = over;
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
    if (k->stat_fd < 0) /* the path only when there is no file kept: formatting it each time costs */
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

/* A process's CPU clock (CLOCK_PROCESS_CPUTIME_ID of another process, 2.6.12+:
 * the sum of its tasks' sum_exec_runtime, the field their schedstat prints,
 * plus its ended tasks'), in ns; UINT64_MAX when it cannot be read (ended). A
 * raw system call: no vDSO path for a CPU clock. */
static uint64_t process_cpu_ns(int pid) {
  struct timespec ts;
  const clockid_t id = (clockid_t)((~(unsigned)pid << 3) | 2u); /* MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) */
  if (syscall(SYS_clock_gettime, id, &ts) != 0) return UINT64_MAX;
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void wt_open_cpu_clocks(wt_state* st) {
  char self[32];
  const long n = readlink("/proc/self", self, sizeof(self) - 1);
  /* The clocks take pids of our pid namespace, the paths /proc's: the same
   * numbers only when /proc/self is our pid. */
  if (n <= 0) return;
  self[n] = '\0';
  st->cpu_clocks = st->has_schedstat && atoi(self) == st->self && process_cpu_ns(st->self) != UINT64_MAX;
}

/* The kept tasks, a process at a time. A process whose CPU clock has not moved
 * since the last scan ran no task since then: the clock is the sum of its
 * tasks' run times (new ones included) and its ended tasks', each only grows,
 * so every kept task's run time is what it was and its schedstat need not be
 * read. The clock is read before the tasks, so a task that runs between the
 * two shows at the next scan as a clock that moved. What the skipped read
 * would also have said is whether the task still exists (a vanished one sends
 * the scan to list again, see above): when the only task kept is the process
 * itself, a readable clock says it still does; when more are kept, the task
 * directory's link count must still be 2 + those kept and no task may have
 * been created since the last listing (/proc/stat's fork count, read this
 * sample), else one that ended could hide behind one born. A process that
 * ran by the last scan's reads is read again without its clock (it most
 * likely ran again: the clock would be one more read), and its clock is taken
 * again, with its tasks, at the first scan after one where none of them ran. */
void wt_scan_tasks(wt_state* st, wt_window* w) {
  const int no_forks = st->forks_fresh && !st->relist && st->forks == st->forks_listed;
  int i = 0, n = 0, p = 0;
  while (i < st->nkept) {
    const int pid = st->kept[i].pid;
    wt_proc* pr = NULL;
    int j, same = 0, grew = 0;
    for (j = i; j < st->nkept && st->kept[j].pid == pid; j++) {
    }
    while (p < st->nprocs && st->procs[p].pid < pid) p++;
    if (st->cpu_clocks && p < st->nprocs && st->procs[p].pid == pid) pr = &st->procs[p];
    if (pr != NULL && pr->ran) {
      pr->cpu_ns = UINT64_MAX; /* it ran last time and likely again: its clock would only add a read */
    } else if (pr != NULL) {
      const uint64_t ran = process_cpu_ns(pid);
      if (ran != UINT64_MAX && ran == pr->cpu_ns)
        same = (j - i == 1 && st->kept[i].tid == pid) || (no_forks && same_tasks(st, pr, j - i));
      pr->cpu_ns = ran;
    }
    for (; i < j; i++) {
      const uint64_t before = st->kept[i].rt;
      /* One that vanished is dropped here, so its process's link count no
       * longer matches and the listing below looks at it again. */
      if (!same && scan_one(st, w, &st->kept[i]) != 0) { /* gone (or its tid reused): drop it, list again */
        close_kept(st, &st->kept[i]);
        st->relist = 1;
        continue;
      }
      grew |= before != UINT64_MAX && st->kept[i].rt > before;
      st->kept[n++] = st->kept[i];
    }
    if (pr != NULL) pr->ran = grew;
  }
  st->nkept = n;
  if (st->relist || st->forks != st->forks_listed || st->nkept == 0) {
    st->forks_listed = st->forks; /* read before the listing: a fork after it moves the count again */
    relist(st);
    for (i = 0; i < st->nkept; i++) /* new tasks: their run time so far is the baseline */
      if (st->kept[i].rt == UINT64_MAX) scan_one(st, w, &st->kept[i]);
  }
}
