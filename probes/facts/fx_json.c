/* Streaming JSON writer (see fx_json.h). Output is indented two spaces per level
 * so a saved snapshot reads well in a results folder and diffs line by line. */
#include "fx_json.h"

#include <string.h>

static void put(fx_json* j, const char* s, size_t n) {
  if (j->err) return;
  if (n && fwrite(s, 1, n, j->out) != n) j->err = 1;
}

static void puts0(fx_json* j, const char* s) { put(j, s, strlen(s)); }

static void indent(fx_json* j) {
  int i;
  put(j, "\n", 1);
  for (i = 0; i < j->depth; i++) put(j, "  ", 2);
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if the bytes there are
 * not one (overlong forms, surrogates and values above U+10FFFF are invalid). */
static size_t utf8_len(const unsigned char* s, size_t left) {
  unsigned c = s[0];
  size_t n, i;
  unsigned cp;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, cp = c & 0x07;
  else
    return 0;
  if (left < n) return 0;
  for (i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  if (n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
  if (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
  return n;
}

static void quoted(fx_json* j, const char* s, size_t len) {
  const unsigned char* p = (const unsigned char*)s;
  size_t i = 0;
  char esc[8];
  put(j, "\"", 1);
  while (i < len) {
    unsigned c = p[i];
    size_t n;
    if (c == '"' || c == '\\') {
      esc[0] = '\\', esc[1] = (char)c;
      put(j, esc, 2);
      i++;
    } else if (c < 0x20 || c == 0x7F) {
      if (c == '\n')
        puts0(j, "\\n");
      else if (c == '\t')
        puts0(j, "\\t");
      else if (c == '\r')
        puts0(j, "\\r");
      else {
        snprintf(esc, sizeof esc, "\\u%04x", c);
        puts0(j, esc);
      }
      i++;
    } else if ((n = utf8_len(p + i, len - i)) > 0) {
      put(j, s + i, n);
      i += n;
    } else {
      puts0(j, "\\ufffd"); /* a byte that is not UTF-8: say so, keep the JSON valid */
      i++;
    }
  }
  put(j, "\"", 1);
}

/* Comma, newline, indentation and "key": before a value. */
static void member(fx_json* j, const char* key) {
  if (j->depth > 0) {
    if (j->count[j->depth - 1]++ > 0) put(j, ",", 1);
    indent(j);
  }
  if (key) {
    quoted(j, key, strlen(key));
    put(j, ": ", 2);
  }
}

static void open_any(fx_json* j, const char* key, const char* bracket) {
  member(j, key);
  puts0(j, bracket);
  if (j->depth >= FX_JSON_MAX_DEPTH) {
    j->err = 1;
    return;
  }
  j->count[j->depth++] = 0;
}

static void close_any(fx_json* j, const char* bracket) {
  if (j->depth <= 0) {
    j->err = 1;
    return;
  }
  j->depth--;
  if (j->count[j->depth] > 0) indent(j);
  puts0(j, bracket);
  if (j->depth == 0) put(j, "\n", 1);
}

void fx_json_open(fx_json* j, const char* key) { open_any(j, key, "{"); }
void fx_json_close(fx_json* j) { close_any(j, "}"); }
void fx_json_open_array(fx_json* j, const char* key) { open_any(j, key, "["); }
void fx_json_close_array(fx_json* j) { close_any(j, "]"); }

void fx_json_strn(fx_json* j, const char* key, const char* s, size_t len) {
  member(j, key);
  quoted(j, s, len);
}

void fx_json_str(fx_json* j, const char* key, const char* s) {
  if (!s) {
    fx_json_null(j, key);
    return;
  }
  fx_json_strn(j, key, s, strlen(s));
}

void fx_json_int(fx_json* j, const char* key, long long v) {
  char buf[32];
  member(j, key);
  snprintf(buf, sizeof buf, "%lld", v);
  puts0(j, buf);
}

void fx_json_bool(fx_json* j, const char* key, int v) {
  member(j, key);
  puts0(j, v ? "true" : "false");
}

void fx_json_null(fx_json* j, const char* key) {
  member(j, key);
  puts0(j, "null");
}
