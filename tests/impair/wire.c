/* wire: a userspace stand-in for `tc qdisc ... netem` (this kernel has no
 * sch_netem). Run in a middle network namespace, it bridges Ethernet frames
 * between two veths with AF_PACKET sockets and applies netem's delay, jitter,
 * loss, duplication, reordering and rate on the way; on SIGTERM it stops and
 * prints its counters as JSON so tests can hold the probes' counts against it.
 *
 *   wire --a IF --b IF [--dir both|a2b|b2a] [--seed N] [--stats FILE] [--fifo PRIO] [NETEM ARGS]
 *   wire --check [NETEM ARGS]
 *
 * Frames are read with a virtio-net header (PACKET_VNET_HDR), which carries a
 * veth's GSO and checksum-offload state across, so TSO frames and frames with a
 * checksum still to fill in leave exactly as they came (netem also takes a GSO
 * frame as one packet). SIGUSR1 rewrites the --stats file with the counters so far. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "wire_netem.h"
#include "wire_queue.h"
#include "wire_stats.h"

enum { kVnet = sizeof(struct virtio_net_hdr), kBuf = 262144, kBatch = 256 };

typedef struct frame {
  int out; /* egress direction: 0 = to b (a_to_b), 1 = to a */
  int udp; /* IPv4 UDP */
  uint64_t seq, udp_seq;
  size_t len; /* vnet header + Ethernet frame */
  unsigned char data[];
} frame;

typedef struct side {
  const char* ifname;
  int fd;
  wire_dir_stats st; /* frames arriving on this side (its direction away from it) */
  wire_flow flow;
  int impaired;
  size_t queued; /* frames of this direction in the queue (netem's limit is per qdisc) */
} side;

static volatile sig_atomic_t g_stop, g_dump;
static void on_signal(int sig) {
  if (sig == SIGUSR1)
    g_dump = 1;
  else
    g_stop = sig;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

__attribute__((noreturn)) static void die(const char* what, const char* ifname) {
  fprintf(stderr, "wire: %s%s%s: %s\n", what, ifname ? " " : "", ifname ? ifname : "", strerror(errno));
  exit(3);
}

static int open_side(const char* ifname) {
  int one = 1, buf = 8 << 20, fd;
  struct sockaddr_ll sll;
  struct packet_mreq mr;
  unsigned idx = if_nametoindex(ifname);
  if (!idx) die("no such interface", ifname);
  /* Protocol 0 until bound: no frame of another interface slips in first. */
  fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
  if (fd < 0) die("socket(AF_PACKET) (needs root / CAP_NET_RAW) for", ifname);
  if (setsockopt(fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof one) != 0) die("PACKET_VNET_HDR on", ifname);
  /* Frames this socket sends come back to it as PACKET_OUTGOING; never forward them. */
  setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one);
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof buf) != 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof buf);
  if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof buf) != 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf);
  memset(&sll, 0, sizeof sll);
  sll.sll_family = AF_PACKET;
  sll.sll_protocol = htons(ETH_P_ALL);
  sll.sll_ifindex = (int)idx;
  if (bind(fd, (struct sockaddr*)&sll, sizeof sll) != 0) die("bind to", ifname);
  /* A veth hands over frames for its peer's MAC; promiscuous so nothing is filtered. */
  memset(&mr, 0, sizeof mr);
  mr.mr_ifindex = (int)idx;
  mr.mr_type = PACKET_MR_PROMISC;
  if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof mr) != 0)
    die("promiscuous mode on", ifname);
  if (fcntl(fd, F_SETFL, O_NONBLOCK) != 0) die("O_NONBLOCK on", ifname);
  return fd;
}

static int is_ipv4_udp(const unsigned char* eth, size_t len) {
  return len >= 14 + 20 && eth[12] == 0x08 && eth[13] == 0x00 && eth[14 + 9] == 17;
}

static side g_side[2];
static wire_queue g_queue;
static wire_params g_params;
static wire_rng g_rng;
static char g_params_json[512];

static void depart(frame* f) {
  side* in = &g_side[f->out];
  int fd = g_side[!f->out].fd;
  in->queued--;
  if (send(fd, f->data, f->len, 0) == (ssize_t)f->len) {
    in->st.all.forwarded++;
    wire_order_depart(&in->st.order_all, &in->st.all, f->seq);
    if (f->udp) {
      in->st.udp.forwarded++;
      wire_order_depart(&in->st.order_udp, &in->st.udp, f->udp_seq);
    }
  } else {
    in->st.all.tx_errors++;
    if (f->udp) in->st.udp.tx_errors++;
  }
  free(f);
}

/* One copy of an arrived frame through netem's enqueue: the loss roll (and the
 * duplicate roll for an original), then its departure time. */
