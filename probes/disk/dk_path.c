/* disk: the safety of where it writes. The file must lie strictly below the
 * directory the profile configured, resolved with realpath(), and must not exist
 * yet (never a user's file, never through a planted symlink). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dk.h"
#include "lg_measure_util.h"

static int fail(char* err, size_t len, const char* fmt, const char* a, const char* b) {
  snprintf(err, len, fmt, a, b);
  return -1;
}

int dk_check_paths(const dk_config* cfg, dk_paths* out, char* err, size_t err_len) {
  char parent[PATH_MAX], real_parent[PATH_MAX];
  const char* base;
  const char* slash = strrchr(cfg->file, '/');
  struct stat st;
  size_t dl;
  if (realpath(cfg->dir, out->dir) == NULL)
    return fail(err, err_len, "--dir %s: %s", cfg->dir, strerror(errno));
  if (stat(out->dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return fail(err, err_len, "--dir %s is not a directory%s", cfg->dir, "");
  if (cfg->file[0] != '/' || slash == NULL)
    return fail(err, err_len, "--file %s must be an absolute path below --dir %s", cfg->file, cfg->dir);
  base = slash + 1;
  if (base[0] == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
    return fail(err, err_len, "--file %s does not name a file%s", cfg->file, "");
  if ((size_t)(slash - cfg->file) >= sizeof(parent))
    return fail(err, err_len, "--file %s is too long%s", cfg->file, "");
  memcpy(parent, cfg->file, (size_t)(slash - cfg->file));
  parent[slash - cfg->file] = '\0';
  if (parent[0] == '\0') strcpy(parent, "/");
  if (realpath(parent, real_parent) == NULL)
    return fail(err, err_len, "the directory of --file %s: %s", cfg->file, strerror(errno));
  /* Below the directory: its real path, then '/' (or the directory itself). */
  dl = strlen(out->dir);
  if (!(strcmp(out->dir, "/") == 0 || strcmp(real_parent, out->dir) == 0 ||
        (strncmp(real_parent, out->dir, dl) == 0 && real_parent[dl] == '/')))
    return fail(err, err_len, "refusing --file %s: it is not below --dir %s (after resolving links)",
                cfg->file, out->dir);
  if (snprintf(out->file, sizeof(out->file), "%s/%s", strcmp(real_parent, "/") == 0 ? "" : real_parent,
               base) >= (int)sizeof(out->file))
    return fail(err, err_len, "--file %s is too long%s", cfg->file, "");
  if (lstat(out->file, &st) == 0)
    return fail(err, err_len,
                "refusing --file %s: it already exists%s (the probe only writes a file it creates)",
                out->file, S_ISLNK(st.st_mode) ? " as a symlink" : "");
  return 0;
}

int dk_create_file(const dk_config* cfg, const char* path, char* err, size_t err_len, uint64_t* prepare_ns) {
  const size_t chunk = 1u << 20;
  uint64_t t0 = lg_now_ns(), done = 0;
  char* buf;
  size_t i;
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
  if (fd < 0) return fail(err, err_len, "cannot create %s: %s", path, strerror(errno));
  buf = (char*)malloc(chunk);
  if (buf == NULL) {
    close(fd);
    unlink(path);
    return fail(err, err_len, "cannot allocate a write buffer for %s%s", path, "");
  }
  for (i = 0; i < chunk; i++) buf[i] = (char)(i * 131 + 7); /* not zeros: nothing may skip it */
  while (done < cfg->file_size) {
    size_t n = cfg->file_size - done < chunk ? (size_t)(cfg->file_size - done) : chunk;
    ssize_t w = pwrite(fd, buf, n, (off_t)done);
    if (w <= 0) {
      snprintf(err, err_len, "writing %s at %llu: %s", path, (unsigned long long)done,
               w < 0 ? strerror(errno) : "no progress (disk full?)");
      free(buf);
      close(fd);
      unlink(path);
      return -1;
    }
    done += (uint64_t)w;
  }
  free(buf);
  if (fdatasync(fd) != 0) {
    snprintf(err, err_len, "fdatasync %s: %s", path, strerror(errno));
    close(fd);
    unlink(path);
    return -1;
  }
  close(fd);
  *prepare_ns = lg_now_ns() - t0;
  return 0;
}
