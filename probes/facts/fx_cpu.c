/* CPU: model and topology from /proc/cpuinfo (sockets = distinct physical
 * ids, cores = distinct (physical id, core id) pairs; Hyper-Threading when a
 * package has more siblings than cores), the C-state limits the idle drivers
 * expose, cpufreq governors where cpufreq is active, and the clocksource. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_sections.h"
#include "fx_str.h"

#define MAX_CPUS 4096

typedef struct topo {
  char model[256];
  int logical, sockets, cores, siblings, cpu_cores;
  long long phys[MAX_CPUS], core[MAX_CPUS]; /* -1 when the line is missing */
} topo;

static topo g_t;

static const char* value_of(char* line, const char* key) {
  size_t n = strlen(key);
  char* colon;
  if (strncmp(line, key, n) != 0 || !(colon = strchr(line + n, ':'))) return NULL;
  /* The key is padded with tabs up to the colon; nothing else may come between. */
  for (line += n; line < colon; line++)
    if (*line != ' ' && *line != '\t') return NULL;
  return fx_trim(colon + 1);
}

static void parse_cpuinfo(fx_text* t) {
  char *cur = t->data, *end = t->data + t->len, *line;
  const char* v;
  long long x;
  int i, k, cpu = -1, have_phys = 0, have_core = 0;
  memset(&g_t, 0, sizeof g_t);
  while ((line = fx_next_line(&cur, end)) != NULL) {
    if ((v = value_of(line, "processor")) != NULL) {
      if (++cpu >= MAX_CPUS) break;
      g_t.phys[cpu] = g_t.core[cpu] = -1;
    } else if (cpu < 0) {
      continue;
    } else if ((v = value_of(line, "model name")) != NULL) {
      if (!g_t.model[0]) fx_copy(g_t.model, sizeof g_t.model, v);
    } else if ((v = value_of(line, "physical id")) != NULL && fx_parse_ll(v, &x)) {
      g_t.phys[cpu] = x, have_phys = 1;
    } else if ((v = value_of(line, "core id")) != NULL && fx_parse_ll(v, &x)) {
      g_t.core[cpu] = x, have_core = 1;
    } else if ((v = value_of(line, "siblings")) != NULL && fx_parse_ll(v, &x)) {
      g_t.siblings = (int)x;
    } else if ((v = value_of(line, "cpu cores")) != NULL && fx_parse_ll(v, &x)) {
      g_t.cpu_cores = (int)x;
    }
  }
  g_t.logical = cpu + 1 > MAX_CPUS ? MAX_CPUS : cpu + 1;
  for (i = 0; have_phys && i < g_t.logical; i++) {
    for (k = 0; k < i && g_t.phys[k] != g_t.phys[i]; k++) {
    }
    if (k == i) g_t.sockets++;
  }
  for (i = 0; have_core && i < g_t.logical; i++) {
    for (k = 0; k < i && !(g_t.phys[k] == g_t.phys[i] && g_t.core[k] == g_t.core[i]); k++) {
    }
    if (k == i) g_t.cores++;
  }
}

static void topology(fx_json* j) {
  fx_text t;
  int err = fx_read("/proc/cpuinfo", &t);
  const char* src = "/proc/cpuinfo";
  if (!err) parse_cpuinfo(&t);
  fx_text_free(&t);
  fx_fact_str(j, "model", g_t.model[0] ? g_t.model : NULL, src, err);
  fx_fact_int(j, "logical_cpus", g_t.logical, src, err);
  if (!err && !g_t.sockets)
    fx_fact_str_note(j, "sockets", NULL, src, 0, "no physical id lines");
  else
    fx_fact_int(j, "sockets", g_t.sockets, src, err);
  if (!err && !g_t.cores) {
    fx_fact_str_note(j, "cores", NULL, src, 0, "no core id lines");
    fx_fact_str_note(j, "threads_per_core", NULL, src, 0, "no core id lines");
  } else {
    fx_fact_int(j, "cores", g_t.cores, src, err);
    fx_fact_int(j, "threads_per_core", g_t.cores ? g_t.logical / g_t.cores : 0, src, err);
  }
  if (!err && g_t.siblings > 0 && g_t.cpu_cores > 0) {
    char note[96];
    snprintf(note, sizeof note, "siblings %d, cpu cores %d per package", g_t.siblings, g_t.cpu_cores);
    fx_fact_bool_note(j, "hyperthreading", g_t.siblings > g_t.cpu_cores, src, note);
  } else if (!err && g_t.cores) {
    fx_fact_bool_note(j, "hyperthreading", g_t.logical > g_t.cores, src, "more logical CPUs than cores");
  } else {
    fx_fact_str_note(j, "hyperthreading", NULL, src, err, err ? NULL : "no siblings/cpu cores/core id lines");
  }
}

static void cpufreq(fx_json* j) {
  fx_names d;
  size_t k;
  int any = 0;
  char path[FX_PATH_MAX];
  struct stat st;
  fx_json_open(j, "governors");
  if (fx_list("/sys/devices/system/cpu", &d) == 0) {
    for (k = 0; k < d.n; k++) {
      const char* n = d.names[k];
      if (strncmp(n, "cpu", 3) != 0 || n[3] < '0' || n[3] > '9') continue;
      snprintf(path, sizeof path, "/sys/devices/system/cpu/%s/cpufreq", n);
      if (fx_stat(path, &st) != 0) continue;
      any = 1;
      snprintf(path, sizeof path, "/sys/devices/system/cpu/%s/cpufreq/scaling_governor", n);
      fx_fact_file(j, n, path);
    }
    fx_names_free(&d);
  }
  fx_json_close(j);
  fx_fact_bool(j, "cpufreq", any, "/sys/devices/system/cpu/cpu*/cpufreq", 0);
}

/* sysfs has the clocksource from 2.6.18 on i386 but from 2.6.21 on x86_64:
 * RHEL 5's x86_64 kernel has none, and nothing else states the one in use. */
static void clocksource(fx_json* j) {
  static const char* const kPath = "/sys/devices/system/clocksource/clocksource0/current_clocksource";
  char buf[256];
  int err = fx_read_small(kPath, buf, sizeof buf);
  fx_fact_str_note(j, "clocksource", buf, kPath, err,
                   err == ENOENT || err == ENOTDIR
                       ? "no clocksource in sysfs (x86_64 kernels before 2.6.21, e.g. RHEL 5): the kernel does "
                         "not say which it uses"
                       : NULL);
}

void fx_section_cpu(fx_json* j) {
  fx_json_open(j, "cpu");
  topology(j);
  /* RHEL 5 has no intel_idle; there the processor (ACPI idle) limit is the one in force. */
  fx_fact_file(j, "intel_idle_max_cstate", "/sys/module/intel_idle/parameters/max_cstate");
  fx_fact_file(j, "processor_max_cstate", "/sys/module/processor/parameters/max_cstate");
  fx_fact_file(j, "cpuidle_driver", "/sys/devices/system/cpu/cpuidle/current_driver");
  cpufreq(j);
  clocksource(j);
  fx_cpu_tuning(j);
  fx_json_close(j);
}
