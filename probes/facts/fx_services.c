/* Services on SysV init (RHEL 5): per-runlevel state from the S/K links in
 * /etc/rc.d/rcN.d (Debian-like: /etc/rcN.d), xinetd services from
 * /etc/xinetd.d/<name> `disable = yes|no`, and whether each runs (RHEL's
 * /var/lock/subsys/<name>, a live /var/run/<name>.pid, or a process by name). */
#include "fx_services.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_procs.h"
#include "fx_sections.h"
#include "fx_str.h"

void fx_nameset_add(fx_nameset* s, const char* name) {
  char** bigger;
  if (fx_nameset_has(s, name) || s->n >= 16384) return;
  if (s->n == s->cap) {
    bigger = realloc(s->names, (s->cap ? s->cap * 2 : 64) * sizeof *bigger);
    if (!bigger) return;
    s->names = bigger, s->cap = s->cap ? s->cap * 2 : 64;
  }
  if ((s->names[s->n] = strdup(name)) != NULL) s->n++;
}

int fx_nameset_has(const fx_nameset* s, const char* name) {
  size_t i;
  for (i = 0; i < s->n; i++)
    if (strcmp(s->names[i], name) == 0) return 1;
  return 0;
}

void fx_nameset_free(fx_nameset* s) {
  size_t i;
  for (i = 0; i < s->n; i++) free(s->names[i]);
  free(s->names);
  s->names = NULL, s->n = s->cap = 0;
}

/* RHEL keeps the links in /etc/rc.d/rcN.d (with /etc/rcN.d as symlinks to
 * them); Debian-like systems have only /etc/rcN.d. */
static const char* rc_dir_fmt(void) {
  struct stat st;
  return fx_stat("/etc/rc.d/rc3.d", &st) == 0 ? "/etc/rc.d/rc%d.d" : "/etc/rc%d.d";
}

/* "S26acpid" -> "acpid"; NULL when the name is not an S/K link. */
static const char* link_service(const char* link) {
  const char* p = link + 1;
  if (link[0] != 'S' && link[0] != 'K') return NULL;
  while (*p >= '0' && *p <= '9') p++;
  return (p > link + 1 && *p) ? p : NULL;
}

/* The seven rc directories, listed once per run rather than once per service. */
static fx_names g_rc[7];
static int g_rc_err[7], g_rc_loaded;

static const fx_names* rc_links(int rl) {
  if (!g_rc_loaded) {
    char dir[64];
    int i;
    for (i = 0; i <= 6; i++) {
      snprintf(dir, sizeof dir, rc_dir_fmt(), i);
      g_rc_err[i] = fx_list(dir, &g_rc[i]);
    }
    g_rc_loaded = 1;
  }
  return g_rc_err[rl] ? NULL : &g_rc[rl];
}

void fx_sysv_names(fx_nameset* out) {
  const fx_names* links;
  fx_names d;
  size_t k;
  int rl;
  for (rl = 0; rl <= 6; rl++) {
    if (!(links = rc_links(rl))) continue;
    for (k = 0; k < links->n; k++) {
      const char* s = link_service(links->names[k]);
      if (s) fx_nameset_add(out, s);
    }
  }
  if (fx_list("/etc/xinetd.d", &d) == 0) {
    for (k = 0; k < d.n; k++)
      if (!strchr(d.names[k], '~') && !strchr(d.names[k], '.')) fx_nameset_add(out, d.names[k]);
    fx_names_free(&d);
  }
}

