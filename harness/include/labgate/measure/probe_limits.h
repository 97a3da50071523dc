/* The limits the built-in probes put on their arguments, in C99 so that the static
 * probes and the harness's validate read the same numbers (labgate/profile/limits.h
 * builds the profile's table on them): a profile that validates can start. */
#ifndef LABGATE_MEASURE_PROBE_LIMITS_H
#define LABGATE_MEASURE_PROBE_LIMITS_H

/* pingpong and stream: a UDP message, and a paced (--rate) pingpong request,
 * carries a sequence number and a timestamp in its first 16 bytes. */
#define LG_PROBE_HDR_SIZE 16u
/* The largest message a probe sends: TCP up to its buffer (1 MiB); UDP up to
 * what one IPv4 datagram holds (65535 - 20 IP - 8 UDP). */
#define LG_PROBE_MAX_TCP_SIZE (1u << 20)
#define LG_PROBE_MAX_UDP_SIZE 65507u
/* --rate R/s: above 0 and at most a billion a second (one per nanosecond). */
#define LG_PROBE_MAX_RATE 1e9
/* --interval: the series' grain, at least 1 ms ... */
#define LG_PROBE_MIN_INTERVAL_NS 1000000ull
/* ... and at most this many intervals in one run (the series is allocated up front). */
#define LG_PROBE_MAX_INTERVALS 10000000u

#endif
