/* The pingpong probe (tcp_rr / udp_rr): configuration, wire format and the
 * client state shared by its closed-loop and open-loop runners.
 *
 * Wire format. Every request carries, when it is at least PP_HDR bytes long, its
 * sequence number (8 bytes) and its send time (8 bytes: the actual send time in
 * closed loop, the SCHEDULED send time in open loop); the server echoes each
 * request, so the client matches a reply to its request by the
 * sequence number, in TCP as in UDP. The server replaces the send time with
 * its own receive time (CLOCK_REALTIME, for the one-way estimate: pp_oneway.h);
 * the rest comes back unchanged. Both ends run the same build: native byte
 * order. A TCP connection starts with a 16-byte hello each way (network byte
 * order): "LGPP", version, message size, 0; the server answers "LGPP", status
 * (0 ok, 1 size refused), its size, 0. */
#ifndef LABGATE_PROBES_PP_H
#define LABGATE_PROBES_PP_H

#include <netinet/in.h>
#include <stdint.h>
#include <string.h>

#include "labgate/measure/probe_limits.h"
#include "labgate/stats/hist_core.h"
#include "lg_moment.h"
#include "lg_outliers.h"
#include "lg_series.h"
#include "lg_tune.h"
#include "pp_oneway.h"
#include "pp_seqwin.h"

#define PP_HDR ((int)LG_PROBE_HDR_SIZE)
#define PP_HELLO_LEN 16
#define PP_VERSION 1
#define PP_MAX_TCP_SIZE LG_PROBE_MAX_TCP_SIZE
#define PP_MAX_UDP_SIZE LG_PROBE_MAX_UDP_SIZE
/* A UDP client's end of run: shorter than any request (>= PP_HDR), so never one;
 * sent a few times, a server with --once exits on the first that arrives. */
#define PP_BYE "LGPPBYE"
#define PP_BYE_LEN 8
#define PP_BYE_COPIES 3

typedef struct pp_config {
  int udp;
  const char* addr; /**< --bind (server) or --connect (client) */
  int port;
  uint64_t size;
  int size_given;
  int cpu; /**< -1: not pinned */
  int nodelay;
  int busy_poll;
  int progress; /**< one line per interval on stderr (lg_series_set_progress) */
  double rate;  /**< requests per second; 0 = closed loop */
  uint64_t duration_ns, warmup_ns, interval_ns;
  uint64_t recv_timeout_ns;   /**< UDP: a reply later than this is a drop */
  uint64_t server_timeout_ns; /**< no reply at all for this long: the server is gone */
  uint64_t connect_timeout_ns;
  uint64_t idle_timeout_ns; /**< server: exit after this long without a client */
  lg_tuning tune;           /**< --socket-buffer, --congestion (both ends) */
  const char* peer;         /**< server: --peer, the only client address served; NULL = any */
  int once;                 /**< server: exit after the first client's session (--once) */
  uint64_t outlier_ns;      /**< --outlier: keep every sample over this; 0 = 10x the running p50 (client) */
  unsigned worst;           /**< --worst: how many of the worst samples to keep */
  int forensics; /**< 0 (--forensics off): no outlier capture, receive or one-way stamps (their cost's baseline) */
} pp_config;

/** Counts for one phase (warm-up or measured) of a client run. */
typedef struct pp_counters {
  uint64_t sent, received, dropped, duplicated, out_of_order, late, invalid;
} pp_counters;

typedef struct pp_client {
  const pp_config* cfg;
  int fd;
  unsigned char* tx; /**< one request */
  unsigned char* rx; /**< one reply (UDP: room for the largest datagram) */
  lg_hist* hist;
  lg_series series;
  pp_seqwin win;
  pp_counters warm, meas;
  uint64_t first_measured; /**< lowest sequence number of the measured phase */
  uint64_t t_measure_start, t_measure_end;
  uint64_t series_end; /**< end of the measured window: later completions go in its last interval */
  uint64_t last_reply_ns;
  lg_outliers outliers; /**< the worst round trips and those over the threshold */
  lg_moment moment;     /**< what is learned about each of them */
  pp_oneway ow;         /**< the four timestamps of the fastest exchanges, one-way histograms */
  int one_way;          /**< replies are booked in ow (requests carry stamps, forensics on) */
  size_t series_seen;   /**< intervals closed when the threshold last followed the p50 */
  volatile int stop;
  char error[512];  /**< first fatal error; empty while all is well */
  char tuning[192]; /**< lg_describe_tuning() of the socket, for the parameters */
} pp_client;

int pp_run_server(const pp_config* cfg);
int pp_run_client(const pp_config* cfg);

/** Closed loop: send one request, wait for its reply (or UDP timeout), repeat. */
void pp_run_closed(pp_client* c);
/** Open loop: send on a fixed schedule, latency measured from the schedule. */
void pp_run_open(pp_client* c);

/** Records an error (the first one wins) and asks the run to stop. */
void pp_fail(pp_client* c, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

static inline void pp_put_hdr(unsigned char* buf, uint64_t seq, uint64_t ts) {
  memcpy(buf, &seq, 8);
  memcpy(buf + 8, &ts, 8);
}
static inline uint64_t pp_get_seq(const unsigned char* buf) {
  uint64_t v;
  memcpy(&v, buf, 8);
  return v;
}
static inline uint64_t pp_get_ts(const unsigned char* buf) {
  uint64_t v;
  memcpy(&v, buf + 8, 8);
  return v;
}

/** The counters of the phase a sequence number belongs to. */
static inline pp_counters* pp_phase(pp_client* c, uint64_t seq) {
  return seq >= c->first_measured ? &c->meas : &c->warm;
}

/** Keeps round trip `seq` as an outlier, with its circumstances (the slow path). */
void pp_capture(pp_client* c, uint64_t seq, uint64_t rtt_ns, uint64_t t1);
/** Without --outlier: the threshold follows 10x the p50 of the last closed interval. */
void pp_follow_p50(pp_client* c);

/** Books a completed round trip of request `seq`, finished (its reply read) at
 * `t1`. Beyond the histogram and series, a sample costs two compares and a
 * decrement unless it is an outlier. */
static inline void pp_book_rtt(pp_client* c, uint64_t seq, uint64_t rtt_ns, uint64_t t1) {
  pp_counters* k = pp_phase(c, seq);
  k->received++;
  c->last_reply_ns = t1;
  if (c->one_way) pp_ow_book(&c->ow, seq, t1 - rtt_ns, t1, c->rx, k == &c->meas);
  if (k == &c->meas) {
    lg_hist_record(c->hist, rtt_ns);
    lg_series_record(&c->series, t1 < c->series_end ? t1 : c->series_end - 1, rtt_ns);
    if (c->series.len != c->series_seen) pp_follow_p50(c);
    if (lg_outliers_wants(&c->outliers, rtt_ns)) {
      pp_capture(c, seq, rtt_ns, t1);
      return;
    }
  }
  lg_moment_tick(&c->moment, seq + 1);
}

/** Classifies a reply that is not (or not only) the awaited round trip and books
 * it; returns 1 if it was a fresh answer to request `seq` (caller books the RTT). */
int pp_book_reply(pp_client* c, uint64_t seq);

#endif
