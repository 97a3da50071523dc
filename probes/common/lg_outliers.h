/* The outlier store of a measuring probe: in fixed memory whatever the run's
 * length, the K worst samples (a min-heap) plus every sample over a threshold
 * (in arrival order) up to a cap, each with what the probe learned about the
 * moment it happened. The hot path only compares (lg_outliers_wants); a probe
 * gathers the details, at a cost, only for a sample that is wanted. */
#ifndef LABGATE_PROBES_LG_OUTLIERS_H
#define LABGATE_PROBES_LG_OUTLIERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LG_OUTLIERS_WORST_DEFAULT 64
#define LG_OUTLIERS_OVER_DEFAULT 1024
#define LG_UNKNOWN (-1)

/** One sample and its circumstances; LG_UNKNOWN (-1) marks what was not learned. */
typedef struct lg_outlier {
  uint64_t value_ns;     /**< the sample: a round trip (client) or a turnaround (server) */
  uint64_t at_ns;        /**< CLOCK_MONOTONIC when it completed */
  uint64_t seq;          /**< the request's sequence number */
  int64_t sock_wait_ns;  /**< how long its packet lay in the socket before the read */
  int32_t cpu_before;    /**< CPU at the start of the context-switch window */
  int32_t cpu_after;     /**< CPU right after the sample */
  int64_t vcsw, ivcsw;   /**< the thread's voluntary/involuntary switches in the window */
  uint64_t ctx_from_seq; /**< the window covers requests ctx_from_seq..seq */
} lg_outlier;

typedef struct lg_outliers {
  lg_outlier* worst; /**< min-heap on value_ns: worst[0] is the mildest kept */
  size_t worst_len, worst_cap;
  lg_outlier* over; /**< samples over the threshold, oldest first */
  size_t over_len, over_cap;
  uint64_t over_seen;    /**< samples over the threshold, kept or not */
  uint64_t threshold_ns; /**< 0: none (only the K worst are kept) */
  lg_outlier* scratch;   /**< room for every record, for lg_outliers_write_json */
  unsigned char* flags;
  void* owned; /**< the block lg_outliers_init took (NULL: the caller's, lg_outliers_init_at) */
} lg_outliers;

/** Takes (and pre-faults) memory for `worst_cap` + `over_cap` records. Returns 0 or -1. */
int lg_outliers_init(lg_outliers* o, size_t worst_cap, size_t over_cap, uint64_t threshold_ns);
void lg_outliers_free(lg_outliers* o);

/** Bytes of the block a store of these capacities lives in. */
size_t lg_outliers_bytes(size_t worst_cap, size_t over_cap);

/** A store in `mem` (lg_outliers_bytes of them, suitably aligned, the caller's):
 * the jitter probe's children keep theirs in the mapping their parent prints
 * from. Pre-faults it; lg_outliers_free then only forgets it. */
void lg_outliers_init_at(lg_outliers* o, void* mem, size_t worst_cap, size_t over_cap, uint64_t threshold_ns);

/** Whether a sample of `value_ns` would be kept: the only per-sample cost. */
static inline int lg_outliers_wants(const lg_outliers* o, uint64_t value_ns) {
  return (o->threshold_ns > 0 && value_ns > o->threshold_ns) || o->worst_len < o->worst_cap ||
         (o->worst_cap > 0 && value_ns > o->worst[0].value_ns);
}

/** Whether a wanted sample would also be stored (not only counted as over the
 * threshold because that log is full): only then are its circumstances read. */
static inline int lg_outliers_stores(const lg_outliers* o, uint64_t value_ns) {
  return (o->threshold_ns > 0 && value_ns > o->threshold_ns && o->over_len < o->over_cap) ||
         o->worst_len < o->worst_cap || (o->worst_cap > 0 && value_ns > o->worst[0].value_ns);
}

/** Keeps `r` where it belongs (among the worst, over the threshold, or both). */
void lg_outliers_add(lg_outliers* o, const lg_outlier* r);

/** The kept records, each once (a record in both lists is one sample), in time
 * order, into `out` (room for worst_cap + over_cap); `*flags` bit 0 = among the
 * worst, bit 1 = over the threshold. Returns how many. */
size_t lg_outliers_collect(const lg_outliers* o, lg_outlier* out, unsigned char* flags);

/** The mildest sample among the worst kept: every sample not kept was at most
 * this (0 when fewer than worst_cap samples came). */
uint64_t lg_outliers_floor(const lg_outliers* o);

/** Writes {"threshold_ns":..,"worst_kept":..,"over_threshold":..,"over_not_kept":..,
 * "floor_ns":..,"items":[{"seq","at_ns","value_ns","worst","over","sock_wait_ns",
 * "cpu_before","cpu_after","ctx_from_seq","voluntary","involuntary"}]} in time
 * order, each unknown circumstance null. */
void lg_outliers_write_json(const lg_outliers* o, FILE* out);

#endif
