/* One reported fact: {"value": V, "source": "/path"} plus "error" (and
 * "missing": true when the file does not exist) when it could not be read, and
 * an optional "note" saying how a derived value was obtained. */
#ifndef LABGATE_PROBES_FACTS_FX_FACT_H
#define LABGATE_PROBES_FACTS_FX_FACT_H

#include "fx_json.h"

/** Opens the fact object; write "value" next, then call fx_fact_end. */
void fx_fact_begin(fx_json* j, const char* key);
/** Writes source, error (err != 0), note (may be NULL) and closes the object. */
void fx_fact_end(fx_json* j, const char* source, int err, const char* note);

/** A string fact; err != 0 writes a null value with the error. */
void fx_fact_str(fx_json* j, const char* key, const char* value, const char* source, int err);
/** An integer fact. */
void fx_fact_int(fx_json* j, const char* key, long long value, const char* source, int err);
/** A boolean fact. */
void fx_fact_bool(fx_json* j, const char* key, int value, const char* source, int err);
/** A string fact with a note on how it was derived. */
void fx_fact_str_note(fx_json* j, const char* key, const char* value, const char* source, int err,
                      const char* note);
/** A boolean fact with a note on what it rests on. */
void fx_fact_bool_note(fx_json* j, const char* key, int value, const char* source, const char* note);
/** Reads a small file and reports its trimmed content as a string fact. */
void fx_fact_file(fx_json* j, const char* key, const char* path);

/** Parses a decimal integer (surrounding whitespace allowed). 1 on success. */
int fx_parse_ll(const char* s, long long* out);

#endif
