/* The peer filter of the probe servers: a server started for one test answers
 * only the harness's client (its test address, `--peer`), so another host that
 * can reach the test address and port cannot feed it traffic, skew what it
 * counts, or keep it alive past the test. Linux 2.6.18 system calls only. */
#ifndef LABGATE_PROBES_LG_NET_PEER_H
#define LABGATE_PROBES_LG_NET_PEER_H

#include <stdint.h>

#include "lg_net.h"

/** Who may talk to a probe server: one IPv4 or IPv6 address, or (off) anyone. */
typedef struct lg_peer_filter {
  int on;                     /**< 0: any source is served (no --peer given) */
  lg_sockaddr addr;           /**< the only source served when on; its port may be any */
  unsigned long long foreign; /**< connections reset and datagrams ignored: they came from elsewhere */
} lg_peer_filter;

/** Sets the filter to `ip` (numeric IPv4 or IPv6); NULL lets anyone in. Returns
 * 0, or -1 when `ip` is not a numeric address (the filter is then left off). */
int lg_peer_set(lg_peer_filter* f, const char* ip);

/** 1 if `from` may talk to the server. Otherwise counts it as foreign and
 * returns 0: the caller drops what it sent without answering. */
int lg_peer_allows(lg_peer_filter* f, const lg_sockaddr* from);

/** Waits until the CLOCK_MONOTONIC deadline for a connection from the allowed
 * peer on the listener `lfd` and returns it (blocking, close-on-exec). A
 * connection from anywhere else is reset at once (RST, nothing read from or
 * written to it), counted, and the wait goes on: a stranger neither takes the
 * server's one client slot nor moves the deadline. Returns -2 at the deadline,
 * -1 on an error or a signal (errno; the caller re-checks its stop flag). */
int lg_accept_peer(int lfd, lg_peer_filter* f, uint64_t deadline_ns);

#endif
