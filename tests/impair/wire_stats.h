/* The wire's counters, per direction and for IPv4 UDP frames alone (what the
 * pingpong probe sends), and their JSON form, so a test can hold the probes'
 * own counts against what was really injected. */
#ifndef LABGATE_TESTS_IMPAIR_WIRE_STATS_H
#define LABGATE_TESTS_IMPAIR_WIRE_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Counters of one class of frames in one direction. */
typedef struct wire_counts {
  uint64_t received;       /**< frames read from the ingress side */
  uint64_t forwarded;      /**< copies sent on the egress side */
  uint64_t lost;           /**< copies dropped by the loss roll */
  uint64_t duplicated;     /**< extra copies made by the duplicate roll */
  uint64_t reordered;      /**< frames sent at once by the reorder rule */
  uint64_t limit_drops;    /**< copies dropped because the queue held `limit` frames */
  uint64_t tx_errors;      /**< copies the kernel refused to send */
  uint64_t out_of_order;   /**< first departures after a later frame's (pingpong's definition) */
  uint64_t dup_departures; /**< departures of a frame that had already left once */
} wire_counts;

/** Which frames arrived in which order, to count departures as the receiver sees them. */
#define WIRE_SEQ_RING 65536
typedef struct wire_order {
  uint64_t next_seq;            /**< arrival number of the next frame */
  uint64_t highest_left;        /**< highest arrival number + 1 that has left */
  uint64_t left[WIRE_SEQ_RING]; /**< seq + 1 of the last frame that left in this slot */
} wire_order;

/** One direction: all frames, IPv4 UDP frames, and the kernel's drops before the wire saw them. */
typedef struct wire_dir_stats {
  wire_counts all, udp;
  wire_order order_all, order_udp;
  uint64_t socket_drops; /**< PACKET_STATISTICS tp_drops of the ingress socket */
  uint64_t truncated;    /**< frames larger than the wire's buffer (dropped) */
} wire_dir_stats;

/** Gives an arriving frame its arrival number. */
uint64_t wire_order_arrive(wire_order* o);

/** Books a departure of arrival number `seq` into `c`'s out_of_order / dup_departures. */
void wire_order_depart(wire_order* o, wire_counts* c, uint64_t seq);

/** Writes {"a_to_b":{...},"b_to_a":{...}} plus `extra` (a JSON member list, may be empty) as one line. */
void wire_stats_json(FILE* out, const wire_dir_stats* a_to_b, const wire_dir_stats* b_to_a,
                     const char* extra);

#ifdef __cplusplus
}
#endif

#endif
