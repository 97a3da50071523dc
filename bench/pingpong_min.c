/* pingpong_min: the simplest honest ping-pong loop, the yardstick the built-in
 * pingpong probe is compared with in bench/fidelity.py. Blocking send/recv, one
 * request in flight, every round trip timed with clock_gettime(CLOCK_MONOTONIC)
 * and kept; exact nearest-rank percentiles from the sorted samples.
 *
 *   pingpong_min server tcp|udp BIND_ADDR PORT [SIZE]
 *   pingpong_min client tcp|udp SERVER_ADDR PORT [SIZE] [DURATION_S] [WARMUP_S]
 *
 * The server prints "listening" once bound and exits when the client closes (TCP),
 * on the client's 1-byte goodbye datagram (UDP), or after 30 s without traffic.
 * The client prints one JSON line: samples, dropped, min/p50/p90/p99/max in ns. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { kMaxSize = 65000, kIdleTimeoutS = 30 };

static void die(const char* what) {
  fprintf(stderr, "pingpong_min: %s: %s\n", what, strerror(errno));
  exit(3);
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct sockaddr_in address(const char* ip, const char* port) {
  struct sockaddr_in sa;
  memset(&sa, 0, sizeof sa);
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)atoi(port));
  if (inet_pton(AF_INET, ip, &sa.sin_addr) != 1) {
    fprintf(stderr, "pingpong_min: '%s' is not a numeric IPv4 address\n", ip);
    exit(2);
  }
  return sa;
}

/* A receive timeout, so neither side can block forever. */
static void set_timeout(int fd, long ms) {
  struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
  if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0) die("SO_RCVTIMEO");
}

/* Reads exactly n bytes; 0 when the peer closed, -1 on error or timeout. */
static int read_full(int fd, char* buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = recv(fd, buf + got, n - got, 0);
    if (r == 0) return 0;
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    got += (size_t)r;
  }
  return 1;
}

static int write_full(int fd, const char* buf, size_t n) {
  size_t put = 0;
  while (put < n) {
    ssize_t r = send(fd, buf + put, n - put, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    put += (size_t)r;
  }
  return 1;
}

static int serve(int tcp, struct sockaddr_in sa, size_t size) {
  static char buf[kMaxSize];
  int one = 1;
  int fd = socket(AF_INET, tcp ? SOCK_STREAM : SOCK_DGRAM, 0);
  if (fd < 0) die("socket");
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd, (struct sockaddr*)&sa, sizeof sa) != 0) die("bind");
  if (tcp && listen(fd, 1) != 0) die("listen");
  set_timeout(fd, kIdleTimeoutS * 1000L);
  printf("listening\n");
  fflush(stdout);
  if (tcp) {
    int c = accept(fd, NULL, NULL);
    if (c < 0) die("accept (no client within the idle timeout?)");
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    set_timeout(c, kIdleTimeoutS * 1000L);
    while (read_full(c, buf, size) == 1)
      if (write_full(c, buf, size) != 1) break;
    close(c);
  } else {
    for (;;) {
      struct sockaddr_in peer;
      socklen_t len = sizeof peer;
      ssize_t n = recvfrom(fd, buf, sizeof buf, 0, (struct sockaddr*)&peer, &len);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 1) break; /* timeout, error or the goodbye datagram */
      sendto(fd, buf, (size_t)n, 0, (struct sockaddr*)&peer, len);
    }
  }
  close(fd);
  return 0;
}

static int cmp_u64(const void* a, const void* b) {
  uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
  return x < y ? -1 : x > y;
}

/* Nearest rank: the sample of rank ceil(p/100 * n), as labgate's histogram. */
static uint64_t percentile(const uint64_t* sorted, size_t n, double p) {
  size_t rank = (size_t)(p / 100.0 * (double)n);
  if ((double)rank < p / 100.0 * (double)n) rank++;
  if (rank < 1) rank = 1;
  return sorted[rank - 1];
}

