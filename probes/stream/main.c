/* stream: bulk-transfer probe (tcp_stream, udp_stream) for labgate: throughput,
 * the time of every send() call, and UDP loss counted by the receiver. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lg_measure_util.h"
#include "probe_common.h"
#include "st.h"

static const char kUsage[] =
    "usage:\n"
    "  stream server --bind ADDR --proto tcp|udp [--port P] [--cpu C] [--idle-timeout 30s]\n"
    "                [--peer ADDR] (serve only this client address)\n"
    "                [--once] (exit after the first client's session)\n"
    "  stream client --connect ADDR --port P --proto tcp|udp [--size 64] [--duration 10s]\n"
    "                [--warmup 1s] [--cpu C] [--nodelay] [--interval 1s] [--drain 200ms]\n"
    "                [--server-timeout 3s] [--connect-timeout 3s] [--progress]\n"
    "                [--rate R/s] (messages leave on a fixed schedule; unpaced without it)\n"
    "  both roles:   [--socket-buffer SIZE] (SO_SNDBUF, SO_RCVBUF) [--congestion ALGO] (tcp)\n"
    "The server listens on TCP port P of ADDR (and UDP port P for udp) and prints one\n"
    "line {\"event\":\"listening\",...,\"port\":P} when ready (--port 0, the default,\n"
    "picks a free port), then one JSON summary when it exits. The client prints one\n"
    "JSON document: throughput, histogram of send() call times (ns), per-interval\n"
    "series, sent/received/lost. Exit status: 0 measured, 2 usage error, 3 could not\n"
    "measure (the reason is in the JSON's \"error\" and on stderr).\n";

enum {
  OPT_PROGRESS = 255,
  OPT_BIND = 256,
  OPT_CONNECT,
  OPT_PORT,
  OPT_PROTO,
  OPT_SIZE,
  OPT_CPU,
  OPT_DURATION,
  OPT_WARMUP,
  OPT_NODELAY,
  OPT_INTERVAL,
  OPT_DRAIN,
  OPT_SERVER_TIMEOUT,
  OPT_CONNECT_TIMEOUT,
  OPT_IDLE_TIMEOUT,
  OPT_ONCE,
  OPT_HELP,
  OPT_SOCKET_BUFFER,
  OPT_CONGESTION,
  OPT_PEER,
  OPT_RATE
};

static const struct option kOptions[] = {{"bind", required_argument, 0, OPT_BIND},
                                         {"connect", required_argument, 0, OPT_CONNECT},
                                         {"port", required_argument, 0, OPT_PORT},
                                         {"proto", required_argument, 0, OPT_PROTO},
                                         {"size", required_argument, 0, OPT_SIZE},
                                         {"cpu", required_argument, 0, OPT_CPU},
                                         {"duration", required_argument, 0, OPT_DURATION},
                                         {"warmup", required_argument, 0, OPT_WARMUP},
                                         {"nodelay", no_argument, 0, OPT_NODELAY},
                                         {"interval", required_argument, 0, OPT_INTERVAL},
                                         {"drain", required_argument, 0, OPT_DRAIN},
                                         {"server-timeout", required_argument, 0, OPT_SERVER_TIMEOUT},
                                         {"connect-timeout", required_argument, 0, OPT_CONNECT_TIMEOUT},
                                         {"idle-timeout", required_argument, 0, OPT_IDLE_TIMEOUT},
                                         {"once", no_argument, 0, OPT_ONCE},
                                         {"help", no_argument, 0, OPT_HELP},
                                         {"progress", no_argument, 0, OPT_PROGRESS},
                                         {"socket-buffer", required_argument, 0, OPT_SOCKET_BUFFER},
                                         {"congestion", required_argument, 0, OPT_CONGESTION},
                                         {"peer", required_argument, 0, OPT_PEER},
                                         {"rate", required_argument, 0, OPT_RATE},
                                         {0, 0, 0, 0}};

static uint64_t duration_arg(const char* flag, const char* text) {
  return lg_duration_arg("stream", flag, text);
}

static long long_arg(const char* flag, const char* text, long min, long max) {
  return lg_long_arg("stream", flag, text, min, max);
}

/* Flags of the other role are refused rather than ignored: a typo in the
 * harness's command line must not silently change what is measured. */
