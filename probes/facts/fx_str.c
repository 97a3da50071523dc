/* String helpers (see fx_str.h). */
#include "fx_str.h"

#include <ctype.h>
#include <string.h>

char* fx_next_line(char** cur, char* end) {
  char *line = *cur, *nl;
  if (line >= end) return NULL;
  nl = memchr(line, '\n', (size_t)(end - line));
  if (nl) {
    *nl = 0;
    *cur = nl + 1;
  } else {
    *end = 0; /* fx_text guarantees a NUL at end */
    *cur = end;
  }
  if ((nl ? nl : end) > line && (nl ? nl : end)[-1] == '\r') (nl ? nl : end)[-1] = 0;
  return line;
}

char* fx_trim(char* s) {
  size_t n;
  while (isspace((unsigned char)*s)) s++;
  n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = 0;
  return s;
}

void fx_collapse_ws(char* s) {
  char *r = s, *w = s;
  int space = 0;
  while (isspace((unsigned char)*r)) r++;
  for (; *r; r++) {
    if (isspace((unsigned char)*r)) {
      space = 1;
      continue;
    }
    if (space) *w++ = ' ';
    space = 0;
    *w++ = *r;
  }
  *w = 0;
}

void fx_copy(char* out, size_t outsz, const char* s) {
  size_t n = strlen(s);
  if (outsz == 0) return;
  if (n >= outsz) n = outsz - 1;
  memcpy(out, s, n);
  out[n] = 0;
}

char* fx_unquote(char* s) {
  size_t n = strlen(s);
  if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
    s[n - 1] = 0;
    return s + 1;
  }
  return s;
}

int fx_name_ok(const char* s, const char* allowed) {
  if (!*s) return 0;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && !strchr(allowed, *s)) return 0;
  return 1;
}
