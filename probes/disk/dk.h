/* disk: random-I/O probe for labgate's disk_random_read / _write / _rw kinds.
 * Shared declarations of its parts: the checked paths, the run, the output. */
#ifndef LABGATE_PROBES_DISK_DK_H
#define LABGATE_PROBES_DISK_DK_H

#include <limits.h>
#include <stdint.h>

#include "labgate/stats/hist_core.h"
#include "lg_series.h"

enum dk_mode { DK_READ, DK_WRITE, DK_RW };

typedef struct dk_config {
  const char* dir;  /* the directory the probe may write in (--dir) */
  const char* file; /* the file to create below it (--file) */
  enum dk_mode mode;
  uint64_t file_size, block_size;
  int threads;
  int direct;      /* O_DIRECT on the measured descriptors */
  double read_mix; /* rw: fraction of operations that read */
  uint64_t duration_ns, warmup_ns, interval_ns;
  unsigned seed;
} dk_config;

/* Per worker, in memory shared with the parent (fork + MAP_SHARED). */
typedef struct dk_worker {
  lg_hist hist; /* measured operations, after warm-up */
  lg_hist cur;  /* the series' open interval */
  uint64_t reads, writes, bytes, ops_in_warmup;
  size_t series_len;        /* closed intervals in items[] */
  uint64_t series_not_kept; /* intervals past the capacity */
  int failed;
  char error[256];
  lg_interval items[1]; /* series intervals; really `cap` of them */
} dk_worker;

/* Paths resolved and checked: the real directory, the file's real parent. */
typedef struct dk_paths {
  char dir[PATH_MAX];
  char file[PATH_MAX];
} dk_paths;

/* Resolves --dir and the parent of --file with realpath() and refuses a file that
 * is not strictly below the directory, a symlink, "." or "..", or a file that
 * already exists (it is never overwritten). Returns 0, or -1 with `err` set. */
int dk_check_paths(const dk_config* cfg, dk_paths* out, char* err, size_t err_len);

/* Creates the file (O_EXCL|O_NOFOLLOW) and writes file_size bytes of a pattern
 * (2.6.18 has no fallocate for ext3, and a sparse file would read as zeros from
 * no disk at all), then fdatasync. Returns 0, or -1 with `err` set; on failure
 * the file is removed. `*prepare_ns` gets the time it took. */
int dk_create_file(const dk_config* cfg, const char* path, char* err, size_t err_len, uint64_t* prepare_ns);

/* Runs the workers and prints the JSON result. Returns the exit status. */
int dk_run(const dk_config* cfg);

#endif
