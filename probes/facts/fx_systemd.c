/* Services under systemd (when it is PID 1). Enablement is read from the
 * symlinks `systemctl enable` makes (/etc/systemd/system/<target>.wants/),
 * vendor links in the .wants directories of /usr/lib|/lib/systemd/system (which `systemctl
 * disable` cannot undo), and masks (a link to /dev/null). Running is read from
 * the unit's cgroup (cgroup.procs not empty), then /run/systemd/units, then the
 * process table. Each value says which of these it rests on. */
#include <stdio.h>
#include <string.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_procs.h"
#include "fx_sections.h"
#include "fx_services.h"
#include "fx_str.h"

static const char* const kUnitDirs[] = {"/etc/systemd/system", "/run/systemd/system",
                                        "/usr/lib/systemd/system", "/lib/systemd/system"};
#define N_UNIT_DIRS (sizeof kUnitDirs / sizeof kUnitDirs[0])

static int ends_with(const char* s, const char* suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* "avahi-daemon" -> "avahi-daemon.service"; a name with a unit suffix is kept. */
static void unit_name(const char* name, char* out, size_t outsz) {
  if (strchr(name, '.') && (ends_with(name, ".service") || ends_with(name, ".socket") ||
                            ends_with(name, ".timer") || ends_with(name, ".target")))
    fx_copy(out, outsz, name);
  else
    snprintf(out, outsz, "%s.service", name);
}

/* Looks for `unit` in every .wants/.requires directory of `dir`; 1 and the link path. */
static int find_wants(const char* dir, const char* unit, char* link, size_t linksz) {
  fx_names d, w;
  size_t i, k;
  int hit = 0;
  if (fx_list(dir, &d) != 0) return 0;
  for (i = 0; i < d.n && !hit; i++) {
    char sub[FX_PATH_MAX / 2];
    if (!ends_with(d.names[i], ".wants") && !ends_with(d.names[i], ".requires")) continue;
    snprintf(sub, sizeof sub, "%s/%s", dir, d.names[i]);
    if (fx_list(sub, &w) != 0) continue;
    for (k = 0; k < w.n; k++)
      if (strcmp(w.names[k], unit) == 0) {
        snprintf(link, linksz, "%s/%s", sub, unit);
        hit = 1;
        break;
      }
    fx_names_free(&w);
  }
  fx_names_free(&d);
  return hit;
}

void fx_systemd_names(fx_nameset* out) {
  fx_names d, w;
  size_t i, k;
  const char* dir = "/etc/systemd/system";
  if (fx_list(dir, &d) != 0) return;
  for (i = 0; i < d.n; i++) {
    char sub[FX_PATH_MAX];
    if (!ends_with(d.names[i], ".wants") && !ends_with(d.names[i], ".requires")) continue;
    snprintf(sub, sizeof sub, "%s/%s", dir, d.names[i]);
    if (fx_list(sub, &w) != 0) continue;
    for (k = 0; k < w.n; k++)
      if (ends_with(w.names[k], ".service") && !strchr(w.names[k], '@')) {
        w.names[k][strlen(w.names[k]) - 8] = 0; /* report services by their plain name */
        fx_nameset_add(out, w.names[k]);
      }
    fx_names_free(&w);
  }
  fx_names_free(&d);
}

static void enabled_fact(fx_json* j, const char* unit, const char* file) {
  char link[FX_PATH_MAX], target[FX_PATH_MAX], masked[FX_PATH_MAX];
  size_t i;
  snprintf(masked, sizeof masked, "/etc/systemd/system/%s", unit);
  if (fx_readlink(masked, target, sizeof target) == 0 && strcmp(target, "/dev/null") == 0) {
    fx_fact_str_note(j, "enabled", "masked", masked, 0, "linked to /dev/null");
    return;
  }
  if (find_wants("/etc/systemd/system", unit, link, sizeof link)) {
    fx_fact_str(j, "enabled", "enabled", link, 0);
    return;
  }
  for (i = 1; i < N_UNIT_DIRS; i++)
    if (find_wants(kUnitDirs[i], unit, link, sizeof link)) {
      fx_fact_str_note(j, "enabled", "enabled", link, 0,
                       "wanted by a vendor unit directory: `systemctl disable` cannot undo it, mask it");
      return;
    }
  fx_fact_str_note(j, "enabled", "disabled", file, 0, "no .wants/.requires link names it");
}

static void running_fact(fx_json* j, const char* name, const char* unit) {
  static const char* const kCgroups[] = {"/sys/fs/cgroup/system.slice/%s/cgroup.procs",
                                         "/sys/fs/cgroup/systemd/system.slice/%s/cgroup.procs",
                                         "/sys/fs/cgroup/unified/system.slice/%s/cgroup.procs"};
  char path[FX_PATH_MAX], note[400];
  struct stat st;
  size_t i;
  for (i = 0; i < sizeof kCgroups / sizeof kCgroups[0]; i++) {
    fx_text t;
    snprintf(path, sizeof path, kCgroups[i], unit);
    if (fx_read(path, &t) != 0) continue;
    fx_fact_bool_note(j, "running", fx_trim(t.data)[0] != 0, path,
                      fx_trim(t.data)[0] ? "processes in the unit's cgroup" : "the unit's cgroup is empty");
    fx_text_free(&t);
    return;
  }
  /* Units systemd has started and not yet collected, e.g. oneshot with RemainAfterExit. */
  snprintf(path, sizeof path, "/run/systemd/units/invocation:%s", unit);
  if (fx_lstat(path, &st) == 0) {
    snprintf(note, sizeof note, "systemd holds an invocation of %s (active, or not yet collected)", unit);
    fx_fact_bool_note(j, "running", 1, path, note);
    return;
  }
  fx_running_fact(j, name, NULL);
}

int fx_systemd_service(fx_json* j, const char* name) {
  char unit[256], file[FX_PATH_MAX], link[FX_PATH_MAX];
  struct stat st;
  size_t i;
  int found = 0;
  unit_name(name, unit, sizeof unit);
  for (i = 0; i < N_UNIT_DIRS && !found; i++) {
    snprintf(file, sizeof file, "%s/%s", kUnitDirs[i], unit);
    found = fx_lstat(file, &st) == 0;
  }
  if (!found && !find_wants("/etc/systemd/system", unit, link, sizeof link)) return 0;
  if (!found) fx_copy(file, sizeof file, link);
  fx_json_open(j, name);
  fx_json_str(j, "kind", "systemd");
  fx_json_str(j, "unit", unit);
  fx_fact_str(j, "unit_file", file, file, 0);
  enabled_fact(j, unit, file);
  running_fact(j, name, unit);
  fx_json_close(j);
  return 1;
}
