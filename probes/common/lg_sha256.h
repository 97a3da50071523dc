/* SHA-256 (FIPS 180-4) in plain C99, so a static probe can report the digest of
 * its own binary: RHEL 5's coreutils 5.97 has no sha256sum to do it for us. */
#ifndef LABGATE_PROBES_LG_SHA256_H
#define LABGATE_PROBES_LG_SHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LG_SHA256_DIGEST_LEN 32
#define LG_SHA256_HEX_LEN 64

/** Running state of one digest; initialise with lg_sha256_init. */
typedef struct lg_sha256 {
  uint32_t state[8];
  uint64_t bytes; /**< message length so far */
  unsigned char block[64];
  size_t used; /**< bytes waiting in block */
} lg_sha256;

/** Starts a new digest. */
void lg_sha256_init(lg_sha256* s);
/** Adds len bytes of data. */
void lg_sha256_update(lg_sha256* s, const void* data, size_t len);
/** Finishes the digest into out[32]; s must be re-initialised before reuse. */
void lg_sha256_final(lg_sha256* s, unsigned char out[LG_SHA256_DIGEST_LEN]);
/** Writes the lowercase hex of a digest plus a NUL into hex[65]. */
void lg_sha256_hex(const unsigned char digest[LG_SHA256_DIGEST_LEN], char hex[LG_SHA256_HEX_LEN + 1]);
/** Digests the file at path into hex[65]; returns 0, or -1 with errno set. */
int lg_sha256_file(const char* path, char hex[LG_SHA256_HEX_LEN + 1]);

#ifdef __cplusplus
}
#endif

#endif
