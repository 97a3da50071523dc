/* mcast: the udp_multicast probe for labgate, one publisher to many subscribers.
 * Parses the command line and hands over to the publisher or the subscriber. */
#include <arpa/inet.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lg_measure_util.h"
#include "mc.h"
#include "probe_common.h"

static const char kUsage[] =
    "usage:\n"
    "  mcast subscribe --group G --port P --bind ADDR [--source S] [--reply-every N]\n"
    "                  [--idle-timeout 5s] [--socket-buffer SIZE]\n"
    "  mcast publish --group G --port P --bind ADDR --subscriber ADDR [--subscriber ADDR...]\n"
    "                [--size 64] [--ttl 1] [--rate 1000/s] [--duration 10s] [--warmup 1s]\n"
    "                [--reply-every N] [--linger 200ms] [--socket-buffer SIZE]\n"
    "--socket-buffer sets SO_SNDBUF and SO_RCVBUF of the feed's socket (the kernel\n"
    "caps it at net.core.rmem_max/wmem_max; what it took is printed).\n"
    "--bind is the test interface's own IPv4 address: the publisher sends out of it\n"
    "(IP_MULTICAST_IF), a subscriber joins on it and answers from it. A subscriber\n"
    "prints {\"event\":\"joined\",...} once joined, counts loss, duplicates,\n"
    "reordering and the longest gap itself, answers 1 in --reply-every (default 100)\n"
    "messages by unicast, and prints its counts at the publisher's end marker (or\n"
    "after --idle-timeout without a message). The publisher prints, per --subscriber\n"
    "(at most 64), the round trips of its replies from each message's scheduled\n"
    "send time, and the stamps of the fastest for the one-way delay to it (each\n"
    "reply carries the subscriber's realtime receive stamp).\n"
    "Exit status: 0 measured, 2 usage error, 3 could not measure.\n";

enum {
  OPT_GROUP = 256,
  OPT_PORT,
  OPT_BIND,
  OPT_SOURCE,
  OPT_SUBSCRIBER,
  OPT_SIZE,
  OPT_TTL,
  OPT_RATE,
  OPT_DURATION,
  OPT_WARMUP,
  OPT_REPLY_EVERY,
  OPT_LINGER,
  OPT_IDLE_TIMEOUT,
  OPT_SOCKET_BUFFER,
  OPT_HELP
};

static const struct option kOptions[] = {{"group", required_argument, 0, OPT_GROUP},
                                         {"port", required_argument, 0, OPT_PORT},
                                         {"bind", required_argument, 0, OPT_BIND},
                                         {"source", required_argument, 0, OPT_SOURCE},
                                         {"subscriber", required_argument, 0, OPT_SUBSCRIBER},
                                         {"size", required_argument, 0, OPT_SIZE},
                                         {"ttl", required_argument, 0, OPT_TTL},
                                         {"rate", required_argument, 0, OPT_RATE},
                                         {"duration", required_argument, 0, OPT_DURATION},
                                         {"warmup", required_argument, 0, OPT_WARMUP},
                                         {"reply-every", required_argument, 0, OPT_REPLY_EVERY},
                                         {"linger", required_argument, 0, OPT_LINGER},
                                         {"idle-timeout", required_argument, 0, OPT_IDLE_TIMEOUT},
                                         {"socket-buffer", required_argument, 0, OPT_SOCKET_BUFFER},
                                         {"help", no_argument, 0, OPT_HELP},
                                         {0, 0, 0, 0}};

static uint64_t duration_arg(const char* flag, const char* text) {
  return lg_duration_arg("mcast", flag, text);
}

static long long_arg(const char* flag, const char* text, long min, long max) {
  return lg_long_arg("mcast", flag, text, min, max);
}

