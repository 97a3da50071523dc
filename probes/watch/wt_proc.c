/* Parsers of the /proc files the watch samples (pure: text in, numbers out). */
#include <stdlib.h>
#include <string.h>

#include "wt.h"

static const char* skip_spaces(const char* p) {
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

static const char* next_line(const char* p) {
  const char* nl = strchr(p, '\n');
  return nl ? nl + 1 : p + strlen(p);
}

/* A line's name index, added when new. The line after the last one found is
 * tried first: a table lists its lines in the same order at every read, so
 * the search is one comparison per line, not one per name. */
static int name_index(wt_names* names, const char* name) {
  int i = names->next;
  if (i >= names->len || strcmp(names->name[i], name) != 0) {
    for (i = 0; i < names->len && strcmp(names->name[i], name) != 0; i++) {
    }
  }
  if (i == names->len) {
    if (names->len >= WT_MAX_NAMES) {
      names->full = 1;
      return -1;
    }
    snprintf(names->name[names->len], WT_NAME_LEN, "%s", name);
    names->len++;
  }
  names->next = i + 1;
  return i;
}

/* The header "CPU0 CPU3 ..." (offline CPUs have no column), its first line
 * only: col_cpu[k] is the CPU of column k. Returns the number of columns. */
static int read_header(const char* line, int* col_cpu, int max) {
  int n = 0;
  const char* p = line;
  for (; *p && *p != '\n' && n < max; p++) {
    if (p[0] == 'C' && p[1] == 'P' && p[2] == 'U') col_cpu[n++] = atoi(p + 3);
  }
  return n;
}

/* out = the `len` bytes at `s` (cut to fit WT_NAME_LEN), then, if `tail`,
 * a space and the `tail_len` bytes at `tail`: snprintf's work without its cost,
 * paid at every line of every read. */
static void copy_name(char* out, const char* s, size_t len, const char* tail, size_t tail_len) {
  size_t n = len < WT_NAME_LEN - 1 ? len : WT_NAME_LEN - 1;
  memcpy(out, s, n);
  if (tail != NULL && n < WT_NAME_LEN - 1) {
    size_t t = tail_len < WT_NAME_LEN - 2 - n ? tail_len : WT_NAME_LEN - 2 - n;
    out[n++] = ' ';
    memcpy(out + n, tail, t);
    n += t;
  }
  out[n] = '\0';
}

/* The name of a line: "LOC" for a named one, "57 eth2-rx-0" for a numbered
 * IRQ (its number and the last word of its description: the device). */
static void line_name(const char* label, const char* rest, const char* end, char* out, int irq_style) {
  const char* last = NULL;
  const char* p = rest;
  if (!irq_style || label[0] < '0' || label[0] > '9') {
    copy_name(out, label, strlen(label), NULL, 0);
    return;
  }
  while (p < end) {
    p = skip_spaces(p);
    if (p >= end || *p == '\n') break;
    last = p;
    while (p < end && *p != ' ' && *p != '\t' && *p != '\n') p++;
  }
  copy_name(out, label, strlen(label), last, last == NULL ? 0 : (size_t)(p - last));
}

int wt_parse_per_cpu_table(const char* text, const int* cpus, int ncpus, wt_names* names, uint64_t* counts,
                           int irq_style) {
  int col_cpu[1024], ncols, lines = 0;
  const char* p = text;
  if (strstr(text, "CPU") == NULL) return -1;
  names->next = 0;
  ncols = read_header(text, col_cpu, 1024);
  p = next_line(text);
  while (*p) {
    const char* end = strchr(p, '\n');
    const char* colon;
    char label[32], name[WT_NAME_LEN];
    uint64_t vals[1024];
    int nv = 0, k, ix;
    size_t ll;
    if (end == NULL) end = p + strlen(p);
    p = skip_spaces(p);
    colon = memchr(p, ':', (size_t)(end - p));
    if (colon == NULL) {
      p = *end ? end + 1 : end;
      continue;
    }
    ll = (size_t)(colon - p) < sizeof(label) - 1 ? (size_t)(colon - p) : sizeof(label) - 1;
    memcpy(label, p, ll);
    label[ll] = '\0';
    p = colon + 1;
    while (nv < ncols) { /* counts until the first word that is not a number */
      char* num_end;
      const char* q = skip_spaces(p);
      unsigned long long v;
      if (q >= end || *q < '0' || *q > '9') break;
      v = strtoull(q, &num_end, 10);
      if (*num_end != ' ' && *num_end != '\t' && *num_end != '\n' && *num_end != '\0') break;
      vals[nv++] = v;
      p = num_end;
    }
    line_name(label, p, end, name, irq_style);
    ix = name_index(names, name);
    if (ix >= 0) {
      for (k = 0; k < ncpus; k++) counts[ix * ncpus + k] = 0;
      /* ERR:, MIS: carry one system-wide count, not one per CPU: not placed. */
      for (k = 0; k < nv && nv == ncols; k++) {
        int i;
        for (i = 0; i < ncpus; i++) {
          if (cpus[i] == col_cpu[k]) counts[ix * ncpus + i] = vals[k];
        }
      }
    }
    lines++;
    p = *end ? end + 1 : end;
  }
  return lines;
}

int wt_parse_stat(const char* text, const int* cpus, int ncpus, wt_cpustat* out) {
  const char* p = text;
  int found = 0, i;
  for (i = 0; i < ncpus; i++) memset(&out[i], 0, sizeof(out[i]));
  while (*p) {
    if (p[0] == 'c' && p[1] == 'p' && p[2] == 'u' && p[3] >= '0' && p[3] <= '9') {
      /* cpuN user nice system idle iowait irq softirq steal ... */
      unsigned long long f[8] = {0};
      int cpu = atoi(p + 3), n;
      const char* q = p + 3;
      while (*q >= '0' && *q <= '9') q++;
      n = sscanf(q, "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4], &f[5],
                 &f[6], &f[7]);
      for (i = 0; i < ncpus; i++) {
        if (cpus[i] == cpu && n >= 7) {
          out[i].irq = f[5];
          out[i].softirq = f[6];
          out[i].steal = n >= 8 ? f[7] : 0;
          out[i].seen = 1;
          found++;
        }
      }
    }
    p = next_line(p);
  }
  return found;
}

int wt_parse_forks(const char* text, uint64_t* forks) {
  const char* p = text;
  for (; *p; p = next_line(p)) {
    if (strncmp(p, "processes ", 10) == 0) {
      *forks = strtoull(p + 10, NULL, 10);
      return 0;
    }
  }
  return -1;
}

int wt_parse_task_stat(const char* text, char* comm, size_t comm_len, int* cpu, uint64_t* jiffies) {
  const char* open = strchr(text, '(');
  const char* close = strrchr(text, ')');
  const char* p;
  int field = 2;
  unsigned long long ut = 0, st = 0;
  size_t n;
  if (open == NULL || close == NULL || close < open) return -1;
  n = (size_t)(close - open - 1) < comm_len - 1 ? (size_t)(close - open - 1) : comm_len - 1;
  memcpy(comm, open + 1, n);
  comm[n] = '\0';
  p = close + 1;
  *cpu = -1;
  while (*p && field < 39) {
    if (*p == ' ') {
      field++;
      if (field == 14) ut = strtoull(p + 1, NULL, 10);
      if (field == 15) st = strtoull(p + 1, NULL, 10);
      if (field == 39) *cpu = atoi(p + 1);
    }
    p++;
  }
  *jiffies = ut + st;
  return *cpu >= 0 ? 0 : -1;
}

int wt_parse_loadavg_tasks(const char* text, uint64_t* tasks) {
  /* "0.20 0.18 0.12 1/80 11206": load averages, running/total, last pid */
  const char* slash = strchr(text, '/');
  char* end;
  if (slash == NULL || slash[1] < '0' || slash[1] > '9') return -1;
  *tasks = strtoull(slash + 1, &end, 10);
  return *end == ' ' || *end == '\n' || *end == '\0' ? 0 : -1;
}

int wt_parse_dirents(const char* buf, long len, int* out, int* n, int max, uint64_t* over) {
  long off = 0;
  while (off < len) {
    unsigned short reclen;
    const char* name;
    long v = 0;
    if (len - off < 20) return -1;
    memcpy(&reclen, buf + off + 16, sizeof(reclen));
    if (reclen < 20 || reclen > len - off) return -1;
    name = buf + off + 19;
    if (*name >= '0' && *name <= '9') {
      const char* end = buf + off + reclen;
      while (name < end && *name >= '0' && *name <= '9' && v < 0x10000000L) v = v * 10 + (*name++ - '0');
      if (name < end && *name == '\0') { /* every character a digit: a pid or tid */
        if (*n < max)
          out[(*n)++] = (int)v;
        else
          (*over)++;
      }
    }
    off += reclen;
  }
  return 0;
}
