/* The per-interval series of a measuring probe (count, p50, p99, max for each
 * interval, 1 s by default), so a spike is placed in time. All memory is taken
 * up front from the planned run length; recording never allocates. */
#ifndef LABGATE_PROBES_LG_SERIES_H
#define LABGATE_PROBES_LG_SERIES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "labgate/stats/hist_core.h"

typedef struct lg_interval {
  uint64_t start_ns;  /**< since the series origin (the end of warm-up) */
  uint64_t length_ns; /**< the last interval of a run may be shorter */
  uint64_t count, p50_ns, p99_ns, max_ns;
} lg_interval;

typedef struct lg_series {
  lg_hist* cur;         /**< samples of the open interval only */
  uint64_t interval_ns; /**< length of each interval */
  uint64_t origin_ns;   /**< clock value where interval 0 starts */
  uint64_t next_ns;     /**< clock value where the open interval ends */
  lg_interval* items;   /**< closed intervals */
  size_t len, cap;
  uint64_t not_kept; /**< intervals closed after `cap` was reached (run overran its plan) */
  int progress_fd;   /**< -1, or where a progress line goes as each interval closes */
  const lg_hist* progress_all;
  const char* progress_label;
  uint64_t progress_total_ns;
} lg_series;

/** Allocates for a run of `planned_ns` (plus slack for a late finish). Returns 0,
 * or -1 if the allocation fails or the plan needs more than 10 million intervals. */
int lg_series_init(lg_series* s, uint64_t interval_ns, uint64_t planned_ns);

/** Like lg_series_init, on memory the caller provides (e.g. a shared mapping
 * that a parent reads after a child measured): `cur` and `cap` items. Not to be
 * passed to lg_series_free. */
void lg_series_init_at(lg_series* s, uint64_t interval_ns, lg_hist* cur, lg_interval* items, size_t cap);

/** Intervals needed for a run of `planned_ns` (what lg_series_init allocates), or
 * 0 if the plan needs more than 10 million intervals. */
size_t lg_series_capacity(uint64_t interval_ns, uint64_t planned_ns);

/** Asks for one line per closed interval on `fd` (stderr: stdout carries only
 * the result), so a long run shows how it goes:
 * {"progress":"LABEL","elapsed_s":3,"total_s":120,"count":..,"p99_ns":..,
 *  "max_ns":..,"p99_ns_so_far":..,"max_ns_so_far":..}
 * where the "so far" figures come from `all`, the run's whole histogram. */
void lg_series_set_progress(lg_series* s, int fd, const lg_hist* all, const char* label, uint64_t total_ns);

/** Starts interval 0 at `origin_ns`; anything recorded before is discarded. */
void lg_series_start(lg_series* s, uint64_t origin_ns);

/** Closes every interval that ended at or before `now_ns`, including empty ones
 * (an interval with no completed sample is a stall worth seeing). */
void lg_series_roll(lg_series* s, uint64_t now_ns);

/** Records a sample completed at `at_ns`. Constant time except at an interval
 * boundary, where the roll costs a few microseconds; callers that time gaps
 * (jitter) check lg_series_due() first and re-read the clock after rolling. */
static inline void lg_series_record(lg_series* s, uint64_t at_ns, uint64_t value) {
  if (at_ns >= s->next_ns) lg_series_roll(s, at_ns);
  lg_hist_record(s->cur, value);
}

/** Whether recording at `now_ns` would close an interval first. */
static inline int lg_series_due(const lg_series* s, uint64_t now_ns) { return now_ns >= s->next_ns; }

/** Closes the remaining intervals, the last one possibly partial, at `end_ns`. */
void lg_series_finish(lg_series* s, uint64_t end_ns);

/** Writes {"interval_s":1,"intervals":[{"start_s":..,"length_s":..,"count":..,
 * "p50_ns":..,"p99_ns":..,"max_ns":..},...],"not_kept":0,"origin_ns":..}. */
void lg_series_write_json(const lg_series* s, FILE* out);

void lg_series_free(lg_series* s);

/** Writes the members every measuring result shares, each after a comma:
 * ,"warmup_excluded_s":..,"duration_s":..,"clock":{..},"histogram":{..},
 * "series":{..},"memory":{..}   (the memory figure is read at this moment). */
void lg_write_measured(FILE* out, const lg_hist* h, const lg_series* s, uint64_t warmup_ns,
                       uint64_t duration_ns, double timer_cost_ns);

#endif
