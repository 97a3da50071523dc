/* One-way delay, pingpong client side (issue 24): reads the server's realtime
 * receive stamp out of each reply and books the exchange in the shared one-way
 * store (probes/common/lg_owest.h, which says how the offset and its bound
 * follow from the four stamps), both directions kept.
 *
 * The server writes its realtime receive stamp (t2) into bytes 8..15 of the
 * reply. A server that only echoes returns the client's own send stamp there:
 * such a reply is counted as unstamped, not booked. */
#ifndef LABGATE_PROBES_PP_ONEWAY_H
#define LABGATE_PROBES_PP_ONEWAY_H

#include <stdint.h>
#include <stdio.h>

#include "lg_anchor.h"
#include "lg_owest.h"

typedef struct pp_oneway {
  lg_anchor anchor; /**< the client's monotonic -> realtime tie */
  lg_owest est;     /**< a_to_b and b_to_a */
} pp_oneway;

/** Takes the store's histograms and the anchor; returns 0 or -1 (no memory). */
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
