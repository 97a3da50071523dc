/* The tie between a host's CLOCK_MONOTONIC (every probe's stamps: it never
 * steps) and its CLOCK_REALTIME (the only clock two hosts share an origin for,
 * so the only one in which their stamps can be compared). Both are slewed alike
 * by NTP, so realtime = monotonic + delta for the whole run unless someone steps
 * the clock; taking delta once costs the hot loop nothing (one add per stamp),
 * and the writer takes it again at the end so a step is seen, not folded in. */
#ifndef LABGATE_PROBES_LG_ANCHOR_H
#define LABGATE_PROBES_LG_ANCHOR_H

#include <stdint.h>
#include <stdio.h>

typedef struct lg_anchor {
  int64_t delta_ns;  /**< realtime - monotonic */
  uint64_t error_ns; /**< |true delta - delta_ns| is at most this (half the tightest bracket) */
} lg_anchor;

/** Reads (monotonic, realtime, monotonic) a few times and keeps the tightest bracket. */
void lg_anchor_take(lg_anchor* a);

/** A monotonic stamp in realtime nanoseconds. */
static inline uint64_t lg_anchor_real(const lg_anchor* a, uint64_t mono_ns) {
  return (uint64_t)((int64_t)mono_ns + a->delta_ns);
}

/** Writes {"clock":"realtime","delta_ns":..,"error_ns":..,"end_delta_ns":..,
 * "end_error_ns":..}: the tie as taken, and taken again as it is written (at
 * the end of the run), so a reader sees a realtime step during the run. */
void lg_anchor_write_json(const lg_anchor* a, FILE* out);

#endif
