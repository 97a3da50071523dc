/* The smallest probe: prints its arguments, one per line. It exists so the
 * transport and deployment tests can upload, verify and run a real static probe
 * (and see that arguments arrive byte for byte) before the measuring probes exist. */
#include <stdio.h>

#include "probe_common.h"

int main(int argc, char** argv) {
  int i;
  if (lg_probe_common_flags(argc, argv, "echo")) return 0;
  for (i = 1; i < argc; i++) printf("%s\n", argv[i]);
  return fflush(stdout) == 0 ? 0 : 1;
}
