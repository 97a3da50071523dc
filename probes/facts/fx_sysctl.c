/* sysctls: the live value of each requested key from /proc/sys (whitespace
 * runs collapsed, so "4096\t87380\t4194304" reads "4096 87380 4194304"), and
 * where it is set for the next boot (/etc/sysctl.conf, /etc/sysctl.d/). */
#include <stdio.h>
#include <string.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_sections.h"
#include "fx_str.h"

/* net.ipv4.tcp_sack -> /proc/sys/net/ipv4/tcp_sack; a key written with
 * slashes (needed when a component holds a dot, e.g. a VLAN "eth0.100") is kept. */
static void key_path(const char* key, char* out, size_t outsz) {
  size_t i, n;
  int slashed = strchr(key, '/') != NULL;
  snprintf(out, outsz, "/proc/sys/%s", key);
  n = strlen(out);
  for (i = 10; i < n && !slashed; i++)
    if (out[i] == '.') out[i] = '/';
}

/* Dotted form of a key as written in sysctl.conf ("net/ipv4/tcp_sack" too). */
static void normal_key(const char* key, char* out, size_t outsz) {
  size_t i;
  fx_copy(out, outsz, key);
  if (!strchr(out, '.'))
    for (i = 0; out[i]; i++)
      if (out[i] == '/') out[i] = '.';
}

typedef struct conf_hit {
  char value[512];
  char source[FX_PATH_MAX + 16];
} conf_hit;

/* Applies one config file's lines to the hits; later lines win, like sysctl -p. */
static void scan_conf(const char* path, const fx_args* a, conf_hit* hits) {
  fx_text t;
  char *cur, *end, *line;
  int lineno = 0, i;
  if (fx_read(path, &t) != 0) return;
  cur = t.data, end = t.data + t.len;
  while ((line = fx_next_line(&cur, end)) != NULL) {
    char *eq, key[256];
    lineno++;
    line = fx_trim(line);
    if (!*line || *line == '#' || *line == ';' || !(eq = strchr(line, '='))) continue;
    *eq = 0;
    normal_key(fx_trim(line), key, sizeof key);
    for (i = 0; i < a->n_sysctls; i++) {
      char want[256];
      normal_key(a->sysctls[i], want, sizeof want);
      if (strcmp(want, key) != 0) continue;
      fx_copy(hits[i].value, sizeof hits[i].value, fx_unquote(fx_trim(eq + 1)));
      fx_collapse_ws(hits[i].value);
      snprintf(hits[i].source, sizeof hits[i].source, "%s:%d", path, lineno);
    }
  }
  fx_text_free(&t);
}

static conf_hit g_hits[FX_MAX_SYSCTLS];
static const char* const kConfDirs[] = {"/usr/lib/sysctl.d", "/lib/sysctl.d", "/run/sysctl.d",
                                        "/etc/sysctl.d"};

void fx_section_sysctl(fx_json* j, const fx_args* a) {
  char path[FX_PATH_MAX], value[8192];
  fx_names d;
  size_t k;
  int i;
  fx_json_open(j, "sysctl");
  for (i = 0; i < a->n_sysctls; i++) {
    int err;
    key_path(a->sysctls[i], path, sizeof path);
    err = fx_read_small(path, value, sizeof value);
    fx_collapse_ws(value);
    fx_fact_str(j, a->sysctls[i], value, path, err);
  }
  fx_json_close(j);

  /* Persistence: the boot-time value of each key, if any file sets it. Vendor
   * directories first so that /etc overrides them, as systemd-sysctl does. */
  memset(g_hits, 0, sizeof g_hits);
  for (i = 0; i < (int)(sizeof kConfDirs / sizeof kConfDirs[0]); i++) {
    if (fx_list(kConfDirs[i], &d) != 0) continue;
    for (k = 0; k < d.n; k++) {
      size_t n = strlen(d.names[k]);
      if (n > 5 && strcmp(d.names[k] + n - 5, ".conf") == 0) {
        snprintf(path, sizeof path, "%s/%s", kConfDirs[i], d.names[k]);
        scan_conf(path, a, g_hits);
      }
    }
    fx_names_free(&d);
  }
  scan_conf("/etc/sysctl.conf", a, g_hits); /* procps applies it last: it wins */
  fx_json_open(j, "sysctl_conf");
  for (i = 0; i < a->n_sysctls; i++) {
    if (g_hits[i].source[0])
      fx_fact_str(j, a->sysctls[i], g_hits[i].value, g_hits[i].source, 0);
    else
      fx_fact_str_note(j, a->sysctls[i], NULL, "/etc/sysctl.conf", 0, "not set in any sysctl file");
  }
  fx_json_close(j);
}
