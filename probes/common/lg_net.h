/* Socket plumbing for the measuring probes, limited to what Linux 2.6.18 has:
 * no SOCK_NONBLOCK/SOCK_CLOEXEC, no accept4; O_NONBLOCK through fcntl, waits
 * through poll(). Numeric IPv4 or IPv6 addresses only: a probe never consults
 * the target's name service (a static binary would load its NSS libraries);
 * the harness resolves a name on the host first and passes the address. */
#ifndef LABGATE_PROBES_LG_NET_H
#define LABGATE_PROBES_LG_NET_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>

/** An IPv4 or IPv6 socket address (sa.sa_family tells which). */
typedef union lg_sockaddr {
  struct sockaddr sa;
  struct sockaddr_in in4;
  struct sockaddr_in6 in6;
} lg_sockaddr;

/** Fills `out` from a numeric IPv4 ("192.0.2.1") or IPv6 ("fd00::1") address
 * and a port. Returns 0, or -1 when `ip` is neither or the port is out of range. */
int lg_addr(const char* ip, int port, lg_sockaddr* out);

/** The length bind()/connect() take for `a`'s family. */
socklen_t lg_addr_len(const lg_sockaddr* a);

/** The port of `a`, and setting it, for either family. */
int lg_addr_port(const lg_sockaddr* a);
void lg_addr_set_port(lg_sockaddr* a, int port);

/** 1 when a and b hold the same family and host address (ports ignored). */
int lg_addr_same_host(const lg_sockaddr* a, const lg_sockaddr* b);

/** Formats "a.b.c.d:port" or "[v6]:port" into buf. */
const char* lg_addr_str(const lg_sockaddr* a, char* buf, size_t len);

/** A close-on-exec socket of `a`'s family (SOCK_CLOEXEC is newer than 2.6.18). */
int lg_socket(const lg_sockaddr* a, int type);

int lg_set_nonblocking(int fd, int on);

/** A TCP listener bound to exactly `a` (port 0 = any free one). Returns the fd,
 * or -1 with an explanation in err. `*port` receives the bound port. */
int lg_listen_tcp(const lg_sockaddr* a, int* port, char* err, size_t errlen);

/** A UDP socket bound to exactly `a`. Same conventions as lg_listen_tcp. */
int lg_bind_udp(const lg_sockaddr* a, int* port, char* err, size_t errlen);

/** Connects a TCP socket within `timeout_ns` (non-blocking connect + poll); the
 * returned socket is blocking again. Returns the fd or -1 with err filled. */
int lg_connect_tcp(const lg_sockaddr* a, uint64_t timeout_ns, char* err, size_t errlen);

/** Waits for `events` on fd until the CLOCK_MONOTONIC deadline. Returns 1 when
 * ready, 0 at the deadline, -1 on error (errno; EINTR when a signal came). */
int lg_wait_fd(int fd, short events, uint64_t deadline_ns);

/** Reads exactly n bytes before the deadline. busy != 0 spins on non-blocking
 * reads instead of sleeping in the kernel. Returns n, 0 on EOF, -1 on error
 * (errno; EINTR only once a stop was requested, see lg_stop_requested), -2 when
 * the deadline passed. */
ssize_t lg_read_full(int fd, void* buf, size_t n, uint64_t deadline_ns, int busy);

/** The same with recvmsg: `*stamp_real` gets the kernel's realtime receive
 * stamp (ns) of the last read that carried one (lg_rx_stamps_inline), else is
 * left as it was. For TCP that is the segment that completed the message. */
ssize_t lg_read_full_stamped(int fd, void* buf, size_t n, uint64_t deadline_ns, int busy, uint64_t* stamp_real);

/** Asks for each packet's receive stamp inline with its read (SO_TIMESTAMPNS,
 * before 2.6.22 SO_TIMESTAMP), no system call of its own. Returns 1 for ns
 * stamps, 2 for us stamps (2.6.18), 0 when the kernel takes neither (a TCP
 * socket carries them only from Linux 4.13, whatever this returns). */
int lg_rx_stamps_inline(int fd);

/** The realtime receive stamp (ns) in recvmsg's control data, 0 when none. */
uint64_t lg_cmsg_rx_stamp(const struct msghdr* msg);

/** Control-data room for one receive stamp of either kind. */
#define LG_RX_STAMP_CONTROL (CMSG_SPACE(sizeof(struct timespec)) + CMSG_SPACE(sizeof(struct timeval)))

/** Writes exactly n bytes before the deadline; returns n, -1 (errno) or -2. */
ssize_t lg_write_full(int fd, const void* buf, size_t n, uint64_t deadline_ns);

/** Reads one '\n'-terminated line (at most len-1 bytes, NUL-terminated, newline
 * removed) before the deadline; byte by byte, for short control messages only.
 * Returns its length (0 also for an empty line), 0 on EOF before any byte,
 * -1 on error or an over-long line, -2 at the deadline. */
ssize_t lg_read_line(int fd, char* buf, size_t len, uint64_t deadline_ns);

/** Sets SO_RCVTIMEO and SO_SNDTIMEO so a blocking recv()/send() gives up after
 * `ns`; lg_read_full/lg_write_full check their deadline at that granularity. */
int lg_set_io_timeout(int fd, uint64_t ns);

#endif
