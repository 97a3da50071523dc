/* OS and kernel identity: hostname, release files, kernel release/version and
 * the running kernel command line. */
#include <string.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_sections.h"
#include "fx_str.h"

/* One KEY=value of /etc/os-release as a fact whose source names the line. */
static void os_release_field(fx_json* j, const char* key, fx_text* t, int err, const char* field) {
  char copy[FX_FILE_CAP < 65536 ? FX_FILE_CAP : 65536];
  char source[64], *cur, *end, *line;
  int lineno = 0;
  if (err) {
    fx_fact_str(j, key, NULL, "/etc/os-release", err);
    return;
  }
  fx_copy(copy, sizeof copy, t->data);
  cur = copy, end = copy + strlen(copy);
  while ((line = fx_next_line(&cur, end)) != NULL) {
    size_t n = strlen(field);
    lineno++;
    line = fx_trim(line);
    if (strncmp(line, field, n) == 0 && line[n] == '=') {
      snprintf(source, sizeof source, "/etc/os-release:%d", lineno);
      fx_fact_str(j, key, fx_unquote(line + n + 1), source, 0);
      return;
    }
  }
  fx_fact_str_note(j, key, NULL, "/etc/os-release", 0, "no such field");
}

void fx_section_os(fx_json* j) {
  char buf[4096];
  fx_text t;
  int err;
  fx_fact_file(j, "hostname", "/proc/sys/kernel/hostname");
  fx_json_open(j, "os");
  /* RHEL 5 has no os-release; its identity is the first line of redhat-release. */
  err = fx_read_small("/etc/redhat-release", buf, sizeof buf);
  if (!err) {
    char* nl = strchr(buf, '\n');
    if (nl) *nl = 0;
  }
  fx_fact_str(j, "redhat_release", fx_trim(buf), "/etc/redhat-release", err);
  err = fx_read("/etc/os-release", &t);
  os_release_field(j, "pretty_name", &t, err, "PRETTY_NAME");
  os_release_field(j, "id", &t, err, "ID");
  os_release_field(j, "version_id", &t, err, "VERSION_ID");
  fx_text_free(&t);
  fx_json_close(j);
}

void fx_section_kernel(fx_json* j) {
  char buf[8192];
  int err;
  fx_json_open(j, "kernel");
  fx_fact_file(j, "release", "/proc/sys/kernel/osrelease");
  fx_fact_file(j, "version", "/proc/sys/kernel/version");
  err = fx_read_small("/proc/cmdline", buf, sizeof buf);
  fx_collapse_ws(buf);
  fx_fact_str(j, "cmdline", buf, "/proc/cmdline", err);
  fx_json_close(j);
}
