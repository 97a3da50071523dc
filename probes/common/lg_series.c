/* Per-interval series of a measuring probe: fixed memory, cheap interval close. */
#include "lg_series.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lg_measure_util.h"

/* Two spare slots: the partial last interval and one closed late by a slow finish. */
#define LG_SERIES_SLACK 2
#define LG_SERIES_MAX_INTERVALS LG_PROBE_MAX_INTERVALS

size_t lg_series_capacity(uint64_t interval_ns, uint64_t planned_ns) {
  uint64_t cap;
  if (interval_ns == 0) return 0;
  cap = planned_ns / interval_ns + LG_SERIES_SLACK;
  return cap > LG_SERIES_MAX_INTERVALS ? 0 : (size_t)cap;
}

void lg_series_init_at(lg_series* s, uint64_t interval_ns, lg_hist* cur, lg_interval* items, size_t cap) {
  memset(s, 0, sizeof(*s));
  s->cur = cur;
  s->items = items;
  /* Every page resident now, so that no page fault lands inside a measurement. */
  lg_hist_reset(s->cur);
  memset(s->items, 0, cap * sizeof(lg_interval));
  lg_prefault(s->cur, sizeof(lg_hist));
  lg_prefault(s->items, cap * sizeof(lg_interval));
  s->cap = cap;
  s->interval_ns = interval_ns;
  s->next_ns = UINT64_MAX;
  s->progress_fd = -1;
}

void lg_series_set_progress(lg_series* s, int fd, const lg_hist* all, const char* label, uint64_t total_ns) {
  s->progress_fd = fd;
  s->progress_all = all;
  s->progress_label = label;
  s->progress_total_ns = total_ns;
}

/* One write() per line, so lines of several processes (jitter) never interleave. */
static void show_progress(const lg_series* s, const lg_interval* it) {
  char line[512];
  int n = snprintf(line, sizeof(line),
                   "{\"progress\":\"%s\",\"elapsed_s\":%.3f,\"total_s\":%.3f,\"count\":%llu,\"p99_ns\":%llu,"
                   "\"max_ns\":%llu,\"p99_ns_so_far\":%llu,\"max_ns_so_far\":%llu}\n",
                   s->progress_label, (double)(it->start_ns + it->length_ns) / 1e9,
                   (double)s->progress_total_ns / 1e9, (unsigned long long)it->count,
                   (unsigned long long)it->p99_ns, (unsigned long long)it->max_ns,
                   (unsigned long long)lg_hist_percentile(s->progress_all, 99.0),
                   (unsigned long long)s->progress_all->max);
  if (n > 0 && write(s->progress_fd, line, (size_t)n) < 0) return; /* progress is best effort */
}

int lg_series_init(lg_series* s, uint64_t interval_ns, uint64_t planned_ns) {
  size_t cap = lg_series_capacity(interval_ns, planned_ns);
  lg_hist* cur;
  lg_interval* items;
  memset(s, 0, sizeof(*s));
  if (cap == 0) return -1;
  cur = (lg_hist*)malloc(sizeof(lg_hist));
  items = (lg_interval*)calloc(cap, sizeof(lg_interval));
  if (cur == NULL || items == NULL) {
    free(cur);
    free(items);
    return -1;
  }
  lg_series_init_at(s, interval_ns, cur, items, cap);
  return 0;
}

/* Empties the interval histogram by clearing only the counters between its
 * min and max: the others are zero already, and a full 272 KiB memset every
 * interval would be a visible hiccup inside the measuring loop. */
static void clear_cur(lg_hist* h) {
  if (h->total > h->overflow) {
    uint64_t hi_value = h->max > LG_HIST_HIGHEST_TRACKABLE ? LG_HIST_HIGHEST_TRACKABLE : h->max;
    uint32_t lo = lg_hist_index(h->min), hi = lg_hist_index(hi_value);
    memset(&h->counts[lo], 0, (size_t)(hi - lo + 1) * sizeof(h->counts[0]));
  }
  h->total = h->sum = h->overflow = h->max = 0;
  h->min = UINT64_MAX;
}

static void close_interval(lg_series* s, uint64_t start_ns, uint64_t length_ns) {
  lg_interval* it;
  if (s->len == s->cap) {
    s->not_kept++;
  } else {
    it = &s->items[s->len++];
    it->start_ns = start_ns;
    it->length_ns = length_ns;
    it->count = s->cur->total;
    it->p50_ns = lg_hist_percentile(s->cur, 50.0);
    it->p99_ns = lg_hist_percentile(s->cur, 99.0);
    it->max_ns = s->cur->max;
    if (s->progress_fd >= 0) show_progress(s, it);
  }
  clear_cur(s->cur);
}

void lg_series_start(lg_series* s, uint64_t origin_ns) {
  clear_cur(s->cur);
  s->len = 0;
  s->not_kept = 0;
  s->origin_ns = origin_ns;
  s->next_ns = origin_ns + s->interval_ns;
}

void lg_series_roll(lg_series* s, uint64_t now_ns) {
  while (now_ns >= s->next_ns) {
    close_interval(s, s->next_ns - s->interval_ns - s->origin_ns, s->interval_ns);
    s->next_ns += s->interval_ns;
  }
}

void lg_series_finish(lg_series* s, uint64_t end_ns) {
  uint64_t open_start;
  if (s->next_ns == UINT64_MAX) return; /* never started */
  lg_series_roll(s, end_ns);
  open_start = s->next_ns - s->interval_ns;
  if (end_ns > open_start || s->cur->total > 0)
    close_interval(s, open_start - s->origin_ns, end_ns > open_start ? end_ns - open_start : 0);
  s->next_ns = UINT64_MAX;
}

void lg_series_write_json(const lg_series* s, FILE* out) {
  size_t i;
  fprintf(out, "{\"interval_s\":%.9g,\"intervals\":[", (double)s->interval_ns / 1e9);
  for (i = 0; i < s->len; i++) {
    const lg_interval* it = &s->items[i];
    fprintf(out,
            "%s{\"start_s\":%.6f,\"length_s\":%.6f,\"count\":%llu,\"p50_ns\":%llu,\"p99_ns\":%llu,"
            "\"max_ns\":%llu}",
            i ? "," : "", (double)it->start_ns / 1e9, (double)it->length_ns / 1e9,
            (unsigned long long)it->count, (unsigned long long)it->p50_ns, (unsigned long long)it->p99_ns,
            (unsigned long long)it->max_ns);
  }
  /* origin_ns: where interval 0 starts on the probe's clock, so samples stamped on
   * that clock (the outliers' at_ns) are placed on the series' time axis. */
  fprintf(out, "],\"not_kept\":%llu,\"origin_ns\":%llu}", (unsigned long long)s->not_kept,
          (unsigned long long)s->origin_ns);
}

void lg_series_free(lg_series* s) {
  free(s->cur);
  free(s->items);
  s->cur = NULL;
  s->items = NULL;
}

void lg_write_measured(FILE* out, const lg_hist* h, const lg_series* s, uint64_t warmup_ns,
                       uint64_t duration_ns, double timer_cost_ns) {
  fprintf(out, ",\"warmup_excluded_s\":%.6f,\"duration_s\":%.6f,\"clock\":", (double)warmup_ns / 1e9,
          (double)duration_ns / 1e9);
  lg_json_clock(out, timer_cost_ns);
  fprintf(out, ",\"histogram\":");
  lg_hist_write_json(h, out);
  fprintf(out, ",\"series\":");
  lg_series_write_json(s, out);
  fprintf(out, ",\"memory\":");
  lg_json_memory(out);
}
