/* Recorded ioctl answers (see fx_rec.h). */
#include "fx_rec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fx_str.h"

void fx_rec_load(fx_rec* r, const char* ifname) {
  fx_text t;
  char *cur, *end, *line;
  int lineno = 0;
  memset(r, 0, sizeof *r);
  snprintf(r->path, sizeof r->path, "/.labgate-ioctl/%s.conf", ifname);
  r->err = fx_read(r->path, &t);
  if (r->err) return;
  cur = t.data, end = t.data + t.len;
  while ((line = fx_next_line(&cur, end)) != NULL) {
    char* eq = strchr(line, '=');
    lineno++;
    if (!eq || *fx_trim(line) == '#' || r->n >= FX_REC_MAX) continue;
    *eq = 0;
    fx_copy(r->key[r->n], sizeof r->key[r->n], fx_trim(line));
    fx_copy(r->val[r->n], sizeof r->val[r->n], fx_trim(eq + 1));
    r->line[r->n++] = lineno;
  }
  fx_text_free(&t);
}

const char* fx_rec_get(const fx_rec* r, const char* key, char* src, size_t srcsz) {
  int i;
  /* The last line for a key wins, as a shell would read it. */
  for (i = r->n - 1; i >= 0; i--)
    if (strcmp(r->key[i], key) == 0) {
      snprintf(src, srcsz, "%s:%d", r->path, r->line[i]);
      return r->val[i];
    }
  return NULL;
}

int fx_rec_errno(const fx_rec* r, const char* ioctl_name, char* src, size_t srcsz) {
  static const struct {
    const char* name;
    int err;
  } kNames[] = {{"EOPNOTSUPP", EOPNOTSUPP}, {"EINVAL", EINVAL}, {"ENODEV", ENODEV}, {"EPERM", EPERM}};
  char key[64];
  const char* v;
  size_t k;
  snprintf(key, sizeof key, "%s.errno", ioctl_name);
  if ((v = fx_rec_get(r, key, src, srcsz)) == NULL) return 0;
  for (k = 0; k < sizeof kNames / sizeof kNames[0]; k++)
    if (strcmp(v, kNames[k].name) == 0) return kNames[k].err;
  return EINVAL;
}