void fx_running_fact(fx_json* j, const char* name, const char* lock) {
  char path[FX_PATH_MAX], buf[64], note[256];
  struct stat st;
  const fx_proc* p;
  long long pid;
  if (lock && fx_lstat(lock, &st) == 0) {
    fx_fact_bool_note(j, "running", 1, lock,
                      "lock file present: the init script started it and has not stopped it");
    return;
  }
  /* What /etc/init.d/functions' status() looks at: the pidfile, then the name. */
  snprintf(path, sizeof path, "/var/run/%s.pid", name);
  if (fx_read_small(path, buf, sizeof buf) == 0 && fx_parse_ll(buf, &pid) && pid > 0) {
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/%lld", pid);
    if (fx_stat(proc, &st) == 0) {
      snprintf(note, sizeof note, "pidfile names live process %lld", pid);
      fx_fact_bool_note(j, "running", 1, path, note);
      return;
    }
  }
  if ((p = fx_procs_find(name)) != NULL) {
    snprintf(path, sizeof path, "/proc/%d/stat", p->pid);
    snprintf(note, sizeof note, "process %d is named %s", p->pid, name);
    fx_fact_bool_note(j, "running", 1, path, note);
    return;
  }
  snprintf(note, sizeof note, "%s%s%sno live /var/run/%s.pid, no process named %s", lock ? "no " : "",
           lock ? lock : "", lock ? ", " : "", name, name);
  fx_fact_bool_note(j, "running", 0, "/proc", note);
}

/* xinetd: `disable = yes` in the service's file; absent means enabled. */
static int xinetd_service(fx_json* j, const char* name) {
  char path[FX_PATH_MAX], src[FX_PATH_MAX + 16];
  fx_text t;
  char *cur, *end, *line;
  int lineno = 0, disabled = 0, found = 0;
  snprintf(path, sizeof path, "/etc/xinetd.d/%s", name);
  if (fx_read(path, &t) != 0) return 0;
  snprintf(src, sizeof src, "%s", path);
  cur = t.data, end = t.data + t.len;
  while ((line = fx_next_line(&cur, end)) != NULL) {
    char* eq;
    lineno++;
    line = fx_trim(line);
    if (strncmp(line, "disable", 7) != 0 || !(eq = strchr(line, '='))) continue;
    disabled = strcmp(fx_trim(eq + 1), "yes") == 0;
    found = 1;
    snprintf(src, sizeof src, "%s:%d", path, lineno);
  }
  fx_text_free(&t);
  fx_json_open(j, name);
  fx_json_str(j, "kind", "xinetd");
  fx_fact_str_note(j, "enabled", disabled ? "off" : "on", src, 0,
                   found ? NULL : "no disable line: xinetd enables it");
  fx_running_fact(j, name, NULL);
  fx_json_close(j);
  return 1;
}

int fx_sysv_service(fx_json* j, const char* name) {
  const char* fmt = rc_dir_fmt();
  char dir[64], links[7][FX_PATH_MAX], src[64], lock[FX_PATH_MAX], script[FX_PATH_MAX];
  int state[7], rl, any = 0;
  struct stat st;
  const fx_names* d;
  size_t k;
  for (rl = 0; rl <= 6; rl++) {
    state[rl] = 0, links[rl][0] = 0;
    snprintf(dir, sizeof dir, fmt, rl);
    if (!(d = rc_links(rl))) continue;
    for (k = 0; k < d->n; k++) {
      const char* s = link_service(d->names[k]);
      if (!s || strcmp(s, name) != 0) continue;
      state[rl] = d->names[k][0]; /* 'S' or 'K'; an S link wins if both exist */
      snprintf(links[rl], sizeof links[rl], "%s/%s", dir, d->names[k]);
      any = 1;
      if (state[rl] == 'S') break;
    }
  }
  snprintf(script, sizeof script, "%s/%s", strstr(fmt, "rc.d") ? "/etc/rc.d/init.d" : "/etc/init.d", name);
  if (!any) {
    if (xinetd_service(j, name)) return 1;
    if (fx_stat(script, &st) != 0) return 0;
  }
  fx_json_open(j, name);
  fx_json_str(j, "kind", "sysv");
  fx_fact_bool(j, "installed", fx_stat(script, &st) == 0, script, 0);
  snprintf(src, sizeof src, fmt, 0);
  src[strlen(src) - 3] = 0; /* "/etc/rc.d/rc0.d" -> "/etc/rc.d/rc" */
  strncat(src, "[0-6].d", sizeof src - strlen(src) - 1);
  fx_fact_begin(j, "runlevels");
  fx_json_open_array(j, "value");
  for (rl = 0; rl <= 6; rl++) fx_json_str(j, NULL, state[rl] == 'S' ? "on" : state[rl] == 'K' ? "off" : NULL);
  fx_json_close_array(j);
  fx_json_open_array(j, "links");
  for (rl = 0; rl <= 6; rl++) fx_json_str(j, NULL, links[rl][0] ? links[rl] : NULL);
  fx_json_close_array(j);
  fx_fact_end(j, src, 0, any ? NULL : "init script without links: off in every runlevel");
  snprintf(lock, sizeof lock, "/var/lock/subsys/%s", name);
  fx_running_fact(j, name, lock);
  fx_json_close(j);
  return 1;
}

