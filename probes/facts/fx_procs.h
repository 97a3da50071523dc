/* Running processes, read once from /proc/<pid>/stat and cmdline (2.6.18 has
 * no /proc/<pid>/comm). Only names are kept: command-line arguments can hold
 * secrets and the snapshot is saved with the results. */
#ifndef LABGATE_PROBES_FACTS_FX_PROCS_H
#define LABGATE_PROBES_FACTS_FX_PROCS_H

#include <stddef.h>

#define FX_MAX_PROCS 32768

typedef struct fx_proc {
  int pid;
  char comm[32];  /* the kernel's name, at most 15 characters */
  char argv0[64]; /* basename of argv[0]; "" for kernel threads */
} fx_proc;

/** The process table (scanned on first use). *truncated is set when capped. */
const fx_proc* fx_procs(size_t* n, int* truncated);
/** A process whose comm or argv[0] basename is `name`, or NULL. */
const fx_proc* fx_procs_find(const char* name);

#endif
