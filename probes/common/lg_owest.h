/* One-way delay, the measuring side's store (issue 24): what a probe that
 * sends a message and gets a reply stamped with the far host's realtime
 * receive time keeps of each exchange, so that labgate can estimate the two
 * hosts' clock offset with its error bound and split the round trip into its
 * two one-way delays. Shared by the pingpong client (a->b and b->a) and the
 * mcast publisher (publisher->subscriber, one store per subscriber).
 *
 * The far host's receive stamp t2 doubles as its send stamp (t3): it is the last
 * stamp taken before its send call, and a stamp after the send could postdate
 * the reply's arrival (loopback and veth deliver inside send), which would break
 * the bound. For an exchange, a = t2 - t1 = d_ab + offset and b = t4 - t2 =
 * d_ba - offset, so the offset lies in [-b, a] (both delays are >= 0): offset =
 * (a - b) / 2, bound = (a + b) / 2 = half the round trip. A t1 taken from a
 * schedule (open loop) is at or before the real send: the interval only widens,
 * it never excludes the truth.
 *
 * All memory is fixed: the K exchanges with the smallest round trips, the
 * running intersection of every exchange's interval (empty: the clocks moved
 * against each other during the run), and one histogram per direction kept of
 * the measured exchanges (b_to_a may be left out), recorded against a reference
 * offset taken from the fastest exchange at the first measured one (the harness
 * shifts them by the final offset). Booking costs a few compares, a heap step
 * when the exchange is among the fastest, and one histogram record per direction. */
#ifndef LABGATE_PROBES_LG_OWEST_H
#define LABGATE_PROBES_LG_OWEST_H

#include <stdint.h>
#include <stdio.h>

#include "labgate/stats/hist_core.h"
#include "lg_anchor.h"

#define LG_OW_KEEP 16

typedef struct lg_ow_exchange {
  uint64_t seq;
  int64_t t1, t2, t4; /**< realtime ns: send (or scheduled send), far receive, reply's arrival */
} lg_ow_exchange;

typedef struct lg_owest {
  lg_ow_exchange kept[LG_OW_KEEP]; /**< max-heap on t4 - t1: kept[0] is the slowest kept */
  int kept_len;
  uint64_t stamped, unstamped; /**< replies with / without the far host's stamp */
  int64_t lo, hi;              /**< every exchange's offset interval intersected */
  int have_ref;
  int64_t ref_ns, bias_ns; /**< histograms hold a - ref + bias and b + ref + bias */
  uint64_t out_of_range;   /**< values below 0 after the shift (clocks moved): clamped */
  lg_hist* a_to_b;
  lg_hist* b_to_a; /**< NULL: the reverse direction is not kept */
} lg_owest;

/** Takes the histograms (b_to_a only when `both`); returns 0 or -1 (no memory). */
int lg_ow_init(lg_owest* o, int both);

/** Books one stamped exchange, all in realtime ns (t1 and t4 the measuring
 * host's, t2 the far host's); `measured`: in the measured phase (histograms). */
void lg_ow_book(lg_owest* o, uint64_t seq, int64_t t1, int64_t t2, int64_t t4, int measured);

/** Gives the histograms back (safe after a failed init, and twice). */
void lg_ow_free(lg_owest* o);

/** Writes the "one_way" object: the measuring host's `anchor`, then the store
 * (see probes/pingpong/SCHEMA.md); "b_to_a" only when it is kept. */
void lg_ow_write_json(const lg_owest* o, const lg_anchor* anchor, FILE* out);

#endif
