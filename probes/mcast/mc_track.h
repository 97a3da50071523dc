/* A multicast subscriber's own accounting of the feed, in fixed memory: what was
 * received, lost, duplicated or reordered, and the longest gap (run of lost
 * sequence numbers), over the measured sequence numbers only. A ring of one
 * state byte per sequence number over the last 2^bits numbers tells a late
 * arrival (fills a hole: reordering) from a duplicate; a number is final once
 * it leaves the ring, which is when a lost one joins or ends a gap. */
#ifndef LABGATE_PROBES_MC_TRACK_H
#define LABGATE_PROBES_MC_TRACK_H

#include <stdint.h>

typedef struct mc_track {
  uint8_t* state; /**< per sequence number in the ring: 0 missing, 1 received */
  uint64_t mask;  /**< ring size - 1 */
  uint64_t first; /**< first measured sequence number (warm-up ends before it) */
  uint64_t next;  /**< one past the highest measured number seen (first = none) */
  uint64_t final; /**< numbers below this have left the ring and are judged */
  uint64_t run;   /**< lost numbers in a row ending at `final` - 1 */
  uint64_t received, lost, duplicated, out_of_order, too_late, longest_gap, gaps;
  uint64_t warmup_received;
} mc_track;

/** Allocates a ring of 2^bits numbers (prefaulted). Returns 0 or -1. */
int mc_track_init(mc_track* t, unsigned bits, uint64_t first_measured);
void mc_track_free(mc_track* t);

/** Books one message of sequence number `seq`. */
void mc_track_seen(mc_track* t, uint64_t seq);

/** The feed ended after `total` messages (0..total-1): every number not seen is
 * lost and the ring is judged. `total` 0: the end is unknown (the publisher's
 * end marker never came), so only the numbers up to the highest seen count. */
void mc_track_finish(mc_track* t, uint64_t total);

#endif
