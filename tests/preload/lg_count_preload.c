/* A stand-in for a kernel-bypass stack (Onload, VMA/XLIO are not available in
 * this lab): an LD_PRELOAD library that intercepts the socket calls the probes
 * make, passes them on to libc, and says at exit how many it saw, so a lab test
 * can show the probes really ran through it. Test equipment, never deployed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

static unsigned long n_socket, n_send, n_recv, n_sendto, n_recvfrom;

/* Declares `real_`, libc's own function: dlsym's object pointer copied into a
 * function pointer (the POSIX way; a cast is not ISO C). */
#define REAL(name)                      \
  name##_fn real_;                      \
  do {                                  \
    void* p_ = dlsym(RTLD_NEXT, #name); \
    memcpy(&real_, &p_, sizeof real_);  \
  } while (0)

typedef int (*socket_fn)(int, int, int);
typedef ssize_t (*send_fn)(int, const void*, size_t, int);
typedef ssize_t (*recv_fn)(int, void*, size_t, int);
/* glibc declares these two with its transparent-union address types (_GNU_SOURCE). */
typedef ssize_t (*sendto_fn)(int, const void*, size_t, int, __CONST_SOCKADDR_ARG, socklen_t);
typedef ssize_t (*recvfrom_fn)(int, void*, size_t, int, __SOCKADDR_ARG, socklen_t*);

int socket(int domain, int type, int protocol) {
  __atomic_add_fetch(&n_socket, 1, __ATOMIC_RELAXED);
  REAL(socket);
  return real_(domain, type, protocol);
}

ssize_t send(int fd, const void* buf, size_t n, int flags) {
  __atomic_add_fetch(&n_send, 1, __ATOMIC_RELAXED);
  REAL(send);
  return real_(fd, buf, n, flags);
}

ssize_t recv(int fd, void* buf, size_t n, int flags) {
  __atomic_add_fetch(&n_recv, 1, __ATOMIC_RELAXED);
  REAL(recv);
  return real_(fd, buf, n, flags);
}

ssize_t sendto(int fd, const void* buf, size_t n, int flags, __CONST_SOCKADDR_ARG to, socklen_t tolen) {
  __atomic_add_fetch(&n_sendto, 1, __ATOMIC_RELAXED);
  REAL(sendto);
  return real_(fd, buf, n, flags, to, tolen);
}

ssize_t recvfrom(int fd, void* buf, size_t n, int flags, __SOCKADDR_ARG from, socklen_t* fromlen) {
  __atomic_add_fetch(&n_recvfrom, 1, __ATOMIC_RELAXED);
  REAL(recvfrom);
  return real_(fd, buf, n, flags, from, fromlen);
}

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "lg_count_preload: socket=%lu send=%lu recv=%lu sendto=%lu recvfrom=%lu\n", n_socket,
          n_send, n_recv, n_sendto, n_recvfrom);
}
