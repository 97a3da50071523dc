/* A multicast subscriber's accounting of the feed (see mc_track.h). */
#include "mc_track.h"

#include <stdlib.h>
#include <string.h>

#include "lg_measure_util.h"

int mc_track_init(mc_track* t, unsigned bits, uint64_t first_measured) {
  const uint64_t size = (uint64_t)1 << bits;
  memset(t, 0, sizeof(*t));
  t->state = (uint8_t*)malloc((size_t)size);
  if (t->state == NULL) return -1;
  lg_prefault(t->state, (size_t)size);
  t->mask = size - 1;
  t->first = t->next = t->final = first_measured;
  return 0;
}

void mc_track_free(mc_track* t) {
  free(t->state);
  t->state = NULL;
}

/* Judges numbers [final, upto): each lost one extends the current gap. */
static void judge_until(mc_track* t, uint64_t upto) {
  while (t->final < upto) {
    if (t->state[t->final & t->mask]) {
      if (t->run > 0) t->gaps++;
      t->run = 0;
    } else {
      t->lost++;
      if (++t->run > t->longest_gap) t->longest_gap = t->run;
    }
    t->final++;
  }
}

/* Marks [next, upto) missing; numbers that would wrap the ring are judged first. */
static void advance(mc_track* t, uint64_t upto) {
  const uint64_t window = t->mask + 1;
  if (upto - t->next > window) {
    /* A gap longer than the ring: judge what is in it, then count the rest
     * directly, without touching the ring once per lost number. */
    judge_until(t, t->next);
    const uint64_t skip = upto - window - t->next;
    t->lost += skip;
    t->run += skip;
    if (t->run > t->longest_gap) t->longest_gap = t->run;
    t->next += skip;
    t->final = t->next;
  }
  if (upto > t->final + window) judge_until(t, upto - window);
  while (t->next < upto) t->state[t->next++ & t->mask] = 0;
}

void mc_track_seen(mc_track* t, uint64_t seq) {
  if (seq < t->first) {
    t->warmup_received++;
    return;
  }
  if (seq >= t->next) {
    advance(t, seq + 1);
    t->state[seq & t->mask] = 1;
    t->received++;
    return;
  }
  if (seq < t->final) {
    t->too_late++; /* already judged lost; stays lost */
    return;
  }
  if (t->state[seq & t->mask]) {
    t->duplicated++;
    return;
  }
  t->state[seq & t->mask] = 1; /* fills a hole: it came after a later one */
  t->received++;
  t->out_of_order++;
}

void mc_track_finish(mc_track* t, uint64_t total) {
  if (total > t->next) advance(t, total);
  judge_until(t, t->next);
  if (t->run > 0) t->gaps++;
  t->run = 0;
}
