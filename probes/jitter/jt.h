/* The jitter probe (HP-TimeTest / sysjitter style): configuration and the
 * per-CPU result block that a forked child fills in a shared mapping. fork()
 * and MAP_SHARED|MAP_ANONYMOUS are as old as Linux 2.4, so no thread library
 * question arises on a 2.6.18 target. */
#ifndef LABGATE_PROBES_JT_H
#define LABGATE_PROBES_JT_H

#include <stddef.h>
#include <stdint.h>

#include "labgate/stats/hist_core.h"
#include "lg_moment.h"
#include "lg_outliers.h"
#include "lg_series.h"

#define JT_MAX_CPUS 256
/* The worst gaps kept per CPU with their moment (CPU, context switches), for
 * the gate's "why the tail": the pingpong probe's store and record. */
#define JT_WORST LG_OUTLIERS_WORST_DEFAULT

typedef struct jt_config {
  int cpus[JT_MAX_CPUS];
  int ncpus;
  uint64_t duration_ns, warmup_ns, interval_ns, threshold_ns;
  uint64_t max_events; /**< gaps over the threshold kept with their time, per CPU */
  int progress;        /**< one line per CPU and interval on stderr */
} jt_config;

/** A gap over the threshold: when it started (since the end of warm-up) and how long. */
typedef struct jt_event {
  uint64_t at_ns, gap_ns;
} jt_event;

/** One CPU's results; the histogram, series items and events follow it in the
 * mapping (see jt_slot_size). */
typedef struct jt_slot {
  int cpu_asked, cpu_actual, cpu_actual_end;
  int pin_errno; /**< non-zero: the child could not pin itself */
  int done;      /**< set last by the child, once everything else is written */
  char cpu_source[16];
  char label[32]; /**< "jitter cpu N", for progress lines */
  uint64_t measured_ns;
  uint64_t over_threshold; /**< every gap over the threshold, listed or not */
  uint64_t events_len;     /**< how many are in the event list */
  lg_series series;        /**< its pointers point into this slot's block */
  /* The JT_WORST worst gaps with their moment; the store's records are in this
   * slot's block and the moment's sources are static strings, so the parent
   * prints both as the child left them (the mapping is at one address in both). */
  lg_outliers outliers;
  lg_moment moment;
} jt_slot;

/** Bytes of one CPU's block: slot, histogram, interval histogram, series items,
 * events, outlier records. */
size_t jt_slot_size(const jt_config* cfg);

/** The parts of a block. */
lg_hist* jt_hist(jt_slot* s);
lg_hist* jt_interval_hist(jt_slot* s);
lg_interval* jt_items(jt_slot* s);
jt_event* jt_events(jt_slot* s, const jt_config* cfg);
void* jt_outlier_mem(jt_slot* s, const jt_config* cfg);

/** The child's work: pin to `slot->cpu_asked` (unless -1), spin for warm-up +
 * duration. */
void jt_spin(const jt_config* cfg, jt_slot* slot);

#endif
