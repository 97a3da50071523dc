/* Process table scan (see fx_procs.h) and the "processes" section. */
#include "fx_procs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_sections.h"
#include "fx_str.h"

static fx_proc* g_procs;
static size_t g_n;
static int g_scanned, g_truncated;

static int numeric(const char* s) {
  if (!*s) return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9') return 0;
  return 1;
}

static void read_one(fx_proc* p, const char* pid) {
  char path[64];
  fx_text t;
  p->pid = atoi(pid);
  p->comm[0] = p->argv0[0] = 0;
  snprintf(path, sizeof path, "/proc/%s/stat", pid);
  if (fx_read(path, &t) == 0) {
    /* "123 (name) S ...": the name may hold spaces and parentheses, so take
     * everything between the first '(' and the last ')'. */
    char* open = strchr(t.data, '(');
    char* close = strrchr(t.data, ')');
    if (open && close && close > open) {
      *close = 0;
      fx_copy(p->comm, sizeof p->comm, open + 1);
    }
    fx_text_free(&t);
  }
  snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
  if (fx_read(path, &t) == 0) {
    const char* slash = strrchr(t.data, '/'); /* argv[0] ends at the first NUL */
    fx_copy(p->argv0, sizeof p->argv0, slash ? slash + 1 : t.data);
    fx_text_free(&t);
  }
}

static void scan(void) {
  fx_names d;
  size_t k;
  g_scanned = 1;
  if (fx_list("/proc", &d) != 0) return;
  g_procs = calloc(d.n ? d.n : 1, sizeof *g_procs);
  for (k = 0; g_procs && k < d.n; k++) {
    if (!numeric(d.names[k])) continue;
    if (g_n >= FX_MAX_PROCS) {
      g_truncated = 1;
      break;
    }
    read_one(&g_procs[g_n], d.names[k]);
    /* A process that exited while we looked has no name; skip it. */
    if (g_procs[g_n].comm[0]) g_n++;
  }
  fx_names_free(&d);
}

const fx_proc* fx_procs(size_t* n, int* truncated) {
  if (!g_scanned) scan();
  *n = g_n;
  *truncated = g_truncated;
  return g_procs;
}

const fx_proc* fx_procs_find(const char* name) {
  size_t n, i;
  int trunc;
  const fx_proc* p = fx_procs(&n, &trunc);
  for (i = 0; i < n; i++)
    if (strcmp(p[i].comm, name) == 0 || strcmp(p[i].argv0, name) == 0) return &p[i];
  return NULL;
}

static int by_pid(const void* a, const void* b) {
  return ((const fx_proc*)a)->pid - ((const fx_proc*)b)->pid;
}

void fx_section_processes(fx_json* j) {
  size_t n, i;
  int trunc;
  fx_proc* p = (fx_proc*)fx_procs(&n, &trunc);
  char src[64];
  if (n) qsort(p, n, sizeof *p, by_pid);
  fx_json_open(j, "processes");
  fx_json_bool(j, "truncated", trunc);
  fx_json_open_array(j, "list");
  for (i = 0; i < n; i++) {
    fx_json_open(j, NULL);
    fx_json_int(j, "pid", p[i].pid);
    fx_json_str(j, "comm", p[i].comm);
    fx_json_str(j, "argv0", p[i].argv0);
    snprintf(src, sizeof src, "/proc/%d/stat", p[i].pid);
    fx_json_str(j, "source", src);
    fx_json_close(j);
  }
  fx_json_close_array(j);
  fx_json_close(j);
}
