/* Ties CLOCK_MONOTONIC to CLOCK_REALTIME (see lg_anchor.h). */
#include "lg_anchor.h"

#include <time.h>

#include "lg_measure_util.h"

/* Enough tries that one is not interrupted: each costs three clock reads. */
#define LG_ANCHOR_TRIES 32

static uint64_t realtime_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void lg_anchor_take(lg_anchor* a) {
  uint64_t best = UINT64_MAX;
  int i;
  a->delta_ns = 0;
  a->error_ns = 0;
  for (i = 0; i < LG_ANCHOR_TRIES; i++) {
    uint64_t m0 = lg_now_ns(), r = realtime_ns(), m1 = lg_now_ns();
    if (m1 - m0 < best) {
      best = m1 - m0;
      /* The realtime read happened somewhere in [m0, m1]: the midpoint is off by at most half. */
      a->delta_ns = (int64_t)(r - (m0 + (m1 - m0) / 2));
      a->error_ns = (best + 1) / 2;
    }
  }
}

void lg_anchor_write_json(const lg_anchor* a, FILE* out) {
  /* Tied again now, at the end of the run: a realtime step since the start
   * (settimeofday, a hypervisor's time sync, ntpd -g) moves the delta, and
   * every stamp carried over with the old one is off by it. The reader
   * compares the two; the probe cannot know which of its stamps crossed it. */
  lg_anchor end;
  lg_anchor_take(&end);
  fprintf(out, "{\"clock\":\"realtime\",\"delta_ns\":%lld,\"error_ns\":%llu,\"end_delta_ns\":%lld,\"end_error_ns\":%llu}",
          (long long)a->delta_ns, (unsigned long long)a->error_ns, (long long)end.delta_ns,
          (unsigned long long)end.error_ns);
}
