/* CPU isolation and the kernel's latency knobs, written into the "cpu"
 * section: online CPUs, isolated and nohz_full CPUs (sysfs where the kernel
 * has it, else the boot arguments, said so), CPUs per NUMA node, the idle
 * states each CPU may enter (cpuidle), cpufreq's min/max, transparent huge
 * pages (upstream or RHEL 6's redhat_ name) and tuned's active profile. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_nic.h"
#include "fx_sections.h"
#include "fx_str.h"

/* The value of KEY= on the running kernel's command line; 1 when present. */
static int boot_arg(const char* key, char* out, size_t outsz) {
  char line[4096], *tok, *save = NULL;
  size_t n = strlen(key);
  if (fx_read_small("/proc/cmdline", line, sizeof line)) return 0;
  for (tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
    if (strncmp(tok, key, n) == 0 && tok[n] == '=') {
      fx_copy(out, outsz, tok + n + 1);
      return 1;
    }
  return 0;
}

/* isolcpus=[flags,]LIST ("domain,managed_irq,2-15"): the list without the flags. */
static const char* strip_flags(const char* v) {
  const char* p = v;
  while (*p && !(*p >= '0' && *p <= '9')) {
    const char* comma = strchr(p, ',');
    if (!comma) return "";
    p = comma + 1;
  }
  return p;
}

/* A CPU list from sysfs, or from a boot argument where this kernel has no file. */
static void cpu_set(fx_json* j, const char* key, const char* path, const char* arg, const char* since) {
  char buf[4096], note[192];
  int err = fx_read_small(path, buf, sizeof buf);
  if (!err) {
    /* An empty nohz_full reads "(null)" on some kernels. */
    if (strcmp(buf, "(null)") == 0) buf[0] = 0;
    fx_fact_str(j, key, buf, path, 0);
    return;
  }
  if ((err == ENOENT || err == ENOTDIR) && arg) {
    if (boot_arg(arg, buf, sizeof buf)) {
      snprintf(note, sizeof note, "from %s= on /proc/cmdline: this kernel has no %s (%s)", arg, path, since);
      fx_fact_str_note(j, key, strip_flags(buf), "/proc/cmdline", 0, note);
    } else {
      snprintf(note, sizeof note, "no %s= on /proc/cmdline and no %s (%s)", arg, path, since);
      fx_fact_str_note(j, key, "", "/proc/cmdline", 0, note);
    }
    return;
  }
  fx_fact_str(j, key, NULL, path, err);
}

static int is_numbered(const char* name, const char* prefix) {
  size_t n = strlen(prefix);
  return strncmp(name, prefix, n) == 0 && name[n] >= '0' && name[n] <= '9';
}

/* node0 -> its CPUs (cpulist from 2.6.26; the hex cpumap before). */
static void nodes(fx_json* j) {
  fx_names d;
  size_t k;
  char path[FX_PATH_MAX], buf[4096], list[4096];
  fx_json_open(j, "nodes");
  if (fx_list("/sys/devices/system/node", &d) == 0) {
    for (k = 0; k < d.n; k++) {
      if (!is_numbered(d.names[k], "node")) continue;
      snprintf(path, sizeof path, "/sys/devices/system/node/%s/cpulist", d.names[k]);
      if (fx_read_small(path, buf, sizeof buf) == 0) {
        fx_fact_str(j, d.names[k], buf, path, 0);
        continue;
      }
      snprintf(path, sizeof path, "/sys/devices/system/node/%s/cpumap", d.names[k]);
      if (fx_read_small(path, buf, sizeof buf) == 0 && fx_mask_to_list(buf, list, sizeof list))
        fx_fact_str_note(j, d.names[k], list, path, 0, "from the hex cpumap");
      else
        fx_fact_str(j, d.names[k], NULL, path, fx_read_small(path, buf, sizeof buf));
    }
    fx_names_free(&d);
  }
  fx_json_close(j);
}

/* Per CPU: the names of the idle states not disabled, and cpufreq's range. */
static void per_cpu(fx_json* j) {
  fx_names d, s;
  size_t k, i;
  char path[FX_PATH_MAX], buf[256], names[2048];
  int pass;
  if (fx_list("/sys/devices/system/cpu", &d) != 0) {
    fx_json_open(j, "cstates");
    fx_json_close(j);
    fx_json_open(j, "freq_range");
    fx_json_close(j);
    return;
  }
  for (pass = 0; pass < 2; pass++) {
    fx_json_open(j, pass == 0 ? "cstates" : "freq_range");
    for (k = 0; k < d.n; k++) {
      const char* cpu = d.names[k];
      if (!is_numbered(cpu, "cpu")) continue;
      if (pass == 1) {
        char lo[64], hi[64];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/%s/cpufreq/scaling_min_freq", cpu);
        if (fx_read_small(path, lo, sizeof lo) != 0) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/%s/cpufreq/scaling_max_freq", cpu);
        if (fx_read_small(path, hi, sizeof hi) != 0) continue;
        snprintf(buf, sizeof buf, "%s %s", lo, hi);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/%s/cpufreq/scaling_{min,max}_freq", cpu);
        fx_fact_str_note(j, cpu, buf, path, 0, "min max, kHz");
        continue;
      }
      snprintf(path, sizeof path, "/sys/devices/system/cpu/%s/cpuidle", cpu);
      if (fx_list(path, &s) != 0) continue;
      names[0] = 0;
      for (i = 0; i < s.n; i++) {
        char name[64];
        if (!is_numbered(s.names[i], "state")) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/%s/cpuidle/%s/disable", cpu, s.names[i]);
        if (fx_read_small(path, buf, sizeof buf) == 0 && strcmp(buf, "0") != 0) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/%s/cpuidle/%s/name", cpu, s.names[i]);
        if (fx_read_small(path, name, sizeof name) != 0) continue;
        if (strlen(names) + strlen(name) + 2 < sizeof names) {
          if (names[0]) strcat(names, " ");
          strcat(names, name);
        }
      }
      fx_names_free(&s);
      snprintf(path, sizeof path, "/sys/devices/system/cpu/%s/cpuidle", cpu);
      fx_fact_str_note(j, cpu, names, path, 0, "idle states not disabled, shallowest first");
    }
    fx_json_close(j);
  }
  fx_names_free(&d);
}

/* "always madvise [never]" -> "never". */
static void thp(fx_json* j) {
  static const char* const kPaths[] = {"/sys/kernel/mm/transparent_hugepage/enabled",
                                       "/sys/kernel/mm/redhat_transparent_hugepage/enabled"};
  char buf[256], note[300];
  size_t k;
  int err = 0;
  for (k = 0; k < 2; k++) {
    char *open, *close;
    err = fx_read_small(kPaths[k], buf, sizeof buf);
    if (err == ENOENT || err == ENOTDIR) continue;
    if (err) break;
    snprintf(note, sizeof note, "the bracketed choice of \"%s\"", buf);
    if ((open = strchr(buf, '[')) != NULL && (close = strchr(open, ']')) != NULL) {
      *close = 0;
      fx_fact_str_note(j, "transparent_hugepage", open + 1, kPaths[k], 0, note);
    } else {
      fx_fact_str_note(j, "transparent_hugepage", NULL, kPaths[k], 0, "no bracketed choice");
    }
    return;
  }
  fx_fact_str_note(j, "transparent_hugepage", NULL, kPaths[k < 2 ? k : 0], err,
                   err == ENOENT ? "this kernel has no transparent huge pages" : NULL);
}

/* tuned 2.x keeps the active profile in /etc/tuned/active_profile; RHEL 6's tuned 0.2 in
 * /etc/tune-profiles/active-profile. */
static void tuned(fx_json* j) {
  static const char* const kPaths[] = {"/etc/tuned/active_profile", "/etc/tune-profiles/active-profile"};
  char buf[256];
  int err = fx_read_small(kPaths[0], buf, sizeof buf);
  if (err == ENOENT || err == ENOTDIR) {
    if (fx_read_small(kPaths[1], buf, sizeof buf) == 0) {
      fx_fact_str(j, "tuned_profile", buf, kPaths[1], 0);
      return;
    }
  }
  fx_fact_str_note(j, "tuned_profile", buf, kPaths[0], err,
                   err == ENOENT ? "tuned is not installed (neither file exists)" : NULL);
}

void fx_cpu_tuning(fx_json* j) {
  char buf[4096];
  int err = fx_read_small("/sys/devices/system/cpu/online", buf, sizeof buf);
  fx_fact_str(j, "online", buf, "/sys/devices/system/cpu/online", err);
  cpu_set(j, "isolated", "/sys/devices/system/cpu/isolated", "isolcpus", "sysfs has it from 4.2");
  cpu_set(j, "nohz_full", "/sys/devices/system/cpu/nohz_full", "nohz_full", "sysfs has it from 3.10 with NO_HZ_FULL");
  nodes(j);
  per_cpu(j);
  thp(j);
  tuned(j);
}
