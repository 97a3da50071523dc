/* Socket tuning a test may sweep (seeds 001/002/003): SO_SNDBUF/SO_RCVBUF as
 * netperf -s/-S set them, and TCP_CONGESTION (Linux 2.6.13+, so RHEL 5 has it)
 * as iperf -Z does; and the values the kernel actually took, for the report. */
#ifndef LABGATE_PROBES_LG_TUNE_H
#define LABGATE_PROBES_LG_TUNE_H

#include <stddef.h>
#include <stdint.h>

typedef struct lg_tuning {
  uint64_t buffer;        /**< --socket-buffer: SO_SNDBUF and SO_RCVBUF; 0 = the system's default */
  const char* congestion; /**< --congestion: TCP_CONGESTION name; NULL = the system's default */
} lg_tuning;

/** Applies `t` to fd (TCP_CONGESTION only when tcp != 0). Returns 0, or -1 with
 * the reason in err: "TCP_CONGESTION \"htcp\": No such file or directory (see
 * /proc/sys/net/ipv4/tcp_available_congestion_control)". */
int lg_tune_socket(int fd, int tcp, const lg_tuning* t, char* err, size_t errlen);

/** Writes JSON members (leading comma) describing what fd has now into buf:
 * ,"socket_buffer_asked":N,"sndbuf":X,"rcvbuf":Y[,"congestion":"cubic"]. The
 * kernel doubles SO_SNDBUF/SO_RCVBUF for its bookkeeping; sndbuf/rcvbuf are as it reports. */
void lg_describe_tuning(int fd, int tcp, const lg_tuning* t, char* buf, size_t len);

#endif