static int client(int tcp, struct sockaddr_in sa, size_t size, double duration_s, double warmup_s) {
  static char tx[kMaxSize], rx[kMaxSize];
  size_t cap = 1 << 20, n = 0;
  uint64_t dropped = 0, *v = malloc(cap * sizeof *v);
  int one = 1;
  int fd = socket(AF_INET, tcp ? SOCK_STREAM : SOCK_DGRAM, 0);
  if (!v) die("malloc");
  if (fd < 0) die("socket");
  if (connect(fd, (struct sockaddr*)&sa, sizeof sa) != 0) die("connect");
  if (tcp) setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  /* UDP: a reply missing for 100 ms is a drop (labgate's default receive timeout). */
  set_timeout(fd, tcp ? 3000 : 100);
  memset(tx, 'x', size);
  uint64_t start = now_ns();
  uint64_t measure_from = start + (uint64_t)(warmup_s * 1e9);
  uint64_t end = measure_from + (uint64_t)(duration_s * 1e9);
  for (uint64_t t1 = start; t1 < end;) {
    uint64_t t0 = now_ns();
    int ok;
    if (tcp) {
      ok = write_full(fd, tx, size) == 1 && read_full(fd, rx, size) == 1;
      if (!ok) die("tcp round trip");
    } else {
      if (send(fd, tx, size, 0) < 0) die("send");
      ok = recv(fd, rx, sizeof rx, 0) == (ssize_t)size;
    }
    t1 = now_ns();
    if (t0 < measure_from) continue;
    if (!ok) {
      dropped++;
      continue;
    }
    if (n == cap) {
      cap *= 2;
      v = realloc(v, cap * sizeof *v);
      if (!v) die("realloc");
    }
    v[n++] = t1 - t0;
  }
  if (!tcp) send(fd, tx, 1, 0); /* goodbye */
  close(fd);
  if (n == 0) {
    fprintf(stderr, "pingpong_min: no round trip completed\n");
    return 3;
  }
  qsort(v, n, sizeof *v, cmp_u64);
  printf(
      "{\"tool\":\"pingpong_min\",\"proto\":\"%s\",\"size\":%zu,\"samples\":%zu,\"dropped\":%llu,"
      "\"min_ns\":%llu,\"p50_ns\":%llu,\"p90_ns\":%llu,\"p99_ns\":%llu,\"max_ns\":%llu}\n",
      tcp ? "tcp" : "udp", size, n, (unsigned long long)dropped, (unsigned long long)v[0],
      (unsigned long long)percentile(v, n, 50), (unsigned long long)percentile(v, n, 90),
      (unsigned long long)percentile(v, n, 99), (unsigned long long)v[n - 1]);
  free(v);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 5 || (strcmp(argv[2], "tcp") && strcmp(argv[2], "udp")) ||
      (strcmp(argv[1], "server") && strcmp(argv[1], "client"))) {
    fprintf(stderr,
            "usage: pingpong_min server tcp|udp BIND_ADDR PORT [SIZE]\n"
            "       pingpong_min client tcp|udp SERVER_ADDR PORT [SIZE] [DURATION_S] [WARMUP_S]\n");
    return 2;
  }
  int tcp = strcmp(argv[2], "tcp") == 0;
  struct sockaddr_in sa = address(argv[3], argv[4]);
  long size = argc > 5 ? atol(argv[5]) : 64;
  if (size < 2 || size > kMaxSize) {
    fprintf(stderr, "pingpong_min: size must be 2..%d bytes\n", kMaxSize);
    return 2;
  }
  if (strcmp(argv[1], "server") == 0) return serve(tcp, sa, (size_t)size);
  double duration = argc > 6 ? atof(argv[6]) : 5.0, warmup = argc > 7 ? atof(argv[7]) : 1.0;
  if (duration <= 0 || warmup < 0) {
    fprintf(stderr, "pingpong_min: duration must be > 0 and warm-up >= 0 seconds\n");
    return 2;
  }
  return client(tcp, sa, (size_t)size, duration, warmup);
}
