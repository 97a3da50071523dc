/* Fact objects with their sources (see fx_fact.h). */
#include "fx_fact.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "fx_fs.h"

void fx_fact_begin(fx_json* j, const char* key) { fx_json_open(j, key); }

void fx_fact_end(fx_json* j, const char* source, int err, const char* note) {
  fx_json_str(j, "source", source);
  if (err) {
    fx_json_str(j, "error", fx_strerror(err));
    /* Absent and unreadable differ for the rules: a sysctl the kernel lacks is
     * a finding, a permission problem means the gate could not look. */
    if (err == ENOENT || err == ENOTDIR) fx_json_bool(j, "missing", 1);
  }
  if (note) fx_json_str(j, "note", note);
  fx_json_close(j);
}

void fx_fact_str_note(fx_json* j, const char* key, const char* value, const char* source, int err,
                      const char* note) {
  fx_fact_begin(j, key);
  fx_json_str(j, "value", err ? NULL : value);
  fx_fact_end(j, source, err, note);
}

void fx_fact_str(fx_json* j, const char* key, const char* value, const char* source, int err) {
  fx_fact_str_note(j, key, value, source, err, NULL);
}

void fx_fact_int(fx_json* j, const char* key, long long value, const char* source, int err) {
  fx_fact_begin(j, key);
  if (err)
    fx_json_null(j, "value");
  else
    fx_json_int(j, "value", value);
  fx_fact_end(j, source, err, NULL);
}

void fx_fact_bool(fx_json* j, const char* key, int value, const char* source, int err) {
  fx_fact_begin(j, key);
  if (err)
    fx_json_null(j, "value");
  else
    fx_json_bool(j, "value", value);
  fx_fact_end(j, source, err, NULL);
}

void fx_fact_bool_note(fx_json* j, const char* key, int value, const char* source, const char* note) {
  fx_fact_begin(j, key);
  fx_json_bool(j, "value", value);
  fx_fact_end(j, source, 0, note);
}

void fx_fact_file(fx_json* j, const char* key, const char* path) {
  char buf[4096];
  int err = fx_read_small(path, buf, sizeof buf);
  fx_fact_str(j, key, buf, path, err);
}

int fx_parse_ll(const char* s, long long* out) {
  char* end;
  long long v;
  while (isspace((unsigned char)*s)) s++;
  if (!*s) return 0;
  errno = 0;
  v = strtoll(s, &end, 10);
  if (errno || end == s) return 0;
  while (isspace((unsigned char)*end)) end++;
  if (*end) return 0;
  *out = v;
  return 1;
}