static void apply(mc_config* c, int opt, const char* arg) {
  const char* role_only = NULL;
  switch (opt) {
    case OPT_GROUP: {
      struct in_addr a;
      if (inet_pton(AF_INET, arg, &a) != 1 || (ntohl(a.s_addr) >> 28) != 0xe)
        lg_usage_error("mcast", "--group: '%s' is not an IPv4 multicast address (224.0.0.0/4)", arg);
      c->group = arg;
      break;
    }
    case OPT_PORT:
      c->port = (int)long_arg("--port", arg, 1, 65535);
      break;
    case OPT_BIND:
      c->bind = arg;
      break;
    case OPT_SOURCE:
      if (c->publisher) role_only = "--source";
      c->source = arg;
      break;
    case OPT_SUBSCRIBER:
      if (!c->publisher) role_only = "--subscriber";
      if (c->n_subscribers == MC_MAX_SUBSCRIBERS)
        lg_usage_error("mcast", "at most %d --subscriber", MC_MAX_SUBSCRIBERS);
      c->subscribers[c->n_subscribers++] = arg;
      break;
    case OPT_SIZE:
      if (!c->publisher) role_only = "--size";
      if (lg_parse_size(arg, &c->size) != 0 || c->size < MC_HDR || c->size > MC_MAX_SIZE)
        lg_usage_error("mcast", "--size: '%s' is not a message size in [%d, %u] bytes", arg, MC_HDR,
                       MC_MAX_SIZE);
      break;
    case OPT_TTL:
      if (!c->publisher) role_only = "--ttl";
      c->ttl = (int)long_arg("--ttl", arg, 1, 255);
      break;
    case OPT_RATE:
      if (!c->publisher) role_only = "--rate";
      if (lg_parse_rate(arg, &c->rate) != 0 || c->rate > LG_PROBE_MAX_RATE)
        lg_usage_error("mcast", "--rate: '%s' is not a rate (e.g. 20000/s)", arg);
      break;
    case OPT_DURATION:
      if (!c->publisher) role_only = "--duration";
      c->duration_ns = duration_arg("--duration", arg);
      if (c->duration_ns == 0) lg_usage_error("mcast", "--duration must be > 0");
      break;
    case OPT_WARMUP:
      if (!c->publisher) role_only = "--warmup";
      c->warmup_ns = duration_arg("--warmup", arg);
      break;
    case OPT_REPLY_EVERY:
      c->reply_every = (uint64_t)long_arg("--reply-every", arg, 1, 1000000000L);
      break;
    case OPT_LINGER:
      if (!c->publisher) role_only = "--linger";
      c->linger_ns = duration_arg("--linger", arg);
      break;
    case OPT_IDLE_TIMEOUT:
      if (c->publisher) role_only = "--idle-timeout";
      c->idle_timeout_ns = duration_arg("--idle-timeout", arg);
      if (c->idle_timeout_ns < 1000000) lg_usage_error("mcast", "--idle-timeout must be >= 1ms");
      break;
    case OPT_SOCKET_BUFFER:
      if (lg_parse_size(arg, &c->tune.buffer) != 0 || c->tune.buffer == 0 || c->tune.buffer > 0x7fffffffull)
        lg_usage_error("mcast", "--socket-buffer: '%s' is not a buffer size (e.g. 4MiB, 262144)", arg);
      break;
    case OPT_HELP:
      fputs(kUsage, stdout);
      exit(0);
    default:
      lg_usage_error("mcast", "unknown option");
  }
  if (role_only)
    lg_usage_error("mcast", "%s is a %s option", role_only, c->publisher ? "subscribe" : "publish");
}

int main(int argc, char** argv) {
  mc_config cfg;
  int opt;
  if (lg_probe_common_flags(argc, argv, "mcast")) return 0;
  if (argc < 2 || (strcmp(argv[1], "publish") != 0 && strcmp(argv[1], "subscribe") != 0)) {
    if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
      fputs(kUsage, stdout);
      return 0;
    }
    fputs(kUsage, stderr);
    return LG_EXIT_USAGE;
  }
  memset(&cfg, 0, sizeof(cfg));
  cfg.publisher = strcmp(argv[1], "publish") == 0;
  cfg.size = 64;
  cfg.ttl = 1;
  cfg.rate = 1000;
  cfg.duration_ns = 10000000000ull;
  cfg.warmup_ns = 1000000000ull;
  cfg.reply_every = 100;
  cfg.linger_ns = 200000000ull;
  cfg.idle_timeout_ns = 5000000000ull;
  opterr = 0;
  optind = 2;
  while ((opt = getopt_long(argc, argv, "", kOptions, NULL)) != -1) {
    if (opt == '?' || opt == ':')
      lg_usage_error("mcast", "unknown option or missing value: '%s'", argv[optind - 1]);
    apply(&cfg, opt, optarg);
  }
  if (optind < argc) lg_usage_error("mcast", "unexpected argument '%s'", argv[optind]);
  if (cfg.group == NULL || cfg.port == 0 || cfg.bind == NULL)
    lg_usage_error("mcast", "--group, --port and --bind are required");
  if (cfg.publisher && cfg.n_subscribers == 0)
    lg_usage_error("mcast", "publish needs at least one --subscriber");
  return cfg.publisher ? mc_run_publisher(&cfg) : mc_run_subscriber(&cfg);
}
