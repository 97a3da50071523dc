/* A recorded interface (DIR/.labgate-ioctl/<ifname>.conf under --root): the
 * key=value lines that stand in for the ioctl answers a live host would give,
 * each with the line it came from. "<IOCTL>.errno=EOPNOTSUPP" records that
 * the kernel or driver refused that ioctl. */
#ifndef LABGATE_PROBES_FACTS_FX_REC_H
#define LABGATE_PROBES_FACTS_FX_REC_H

#include "fx_fs.h"

#define FX_REC_MAX 96

typedef struct fx_rec {
  char path[FX_PATH_MAX];
  int err; /* reading the recording failed (ENOENT: no recording) */
  int n;
  char key[FX_REC_MAX][48];
  char val[FX_REC_MAX][256];
  int line[FX_REC_MAX];
} fx_rec;

/** Loads the recording of `ifname`; r->err says whether it could be read. */
void fx_rec_load(fx_rec* r, const char* ifname);
/** The value of `key` (NULL when absent); `src` gets "path:line". */
const char* fx_rec_get(const fx_rec* r, const char* key, char* src, size_t srcsz);
/** The errno recorded for `ioctl_name` ("ETHTOOL_GCHANNELS.errno"), 0 when none. */
int fx_rec_errno(const fx_rec* r, const char* ioctl_name, char* src, size_t srcsz);

#endif
