/* disk: random-I/O probe (disk_random_read / _write / _rw) for labgate.
 * Parses the command line and hands over to the run. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dk.h"
#include "lg_measure_util.h"
#include "probe_common.h"

static const char kUsage[] =
    "usage:\n"
    "  disk --dir DIR --file PATH --mode read|write|rw --file-size SIZE [--block-size 16KiB]\n"
    "       [--threads 1] [--duration 10s] [--warmup 1s] [--interval 1s] [--no-direct]\n"
    "       [--read-mix 60] [--seed N]\n"
    "Creates PATH (which must not exist and must lie below DIR once links are resolved),\n"
    "writes SIZE bytes to it, then does random I/O of the block size with O_DIRECT\n"
    "(unless --no-direct) from THREADS processes for the duration, and removes the file.\n"
    "Prints one JSON document: parameters, counters, IOPS, bytes/s, the histogram of\n"
    "per-operation times (ns) and the per-interval series. Exit status: 0 measured,\n"
    "2 usage error or refused path, 3 could not measure (the reason is in \"error\").\n";

enum {
  OPT_DIR = 256,
  OPT_FILE,
  OPT_MODE,
  OPT_FILE_SIZE,
  OPT_BLOCK_SIZE,
  OPT_THREADS,
  OPT_DURATION,
  OPT_WARMUP,
  OPT_INTERVAL,
  OPT_NO_DIRECT,
  OPT_READ_MIX,
  OPT_SEED,
  OPT_HELP
};

static const struct option kOptions[] = {{"dir", required_argument, 0, OPT_DIR},
                                         {"file", required_argument, 0, OPT_FILE},
                                         {"mode", required_argument, 0, OPT_MODE},
                                         {"file-size", required_argument, 0, OPT_FILE_SIZE},
                                         {"block-size", required_argument, 0, OPT_BLOCK_SIZE},
                                         {"threads", required_argument, 0, OPT_THREADS},
                                         {"duration", required_argument, 0, OPT_DURATION},
                                         {"warmup", required_argument, 0, OPT_WARMUP},
                                         {"interval", required_argument, 0, OPT_INTERVAL},
                                         {"no-direct", no_argument, 0, OPT_NO_DIRECT},
                                         {"read-mix", required_argument, 0, OPT_READ_MIX},
                                         {"seed", required_argument, 0, OPT_SEED},
                                         {"help", no_argument, 0, OPT_HELP},
                                         {0, 0, 0, 0}};

static uint64_t duration_arg(const char* flag, const char* text) {
  return lg_duration_arg("disk", flag, text);
}

static uint64_t size_arg(const char* flag, const char* text) {
  return lg_size_arg("disk", flag, text);
}

static long long_arg(const char* flag, const char* text, long min, long max) {
  return lg_long_arg("disk", flag, text, min, max);
}

static void apply(dk_config* cfg, int opt, const char* arg, const char** mode) {
  switch (opt) {
    case OPT_DIR:
      cfg->dir = arg;
      break;
    case OPT_FILE:
      cfg->file = arg;
      break;
    case OPT_MODE:
      *mode = arg;
      break;
    case OPT_FILE_SIZE:
      cfg->file_size = size_arg("--file-size", arg);
      break;
    case OPT_BLOCK_SIZE:
      cfg->block_size = size_arg("--block-size", arg);
      break;
    case OPT_THREADS:
      cfg->threads = (int)long_arg("--threads", arg, 1, 1024);
      break;
    case OPT_DURATION:
      cfg->duration_ns = duration_arg("--duration", arg);
      break;
    case OPT_WARMUP:
      cfg->warmup_ns = duration_arg("--warmup", arg);
      break;
    case OPT_INTERVAL:
      cfg->interval_ns = duration_arg("--interval", arg);
      break;
    case OPT_NO_DIRECT:
      cfg->direct = 0;
      break;
    case OPT_READ_MIX:
      cfg->read_mix = (double)long_arg("--read-mix", arg, 0, 100) / 100.0;
      break;
    case OPT_SEED:
      cfg->seed = (unsigned)long_arg("--seed", arg, 0, 2147483647L);
      break;
    case OPT_HELP:
      fputs(kUsage, stdout);
      exit(0);
    default:
      lg_usage_error("disk", "unknown option");
  }
}

static void validate(dk_config* cfg, const char* mode) {
  if (cfg->dir == NULL)
    lg_usage_error("disk", "--dir DIR is required (the directory the probe may write in)");
  if (cfg->file == NULL) lg_usage_error("disk", "--file PATH is required (the file to create below --dir)");
  if (mode == NULL) lg_usage_error("disk", "--mode read|write|rw is required");
  if (strcmp(mode, "read") == 0)
    cfg->mode = DK_READ;
  else if (strcmp(mode, "write") == 0)
    cfg->mode = DK_WRITE;
  else if (strcmp(mode, "rw") == 0)
    cfg->mode = DK_RW;
  else
    lg_usage_error("disk", "--mode: '%s' is not read, write or rw", mode);
  if (cfg->file_size == 0) lg_usage_error("disk", "--file-size SIZE is required");
  if (cfg->block_size < 512 || cfg->block_size > (64u << 20))
    lg_usage_error("disk", "--block-size must be from 512 bytes to 64MiB");
  if (cfg->direct && cfg->block_size % 512 != 0)
    lg_usage_error("disk", "--block-size must be a multiple of 512 with O_DIRECT (or pass --no-direct)");
  if (cfg->file_size < cfg->block_size) lg_usage_error("disk", "--file-size must hold at least one block");
  if (cfg->duration_ns == 0) lg_usage_error("disk", "--duration must be > 0");
  if (cfg->interval_ns < LG_PROBE_MIN_INTERVAL_NS) lg_usage_error("disk", "--interval must be >= 1ms");
}

int main(int argc, char** argv) {
  dk_config cfg;
  const char* mode = NULL;
  int opt;
  if (lg_probe_common_flags(argc, argv, "disk")) return 0;
  memset(&cfg, 0, sizeof(cfg));
  cfg.block_size = 16384;
  cfg.threads = 1;
  cfg.direct = 1;
  cfg.read_mix = 0.6;
  cfg.duration_ns = 10000000000ull;
  cfg.warmup_ns = 1000000000ull;
  cfg.interval_ns = 1000000000ull;
  cfg.seed = 1;
  opterr = 0;
  while ((opt = getopt_long(argc, argv, "", kOptions, NULL)) != -1) {
    if (opt == '?' || opt == ':')
      lg_usage_error("disk", "unknown option or missing value: '%s'", argv[optind - 1]);
    apply(&cfg, opt, optarg, &mode);
  }
  if (optind < argc) lg_usage_error("disk", "unexpected argument '%s'", argv[optind]);
  validate(&cfg, mode);
  return dk_run(&cfg);
}
