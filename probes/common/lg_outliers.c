/* The outlier store: a bounded min-heap of the worst samples plus a bounded
 * log of the samples over the threshold. */
#include "lg_outliers.h"

#include <stdlib.h>
#include <string.h>

#include "lg_measure_util.h"

/* One extra record each, so a zero capacity still gets a valid pointer. */
size_t lg_outliers_bytes(size_t worst_cap, size_t over_cap) {
  return (worst_cap + 1 + over_cap + 1 + worst_cap + over_cap + 1) * sizeof(lg_outlier) + worst_cap + over_cap + 1;
}

void lg_outliers_init_at(lg_outliers* o, void* mem, size_t worst_cap, size_t over_cap, uint64_t threshold_ns) {
  lg_outlier* r = (lg_outlier*)mem;
  memset(o, 0, sizeof(*o));
  o->worst_cap = worst_cap;
  o->over_cap = over_cap;
  o->threshold_ns = threshold_ns;
  o->worst = r;
  o->over = r + worst_cap + 1;
  o->scratch = o->over + over_cap + 1;
  o->flags = (unsigned char*)(o->scratch + worst_cap + over_cap + 1);
  /* Faulted in now: a first outlier must not also pay for a page fault. */
  lg_prefault(mem, lg_outliers_bytes(worst_cap, over_cap));
}

int lg_outliers_init(lg_outliers* o, size_t worst_cap, size_t over_cap, uint64_t threshold_ns) {
  void* mem = malloc(lg_outliers_bytes(worst_cap, over_cap));
  if (mem == NULL) {
    memset(o, 0, sizeof(*o));
    return -1;
  }
  lg_outliers_init_at(o, mem, worst_cap, over_cap, threshold_ns);
  o->owned = mem;
  return 0;
}

void lg_outliers_free(lg_outliers* o) {
  free(o->owned);
  o->owned = NULL;
  o->worst = o->over = o->scratch = NULL;
  o->flags = NULL;
  o->worst_cap = o->over_cap = o->worst_len = o->over_len = 0;
}

static void swap_outliers(lg_outlier* a, lg_outlier* b) {
  lg_outlier t = *a;
  *a = *b;
  *b = t;
}

static void sift_up(lg_outlier* h, size_t i) {
  while (i > 0 && h[(i - 1) / 2].value_ns > h[i].value_ns) {
    swap_outliers(&h[(i - 1) / 2], &h[i]);
    i = (i - 1) / 2;
  }
}

static void sift_down(lg_outlier* h, size_t len, size_t i) {
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < len && h[l].value_ns < h[m].value_ns) m = l;
    if (r < len && h[r].value_ns < h[m].value_ns) m = r;
    if (m == i) return;
    swap_outliers(&h[i], &h[m]);
    i = m;
  }
}

void lg_outliers_add(lg_outliers* o, const lg_outlier* r) {
  if (o->threshold_ns > 0 && r->value_ns > o->threshold_ns) {
    o->over_seen++;
    if (o->over_len < o->over_cap) o->over[o->over_len++] = *r;
  }
  if (o->worst_len < o->worst_cap) {
    o->worst[o->worst_len] = *r;
    sift_up(o->worst, o->worst_len++);
  } else if (o->worst_cap > 0 && r->value_ns > o->worst[0].value_ns) {
    o->worst[0] = *r;
    sift_down(o->worst, o->worst_len, 0);
  }
}

uint64_t lg_outliers_floor(const lg_outliers* o) {
  return o->worst_len == o->worst_cap && o->worst_cap > 0 ? o->worst[0].value_ns : 0;
}

static int same(const lg_outlier* a, const lg_outlier* b) {
  return a->seq == b->seq && a->at_ns == b->at_ns && a->value_ns == b->value_ns;
}

/* Insertion sort by time: a few hundred records, once, at the end of a run. */
static void sort_by_time(lg_outlier* v, unsigned char* f, size_t n) {
  size_t i, j;
  for (i = 1; i < n; i++) {
    for (j = i; j > 0 && v[j - 1].at_ns > v[j].at_ns; j--) {
      unsigned char t = f[j - 1];
      swap_outliers(&v[j - 1], &v[j]);
      f[j - 1] = f[j];
      f[j] = t;
    }
  }
}

size_t lg_outliers_collect(const lg_outliers* o, lg_outlier* out, unsigned char* flags) {
  size_t n = 0, i, j;
  for (i = 0; i < o->over_len; i++) {
    out[n] = o->over[i];
    flags[n++] = 2;
  }
  for (i = 0; i < o->worst_len; i++) {
    for (j = 0; j < o->over_len; j++) {
      if (same(&out[j], &o->worst[i])) break;
    }
    if (j < o->over_len) {
      flags[j] |= 1;
    } else {
      out[n] = o->worst[i];
      flags[n++] = 1;
    }
  }
  sort_by_time(out, flags, n);
  return n;
}

static void json_int_or_null(FILE* out, const char* name, int64_t v) {
  if (v < 0)
    fprintf(out, ",\"%s\":null", name);
  else
    fprintf(out, ",\"%s\":%lld", name, (long long)v);
}

void lg_outliers_write_json(const lg_outliers* o, FILE* out) {
  size_t n = lg_outliers_collect(o, o->scratch, o->flags), i;
  fprintf(out,
          "{\"threshold_ns\":%llu,\"worst_cap\":%llu,\"worst_kept\":%llu,\"over_threshold\":%llu,"
          "\"over_not_kept\":%llu,\"floor_ns\":%llu,\"items\":[",
          (unsigned long long)o->threshold_ns, (unsigned long long)o->worst_cap,
          (unsigned long long)o->worst_len, (unsigned long long)o->over_seen,
          (unsigned long long)(o->over_seen - o->over_len), (unsigned long long)lg_outliers_floor(o));
  for (i = 0; i < n; i++) {
    const lg_outlier* r = &o->scratch[i];
    fprintf(out, "%s{\"seq\":%llu,\"at_ns\":%llu,\"value_ns\":%llu,\"worst\":%s,\"over\":%s", i ? "," : "",
            (unsigned long long)r->seq, (unsigned long long)r->at_ns, (unsigned long long)r->value_ns,
            (o->flags[i] & 1) ? "true" : "false", (o->flags[i] & 2) ? "true" : "false");
    json_int_or_null(out, "sock_wait_ns", r->sock_wait_ns);
    json_int_or_null(out, "cpu_before", r->cpu_before);
    json_int_or_null(out, "cpu_after", r->cpu_after);
    fprintf(out, ",\"ctx_from_seq\":%llu", (unsigned long long)r->ctx_from_seq);
    json_int_or_null(out, "voluntary", r->vcsw);
    json_int_or_null(out, "involuntary", r->ivcsw);
    fputc('}', out);
  }
  fputs("]}", out);
}
