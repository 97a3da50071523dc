/* What a probe learns about the moment of an outlier, at a cost paid only for
 * outliers: the CPU before and after, the thread's voluntary/involuntary context
 * switches in a window ending with it, and how long its packet lay in the
 * socket. Each source is found at run time with a fallback for old kernels
 * (2.6.18: no getcpu, no RUSAGE_THREAD, no SIOCGSTAMPNS), and a source that is
 * missing says why. The switch counters are read at most every `every` samples
 * (a "window"), never per sample: an outlier's counts cover the requests from
 * ctx_from_seq to its own.
 *
 * What a sample costs: one that is not an outlier, a decrement; every
 * `every`-th of them (64 with RUSAGE_THREAD) also a getrusage system call and a
 * getcpu (the vDSO's: no system call where the kernel has it) to start the next
 * window. An outlier: a getcpu and a getrusage, and for a reader without its
 * own stamps (lg_moment_stamps) one ioctl for the socket wait. */
#ifndef LABGATE_PROBES_LG_MOMENT_H
#define LABGATE_PROBES_LG_MOMENT_H

#include <stdint.h>
#include <stdio.h>

#include "lg_outliers.h"

typedef struct lg_moment {
  int ctx_kind;           /**< 0 none, 1 RUSAGE_THREAD, 2 /proc/self/task/TID/status, 3 RUSAGE_SELF */
  const char* ctx_why;    /**< why there are no switch counts (ctx_kind 0) */
  char status_path[64];   /**< /proc/self/task/TID/status */
  unsigned every;         /**< samples per window */
  unsigned countdown;     /**< samples left in the current window */
  uint64_t from_seq;      /**< first request of the current window */
  int32_t cpu;            /**< CPU at the window's start */
  int64_t vcsw, ivcsw;    /**< counters at the window's start */
  int stamp_kind;         /**< 0 none, 1 SIOCGSTAMPNS, 2 SIOCGSTAMP, 3 given by the reader (recvmsg) */
  const char* stamp_why;  /**< why there is no socket wait (stamp_kind 0) */
  uint64_t stamp_missing; /**< outliers whose packet had no stamp */
} lg_moment;

/** Finds the switch-counter source. `single_thread`: the process has one
 * thread, so RUSAGE_SELF counts it exactly where nothing finer exists. */
void lg_moment_init(lg_moment* m, int single_thread);

/** No circumstances at all (a probe's forensics turned off): every source says
 * `why`, and lg_moment_tick never starts a window that reads anything. */
void lg_moment_off(lg_moment* m, const char* why);

/** Finds the receive-stamp source for socket `fd` and turns stamping on
 * (`udp`: the per-socket stamp of the last datagram read; TCP has none). */
void lg_moment_stamps(lg_moment* m, int fd, int udp);

/** The reader gets each packet's receive stamp with its read (recvmsg's
 * control data, lg_net.h lg_read_full_stamped) and fills an outlier's
 * sock_wait_ns itself: no ioctl per outlier, and TCP has one too (Linux 4.13+). */
void lg_moment_stamps_given(lg_moment* m);

/** Starts a new window at request `seq` (reads the counters now). */
void lg_moment_rebase(lg_moment* m, uint64_t seq);

/** Per sample that is not an outlier: a decrement, and a rebase once per window. */
static inline void lg_moment_tick(lg_moment* m, uint64_t next_seq) {
  if (--m->countdown == 0) lg_moment_rebase(m, next_seq);
}

/** Fills r's circumstances (r->seq, r->at_ns set by the caller; `read_ns` is
 * when the packet was read, on CLOCK_MONOTONIC) and starts the next window. */
void lg_moment_capture(lg_moment* m, lg_outlier* r, int fd, uint64_t read_ns);

/** The slow path of every probe's sample loop: a sample of `value_ns` (sequence
 * `seq`, completed at `at_ns`, its packet read at `read_ns`) with its
 * circumstances (lg_moment_capture) into `o`; one that `o` would only count
 * (over the threshold, that log full, not among the worst) is counted without
 * them, at no system call. */
void lg_moment_keep(lg_moment* m, lg_outliers* o, int fd, uint64_t seq, uint64_t value_ns, uint64_t at_ns,
                    uint64_t read_ns);

/** Writes {"cpu":"getcpu"|"proc_stat","context_switches":"...","sock_wait":"...",
 * "window_samples":N,"sock_wait_missing":N}: each source, or "not available: why". */
void lg_moment_write_json(const lg_moment* m, FILE* out);

#endif
