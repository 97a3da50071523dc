/* The mcast probe's datagrams in batches (issue 24, the 100,000 msg/s figure):
 * every datagram that has arrived read with one recvmmsg, each with the
 * kernel's own receive stamp (SO_TIMESTAMPNS), so a batch read does not blur
 * when each message arrived; every message due sent with one sendmmsg. Older
 * kernels fall back, said in `stamps`/`batched`: SO_TIMESTAMP (us, before
 * 2.6.22), else a user-space stamp right after each read; recvmsg/sendto one
 * at a time where recvmmsg (2.6.33, RHEL 5 backported it) or sendmmsg (3.0)
 * is missing. */
#ifndef LABGATE_PROBES_MC_IO_H
#define LABGATE_PROBES_MC_IO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "lg_anchor.h"
#include "lg_net.h"

#define MC_BATCH 64
/* Bytes kept of each datagram read: the 32-byte header (all that is read of a
 * message) and a reply; a longer datagram is truncated, never split. */
#define MC_SLOT 64

typedef enum mc_stamp_kind { MC_STAMP_USER = 0, MC_STAMP_US = 1, MC_STAMP_NS = 2 } mc_stamp_kind;

typedef struct mc_rx {
  int fd;
  mc_stamp_kind stamps;
  int batched; /**< recvmmsg works (1), or one recvmsg per datagram (0) */
  int n;       /**< datagrams in the last batch */
  struct mmsghdr msg[MC_BATCH];
  struct iovec iov[MC_BATCH];
  unsigned char buf[MC_BATCH][MC_SLOT];
  union {
    char c[64]; /* CMSG_SPACE(sizeof(struct timespec)) and then some */
    size_t align; /* a cmsghdr's alignment */
  } ctl[MC_BATCH];
  lg_sockaddr from[MC_BATCH];
  uint64_t real_ns[MC_BATCH]; /**< each datagram's receipt, CLOCK_REALTIME ns */
} mc_rx;

/** How the receipts are stamped, as the probe's output says it:
 * "kernel_ns", "kernel_us" or "user" (right after each read). */
const char* mc_stamp_name(mc_stamp_kind k);

/** Ties `r` to `fd` and asks the kernel for receive stamps (ns, else us). */
void mc_rx_init(mc_rx* r, int fd);

/** Reads what has arrived (at most MC_BATCH, without waiting): 0 when nothing,
 * -1 on an error (errno). Datagram i is r->buf[i], r->msg[i].msg_len bytes
 * (at most MC_SLOT), from r->from[i], received at r->real_ns[i] (the kernel's
 * stamp, else `anchor`'s realtime of the moment right after its read). */
int mc_rx_read(mc_rx* r, const lg_anchor* anchor);

/** Sends `n` datagrams of `len` bytes each, from `bufs` (`n` consecutive slots
 * of `len` bytes), to `to`: one sendmmsg, else one sendto each. Returns how
 * many could not be sent (a local EAGAIN loses the message; the subscribers
 * count it lost). `*batched` is cleared for good when sendmmsg is missing. */
int mc_send_all(int fd, const lg_sockaddr* to, const unsigned char* bufs, int n, size_t len, int* batched);

#endif