static void init_system(fx_json* j, int* systemd) {
  char buf[512], note[160];
  struct stat st;
  int err = fx_read_small("/proc/1/stat", buf, sizeof buf);
  char *open = strchr(buf, '('), *close = strrchr(buf, ')');
  *systemd = 0;
  if (!err && open && close && close > open) {
    *close = 0;
    *systemd = strcmp(open + 1, "systemd") == 0;
    snprintf(note, sizeof note, "PID 1 is %.100s", open + 1);
    fx_fact_str_note(j, "init",
                     *systemd                        ? "systemd"
                     : strcmp(open + 1, "init") == 0 ? "sysv"
                                                     : "other",
                     "/proc/1/stat", 0, note);
    return;
  }
  /* sd_booted()'s test, for a recorded tree without /proc/1. */
  if (fx_stat("/run/systemd/system", &st) == 0 && S_ISDIR(st.st_mode)) {
    *systemd = 1;
    fx_fact_str_note(j, "init", "systemd", "/run/systemd/system", 0, "directory present (sd_booted)");
    return;
  }
  fx_fact_str(j, "init", NULL, "/proc/1/stat", err ? err : ENOENT);
}

static void default_runlevel(fx_json* j) {
  fx_text t;
  char *cur, *end, *line, src[64];
  int lineno = 0;
  if (fx_read("/etc/inittab", &t) == 0) {
    cur = t.data, end = t.data + t.len;
    while ((line = fx_next_line(&cur, end)) != NULL) {
      lineno++;
      /* "id:3:initdefault:" */
      if (line[0] != '#' && strstr(line, ":initdefault:")) {
        char* c = strchr(line, ':');
        if (c && c[1] >= '0' && c[1] <= '6' && c[2] == ':') {
          snprintf(src, sizeof src, "/etc/inittab:%d", lineno);
          fx_fact_int(j, "default_runlevel", c[1] - '0', src, 0);
          fx_text_free(&t);
          return;
        }
      }
    }
    fx_text_free(&t);
  }
  fx_fact_str_note(j, "default_runlevel", NULL, "/etc/inittab", 0, "no initdefault line");
}

void fx_section_services(fx_json* j, const fx_args* a) {
  fx_nameset names = {0};
  size_t i;
  int systemd, k;
  fx_json_open(j, "services");
  init_system(j, &systemd);
  if (!systemd) default_runlevel(j);
  for (k = 0; k < a->n_services; k++) fx_nameset_add(&names, a->services[k]);
  if (systemd)
    fx_systemd_names(&names);
  else
    fx_sysv_names(&names);
  fx_json_open(j, "units");
  for (i = 0; i < names.n; i++) {
    const char* n = names.names[i];
    if (systemd ? fx_systemd_service(j, n) || fx_sysv_service(j, n) : fx_sysv_service(j, n)) continue;
    fx_json_open(j, n);
    fx_json_str(j, "kind", "absent");
    fx_fact_str_note(j, "enabled", "not-found", systemd ? "/etc/systemd/system" : "/etc/rc.d/init.d", 0,
                     systemd ? "no unit file, no init script" : "no rc link, no init script, no xinetd file");
    fx_running_fact(j, n, NULL);
    fx_json_close(j);
  }
  fx_json_close(j);
  fx_json_close(j);
  fx_nameset_free(&names);
}
