/* One-way delay, pingpong client side: the reply's stamp read and booked in
 * the shared store (see pp_oneway.h). */
#include "pp_oneway.h"

#include <string.h>

int pp_ow_init(pp_oneway* o) {
  if (lg_ow_init(&o->est, 1) != 0) return -1;
  lg_anchor_take(&o->anchor);
  return 0;
}

void pp_ow_free(pp_oneway* o) { lg_ow_free(&o->est); }

void pp_ow_book(pp_oneway* o, uint64_t seq, uint64_t t1_mono, uint64_t t4_mono, const unsigned char* reply,
                int measured) {
  uint64_t stamp;
  memcpy(&stamp, reply + 8, 8);
  /* A server that only echoes returns the client's own send stamp. */
  if (stamp == t1_mono) {
    o->est.unstamped++;
    return;
  }
  lg_ow_book(&o->est, seq, (int64_t)lg_anchor_real(&o->anchor, t1_mono), (int64_t)stamp,
             (int64_t)lg_anchor_real(&o->anchor, t4_mono), measured);
}

void pp_ow_write_json(const pp_oneway* o, FILE* out) { lg_ow_write_json(&o->est, &o->anchor, out); }
