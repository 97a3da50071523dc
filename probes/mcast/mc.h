/* The mcast probe (udp_multicast): configuration and wire format.
 *
 * Every feed message starts with a 32-byte header in the publisher's native
 * byte order (only labgate's probes read it, on hosts of one architecture):
 * "LGMC", flags (MC_FLAG_END on the end marker), the sequence number, the
 * SCHEDULED send time (CLOCK_MONOTONIC of the publisher: round trips are
 * measured from the schedule, as pingpong's open loop does) and the first
 * measured sequence number (the rate is fixed, so the publisher knows where
 * warm-up ends before it sends anything). The end marker's sequence number is
 * the count of messages sent. A subscriber answers 1 in --reply-every messages
 * by unicast with a 32-byte reply: the message's first 24 bytes with "LGMR" in
 * place of "LGMC", then the subscriber's CLOCK_REALTIME receive stamp of that
 * message (ns, via its lg_anchor), from which the publisher estimates the
 * one-way delay to it (lg_owest.h). A 24-byte reply (a subscriber older than
 * the stamp) still measures the round trip and is counted unstamped. */
#ifndef LABGATE_PROBES_MC_H
#define LABGATE_PROBES_MC_H

#include <netinet/in.h>
#include <stdint.h>
#include <string.h>

#include "labgate/measure/probe_limits.h"
#include "lg_tune.h"

#define MC_HDR 32
#define MC_REPLY_MIN 24 /**< a reply without the receive stamp */
#define MC_REPLY_LEN 32
#define MC_MAX_SIZE LG_PROBE_MAX_UDP_SIZE
#define MC_MAX_SUBSCRIBERS 64
#define MC_FLAG_END 1u
#define MC_END_COPIES 3

typedef struct mc_config {
  int publisher;
  const char* group; /**< numeric IPv4 multicast address */
  int port;
  const char* bind;   /**< the test interface's own address (IP_MULTICAST_IF / imr_interface) */
  const char* source; /**< subscriber: SSM source (IP_ADD_SOURCE_MEMBERSHIP); NULL = any */
  uint64_t size;
  int ttl;
  double rate;
  uint64_t duration_ns, warmup_ns;
  uint64_t reply_every;
  uint64_t linger_ns;       /**< publisher: waits this long for the last replies */
  uint64_t idle_timeout_ns; /**< subscriber: ends after this long without a message */
  const char* subscribers[MC_MAX_SUBSCRIBERS];
  int n_subscribers;
  lg_tuning tune; /**< --socket-buffer of the feed's socket (a subscriber's receive buffer) */
} mc_config;

typedef struct mc_hdr {
  uint32_t flags;
  uint64_t seq, ts, first_measured;
} mc_hdr;

static inline void mc_put_hdr(unsigned char* b, const char* magic, const mc_hdr* h) {
  memcpy(b, magic, 4);
  memcpy(b + 4, &h->flags, 4);
  memcpy(b + 8, &h->seq, 8);
  memcpy(b + 16, &h->ts, 8);
  memcpy(b + 24, &h->first_measured, 8);
}

/** Reads a header of `n` bytes with the given magic; 0, or -1 when it is not one. */
static inline int mc_get_hdr(const unsigned char* b, long n, const char* magic, long min, mc_hdr* h) {
  if (n < min || memcmp(b, magic, 4) != 0) return -1;
  memcpy(&h->flags, b + 4, 4);
  memcpy(&h->seq, b + 8, 8);
  memcpy(&h->ts, b + 16, 8);
  h->first_measured = 0;
  if (min >= MC_HDR) memcpy(&h->first_measured, b + 24, 8);
  return 0;
}

/** What a reply says: the message it answers and, when `stamped`, the
 * subscriber's realtime receive stamp of it. */
typedef struct mc_reply {
  uint64_t seq;
  int64_t stamp;
  int stamped;
} mc_reply;

/** Writes a reply to the message `h` received at realtime `stamp` into `b`
 * (MC_REPLY_LEN bytes). */
static inline void mc_put_reply(unsigned char* b, const mc_hdr* h, int64_t stamp) {
  mc_put_hdr(b, "LGMR", h);
  memcpy(b + 24, &stamp, 8);
}

/** Reads a reply of `n` bytes; 0, or -1 when it is not one. */
static inline int mc_get_reply(const unsigned char* b, long n, mc_reply* r) {
  mc_hdr h;
  if (mc_get_hdr(b, n, "LGMR", MC_REPLY_MIN, &h) != 0) return -1;
  r->seq = h.seq;
  r->stamped = n >= MC_REPLY_LEN;
  r->stamp = 0;
  if (r->stamped) memcpy(&r->stamp, b + 24, 8);
  return 0;
}

int mc_run_publisher(const mc_config* cfg);
int mc_run_subscriber(const mc_config* cfg);

#endif
