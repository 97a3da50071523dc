/* The mcast probe's batched reads and sends, with a receive stamp per datagram
 * (see mc_io.h). */
#include "mc_io.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "lg_measure_util.h"

const char* mc_stamp_name(mc_stamp_kind k) {
  return k == MC_STAMP_NS ? "kernel_ns" : k == MC_STAMP_US ? "kernel_us" : "user";
}

void mc_rx_init(mc_rx* r, int fd) {
  int i, kind;
  memset(r, 0, sizeof(*r));
  r->fd = fd;
  r->batched = 1;
  kind = lg_rx_stamps_inline(fd);
  r->stamps = kind == 1 ? MC_STAMP_NS : kind == 2 ? MC_STAMP_US : MC_STAMP_USER;
  for (i = 0; i < MC_BATCH; ++i) {
    r->iov[i].iov_base = r->buf[i];
    r->iov[i].iov_len = MC_SLOT;
  }
}

/* Headers reset before every read: the kernel writes back the lengths. */
static void prepare(mc_rx* r, int i) {
  struct msghdr* h = &r->msg[i].msg_hdr;
  memset(h, 0, sizeof(*h));
  h->msg_name = &r->from[i];
  h->msg_namelen = sizeof(r->from[i]);
  h->msg_iov = &r->iov[i];
  h->msg_iovlen = 1;
  if (r->stamps != MC_STAMP_USER) {
    h->msg_control = r->ctl[i].c;
    h->msg_controllen = sizeof(r->ctl[i].c);
  }
  r->msg[i].msg_len = 0;
}

int mc_rx_read(mc_rx* r, const lg_anchor* anchor) {
  int i, n = 0;
  uint64_t now;
  for (i = 0; i < MC_BATCH; ++i) prepare(r, i);
  if (r->batched) {
    n = recvmmsg(r->fd, r->msg, MC_BATCH, MSG_DONTWAIT, NULL);
    if (n < 0 && errno == ENOSYS) r->batched = 0;
  }
  if (!r->batched) {
    /* One at a time, each stamped right after its own read. */
    for (n = 0; n < MC_BATCH; ++n) {
      ssize_t len = recvmsg(r->fd, &r->msg[n].msg_hdr, MSG_DONTWAIT);
      if (len < 0) break;
      r->msg[n].msg_len = (unsigned)len;
      r->real_ns[n] = lg_anchor_real(anchor, lg_now_ns());
    }
    if (n == 0) n = -1; /* errno from the failed recvmsg (EAGAIN: nothing) */
  }
  if (n < 0) {
    r->n = 0;
    return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
  }
  now = lg_anchor_real(anchor, lg_now_ns());
  for (i = 0; i < n; ++i) {
    uint64_t k = r->stamps != MC_STAMP_USER ? lg_cmsg_rx_stamp(&r->msg[i].msg_hdr) : 0;
    /* Without the kernel's stamp: the moment after the read, as before batching. */
    if (k != 0)
      r->real_ns[i] = k;
    else if (r->batched)
      r->real_ns[i] = now;
  }
  r->n = n;
  return n;
}

int mc_send_all(int fd, const lg_sockaddr* to, const unsigned char* bufs, int n, size_t len, int* batched) {
  struct mmsghdr m[MC_BATCH];
  struct iovec v[MC_BATCH];
  int i = 0, lost = 0;
  if (n > MC_BATCH) n = MC_BATCH;
  if (*batched && n > 1) {
    memset(m, 0, sizeof(m[0]) * (size_t)n);
    for (i = 0; i < n; ++i) {
      v[i].iov_base = (void*)(bufs + (size_t)i * len);
      v[i].iov_len = len;
      m[i].msg_hdr.msg_name = (void*)&to->sa;
      m[i].msg_hdr.msg_namelen = lg_addr_len(to);
      m[i].msg_hdr.msg_iov = &v[i];
      m[i].msg_hdr.msg_iovlen = 1;
    }
    for (i = 0; i < n;) {
      /* The system call itself: musl's sendmmsg() on 64-bit loops over
       * sendmsg() in user space (its msghdr differs from the kernel's only in
       * padding, zeroed above), which would save nothing. */
      int r = (int)syscall(SYS_sendmmsg, fd, m + i, (unsigned)(n - i), MSG_DONTWAIT);
      if (r > 0) {
        i += r;
        continue;
      }
      if (r < 0 && errno == ENOSYS) {
        *batched = 0;
        break; /* the rest one at a time, below */
      }
      ++lost; /* this one failed (EAGAIN, ENOBUFS): lost, the next tried */
      ++i;
    }
  }
  for (; i < n; ++i)
    if (sendto(fd, bufs + (size_t)i * len, len, MSG_DONTWAIT, &to->sa, lg_addr_len(to)) < 0) ++lost;
  return lost;
}
