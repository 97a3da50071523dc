/* Log-linear latency histogram core (HdrHistogram-style), in C99 so that the
 * static RHEL 5-safe probes and the C++ harness share one bucket layout and one
 * serialised form. Values are nanoseconds; 3 significant digits; fixed memory. */
#ifndef LABGATE_STATS_HIST_CORE_H
#define LABGATE_STATS_HIST_CORE_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2048 sub-buckets per power of two give a worst-case relative error of
 * 1/1024 (< 0.1%, i.e. 3 significant digits). Values below 2048 ns are exact. */
#define LG_HIST_SUB_BUCKET_BITS 11
#define LG_HIST_SUB_BUCKET_COUNT (1 << LG_HIST_SUB_BUCKET_BITS)
#define LG_HIST_SUB_BUCKET_HALF (LG_HIST_SUB_BUCKET_COUNT / 2)
/* 33 buckets track up to 2^43-1 ns (about 2.4 hours) with full precision.
 * Larger values are counted in `overflow` (never dropped) and still set max. */
#define LG_HIST_BUCKET_COUNT 33
#define LG_HIST_COUNTS_LEN ((LG_HIST_BUCKET_COUNT + 1) * LG_HIST_SUB_BUCKET_HALF)
#define LG_HIST_HIGHEST_TRACKABLE ((((uint64_t)1) << 43) - 1)

/** A histogram; about 272 KiB whatever the run length. Zero it with lg_hist_reset. */
typedef struct lg_hist {
  uint64_t total;    /**< samples recorded, including overflow */
  uint64_t min;      /**< exact smallest value (UINT64_MAX when empty) */
  uint64_t max;      /**< exact largest value (0 when empty) */
  uint64_t sum;      /**< exact sum of values, for the mean */
  uint64_t overflow; /**< samples above LG_HIST_HIGHEST_TRACKABLE */
  uint64_t counts[LG_HIST_COUNTS_LEN];
} lg_hist;

void lg_hist_reset(lg_hist* h);

/** Index of the counter a value falls in (value <= LG_HIST_HIGHEST_TRACKABLE). */
static inline uint32_t lg_hist_index(uint64_t value) {
  /* Position of the highest set bit, with everything below 2048 in bucket 0. */
  int pow2ceiling = 64 - __builtin_clzll(value | (LG_HIST_SUB_BUCKET_COUNT - 1));
  int bucket = pow2ceiling - LG_HIST_SUB_BUCKET_BITS;
  uint32_t sub = (uint32_t)(value >> bucket);
  return ((uint32_t)(bucket + 1) << (LG_HIST_SUB_BUCKET_BITS - 1)) + sub - LG_HIST_SUB_BUCKET_HALF;
}

/** Records one value in constant time, without allocating. */
static inline void lg_hist_record(lg_hist* h, uint64_t value) {
  h->total++;
  h->sum += value;
  if (value < h->min) h->min = value;
  if (value > h->max) h->max = value;
  if (value > LG_HIST_HIGHEST_TRACKABLE) {
    h->overflow++;
    return;
  }
  h->counts[lg_hist_index(value)]++;
}

/** Smallest and largest value that share the counter at `index`. */
uint64_t lg_hist_lowest_at(uint32_t index);
uint64_t lg_hist_highest_at(uint32_t index);

/** Adds every sample of `from` into `into`. */
void lg_hist_merge(lg_hist* into, const lg_hist* from);

/** Nearest-rank percentile (0 < p <= 100): the highest value equivalent to the
 * sample of rank ceil(p/100*total), clamped to the exact [min, max]. 0 if empty. */
uint64_t lg_hist_percentile(const lg_hist* h, double p);

/** Mean (exact) and standard deviation (from bucket midpoints). */
double lg_hist_mean(const lg_hist* h);
double lg_hist_stddev(const lg_hist* h);

/** Writes the compact JSON form that the C++ Histogram reads back exactly:
 * {"format":"labgate-hist-1","unit":"ns","sub_bucket_bits":11,"total":..,"min":..,
 *  "max":..,"sum":..,"overflow":..,"counts":[index,count,index,count,...]} */
int lg_hist_write_json(const lg_hist* h, FILE* out);

#ifdef __cplusplus
}
#endif
#endif
