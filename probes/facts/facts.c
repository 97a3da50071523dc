/* The facts probe: one run prints one JSON snapshot of a host's configuration
 * (OS, kernel, boot line, sysctls, modules, interfaces, services, processes,
 * CPU, clock synchronisation), every value with the path it came from. Static, RHEL 5-safe: it only
 * reads files and issues ioctls (and one read-only adjtimex), and never starts another program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fx_args.h"
#include "fx_fs.h"
#include "fx_json.h"
#include "fx_sections.h"
#include "probe_common.h"

#ifndef LABGATE_VERSION
#define LABGATE_VERSION "unknown"
#endif

/* Bumped whenever a member changes meaning; the harness refuses other versions. */
#define FX_SCHEMA "labgate.facts/1"

int main(int argc, char** argv) {
  static char outbuf[1 << 16];
  fx_args a;
  fx_json j;
  int rc, err;
  if (lg_probe_common_flags(argc, argv, "facts")) return 0;
  rc = fx_parse_args(argc, argv, &a);
  if (rc) return rc == 1 ? 0 : 2;
  if ((err = fx_set_root(a.root)) != 0) {
    fprintf(stderr, "facts: --root %s: %s\n", a.root, fx_strerror(err));
    return 2;
  }
  setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
  memset(&j, 0, sizeof j);
  j.out = stdout;
  fx_json_open(&j, NULL);
  fx_json_str(&j, "schema", FX_SCHEMA);
  fx_json_str(&j, "probe", "facts " LABGATE_VERSION);
  fx_json_str(&j, "root", fx_root());
  /* Who read the facts: a "Permission denied" as a non-root user means the
   * fact needs root (become = "sudo"), not that the host is broken. */
  fx_json_int(&j, "euid", (long long)geteuid());
  if (a.sections & FX_SEC_OS) fx_section_os(&j);
  if (a.sections & FX_SEC_KERNEL) fx_section_kernel(&j);
  if (a.sections & FX_SEC_BOOT) fx_section_boot(&j);
  if (a.sections & FX_SEC_SYSCTL) fx_section_sysctl(&j, &a);
  if (a.sections & FX_SEC_MODULES) fx_section_modules(&j, &a);
  if (a.sections & FX_SEC_INTERFACES) fx_section_interfaces(&j, &a);
  if (a.sections & FX_SEC_SERVICES) fx_section_services(&j, &a);
  if (a.sections & FX_SEC_PROCESSES) fx_section_processes(&j);
  if (a.sections & FX_SEC_CPU) fx_section_cpu(&j);
  if (a.sections & FX_SEC_CLOCK) fx_section_clock(&j);
  fx_json_close(&j);
  free(a.sysctl_file_text);
  if (j.err || fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "facts: writing the snapshot failed\n");
    return 1;
  }
  return 0;
}
