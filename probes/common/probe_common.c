/* The --version and --self-digest flags shared by every probe (see probe_common.h). */
#include "probe_common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lg_sha256.h"

#ifndef LABGATE_VERSION
#define LABGATE_VERSION "unknown"
#endif

int lg_probe_common_flags(int argc, char** argv, const char* name) {
  char hex[LG_SHA256_HEX_LEN + 1];
  if (argc < 2 || argv[1] == NULL) return 0;
  if (strcmp(argv[1], "--version") == 0) {
    printf("%s %s\n", name, LABGATE_VERSION);
    fflush(stdout);
    return 1;
  }
  if (strcmp(argv[1], "--self-digest") == 0) {
    /* /proc/self/exe is the file the kernel actually mapped, whatever the path. */
    if (lg_sha256_file("/proc/self/exe", hex) != 0) {
      fprintf(stderr, "%s: cannot read /proc/self/exe: %s\n", name, strerror(errno));
      exit(1);
    }
    printf("%s\n", hex);
    fflush(stdout);
    return 1;
  }
  return 0;
}
