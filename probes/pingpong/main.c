/* pingpong: request/response round-trip probe (tcp_rr, udp_rr) for labgate.
 * Parses the command line and hands over to the server or the client. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lg_measure_util.h"
#include "pp.h"
#include "probe_common.h"

static const char kUsage[] =
    "usage:\n"
    "  pingpong server --bind ADDR --proto tcp|udp [--port P] [--size N] [--cpu C]\n"
    "                  [--idle-timeout 30s] [--busy-poll] [--no-nodelay] [--peer ADDR]\n"
    "                  [--socket-buffer SIZE] [--congestion ALGO] [--once] [--worst K]\n"
    "                  [--forensics on|off]\n"
    "  pingpong client --connect ADDR --port P --proto tcp|udp [--size 64] [--duration 10s]\n"
    "                  [--warmup 1s] [--cpu C] [--nodelay|--no-nodelay] [--busy-poll]\n"
    "                  [--rate R/s] [--interval 1s] [--recv-timeout 100ms]\n"
    "                  [--server-timeout 3s] [--connect-timeout 3s] [--progress]\n"
    "                  [--socket-buffer SIZE] [--congestion ALGO]\n"
    "                  [--outlier DURATION] [--worst K] [--forensics on|off]\n"
    "--outlier: every round trip over it is kept with its circumstances (default:\n"
    "10x the p50 of the last interval), as are the K worst (--worst, default 64;\n"
    "the server keeps its K worst turnarounds).\n"
    "--forensics off: no outlier capture, no receive stamps, no one-way stamps, on\n"
    "the side given it (to measure what they cost; both sides for a clean figure).\n"
    "--socket-buffer sets SO_SNDBUF and SO_RCVBUF, --congestion TCP_CONGESTION (tcp).\n"
    "The server prints one line {\"event\":\"listening\",...,\"port\":P} when it is ready\n"
    "(--port 0, the default, picks a free port) and one JSON summary when it exits.\n"
    "--once: the server exits after its first client (TCP: its connection closes;\n"
    "UDP: the client's end-of-run datagram), --idle-timeout still the backstop.\n"
    "The client prints one JSON document: parameters, histogram of round-trip times\n"
    "(ns), per-interval series and counters. Exit status: 0 measured, 2 usage error,\n"
    "3 could not measure (the reason is in the JSON's \"error\" and on stderr).\n";

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
  OPT_NO_NODELAY,
  OPT_BUSY,
  OPT_RATE,
  OPT_INTERVAL,
  OPT_RECV_TIMEOUT,
  OPT_SERVER_TIMEOUT,
  OPT_CONNECT_TIMEOUT,
  OPT_IDLE_TIMEOUT,
  OPT_HELP,
  OPT_SOCKET_BUFFER,
  OPT_CONGESTION,
  OPT_PEER,
  OPT_ONCE,
  OPT_OUTLIER,
  OPT_WORST,
  OPT_FORENSICS
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
                                         {"no-nodelay", no_argument, 0, OPT_NO_NODELAY},
                                         {"busy-poll", no_argument, 0, OPT_BUSY},
                                         {"rate", required_argument, 0, OPT_RATE},
                                         {"interval", required_argument, 0, OPT_INTERVAL},
                                         {"recv-timeout", required_argument, 0, OPT_RECV_TIMEOUT},
                                         {"server-timeout", required_argument, 0, OPT_SERVER_TIMEOUT},
                                         {"connect-timeout", required_argument, 0, OPT_CONNECT_TIMEOUT},
                                         {"idle-timeout", required_argument, 0, OPT_IDLE_TIMEOUT},
                                         {"help", no_argument, 0, OPT_HELP},
                                         {"progress", no_argument, 0, OPT_PROGRESS},
                                         {"socket-buffer", required_argument, 0, OPT_SOCKET_BUFFER},
                                         {"congestion", required_argument, 0, OPT_CONGESTION},
                                         {"peer", required_argument, 0, OPT_PEER},
                                         {"once", no_argument, 0, OPT_ONCE},
                                         {"outlier", required_argument, 0, OPT_OUTLIER},
                                         {"worst", required_argument, 0, OPT_WORST},
                                         {"forensics", required_argument, 0, OPT_FORENSICS},
                                         {0, 0, 0, 0}};

static uint64_t duration_arg(const char* flag, const char* text) {
  return lg_duration_arg("pingpong", flag, text);
}

static long long_arg(const char* flag, const char* text, long min, long max) {
  return lg_long_arg("pingpong", flag, text, min, max);
}

/* Applies one option to cfg; `server` says which role's flags are allowed. */
static void apply(pp_config* cfg, int server, int opt, const char* arg, const char** proto) {
  const char* role_only = NULL;
  switch (opt) {
    case OPT_BIND:
      if (!server) role_only = "--bind";
      cfg->addr = arg;
      break;
    case OPT_CONNECT:
      if (server) role_only = "--connect";
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
        lg_usage_error("pingpong", "--size: '%s' is not a message size (e.g. 64, 16KiB)", arg);
      cfg->size_given = 1;
      break;
    case OPT_CPU:
      cfg->cpu = (int)long_arg("--cpu", arg, 0, 4095);
      break;
    case OPT_DURATION:
      if (server) role_only = "--duration";
      cfg->duration_ns = duration_arg("--duration", arg);
      break;
    case OPT_WARMUP:
      if (server) role_only = "--warmup";
      cfg->warmup_ns = duration_arg("--warmup", arg);
      break;
    case OPT_NODELAY:
      cfg->nodelay = 1;
      break;
    case OPT_NO_NODELAY:
      cfg->nodelay = 0;
      break;
    case OPT_BUSY:
      cfg->busy_poll = 1;
      break;
    case OPT_RATE:
      if (server) role_only = "--rate";
      if (lg_parse_rate(arg, &cfg->rate) != 0)
        lg_usage_error("pingpong", "--rate: '%s' is not a rate (e.g. 20000/s)", arg);
      break;
    case OPT_INTERVAL:
      if (server) role_only = "--interval";
      cfg->interval_ns = duration_arg("--interval", arg);
      break;
    case OPT_RECV_TIMEOUT:
      if (server) role_only = "--recv-timeout";
      cfg->recv_timeout_ns = duration_arg("--recv-timeout", arg);
      break;
    case OPT_SERVER_TIMEOUT:
      if (server) role_only = "--server-timeout";
      cfg->server_timeout_ns = duration_arg("--server-timeout", arg);
      break;
    case OPT_CONNECT_TIMEOUT:
      if (server) role_only = "--connect-timeout";
      cfg->connect_timeout_ns = duration_arg("--connect-timeout", arg);
      break;
    case OPT_IDLE_TIMEOUT:
      if (!server) role_only = "--idle-timeout";
      cfg->idle_timeout_ns = duration_arg("--idle-timeout", arg);
      break;
    case OPT_PROGRESS:
      if (server) role_only = "--progress";
      cfg->progress = 1;
      break;
    case OPT_SOCKET_BUFFER:
      if (lg_parse_size(arg, &cfg->tune.buffer) != 0 || cfg->tune.buffer == 0 ||
          cfg->tune.buffer > 0x7fffffffull)
        lg_usage_error("pingpong", "--socket-buffer: '%s' is not a buffer size (e.g. 16KiB, 262144)", arg);
      break;
    case OPT_CONGESTION:
      if (arg[0] == '\0' || strlen(arg) > 15)
        lg_usage_error("pingpong", "--congestion: '%s' is not a TCP congestion control name", arg);
      cfg->tune.congestion = arg;
      break;
    case OPT_PEER: /* checked by the server, which owns the filter */
      if (!server) role_only = "--peer";
      cfg->peer = arg;
      break;
    case OPT_ONCE:
      if (!server) role_only = "--once";
      cfg->once = 1;
      break;
    case OPT_OUTLIER:
      if (server) role_only = "--outlier";
      cfg->outlier_ns = duration_arg("--outlier", arg);
      if (cfg->outlier_ns == 0) lg_usage_error("pingpong", "--outlier must be > 0");
      break;
    case OPT_WORST:
      cfg->worst = (unsigned)long_arg("--worst", arg, 0, 4096);
      break;
    case OPT_FORENSICS:
      if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0)
        lg_usage_error("pingpong", "--forensics: '%s' is not on or off", arg);
      cfg->forensics = strcmp(arg, "on") == 0;
      break;
    case OPT_HELP:
      fputs(kUsage, stdout);
      exit(0);
    default:
      lg_usage_error("pingpong", "unknown option");
  }
  if (role_only) lg_usage_error("pingpong", "%s is a %s option", role_only, server ? "client" : "server");
}

