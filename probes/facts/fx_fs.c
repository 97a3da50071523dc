/* File access below an optional root (see fx_fs.h). Under --root, symlinks are
 * resolved component by component so that an absolute link in a recorded tree
 * (/etc/grub.conf -> /boot/grub/grub.conf) stays inside the tree instead of
 * silently reading this machine's file. */
#include "fx_fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char g_root[FX_PATH_MAX] = ""; /* "" = live system */

int fx_set_root(const char* dir) {
  struct stat st;
  size_t n;
  if (!dir || strcmp(dir, "/") == 0) {
    g_root[0] = 0;
    return 0;
  }
  n = strlen(dir);
  if (n == 0 || n >= sizeof g_root - 1) return FX_ERR_BADROOT;
  if (stat(dir, &st) != 0) return errno;
  if (!S_ISDIR(st.st_mode)) return ENOTDIR;
  memcpy(g_root, dir, n + 1);
  while (n > 1 && g_root[n - 1] == '/') g_root[--n] = 0;
  return 0;
}

int fx_under_root(void) { return g_root[0] != 0; }
const char* fx_root(void) { return g_root[0] ? g_root : "/"; }

const char* fx_strerror(int err) {
  if (err == FX_ERR_NOTREG) return "not a regular file";
  if (err == FX_ERR_BADROOT) return "unusable --root directory";
  return strerror(err);
}

/* Maps a target path to a path on this machine. Under a root, walks the
 * components, following symlinks inside the root (the last one only when
 * follow_last), with a hop limit like the kernel's. */
static int resolve(const char* path, int follow_last, char* out, size_t outsz) {
  char rest[2 * FX_PATH_MAX], cur[FX_PATH_MAX], host[2 * FX_PATH_MAX], link[FX_PATH_MAX];
  size_t curlen = 0;
  int hops = 0;
  if (!g_root[0]) {
    if (strlen(path) >= outsz) return ENAMETOOLONG;
    strcpy(out, path);
    return 0;
  }
  if (strlen(path) >= sizeof rest) return ENAMETOOLONG;
  strcpy(rest, path);
  cur[0] = 0;
  for (;;) {
    char* p = rest;
    char comp[FX_PATH_MAX];
    size_t clen;
    struct stat st;
    ssize_t ln;
    while (*p == '/') p++;
    if (!*p) break;
    clen = strcspn(p, "/");
    if (clen >= sizeof comp) return ENAMETOOLONG;
    memcpy(comp, p, clen);
    comp[clen] = 0;
    memmove(rest, p + clen, strlen(p + clen) + 1);
    if (strcmp(comp, ".") == 0) continue;
    if (strcmp(comp, "..") == 0) { /* never above the root */
      while (curlen > 0 && cur[curlen - 1] != '/') curlen--;
      if (curlen > 0) curlen--;
      cur[curlen] = 0;
      continue;
    }
    if (curlen + 1 + clen >= sizeof cur) return ENAMETOOLONG;
    cur[curlen++] = '/';
    memcpy(cur + curlen, comp, clen + 1);
    curlen += clen;
    if (rest[strspn(rest, "/")] == 0 && !follow_last) break;
    snprintf(host, sizeof host, "%s%s", g_root, cur);
    if (lstat(host, &st) != 0 || !S_ISLNK(st.st_mode)) continue; /* open() reports errors */
    if (++hops > 40) return ELOOP;
    ln = readlink(host, link, sizeof link - 1);
    if (ln < 0) return errno;
    link[ln] = 0;
    if (strlen(link) + 1 + strlen(rest) >= sizeof rest) return ENAMETOOLONG;
    memmove(rest + ln + 1, rest, strlen(rest) + 1);
    memcpy(rest, link, (size_t)ln);
    rest[ln] = '/';
    if (link[0] == '/') {
      curlen = 0; /* absolute link: start again at the root */
    } else {
      while (curlen > 0 && cur[curlen - 1] != '/') curlen--;
      if (curlen > 0) curlen--;
    }
    cur[curlen] = 0;
  }
  if ((size_t)snprintf(out, outsz, "%s%s", g_root, curlen ? cur : "/") >= outsz) return ENAMETOOLONG;
  return 0;
}

