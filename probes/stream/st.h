/* The stream probe (tcp_stream / udp_stream): configuration and protocol.
 *
 * Protocol. The client opens a TCP control connection to the server's port and
 * sends one line "LGST 1 tcp|udp SIZE TOKEN WARMUP_NS"; the server answers
 * "OK UDP_PORT" or "ERR reason". WARMUP_NS (absent from an older client) lets
 * the TCP receiver leave the warm-up's receive gaps out (st_gaps.h).
 *  - tcp: the payload then flows on that same connection; the client ends it
 *    with shutdown(SHUT_WR), the server reads to EOF and answers one line
 *    "REPORT datagrams=0 bytes=B total_datagrams=0 total_bytes=B out_of_order=0"
 *    (B = every byte it received; the client checks it equals what it sent).
 *  - udp: datagrams go to UDP_PORT on the same address, each starting with a
 *    16-byte header: sequence (8, native order), phase (1: 0 warm-up, 1 measured),
 *    3 spare bytes, TOKEN (4) so stray datagrams of another run are not counted.
 *    After the last datagram and a drain pause the client sends "END"; the server
 *    answers the REPORT line, where datagrams/bytes count the measured phase. */
#ifndef LABGATE_PROBES_ST_H
#define LABGATE_PROBES_ST_H

#include <stdint.h>

#include "labgate/measure/probe_limits.h"
#include "lg_tune.h"

#define ST_HDR ((int)LG_PROBE_HDR_SIZE)
#define ST_VERSION 1
#define ST_MAX_TCP_SIZE LG_PROBE_MAX_TCP_SIZE
#define ST_MAX_UDP_SIZE LG_PROBE_MAX_UDP_SIZE
#define ST_LINE_MAX 256
/** Seconds the TCP client's backstop allows for the send buffer to drain after
 * the transfer (a lossy link: TCP backing off); harness/src/measure/
 * probe_command.cc waits as long. */
#define ST_TCP_DRAIN_S 30

typedef struct st_config {
  int udp;
  const char* addr; /**< --bind (server) or --connect (client) */
  int port;
  uint64_t size;
  int cpu; /**< -1: not pinned */
  int nodelay;
  int progress; /**< one line per interval on stderr (lg_series_set_progress) */
  uint64_t duration_ns, warmup_ns, interval_ns;
  double rate;                /**< client: --rate, messages per second on a fixed schedule; 0 = unpaced */
  uint64_t drain_ns;          /**< udp: pause before END so in-flight datagrams land */
  uint64_t server_timeout_ns; /**< a control answer later than this: the server is gone */
  uint64_t connect_timeout_ns;
  uint64_t idle_timeout_ns; /**< server: exit after this long without a client */
  int once;                 /**< server: exit after the first client's session (--once) */
  lg_tuning tune;           /**< --socket-buffer, --congestion (both ends) */
  const char* peer;         /**< server: --peer, the only client address served; NULL = any */
} st_config;

/** What the server counted for one session (the REPORT line). */
typedef struct st_report {
  unsigned long long datagrams, bytes, total_datagrams, total_bytes, out_of_order;
} st_report;

int st_run_server(const st_config* cfg);
int st_run_client(const st_config* cfg);

#endif
