/* Kernel modules: loaded (/proc/modules), version and live parameters
 * (/sys/module/<m>/), and the options configured for the next load
 * (`options <m> k=v` in /etc/modprobe.conf and modprobe.d). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_sections.h"
#include "fx_str.h"

/* modprobe treats '-' and '_' in module names as the same character. */
static void norm(const char* in, char* out, size_t outsz) {
  size_t i;
  fx_copy(out, outsz, in);
  for (i = 0; out[i]; i++)
    if (out[i] == '-') out[i] = '_';
}

typedef struct opt {
  char module[64];
  char key[128];
  char value[512];
  char source[FX_PATH_MAX + 16];
} opt;

#define MAX_OPTS 4096
static opt g_opts[MAX_OPTS];
static int g_nopts;

/* Splits "k=v k2=\"a b\"" into the option list, last assignment winning. */
static void add_options(const char* module, char* s, const char* source) {
  char mod[64];
  norm(module, mod, sizeof mod);
  while (*s) {
    char *tok, *eq, *w;
    int quoted = 0, i;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) break;
    tok = w = s;
    for (; *s && (quoted || (*s != ' ' && *s != '\t')); s++) {
      if (*s == '"')
        quoted = !quoted;
      else
        *w++ = *s;
    }
    if (*s) s++;
    *w = 0;
    eq = strchr(tok, '=');
    if (eq) *eq = 0;
    for (i = 0; i < g_nopts; i++)
      if (strcmp(g_opts[i].module, mod) == 0 && strcmp(g_opts[i].key, tok) == 0) break;
    if (i == g_nopts) {
      if (g_nopts == MAX_OPTS) return;
      g_nopts++;
    }
    fx_copy(g_opts[i].module, sizeof g_opts[i].module, mod);
    fx_copy(g_opts[i].key, sizeof g_opts[i].key, tok);
    fx_copy(g_opts[i].value, sizeof g_opts[i].value, eq ? eq + 1 : "");
    fx_copy(g_opts[i].source, sizeof g_opts[i].source, source);
  }
}

static void scan_modprobe_file(const char* path) {
  fx_text t;
  char *cur, *end, *line, source[FX_PATH_MAX + 16];
  int lineno = 0;
  if (fx_read(path, &t) != 0) return;
  cur = t.data, end = t.data + t.len;
  while ((line = fx_next_line(&cur, end)) != NULL) {
    char *mod, *rest;
    lineno++;
    line = fx_trim(line);
    if (strncmp(line, "options", 7) != 0 || (line[7] != ' ' && line[7] != '\t')) continue;
    mod = fx_trim(line + 7);
    rest = mod + strcspn(mod, " \t");
    if (*rest) *rest++ = 0;
    snprintf(source, sizeof source, "%s:%d", path, lineno);
    add_options(mod, rest, source);
  }
  fx_text_free(&t);
}

/* module-init-tools (RHEL 5) reads every file in /etc/modprobe.d; kmod (modern
 * hosts, which have no /etc/modprobe.conf) reads only *.conf. */
static void scan_modprobe_dir(const char* dir, int only_conf) {
  fx_names d;
  size_t k;
  char path[FX_PATH_MAX];
  if (fx_list(dir, &d) != 0) return;
  for (k = 0; k < d.n; k++) {
    size_t n = strlen(d.names[k]);
    int conf = n > 5 && strcmp(d.names[k] + n - 5, ".conf") == 0;
    if ((only_conf && !conf) || d.names[k][n - 1] == '~') continue;
    snprintf(path, sizeof path, "%s/%s", dir, d.names[k]);
    scan_modprobe_file(path);
  }
  fx_names_free(&d);
}

static void report_module(fx_json* j, const char* name, const fx_text* procmods, int procerr) {
  char m[64], path[FX_PATH_MAX], line[80];
  fx_names params;
  struct stat st;
  size_t k;
  int loaded = 0, i;
  norm(name, m, sizeof m);
  fx_json_open(j, name);
  if (!procerr) {
    const char* p = procmods->data;
    size_t n = strlen(m);
    while (p && *p) {
      if (strncmp(p, m, n) == 0 && p[n] == ' ') loaded = 1;
      p = strchr(p, '\n');
      if (p) p++;
    }
  }
  snprintf(path, sizeof path, "/sys/module/%s", m);
  if (!loaded && fx_stat(path, &st) == 0 && fx_stat("/proc/modules", &st) == 0) {
    snprintf(line, sizeof line, "built into the kernel: %s exists, /proc/modules has no line", m);
    fx_fact_bool_note(j, "loaded", 1, path, line);
  } else {
    fx_fact_bool(j, "loaded", loaded, "/proc/modules", procerr);
  }
  snprintf(path, sizeof path, "/sys/module/%s/version", m);
  fx_fact_file(j, "version", path);
  fx_json_open(j, "parameters");
  snprintf(path, sizeof path, "/sys/module/%s/parameters", m);
  if (fx_list(path, &params) == 0) {
    for (k = 0; k < params.n; k++) {
      snprintf(path, sizeof path, "/sys/module/%s/parameters/%s", m, params.names[k]);
      fx_fact_file(j, params.names[k], path);
    }
    fx_names_free(&params);
  }
  fx_json_close(j);
  fx_json_open(j, "configured");
  for (i = 0; i < g_nopts; i++)
    if (strcmp(g_opts[i].module, m) == 0) fx_fact_str(j, g_opts[i].key, g_opts[i].value, g_opts[i].source, 0);
  fx_json_close(j);
  fx_json_close(j);
}

void fx_section_modules(fx_json* j, const fx_args* a) {
  fx_text procmods;
  struct stat st;
  int procerr = fx_read("/proc/modules", &procmods), i;
  int old_style = fx_stat("/etc/modprobe.conf", &st) == 0;
  g_nopts = 0;
  scan_modprobe_dir("/lib/modprobe.d", 1);
  scan_modprobe_dir("/usr/lib/modprobe.d", 1);
  scan_modprobe_dir("/run/modprobe.d", 1);
  scan_modprobe_dir("/etc/modprobe.d", !old_style);
  scan_modprobe_file("/etc/modprobe.conf");
  fx_json_open(j, "modules");
  /* All loaded module names, so a rule can name one that was not asked for. */
  fx_fact_begin(j, "loaded_list");
  if (procerr) {
    fx_json_null(j, "value");
  } else {
    const char* p = procmods.data;
    fx_json_open_array(j, "value");
    while (p && *p) {
      size_t n = strcspn(p, " \t\n");
      if (n) fx_json_strn(j, NULL, p, n);
      p = strchr(p, '\n');
      if (p) p++;
    }
    fx_json_close_array(j);
  }
  fx_fact_end(j, "/proc/modules", procerr, NULL);
  fx_json_open(j, "items");
  for (i = 0; i < a->n_modules; i++) report_module(j, a->modules[i], &procmods, procerr);
  fx_json_close(j);
  fx_json_close(j);
  fx_text_free(&procmods);
}
