/* Small in-place string helpers for parsing what the probe reads. */
#ifndef LABGATE_PROBES_FACTS_FX_STR_H
#define LABGATE_PROBES_FACTS_FX_STR_H

#include <stddef.h>

/** Next line of [*cur, end): NUL-terminates it in place (dropping "\r"),
 * advances *cur, returns NULL at the end. */
char* fx_next_line(char** cur, char* end);
/** Skips leading whitespace and cuts trailing whitespace in place. */
char* fx_trim(char* s);
/** Collapses runs of whitespace into one space and trims, in place. */
void fx_collapse_ws(char* s);
/** Copies at most outsz-1 bytes and NUL-terminates. */
void fx_copy(char* out, size_t outsz, const char* s);
/** Removes one pair of surrounding single or double quotes, in place. */
char* fx_unquote(char* s);
/** 1 if every byte of s is in `allowed` (or alphanumeric) and s is non-empty. */
int fx_name_ok(const char* s, const char* allowed);

#endif
