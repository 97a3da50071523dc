/* The injectors' shared clock (tailhog, tailflood): CLOCK_MONOTONIC, the
 * probes' clock, and a sleep to the next second of their busy-then-idle cycle. */
#ifndef LABGATE_TESTS_TAIL_EACH_SECOND_H
#define LABGATE_TESTS_TAIL_EACH_SECOND_H

#include <time.h>

static inline long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline long long now_ms(void) { return now_ns() / 1000000; }

/* Sleeps until `wake` (now_ms's clock); at once if that has passed. */
static inline void sleep_until_ms(long long wake) {
  long long left = wake - now_ms();
  struct timespec ts;
  if (left <= 0) return;
  ts.tv_sec = left / 1000;
  ts.tv_nsec = (left % 1000) * 1000000;
  nanosleep(&ts, NULL);
}

#endif
