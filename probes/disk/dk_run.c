/* disk: the measured run. Workers are forked processes (2.6.18-safe, no thread
 * library needed) sharing one anonymous mapping with the parent; each times its
 * own pread/pwrite calls with O_DIRECT into its own histogram and series. The
 * parent merges them, removes the file whatever happened, and prints one JSON. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dk.h"
#include "lg_measure_util.h"

#define DK_MAX_WORKERS 1024

static char g_file[PATH_MAX]; /* removed by the deadline handler too */
static volatile int g_stop;
static pid_t g_pids[DK_MAX_WORKERS];
static int g_npids;

static const char* mode_name(enum dk_mode m) {
  return m == DK_READ ? "disk_random_read" : m == DK_WRITE ? "disk_random_write" : "disk_random_rw";
}

/* Last resort: the run overran its deadline. Kill the workers, remove the file
 * (unlink and kill are async-signal-safe), say so, exit. */
static void on_deadline(int sig) {
  static const char msg[] = "disk: hard deadline passed; workers killed, file removed\n";
  int i;
  (void)sig;
  for (i = 0; i < g_npids; i++) kill(g_pids[i], SIGKILL);
  if (g_file[0]) unlink(g_file);
  if (write(2, msg, sizeof(msg) - 1) < 0) _exit(LG_EXIT_RUN);
  _exit(LG_EXIT_RUN);
}

/* O_DIRECT is refused by some filesystems (tmpfs before Linux 6.6): say so
 * before forking, with the two ways out. */
static int check_direct(const char* path, const char* dir, char* err, size_t len) {
  int fd = open(path, O_RDONLY | O_DIRECT | O_NOFOLLOW);
  if (fd >= 0) {
    close(fd);
    return 0;
  }
  if (errno == EINVAL)
    snprintf(err, len,
             "the filesystem of %s refuses O_DIRECT (tmpfs does): set direct = false (the page cache then "
             "serves reads), or give a dir on a disk filesystem",
             dir);
  else
    snprintf(err, len, "open %s with O_DIRECT: %s", path, strerror(errno));
  return -1;
}

static size_t worker_size(size_t cap) {
  return sizeof(dk_worker) + (cap ? cap - 1 : 0) * sizeof(lg_interval);
}

static dk_worker* worker_at(void* base, size_t stride, int i) {
  return (dk_worker*)((char*)base + stride * (size_t)i);
}