int fx_read(const char* path, fx_text* t) {
  char host[2 * FX_PATH_MAX];
  struct stat st;
  size_t cap = 4096;
  int fd, err;
  t->data = NULL, t->len = 0, t->truncated = 0;
  if ((err = resolve(path, 1, host, sizeof host)) != 0) return err;
  /* O_NONBLOCK: a FIFO planted in a recorded tree must not hang the probe. */
  fd = open(host, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return errno;
  if (fstat(fd, &st) != 0) {
    err = errno;
    close(fd);
    return err;
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return S_ISDIR(st.st_mode) ? EISDIR : FX_ERR_NOTREG;
  }
  t->data = malloc(cap + 1);
  if (!t->data) {
    close(fd);
    return ENOMEM;
  }
  for (;;) {
    ssize_t n;
    if (t->len == cap) {
      char* bigger;
      if (cap >= FX_FILE_CAP) {
        char probe;
        t->truncated = read(fd, &probe, 1) > 0;
        break;
      }
      cap = cap * 2 > FX_FILE_CAP ? FX_FILE_CAP : cap * 2;
      bigger = realloc(t->data, cap + 1);
      if (!bigger) {
        err = ENOMEM;
        goto fail;
      }
      t->data = bigger;
    }
    n = read(fd, t->data + t->len, cap - t->len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      err = errno;
      goto fail;
    }
    if (n == 0) break;
    t->len += (size_t)n;
  }
  t->data[t->len] = 0;
  close(fd);
  return 0;
fail:
  close(fd);
  fx_text_free(t);
  return err;
}

void fx_text_free(fx_text* t) {
  free(t->data);
  t->data = NULL, t->len = 0, t->truncated = 0;
}

int fx_read_small(const char* path, char* out, size_t outsz) {
  fx_text t;
  size_t n;
  int err = fx_read(path, &t);
  out[0] = 0;
  if (err) return err;
  n = strlen(t.data); /* a NUL ends the value, as for the kernel's own strings */
  while (n > 0 &&
         (t.data[n - 1] == '\n' || t.data[n - 1] == ' ' || t.data[n - 1] == '\t' || t.data[n - 1] == '\r'))
    n--;
  if (n >= outsz) n = outsz - 1;
  memcpy(out, t.data, n);
  out[n] = 0;
  fx_text_free(&t);
  return 0;
}

int fx_readlink(const char* path, char* out, size_t outsz) {
  char host[2 * FX_PATH_MAX];
  ssize_t n;
  int err = resolve(path, 0, host, sizeof host);
  if (err) return err;
  n = readlink(host, out, outsz - 1);
  if (n < 0) return errno;
  out[n] = 0;
  return 0;
}

static int stat_any(const char* path, struct stat* st, int follow) {
  char host[2 * FX_PATH_MAX];
  int err = resolve(path, follow, host, sizeof host);
  if (err) return err;
  return (follow ? stat(host, st) : lstat(host, st)) == 0 ? 0 : errno;
}

int fx_stat(const char* path, struct stat* st) { return stat_any(path, st, 1); }
int fx_lstat(const char* path, struct stat* st) { return stat_any(path, st, 0); }

static int by_name(const void* a, const void* b) { return strcmp(*(char* const*)a, *(char* const*)b); }

int fx_list(const char* path, fx_names* out) {
  char host[2 * FX_PATH_MAX];
  DIR* d;
  struct dirent* e;
  size_t cap = 0;
  int err;
  out->names = NULL, out->n = 0, out->truncated = 0;
  if ((err = resolve(path, 1, host, sizeof host)) != 0) return err;
  if (!(d = opendir(host))) return errno;
  while ((e = readdir(d)) != NULL) {
    char* copy;
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (out->n >= FX_DIR_CAP) {
      out->truncated = 1;
      break;
    }
    if (out->n == cap) {
      char** bigger = realloc(out->names, (cap ? cap * 2 : 64) * sizeof *bigger);
      if (!bigger) break;
      out->names = bigger;
      cap = cap ? cap * 2 : 64;
    }
    if (!(copy = strdup(e->d_name))) break;
    out->names[out->n++] = copy;
  }
  closedir(d);
  /* Sorted, so two runs on the same tree print the same snapshot. */
  if (out->n) qsort(out->names, out->n, sizeof *out->names, by_name);
  return 0;
}

void fx_names_free(fx_names* n) {
  size_t i;
  for (i = 0; i < n->n; i++) free(n->names[i]);
  free(n->names);
  n->names = NULL, n->n = 0;
}
