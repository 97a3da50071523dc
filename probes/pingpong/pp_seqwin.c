/* Sequence bookkeeping of the pingpong client (see pp_seqwin.h). */
#include "pp_seqwin.h"

#include <stdlib.h>
#include <string.h>

#include "lg_measure_util.h"

int pp_seqwin_init(pp_seqwin* w, unsigned bits) {
  uint64_t size = (uint64_t)1 << bits;
  memset(w, 0, sizeof(*w));
  w->state = (uint8_t*)malloc((size_t)size);
  if (w->state == NULL) return -1;
  memset(w->state, PP_FREE, (size_t)size);
  lg_prefault(w->state, (size_t)size); /* no page fault mid-run */
  w->mask = size - 1;
  return 0;
}

void pp_seqwin_free(pp_seqwin* w) {
  free(w->state);
  w->state = NULL;
}

int pp_seqwin_can_send(const pp_seqwin* w) { return w->state[w->next & w->mask] != PP_OUTSTANDING; }

uint64_t pp_seqwin_send(pp_seqwin* w) {
  uint64_t seq = w->next++;
  w->state[seq & w->mask] = PP_OUTSTANDING;
  return seq;
}

pp_reply_kind pp_seqwin_reply(pp_seqwin* w, uint64_t seq, int* out_of_order) {
  uint8_t* st;
  *out_of_order = 0;
  /* Only the last window of sent numbers is known; anything else is not ours. */
  if (seq >= w->next || w->next - seq > w->mask + 1) return PP_REPLY_UNKNOWN;
  st = &w->state[seq & w->mask];
  switch (*st) {
    case PP_OUTSTANDING:
      *st = PP_ANSWERED;
      if (seq + 1 < w->highest_answered)
        *out_of_order = 1;
      else
        w->highest_answered = seq + 1;
      return PP_REPLY_OK;
    case PP_ANSWERED:
      return PP_REPLY_DUP;
    case PP_DROPPED:
      return PP_REPLY_LATE;
    default:
      return PP_REPLY_UNKNOWN;
  }
}

int pp_seqwin_oldest(pp_seqwin* w, uint64_t* seq) {
  while (w->oldest < w->next && w->state[w->oldest & w->mask] != PP_OUTSTANDING) w->oldest++;
  if (w->oldest == w->next) return 0;
  *seq = w->oldest;
  return 1;
}

void pp_seqwin_drop(pp_seqwin* w, uint64_t seq) {
  uint8_t* st = &w->state[seq & w->mask];
  if (*st == PP_OUTSTANDING) *st = PP_DROPPED;
}