/* Cross-checks that need every flag: presence, sizes the wire format can carry. */
static void validate(const pp_config* cfg, int server, const char* proto) {
  const uint64_t max = cfg->udp ? PP_MAX_UDP_SIZE : PP_MAX_TCP_SIZE;
  if (proto == NULL) lg_usage_error("pingpong", "--proto tcp|udp is required");
  if (cfg->addr == NULL) lg_usage_error("pingpong", "%s ADDR is required", server ? "--bind" : "--connect");
  if (!server && cfg->port == 0) lg_usage_error("pingpong", "--port P is required (the server's port)");
  if (cfg->size > max)
    lg_usage_error("pingpong", "--size %llu exceeds %llu for %s", (unsigned long long)cfg->size,
                   (unsigned long long)max, proto);
  if (!server && (cfg->udp || cfg->rate > 0) && cfg->size < PP_HDR)
    lg_usage_error("pingpong",
                   "--size must be >= %d for %s: requests carry a sequence number and a timestamp", PP_HDR,
                   cfg->udp ? "udp" : "open loop (--rate)");
  if (!server && cfg->duration_ns == 0) lg_usage_error("pingpong", "--duration must be > 0");
  if (!server && cfg->interval_ns < LG_PROBE_MIN_INTERVAL_NS) lg_usage_error("pingpong", "--interval must be >= 1ms");
  if (!server && cfg->recv_timeout_ns < 1000000) lg_usage_error("pingpong", "--recv-timeout must be >= 1ms");
  if (!server && cfg->server_timeout_ns < cfg->recv_timeout_ns)
    lg_usage_error("pingpong", "--server-timeout must be >= --recv-timeout");
  if (server && cfg->idle_timeout_ns < 1000000) lg_usage_error("pingpong", "--idle-timeout must be >= 1ms");
  if (cfg->udp && cfg->tune.congestion != NULL) lg_usage_error("pingpong", "--congestion is for --proto tcp");
}