static void enqueue(side* in, const frame* proto, int dup_allowed, uint64_t now) {
  int copies = in->impaired ? wire_copies(&g_params, &g_rng, dup_allowed) : 1;
  int reordered = 0, udp = proto->udp;
  uint64_t due = now;
  frame* f;
  if (copies == 0) {
    in->st.all.lost++;
    if (udp) in->st.udp.lost++;
    return;
  }
  if (copies == 2) {
    /* netem enqueues the duplicate first, with duplication off for it. */
    in->st.all.duplicated++;
    if (udp) in->st.udp.duplicated++;
    enqueue(in, proto, 0, now);
  }
  if (in->impaired) due = wire_due(&g_params, &g_rng, &in->flow, now, proto->len - kVnet, &reordered);
  f = in->queued < g_params.limit ? malloc(sizeof *f + proto->len) : NULL;
  if (!f) {
    in->st.all.limit_drops++;
    if (udp) in->st.udp.limit_drops++;
    return;
  }
  memcpy(f, proto, sizeof *f + proto->len);
  if (wire_queue_push(&g_queue, due, f) != 0) abort(); /* sized for both directions' limits */
  in->queued++;
  if (reordered) {
    in->st.all.reordered++;
    if (udp) in->st.udp.reordered++;
  }
}

/* Reads what is waiting on side `s`; returns -1 when the interface is gone. */
static int receive(int s, frame* buf) {
  side* in = &g_side[s];
  int n;
  for (n = 0; n < kBatch; n++) {
    struct sockaddr_ll from;
    socklen_t fromlen = sizeof from;
    ssize_t r =
        recvfrom(in->fd, buf->data, kBuf, MSG_DONTWAIT | MSG_TRUNC, (struct sockaddr*)&from, &fromlen);
    uint64_t now = now_ns();
    if (r < 0) {
      if (errno == EAGAIN || errno == EINTR) return 0;
      if (errno == ENETDOWN || errno == ENXIO || errno == ENODEV) return -1;
      die("receive on", in->ifname);
    }
    /* Our own sends, should PACKET_IGNORE_OUTGOING (Linux 4.20) be missing: never loop them. */
    if (from.sll_pkttype == PACKET_OUTGOING) continue;
    if ((size_t)r > kBuf || (size_t)r < kVnet + 14) {
      in->st.truncated++;
      continue;
    }
    buf->out = s;
    buf->len = (size_t)r;
    buf->udp = is_ipv4_udp(buf->data + kVnet, buf->len - kVnet);
    in->st.all.received++;
    buf->seq = wire_order_arrive(&in->st.order_all);
    if (buf->udp) {
      in->st.udp.received++;
      buf->udp_seq = wire_order_arrive(&in->st.order_udp);
    }
    enqueue(in, buf, 1, now);
  }
  return 0;
}

static void socket_drops(void) {
  int s;
  for (s = 0; s < 2; s++) {
    struct tpacket_stats ts;
    socklen_t len = sizeof ts;
    /* Reading the statistics resets them in the kernel: accumulate. */
    if (getsockopt(g_side[s].fd, SOL_PACKET, PACKET_STATISTICS, &ts, &len) == 0)
      g_side[s].st.socket_drops += ts.tp_drops;
  }
}

static void write_stats(FILE* out, const char* status) {
  char extra[1024];
  socket_drops();
  snprintf(extra, sizeof extra, "\"status\":\"%s\",\"queued\":%zu,\"a\":\"%s\",\"b\":\"%s\",\"netem\":%s",
           status, g_queue.len, g_side[0].ifname, g_side[1].ifname, g_params_json);
  wire_stats_json(out, &g_side[0].st, &g_side[1].st, extra);
  fflush(out);
}

static void dump_file(const char* path, const char* status) {
  char tmp[4096];
  FILE* f;
  if (!path) return;
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  f = fopen(tmp, "w");
  if (!f) return;
  write_stats(f, status);
  if (fclose(f) == 0) rename(tmp, path);
}

__attribute__((noreturn)) static void usage(const char* msg) {
  fprintf(stderr,
          "wire: %s\nusage: wire --a IF --b IF [--dir both|a2b|b2a] [--seed N] [--stats FILE] [--fifo PRIO] "
          "[NETEM ARGS]\n"
          "       wire --check [NETEM ARGS]   (validate and print the parameters as JSON)\n"
          "NETEM ARGS as tc's: delay TIME [JITTER] distribution uniform|normal loss PCT duplicate PCT\n"
          "                    reorder PCT gap N rate RATE limit N\n",
          msg);
  exit(2);
}

