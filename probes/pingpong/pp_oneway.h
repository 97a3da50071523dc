/* One-way delay, client side: what the pingpong client keeps of each exchange's
 * four timestamps so that labgate can estimate the two hosts' clock offset with
 * its error bound and split the round trip into a->b and b->a (issue 24).
 *
 * The server writes its realtime receive stamp (t2) into bytes 8..15 of the
 * reply; it doubles as its send stamp (t3): it is the last stamp taken before
 * the send call, and a stamp after the send could postdate the reply's arrival
 * (loopback and veth deliver inside send), which would break the bound. For an
 * exchange, a = t2 - t1 = d_ab + offset and b = t4 - t2 = d_ba - offset, so the
 * offset lies in [-b, a] (both delays are >= 0): offset = (a - b) / 2, bound =
 * (a + b) / 2 = half the round trip. All memory is fixed: the K exchanges with
 * the smallest round trips, the running intersection of every exchange's
 * interval (empty: the clocks moved against each other during the run), and one
 * histogram per direction of the measured exchanges, recorded against a
 * reference offset taken from the first measured exchange (the harness shifts
 * them by the final offset). */
#ifndef LABGATE_PROBES_PP_ONEWAY_H
#define LABGATE_PROBES_PP_ONEWAY_H

#include <stdint.h>
#include <stdio.h>

#include "labgate/stats/hist_core.h"
#include "lg_anchor.h"

#define PP_OW_KEEP 16

typedef struct pp_ow_exchange {
  uint64_t seq;
  int64_t t1, t2, t4; /**< realtime ns: client send (scheduled, open loop), server receive, client receive */
} pp_ow_exchange;

typedef struct pp_oneway {
  lg_anchor anchor;                /**< the client's monotonic -> realtime tie */
  pp_ow_exchange kept[PP_OW_KEEP]; /**< max-heap on t4 - t1: kept[0] is the slowest kept */
  int kept_len;
  uint64_t stamped, unstamped; /**< replies with / without the server's stamp */
  int64_t lo, hi;              /**< every exchange's offset interval intersected */
  int have_ref;
  int64_t ref_ns, bias_ns; /**< histograms hold a - ref + bias and b + ref + bias */
  uint64_t out_of_range;   /**< values below 0 after the shift (clocks moved): clamped */
  lg_hist* a_to_b;
  lg_hist* b_to_a;
} pp_oneway;

/** Takes the histograms and the anchor; returns 0 or -1 (no memory). */
int pp_ow_init(pp_oneway* o);

/** Books one completed exchange: t1/t4 the client's monotonic send (or
 * scheduled) and receive stamps, `reply` the echoed message (>= 16 bytes),
 * `measured` whether it falls in the measured phase (histograms). */
void pp_ow_book(pp_oneway* o, uint64_t seq, uint64_t t1_mono, uint64_t t4_mono, const unsigned char* reply,
                int measured);

/** Gives the histograms back (safe after a failed init, and twice). */
void pp_ow_free(pp_oneway* o);

/** Writes the "one_way" member's object (see SCHEMA.md). */
void pp_ow_write_json(const pp_oneway* o, FILE* out);

#endif