int main(int argc, char** argv) {
  pp_config cfg;
  const char* proto = NULL;
  int server, opt;
  if (lg_probe_common_flags(argc, argv, "pingpong")) return 0;
  if (argc < 2 || (strcmp(argv[1], "server") != 0 && strcmp(argv[1], "client") != 0)) {
    if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
      fputs(kUsage, stdout);
      return 0;
    }
    fputs(kUsage, stderr);
    return LG_EXIT_USAGE;
  }
  server = strcmp(argv[1], "server") == 0;
  memset(&cfg, 0, sizeof(cfg));
  cfg.size = 64;
  cfg.cpu = -1;
  cfg.nodelay = 1;
  cfg.duration_ns = 10000000000ull;
  cfg.warmup_ns = 1000000000ull;
  cfg.interval_ns = 1000000000ull;
  cfg.recv_timeout_ns = 100000000ull;
  cfg.server_timeout_ns = 3000000000ull;
  cfg.connect_timeout_ns = 3000000000ull;
  cfg.idle_timeout_ns = 30000000000ull;
  cfg.worst = LG_OUTLIERS_WORST_DEFAULT;
  cfg.forensics = 1;
  opterr = 0;
  optind = 2;
  while ((opt = getopt_long(argc, argv, "", kOptions, NULL)) != -1) {
    if (opt == '?' || opt == ':')
      lg_usage_error("pingpong", "unknown option or missing value: '%s'", argv[optind - 1]);
    apply(&cfg, server, opt, optarg, &proto);
  }
  if (optind < argc) lg_usage_error("pingpong", "unexpected argument '%s'", argv[optind]);
  if (proto != NULL && strcmp(proto, "udp") != 0 && strcmp(proto, "tcp") != 0)
    lg_usage_error("pingpong", "--proto: '%s' is not tcp or udp", proto);
  cfg.udp = proto != NULL && strcmp(proto, "udp") == 0;
  validate(&cfg, server, proto);
  return server ? pp_run_server(&cfg) : pp_run_client(&cfg);
}