/* xorshift64*: a fast generator per worker, so offsets never repeat across workers. */
static uint64_t next_random(uint64_t* s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static void worker_fail(dk_worker* w, const char* what, uint64_t offset, int err) {
  if (w->failed) return;
  w->failed = 1;
  if (err == EINVAL)
    snprintf(
        w->error, sizeof(w->error),
        "%s at offset %llu: %s (O_DIRECT needs the buffer, offset and size aligned to the device's logical "
        "block size: try block_size a multiple of 4096, or direct = false)",
        what, (unsigned long long)offset, strerror(err));
  else
    snprintf(w->error, sizeof(w->error), "%s at offset %llu: %s", what, (unsigned long long)offset,
             strerror(err));
}

/* One worker: random blocks until the end time, recording after warm-up. */
static void worker(const dk_config* cfg, const char* path, dk_worker* w, size_t cap, int index,
                   uint64_t start_ns) {
  const uint64_t blocks = cfg->file_size / cfg->block_size;
  const uint64_t origin = start_ns + cfg->warmup_ns, end = origin + cfg->duration_ns;
  const uint32_t read_cut = (uint32_t)(cfg->read_mix * 4294967295.0);
  uint64_t rng = ((uint64_t)cfg->seed << 20) ^ (uint64_t)(index + 1) * 0x9E3779B97F4A7C15ull;
  lg_series series;
  void* buf = NULL;
  int fd, flags = cfg->mode == DK_READ ? O_RDONLY : O_RDWR;
  size_t i;
  lg_series_init_at(&series, cfg->interval_ns, &w->cur, w->items, cap);
  if (cfg->direct) flags |= O_DIRECT;
  fd = open(path, flags | O_NOFOLLOW);
  if (fd < 0) {
    worker_fail(w, "open", 0, errno);
    return;
  }
  if (posix_memalign(&buf, 4096, (size_t)cfg->block_size) != 0) {
    worker_fail(w, "allocate an aligned buffer", 0, ENOMEM);
    close(fd);
    return;
  }
  for (i = 0; i < cfg->block_size; i++) ((char*)buf)[i] = (char)(i * 31 + index);
  while (lg_now_ns() < start_ns) usleep(1000);
  lg_series_start(&series, origin);
  while (!g_stop) {
    const uint64_t offset = next_random(&rng) % blocks * cfg->block_size;
    const int is_read =
        cfg->mode == DK_READ || (cfg->mode == DK_RW && (uint32_t)(next_random(&rng) >> 32) < read_cut);
    const uint64_t t0 = lg_now_ns();
    ssize_t n;
    uint64_t t1;
    if (t0 >= end) break;
    n = is_read ? pread(fd, buf, (size_t)cfg->block_size, (off_t)offset)
                : pwrite(fd, buf, (size_t)cfg->block_size, (off_t)offset);
    t1 = lg_now_ns();
    if (n != (ssize_t)cfg->block_size) {
      worker_fail(w, is_read ? "pread" : "pwrite", offset, n < 0 ? errno : EIO);
      break;
    }
    if (t0 < origin) {
      w->ops_in_warmup++;
      continue;
    }
    lg_series_record(&series, t1, t1 - t0);
    lg_hist_record(&w->hist, t1 - t0);
    if (is_read)
      w->reads++;
    else
      w->writes++;
    w->bytes += cfg->block_size;
  }
  lg_series_finish(&series, lg_now_ns() < end ? lg_now_ns() : end);
  w->series_len = series.len; /* the items are shared; their count lives on this stack */
  w->series_not_kept = series.not_kept;
  free(buf);
  close(fd);
}

/* Interval i of all workers: counts add up, max is the max; p50/p99 are the
 * worst worker's (exact merging would need every interval's histogram). */
static void merge_series(void* base, size_t stride, int n, lg_interval* out, size_t* len,
                         uint64_t* not_kept) {
  int k;
  size_t i;
  *len = 0;
  *not_kept = 0;
  for (k = 0; k < n; k++) {
    dk_worker* w = worker_at(base, stride, k);
    size_t wl = w->series_len;
    if (wl > *len) {
      for (i = *len; i < wl; i++) memset(&out[i], 0, sizeof(out[i]));
      *len = wl;
    }
    if (w->series_not_kept > *not_kept) *not_kept = w->series_not_kept;
    for (i = 0; i < wl; i++) {
      const lg_interval* it = &w->items[i];
      out[i].start_ns = it->start_ns;
      if (it->length_ns > out[i].length_ns) out[i].length_ns = it->length_ns;
      out[i].count += it->count;
      if (it->p50_ns > out[i].p50_ns) out[i].p50_ns = it->p50_ns;
      if (it->p99_ns > out[i].p99_ns) out[i].p99_ns = it->p99_ns;
      if (it->max_ns > out[i].max_ns) out[i].max_ns = it->max_ns;
    }
  }
}

static void print_result(const dk_config* cfg, const dk_paths* p, const char* error, lg_hist* all,
                         const lg_series* series, uint64_t reads, uint64_t writes, uint64_t bytes,
                         uint64_t warmup_ops, uint64_t prepare_ns, double timer_cost) {
  const double secs = (double)cfg->duration_ns / 1e9;
  printf("{\"format\":\"labgate-probe-1\",\"probe\":\"disk\",\"role\":\"client\",\"kind\":\"%s\",",
         mode_name(cfg->mode));
  printf("\"status\":\"%s\",", error ? "error" : "ok");
  if (error) {
    printf("\"error\":");
    lg_json_string(stdout, error);
    printf(",");
  }
  printf("\"metric\":\"io_time\",\"parameters\":{\"dir\":");
  lg_json_string(stdout, p->dir[0] ? p->dir : cfg->dir);
  printf(",\"file\":");
  lg_json_string(stdout, p->file[0] ? p->file : cfg->file);
  printf(
      ",\"file_size\":%llu,\"block_size\":%llu,\"threads\":%d,\"direct\":%s,\"read_mix\":%.4f,"
      "\"duration_s\":%.6f,\"warmup_s\":%.6f,\"interval_s\":%.6f,\"prepare_s\":%.6f},",
      (unsigned long long)cfg->file_size, (unsigned long long)cfg->block_size, cfg->threads,
      cfg->direct ? "true" : "false", cfg->mode == DK_RW ? cfg->read_mix : (cfg->mode == DK_READ ? 1.0 : 0.0),
      secs, (double)cfg->warmup_ns / 1e9, (double)cfg->interval_ns / 1e9, (double)prepare_ns / 1e9);
  printf("\"counters\":{\"reads\":%llu,\"writes\":%llu,\"bytes\":%llu,\"ops_in_warmup\":%llu},",
         (unsigned long long)reads, (unsigned long long)writes, (unsigned long long)bytes,
         (unsigned long long)warmup_ops);
  printf("\"iops\":%.3f,\"bytes_per_s\":%.3f", (double)(reads + writes) / secs, (double)bytes / secs);
  lg_write_measured(stdout, all, series, cfg->warmup_ns, cfg->duration_ns, timer_cost);
  printf("}\n");
  fflush(stdout);
}

int dk_run(const dk_config* cfg) {
  const size_t cap = lg_series_capacity(cfg->interval_ns, cfg->duration_ns);
  const size_t stride = (worker_size(cap) + 4095) & ~(size_t)4095;
  const unsigned margin = (unsigned)((cfg->warmup_ns + cfg->duration_ns) / 1000000000ull) + 60;
  dk_paths paths;
  char err[2 * PATH_MAX + 512] = ""; /* room for two paths and the reason */
  const char* error = NULL;
  uint64_t prepare_ns = 0, reads = 0, writes = 0, bytes = 0, warmup_ops = 0, start;
  lg_hist* all = (lg_hist*)calloc(1, sizeof(lg_hist));
  lg_interval* merged = (lg_interval*)calloc(cap ? cap : 1, sizeof(lg_interval));
  lg_series series;
  void* shared;
  double timer_cost;
  int k;
  memset(&paths, 0, sizeof(paths));
  memset(&series, 0, sizeof(series));
  series.interval_ns = cfg->interval_ns;
  series.items = merged;
  if (all == NULL || merged == NULL || cap == 0) {
    fprintf(stderr, "disk: cannot allocate the run's buffers (interval too short for the duration?)\n");
    return LG_EXIT_USAGE;
  }
  lg_hist_reset(all);
  lg_install_stop_handlers(&g_stop);
  timer_cost = lg_timer_cost_ns();
  if (dk_check_paths(cfg, &paths, err, sizeof(err)) != 0) {
    print_result(cfg, &paths, err, all, &series, 0, 0, 0, 0, 0, timer_cost);
    fprintf(stderr, "disk: %s\n", err);
    return LG_EXIT_USAGE;
  }
  /* The file exists from here on: every path out removes it. */
  memcpy(g_file, paths.file, strlen(paths.file) + 1); /* both PATH_MAX */
  signal(SIGALRM, on_deadline);
  alarm(margin + (unsigned)(cfg->file_size / (5u << 20))); /* writing the file at >= 5 MiB/s */
  if (dk_create_file(cfg, paths.file, err, sizeof(err), &prepare_ns) != 0) {
    g_file[0] = '\0';
    print_result(cfg, &paths, err, all, &series, 0, 0, 0, 0, 0, timer_cost);
    fprintf(stderr, "disk: %s\n", err);
    return LG_EXIT_RUN;
  }
  if (cfg->direct && check_direct(paths.file, paths.dir, err, sizeof(err)) != 0) {
    unlink(paths.file);
    g_file[0] = '\0';
    print_result(cfg, &paths, err, all, &series, 0, 0, 0, 0, prepare_ns, timer_cost);
    fprintf(stderr, "disk: %s\n", err);
    return LG_EXIT_RUN;
  }
  shared =
      mmap(NULL, stride * (size_t)cfg->threads, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    snprintf(err, sizeof(err), "cannot map %d workers' results: %s", cfg->threads, strerror(errno));
    error = err;
  } else {
    for (k = 0; k < cfg->threads; k++) {
      lg_hist_reset(&worker_at(shared, stride, k)->hist);
      lg_hist_reset(&worker_at(shared, stride, k)->cur);
    }
    start = lg_now_ns() + 50000000ull; /* every worker starts together, once all are forked */
    for (k = 0; k < cfg->threads && !error; k++) {
      pid_t pid = fork();
      if (pid == 0) {
        alarm(0);
        worker(cfg, paths.file, worker_at(shared, stride, k), cap, k, start);
        _exit(0);
      }
      if (pid < 0) {
        snprintf(err, sizeof(err), "fork worker %d: %s", k, strerror(errno));
        error = err;
        g_stop = 1; /* the workers already started see it only through a signal */
        break;
      }
      g_pids[g_npids++] = pid;
    }
    if (error)
      for (k = 0; k < g_npids; k++) kill(g_pids[k], SIGTERM);
    for (k = 0; k < g_npids; k++)
      while (waitpid(g_pids[k], NULL, 0) < 0 && errno == EINTR) {
        if (g_stop) kill(g_pids[k], SIGTERM); /* pass the harness's SIGINT/SIGTERM on */
      }
    for (k = 0; k < g_npids; k++) {
      dk_worker* w = worker_at(shared, stride, k);
      lg_hist_merge(all, &w->hist);
      reads += w->reads;
      writes += w->writes;
      bytes += w->bytes;
      warmup_ops += w->ops_in_warmup;
      if (w->failed && !error) {
        snprintf(err, sizeof(err), "worker %d: %s", k, w->error);
        error = err;
      }
    }
    merge_series(shared, stride, g_npids, merged, &series.len, &series.not_kept);
  }
  if (!error && g_stop) error = "stopped by a signal before the end of the run";
  unlink(paths.file);
  g_file[0] = '\0';
  alarm(0);
  print_result(cfg, &paths, error, all, &series, reads, writes, bytes, warmup_ops, prepare_ns, timer_cost);
  if (error) fprintf(stderr, "disk: %s\n", error);
  return error ? LG_EXIT_RUN : LG_EXIT_OK;
}
