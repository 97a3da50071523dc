/* The stream receiver's tail (issue 25): the K worst receive gaps of the
 * measured phase, in fixed memory, each with its moment (lg_moment: CPU before
 * and after, the thread's context switches, for UDP how long the datagram that
 * ended it lay in the socket); for UDP also the largest sequence gaps (lost
 * datagrams), each with the longest receive gap before it.
 *
 * A receive gap is the time between two consecutive reads that returned data
 * while the sender was sending. For UDP a read is one datagram. For TCP a read
 * returns whatever the socket held (a read boundary is not a packet boundary):
 * a gap says the receiver got nothing for that long, never how late a packet
 * was. The hot path is a clock read (the caller's), a histogram count and one
 * comparison; the store is touched only when a gap beats its current floor. */
#ifndef LABGATE_PROBES_ST_GAPS_H
#define LABGATE_PROBES_ST_GAPS_H

#include <stdint.h>
#include <stdio.h>

#include "labgate/stats/hist_core.h"
#include "lg_moment.h"
#include "lg_outliers.h"

#define ST_LOSS_KEPT 16

/** A sequence gap: datagrams missing between two measured datagrams read in a
 * row. A receiver that stops reading loses datagrams only once its socket
 * buffer is full, and sees the jump only after reading what the buffer held:
 * so the burst carries the longest receive gap since the previous burst (the
 * pause that can have overflowed the buffer), not the gap just before it. */
typedef struct st_loss {
  uint64_t seq;            /**< the first datagram after the jump */
  uint64_t at_ns;          /**< when it was read */
  uint64_t lost;           /**< datagrams missing before it */
  uint64_t pause_ns;       /**< the longest receive gap since the previous burst */
  uint64_t pause_end_ns;   /**< when that gap ended */
} st_loss;

typedef struct st_gaps {
  lg_outliers outliers;
  lg_moment moment;
  lg_hist* hist; /**< every measured gap */
  int udp;
  int fd;            /**< the socket read (its receive stamps: UDP) */
  uint64_t last_ns;  /**< the previous read of this session (0: none that starts a measured gap) */
  /* TCP: reads whose gap starts before measure_from_ns are warm-up. It is
   * first_ns + the client's warm-up: the client started its warm-up when it
   * sent the first byte, one one-way delay before first_ns. */
  uint64_t warmup_ns, first_ns, measure_from_ns;
  uint64_t offset;   /**< TCP: bytes read so far this session */
  uint64_t next_seq; /**< UDP: the sequence number expected next */
  /* UDP: sequence jumps between two measured datagrams and the datagrams
   * missing in them; the ST_LOSS_KEPT largest; the longest gap since the last. */
  uint64_t loss_bursts, lost;
  st_loss loss[ST_LOSS_KEPT];
  unsigned loss_len;
  uint64_t pause_ns, pause_end_ns;
  uint64_t reordered; /**< UDP: measured datagrams older than one already read */
  uint64_t sessions;
} st_gaps;

/** Takes the store (`worst` records) and the histogram, and finds the moment's
 * sources. Returns 0 or -1 (no memory). */
int st_gaps_init(st_gaps* g, int udp, unsigned worst);
void st_gaps_free(st_gaps* g);

/** A new session on `fd`: the gap before its first read is no gap. `warmup_ns`
 * (TCP) is the client's warm-up, from its hello. */
void st_gaps_session(st_gaps* g, int fd, uint64_t warmup_ns);

/** The slow path: keeps the gap ending at `now` (see st_gaps_tcp/st_gaps_udp). */
void st_gaps_keep(st_gaps* g, uint64_t gap, uint64_t now, uint64_t seq);

/** UDP: a sequence jump of `lost` datagrams before `seq`, read at `now`. */
void st_gaps_loss(st_gaps* g, uint64_t now, uint64_t seq, uint64_t lost);

/** TCP: a read of `n` bytes returned at `now` (CLOCK_MONOTONIC). Its record's
 * seq is the stream offset of the read's last byte, so a window's switch
 * counts cover bytes ctx_from_seq..seq. */
static inline void st_gaps_tcp(st_gaps* g, uint64_t now, uint64_t n) {
  const uint64_t last = g->last_ns;
  g->offset += n;
  g->last_ns = now;
  if (last == 0) {
    g->first_ns = now;
    g->measure_from_ns = now + g->warmup_ns;
    return;
  }
  if (last < g->measure_from_ns) {
    /* The gap starting now is the first measured one: its switch window too. */
    if (now >= g->measure_from_ns) lg_moment_rebase(&g->moment, g->offset);
    return;
  }
  lg_hist_record(g->hist, now - last);
  if (lg_outliers_wants(&g->outliers, now - last))
    st_gaps_keep(g, now - last, now, g->offset - 1);
  else
    lg_moment_tick(&g->moment, g->offset);
}

/** UDP: datagram `seq` of phase `measured` (its header) read at `now`. A gap
 * counts when both datagrams are of the measured phase. */
static inline void st_gaps_udp(st_gaps* g, uint64_t now, uint64_t seq, int measured) {
  const uint64_t last = g->last_ns;
  uint64_t lost = 0;
  if (!measured) {
    g->last_ns = 0;
    g->next_seq = seq + 1;
    return;
  }
  g->last_ns = now;
  if (seq < g->next_seq) {
    if (last != 0) g->reordered++;
  } else {
    lost = seq - g->next_seq;
    g->next_seq = seq + 1;
  }
  if (last == 0) { /* the first measured datagram: the first gap and its switch window start here */
    lg_moment_rebase(&g->moment, seq + 1);
    g->pause_ns = 0;
    return;
  }
  lg_hist_record(g->hist, now - last);
  if (now - last > g->pause_ns) {
    g->pause_ns = now - last;
    g->pause_end_ns = now;
  }
  if (lost > 0) st_gaps_loss(g, now, seq, lost);
  if (lg_outliers_wants(&g->outliers, now - last))
    st_gaps_keep(g, now - last, now, seq);
  else
    lg_moment_tick(&g->moment, seq + 1);
}

/** Writes ,"receive_gaps":{...},"gap_outliers":{...},"outlier_sources":{...}
 * (probes/stream/SCHEMA.md) into the server's summary. */
void st_gaps_write_json(const st_gaps* g, FILE* out);

#endif