static void apply(st_config* cfg, int server, int opt, const char* name, const char* arg,
                  const char** proto) {
  static const int client_only[] = {OPT_CONNECT,         OPT_SIZE,     OPT_DURATION, OPT_WARMUP,
                                    OPT_NODELAY,         OPT_INTERVAL, OPT_DRAIN,    OPT_SERVER_TIMEOUT,
                                    OPT_CONNECT_TIMEOUT, OPT_PROGRESS, OPT_RATE};
  size_t i;
  for (i = 0; i < sizeof(client_only) / sizeof(client_only[0]); i++)
    if (server && opt == client_only[i]) lg_usage_error("stream", "--%s is for `stream client` only", name);
  if (!server && (opt == OPT_BIND || opt == OPT_IDLE_TIMEOUT || opt == OPT_PEER || opt == OPT_ONCE))
    lg_usage_error("stream", "--%s is for `stream server` only", name);
  switch (opt) {
    case OPT_BIND:
    case OPT_CONNECT:
      cfg->addr = arg;
      break;
    case OPT_PORT:
      cfg->port = (int)long_arg("--port", arg, server ? 0 : 1, 65535);
      break;
    case OPT_PROTO:
      *proto = arg;
      break;
    case OPT_SIZE:
      if (lg_parse_size(arg, &cfg->size) != 0 || cfg->size == 0)
        lg_usage_error("stream", "--size: '%s' is not a message size (e.g. 64, 16KiB)", arg);
      break;
    case OPT_CPU:
      cfg->cpu = (int)long_arg("--cpu", arg, 0, 4095);
      break;
    case OPT_DURATION:
      cfg->duration_ns = duration_arg("--duration", arg);
      break;
    case OPT_WARMUP:
      cfg->warmup_ns = duration_arg("--warmup", arg);
      break;
    case OPT_NODELAY:
      cfg->nodelay = 1;
      break;
    case OPT_INTERVAL:
      cfg->interval_ns = duration_arg("--interval", arg);
      break;
    case OPT_DRAIN:
      cfg->drain_ns = duration_arg("--drain", arg);
      break;
    case OPT_SERVER_TIMEOUT:
      cfg->server_timeout_ns = duration_arg("--server-timeout", arg);
      break;
    case OPT_CONNECT_TIMEOUT:
      cfg->connect_timeout_ns = duration_arg("--connect-timeout", arg);
      break;
    case OPT_IDLE_TIMEOUT:
      cfg->idle_timeout_ns = duration_arg("--idle-timeout", arg);
      break;
    case OPT_ONCE:
      cfg->once = 1;
      break;
    case OPT_PROGRESS:
      cfg->progress = 1;
      break;
    case OPT_RATE:
      if (lg_parse_rate(arg, &cfg->rate) != 0)
        lg_usage_error("stream", "--rate: '%s' is not a rate (e.g. 20000/s)", arg);
      break;
    case OPT_SOCKET_BUFFER:
      if (lg_parse_size(arg, &cfg->tune.buffer) != 0 || cfg->tune.buffer == 0 ||
          cfg->tune.buffer > 0x7fffffffull)
        lg_usage_error("stream", "--socket-buffer: '%s' is not a buffer size (e.g. 16KiB, 262144)", arg);
      break;
    case OPT_CONGESTION:
      if (arg[0] == '\0' || strlen(arg) > 15)
        lg_usage_error("stream", "--congestion: '%s' is not a TCP congestion control name", arg);
      cfg->tune.congestion = arg;
      break;
    case OPT_PEER: /* checked by the server, which owns the filter */
      cfg->peer = arg;
      break;
    case OPT_HELP:
      fputs(kUsage, stdout);
      exit(0);
    default:
      lg_usage_error("stream", "unknown option");
  }
}

static void validate(const st_config* cfg, int server, const char* proto) {
  const uint64_t max = cfg->udp ? ST_MAX_UDP_SIZE : ST_MAX_TCP_SIZE;
  if (proto == NULL) lg_usage_error("stream", "--proto tcp|udp is required");
  if (strcmp(proto, "tcp") != 0 && strcmp(proto, "udp") != 0)
    lg_usage_error("stream", "--proto: '%s' is not tcp or udp", proto);
  if (cfg->addr == NULL) lg_usage_error("stream", "%s ADDR is required", server ? "--bind" : "--connect");
  if (cfg->udp && cfg->tune.congestion != NULL) lg_usage_error("stream", "--congestion is for --proto tcp");
  if (server) {
    if (cfg->idle_timeout_ns < 1000000) lg_usage_error("stream", "--idle-timeout must be >= 1ms");
    return;
  }
  if (cfg->port == 0) lg_usage_error("stream", "--port P is required (the server's port)");
  if (cfg->size > max)
    lg_usage_error("stream", "--size %llu exceeds %llu for %s", (unsigned long long)cfg->size,
                   (unsigned long long)max, proto);
  if (cfg->udp && cfg->size < ST_HDR)
    lg_usage_error("stream", "--size must be >= %d for udp: datagrams carry a sequence number", ST_HDR);
  if (cfg->duration_ns == 0) lg_usage_error("stream", "--duration must be > 0");
  if (cfg->interval_ns < LG_PROBE_MIN_INTERVAL_NS) lg_usage_error("stream", "--interval must be >= 1ms");
  if (cfg->server_timeout_ns < 1000000) lg_usage_error("stream", "--server-timeout must be >= 1ms");
}

int main(int argc, char** argv) {
  st_config cfg;
  const char* proto = NULL;
  int server, opt, index = 0;
  if (lg_probe_common_flags(argc, argv, "stream")) return 0;
  if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
    fputs(kUsage, stdout);
    return 0;
  }
  if (argc < 2 || (strcmp(argv[1], "server") != 0 && strcmp(argv[1], "client") != 0)) {
    fputs(kUsage, stderr);
    return LG_EXIT_USAGE;
  }
  server = strcmp(argv[1], "server") == 0;
  memset(&cfg, 0, sizeof(cfg));
  cfg.size = 64;
  cfg.cpu = -1;
  cfg.duration_ns = 10000000000ull;
  cfg.warmup_ns = 1000000000ull;
  cfg.interval_ns = 1000000000ull;
  cfg.drain_ns = 200000000ull;
  cfg.server_timeout_ns = 3000000000ull;
  cfg.connect_timeout_ns = 3000000000ull;
  cfg.idle_timeout_ns = 30000000000ull;
  opterr = 0;
  optind = 2;
  while ((opt = getopt_long(argc, argv, "", kOptions, &index)) != -1) {
    if (opt == '?' || opt == ':')
      lg_usage_error("stream", "unknown option or missing value: '%s'", argv[optind - 1]);
    apply(&cfg, server, opt, kOptions[index].name, optarg, &proto);
  }
  if (optind < argc) lg_usage_error("stream", "unexpected argument '%s'", argv[optind]);
  cfg.udp = proto != NULL && strcmp(proto, "udp") == 0;
  validate(&cfg, server, proto);
  return server ? st_run_server(&cfg) : st_run_client(&cfg);
}
