/* Flags every labgate probe answers the same way, so the harness can tell which
 * build is on a target and prove the uploaded bytes are the ones it sent. */
#ifndef LABGATE_PROBES_PROBE_COMMON_H
#define LABGATE_PROBES_PROBE_COMMON_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Handles the common flags when argv[1] is one of them (only argv[1] is looked
 * at, so a probe's own arguments are never mistaken for these):
 *   --version      prints "<name> <LABGATE_VERSION>" and a newline on stdout;
 *   --self-digest  prints the lowercase hex SHA-256 of /proc/self/exe and a newline.
 * Returns 1 if it handled a flag (the probe should then exit 0), 0 if argv[1] is
 * not a common flag. If the digest cannot be computed it prints the reason on
 * stderr and exits with status 1, since the probe has nothing else to do then.
 * Call it first thing in main():
 *   if (lg_probe_common_flags(argc, argv, "pingpong")) return 0;
 */
int lg_probe_common_flags(int argc, char** argv, const char* name);

#ifdef __cplusplus
}
#endif

#endif
