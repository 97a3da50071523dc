/* The mcast publisher's booking of one subscriber's reply: checked against the
 * schedule, told apart (invalid, duplicate, warm-up, measured), its round trip
 * from the message's scheduled send time into the subscriber's histogram and,
 * when the reply carries the subscriber's receive stamp, the exchange into the
 * subscriber's one-way store (lg_owest.h: publisher->subscriber only; the way
 * back is a unicast reply, not the feed). Apart from the publisher's loop so
 * that it is tested without sockets. */
#ifndef LABGATE_PROBES_MC_BOOK_H
#define LABGATE_PROBES_MC_BOOK_H

#include <stdint.h>

#include "labgate/stats/hist_core.h"
#include "lg_anchor.h"
#include "lg_net.h"
#include "lg_owest.h"

/** The publisher's fixed schedule: message `seq` is due at base + seq * period. */
typedef struct mc_sched {
  uint64_t base; /**< CLOCK_MONOTONIC ns of message 0 */
  double period_ns;
  uint64_t first_measured, total; /**< total: the messages of the schedule (then: sent) */
} mc_sched;

static inline uint64_t mc_sched_at(const mc_sched* s, uint64_t seq) {
  return s->base + (uint64_t)((double)seq * s->period_ns);
}

typedef struct mc_sub_stats {
  lg_sockaddr addr;
  lg_hist* hist; /**< measured round trips, ns */
  lg_owest ow;   /**< one-way publisher->subscriber, from the stamped replies */
  uint64_t replies, warmup_replies, duplicated, invalid;
  uint64_t last_seq_plus1; /**< a reply to the same message as the one before is a duplicate */
} mc_sub_stats;

/** Takes the subscriber's histograms (round trip, one-way forward); 0 or -1 (no memory). */
int mc_sub_stats_init(mc_sub_stats* s);
void mc_sub_stats_free(mc_sub_stats* s);

/** Books the reply `b` of `n` bytes that arrived at `arrival` (the publisher's
 * CLOCK_MONOTONIC ns); `anchor` ties that clock to its realtime. */
void mc_book_reply(mc_sub_stats* s, const mc_sched* sc, const lg_anchor* anchor, const unsigned char* b,
                   long n, uint64_t arrival);

#endif
