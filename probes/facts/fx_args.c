/* Command-line parsing for the facts probe. Names are validated strictly: a
 * key like "../../etc/shadow" must never turn into a file read on a target. */
#include "fx_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_fs.h"
#include "fx_str.h"

void fx_usage(void) {
  fputs(
      "usage: facts [--root DIR] [--sections LIST] [--sysctl KEY]... [--sysctl-file FILE]\n"
      "             [--module NAME]... [--iface NAME]... [--all-interfaces] [--service NAME]...\n"
      "Prints one JSON snapshot of this host's configuration on stdout; every value\n"
      "carries the path it was read from. Reads files and uses ioctls and adjtimex only.\n"
      "  --root DIR        read a recorded tree below DIR instead of /; interface\n"
      "                    ioctls then come from DIR/.labgate-ioctl/<ifname>.conf,\n"
      "                    adjtimex from DIR/.labgate-ioctl/adjtimex.conf\n"
      "  --sections LIST   comma list of os,kernel,boot,sysctl,modules,interfaces,\n"
      "                    services,processes,cpu,clock (default: all)\n"
      "  --sysctl KEY      a sysctl to read, dotted (net.ipv4.tcp_sack); repeatable\n"
      "  --sysctl-file F   a file with one sysctl key per line (# comments)\n"
      "  --module NAME     a kernel module to report; repeatable\n"
      "  --iface NAME      a network interface to report; repeatable\n"
      "  --all-interfaces  every interface in /proc/net/dev\n"
      "  --service NAME    a service to report even if no link or unit names it\n"
      "  --version, --self-digest  (as every labgate probe)\n",
      stderr);
}

static const struct {
  const char* name;
  unsigned bit;
} kSections[] = {{"os", FX_SEC_OS},
                 {"kernel", FX_SEC_KERNEL},
                 {"boot", FX_SEC_BOOT},
                 {"sysctl", FX_SEC_SYSCTL},
                 {"modules", FX_SEC_MODULES},
                 {"interfaces", FX_SEC_INTERFACES},
                 {"services", FX_SEC_SERVICES},
                 {"processes", FX_SEC_PROCESSES},
                 {"cpu", FX_SEC_CPU},
                 {"clock", FX_SEC_CLOCK}};

static int parse_sections(const char* list, unsigned* out) {
  char buf[256], *tok, *save = NULL;
  fx_copy(buf, sizeof buf, list);
  *out = 0;
  for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    size_t i;
    for (i = 0; i < sizeof kSections / sizeof kSections[0]; i++)
      if (strcmp(fx_trim(tok), kSections[i].name) == 0) break;
    if (i == sizeof kSections / sizeof kSections[0]) {
      fprintf(stderr, "facts: --sections: unknown section '%s'\n", tok);
      return 2;
    }
    *out |= kSections[i].bit;
  }
  return 0;
}

/* A sysctl key names a file below /proc/sys: dotted or slashed, no "..", no
 * leading separator, nothing that could climb out of /proc/sys. */
static int sysctl_key_ok(const char* k) {
  if (strlen(k) > 200 || !fx_name_ok(k, "._-/:+@") || k[0] == '.' || k[0] == '/') return 0;
  return strstr(k, "..") == NULL && strstr(k, "//") == NULL && strstr(k, "./") == NULL &&
         strstr(k, "/.") == NULL;
}

static int add(const char** list, int* n, int max, const char* v, const char* flag, int ok) {
  if (!ok) {
    fprintf(stderr, "facts: %s: invalid name '%s'\n", flag, v);
    return 2;
  }
  if (*n >= max) {
    fprintf(stderr, "facts: %s: more than %d given\n", flag, max);
    return 2;
  }
  list[(*n)++] = v;
  return 0;
}

static int read_sysctl_file(const char* path, fx_args* a) {
  FILE* f = fopen(path, "r");
  size_t size;
  char *cur, *end, *line;
  int lineno = 0;
  if (!f) {
    fprintf(stderr, "facts: --sysctl-file %s: %s\n", path, strerror(errno));
    return 2;
  }
  free(a->sysctl_file_text);
  a->sysctl_file_text = malloc(FX_FILE_CAP + 1);
  size = a->sysctl_file_text ? fread(a->sysctl_file_text, 1, FX_FILE_CAP + 1, f) : 0;
  if (!a->sysctl_file_text || ferror(f) || size > FX_FILE_CAP) {
    fprintf(stderr, "facts: --sysctl-file %s: %s\n", path,
            size > FX_FILE_CAP ? "larger than 1 MiB" : "read failed");
    fclose(f);
    return 2;
  }
  fclose(f);
  a->sysctl_file_text[size] = 0;
  cur = a->sysctl_file_text, end = cur + size;
  while ((line = fx_next_line(&cur, end)) != NULL) {
    char* k = fx_trim(line);
    lineno++;
    if (!*k || *k == '#') continue;
    if (!sysctl_key_ok(k)) {
      fprintf(stderr, "facts: %s:%d: invalid sysctl key '%s'\n", path, lineno, k);
      return 2;
    }
    if (add(a->sysctls, &a->n_sysctls, FX_MAX_SYSCTLS, k, "--sysctl-file", 1)) return 2;
  }
  return 0;
}

int fx_parse_args(int argc, char** argv, fx_args* a) {
  int i;
  memset(a, 0, sizeof *a);
  a->sections = FX_SEC_ALL;
  for (i = 1; i < argc; i++) {
    const char* f = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    int rc = 0;
    if (strcmp(f, "--help") == 0 || strcmp(f, "-h") == 0) {
      fx_usage();
      return 1;
    }
    if (strcmp(f, "--all-interfaces") == 0) {
      a->all_ifaces = 1;
      continue;
    }
    if (!v) {
      fprintf(stderr, "facts: unknown argument or missing value: '%s'\n", f);
      fx_usage();
      return 2;
    }
    i++;
    if (strcmp(f, "--root") == 0)
      a->root = v;
    else if (strcmp(f, "--sections") == 0)
      rc = parse_sections(v, &a->sections);
    else if (strcmp(f, "--sysctl") == 0)
      rc = add(a->sysctls, &a->n_sysctls, FX_MAX_SYSCTLS, v, f, sysctl_key_ok(v));
    else if (strcmp(f, "--sysctl-file") == 0)
      rc = read_sysctl_file(v, a);
    else if (strcmp(f, "--module") == 0)
      rc = add(a->modules, &a->n_modules, FX_MAX_MODULES, v, f, strlen(v) < 64 && fx_name_ok(v, "_-"));
    else if (strcmp(f, "--iface") == 0)
      rc = add(a->ifaces, &a->n_ifaces, FX_MAX_IFACES, v, f,
               strlen(v) < 16 && fx_name_ok(v, "._-@:") && strcmp(v, "..") != 0 && v[0] != '.');
    else if (strcmp(f, "--service") == 0)
      rc = add(a->services, &a->n_services, FX_MAX_SERVICES, v, f,
               strlen(v) < 128 && fx_name_ok(v, "._-@:+") && v[0] != '.');
    else {
      fprintf(stderr, "facts: unknown argument '%s'\n", f);
      fx_usage();
      return 2;
    }
    if (rc) return rc;
  }
  return 0;
}
