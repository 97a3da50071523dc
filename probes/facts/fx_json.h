/* A tiny streaming JSON writer for the facts probe: objects, arrays, strings
 * (always emitted as valid UTF-8, whatever bytes a file held), integers, booleans. */
#ifndef LABGATE_PROBES_FACTS_FX_JSON_H
#define LABGATE_PROBES_FACTS_FX_JSON_H

#include <stdio.h>

#define FX_JSON_MAX_DEPTH 32

/** Writer state; zero-initialise, then set `out`. Errors are sticky in `err`. */
typedef struct fx_json {
  FILE* out;
  int depth;
  int count[FX_JSON_MAX_DEPTH]; /* members written at each level, for commas */
  int err;                      /* non-zero after a write error or misuse */
} fx_json;

/* In every call `key` is the member name inside an object and NULL inside an
 * array or at the top level. */

/** Opens an object. */
void fx_json_open(fx_json* j, const char* key);
/** Closes the innermost object. */
void fx_json_close(fx_json* j);
/** Opens an array. */
void fx_json_open_array(fx_json* j, const char* key);
/** Closes the innermost array. */
void fx_json_close_array(fx_json* j);
/** A string member; `s` NULL writes null. Invalid UTF-8 bytes become U+FFFD. */
void fx_json_str(fx_json* j, const char* key, const char* s);
/** A string of `len` bytes (may hold NULs, which are escaped). */
void fx_json_strn(fx_json* j, const char* key, const char* s, size_t len);
/** An integer member. */
void fx_json_int(fx_json* j, const char* key, long long v);
/** A boolean member. */
void fx_json_bool(fx_json* j, const char* key, int v);
/** A null member. */
void fx_json_null(fx_json* j, const char* key);

#endif