int main(int argc, char** argv) {
  static const struct option kOpts[] = {{"a", required_argument, 0, 'a'},
                                        {"b", required_argument, 0, 'b'},
                                        {"dir", required_argument, 0, 'd'},
                                        {"seed", required_argument, 0, 's'},
                                        {"stats", required_argument, 0, 'o'},
                                        {"check", no_argument, 0, 'c'},
                                        {"fifo", required_argument, 0, 'f'},
                                        {"help", no_argument, 0, 'h'},
                                        {0, 0, 0, 0}};
  const char *dir = "both", *stats_path = NULL;
  uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
  char err[256];
  int c, s, status = 0, check_only = 0, fifo = 0;
  struct sigaction sa;
  sigset_t block, waitmask;
  frame* buf;
  while ((c = getopt_long(argc, argv, "+", kOpts, NULL)) != -1) {
    switch (c) {
      case 'a':
        g_side[0].ifname = optarg;
        break;
      case 'b':
        g_side[1].ifname = optarg;
        break;
      case 'd':
        dir = optarg;
        break;
      case 's': {
        char* end;
        seed = strtoull(optarg, &end, 10);
        if (*end || !*optarg) usage("--seed takes a number");
        break;
      }
      case 'c':
        check_only = 1;
        break;
      case 'f':
        fifo = atoi(optarg);
        if (fifo < 1 || fifo > 99) usage("--fifo takes a real-time priority 1..99");
        break;
      case 'o':
        stats_path = optarg;
        break;
      case 'h':
        usage("a netem stand-in between two interfaces");
      default:
        usage("unknown option");
    }
  }
  if (strcmp(dir, "both") && strcmp(dir, "a2b") && strcmp(dir, "b2a")) usage("--dir is both, a2b or b2a");
  g_side[0].impaired = strcmp(dir, "b2a") != 0;
  g_side[1].impaired = strcmp(dir, "a2b") != 0;
  if (wire_params_parse(argc - optind, argv + optind, &g_params, err, sizeof err) != 0) usage(err);
  wire_params_json(&g_params, g_params_json, sizeof g_params_json);
  if (check_only) {
    printf("%s\n", g_params_json);
    return 0;
  }
  if (!g_side[0].ifname || !g_side[1].ifname) usage("--a and --b name the two interfaces");
  wire_rng_seed(&g_rng, seed);
  if (wire_queue_init(&g_queue, 2 * (size_t)g_params.limit) != 0) die("queue allocation", NULL);
  buf = malloc(sizeof *buf + kBuf);
  if (!buf) die("buffer allocation", NULL);
  /* netem runs in softirq context, ahead of every process; a wire that waits
   * for the scheduler behind a busy machine's compilers adds milliseconds. */
  if (fifo) {
    struct sched_param sp;
    memset(&sp, 0, sizeof sp);
    sp.sched_priority = fifo;
    if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
      fprintf(stderr, "wire: SCHED_FIFO %d refused (%s); running as a normal process\n", fifo,
              strerror(errno));
  }
  /* Departures are due to the microsecond: no 50 us timer slack on the waits. */
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

  /* Signals are blocked except inside ppoll, so none is lost between checks. */
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGUSR1);
  sigprocmask(SIG_BLOCK, &block, &waitmask);
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGUSR1, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  for (s = 0; s < 2; s++) g_side[s].fd = open_side(g_side[s].ifname);
  printf(
      "{\"event\":\"ready\",\"pid\":%d,\"a\":\"%s\",\"b\":\"%s\",\"dir\":\"%s\",\"seed\":%llu,\"netem\":%s}"
      "\n",
      (int)getpid(), g_side[0].ifname, g_side[1].ifname, dir, (unsigned long long)seed, g_params_json);
  fflush(stdout);

  while (!g_stop) {
    struct pollfd pfd[2] = {{g_side[0].fd, POLLIN, 0}, {g_side[1].fd, POLLIN, 0}};
    const wire_item* top;
    struct timespec ts, *timeout = NULL;
    uint64_t now = now_ns();
    while ((top = wire_queue_top(&g_queue)) && top->due <= now) depart(wire_queue_pop(&g_queue));
    if (top) {
      uint64_t wait = top->due - now;
      ts.tv_sec = (time_t)(wait / 1000000000ULL);
      ts.tv_nsec = (long)(wait % 1000000000ULL);
      timeout = &ts;
    }
    if (ppoll(pfd, 2, timeout, &waitmask) < 0 && errno != EINTR) die("ppoll", NULL);
    if (g_dump) {
      g_dump = 0;
      dump_file(stats_path, "running");
    }
    for (s = 0; s < 2; s++) {
      if (pfd[s].revents & (POLLERR | POLLHUP | POLLNVAL) && !(pfd[s].revents & POLLIN)) {
        fprintf(stderr, "wire: %s went away\n", g_side[s].ifname);
        g_stop = -1;
        status = 3;
      } else if (pfd[s].revents & POLLIN && receive(s, buf) != 0) {
        fprintf(stderr, "wire: %s went away\n", g_side[s].ifname);
        g_stop = -1;
        status = 3;
      }
    }
  }
  write_stats(stdout, status ? "interface_gone" : "stopped");
  dump_file(stats_path, status ? "interface_gone" : "stopped");
  while (g_queue.len) free(wire_queue_pop(&g_queue));
  wire_queue_free(&g_queue);
  free(buf);
  return status;
}
