/* The mcast publisher's booking of a subscriber's reply (see mc_book.h). */
#include "mc_book.h"

#include <stdlib.h>
#include <string.h>

#include "lg_measure_util.h"
#include "mc.h"

int mc_sub_stats_init(mc_sub_stats* s) {
  s->hist = (lg_hist*)malloc(sizeof(lg_hist));
  if (s->hist == NULL) return -1;
  lg_hist_reset(s->hist);
  lg_prefault(s->hist, sizeof(lg_hist));
  return lg_ow_init(&s->ow, 0);
}

void mc_sub_stats_free(mc_sub_stats* s) {
  free(s->hist);
  s->hist = NULL;
  lg_ow_free(&s->ow);
}

void mc_book_reply(mc_sub_stats* s, const mc_sched* sc, const lg_anchor* anchor, const unsigned char* b,
                   long n, uint64_t arrival) {
  mc_reply r;
  uint64_t due;
  int measured;
  if (mc_get_reply(b, n, &r) != 0 || r.seq >= sc->total) {
    s->invalid++;
    return;
  }
  if (r.seq + 1 == s->last_seq_plus1) {
    s->duplicated++;
    return;
  }
  s->last_seq_plus1 = r.seq + 1;
  due = mc_sched_at(sc, r.seq);
  measured = r.seq >= sc->first_measured;
  /* Warm-up replies feed the one-way store's fastest exchanges, not its histogram. */
  if (r.stamped)
    lg_ow_book(&s->ow, r.seq, (int64_t)lg_anchor_real(anchor, due), r.stamp,
               (int64_t)lg_anchor_real(anchor, arrival), measured);
  else
    s->ow.unstamped++;
  if (!measured) {
    s->warmup_replies++;
    return;
  }
  s->replies++;
  lg_hist_record(s->hist, arrival - due);
}
