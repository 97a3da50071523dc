/* SHA-256 (FIPS 180-4) in plain C99 for the probes' --self-digest; only open/read,
 * so it runs on Linux 2.6.18 and needs nothing on the target. */
#include "lg_sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static const uint32_t k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void compress(uint32_t st[8], const unsigned char* p) {
  uint32_t w[64], v[8]; /* v: the working variables a..h */
  int i;
  for (i = 0; i < 16; i++) {
    w[i] = ((uint32_t)p[4 * i] << 24) | ((uint32_t)p[4 * i + 1] << 16) | ((uint32_t)p[4 * i + 2] << 8) |
           (uint32_t)p[4 * i + 3];
  }
  for (i = 16; i < 64; i++) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  for (i = 0; i < 8; i++) v[i] = st[i];
  for (i = 0; i < 64; i++) {
    uint32_t t1 = v[7] + (rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25)) +
                  ((v[4] & v[5]) ^ (~v[4] & v[6])) + k[i] + w[i];
    uint32_t t2 =
        (rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
    memmove(v + 1, v, 7 * sizeof v[0]); /* h=g, g=f, ..., b=a */
    v[4] += t1;                         /* e = d + t1 */
    v[0] = t1 + t2;
  }
  for (i = 0; i < 8; i++) st[i] += v[i];
}

void lg_sha256_init(lg_sha256* s) {
  static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(s->state, iv, sizeof iv);
  s->bytes = 0;
  s->used = 0;
}

void lg_sha256_update(lg_sha256* s, const void* data, size_t len) {
  const unsigned char* p = (const unsigned char*)data;
  s->bytes += len;
  if (s->used > 0) {
    size_t take = 64 - s->used < len ? 64 - s->used : len;
    memcpy(s->block + s->used, p, take);
    s->used += take;
    p += take;
    len -= take;
    if (s->used < 64) return;
    compress(s->state, s->block);
    s->used = 0;
  }
  for (; len >= 64; p += 64, len -= 64) compress(s->state, p);
  memcpy(s->block, p, len);
  s->used = len;
}

void lg_sha256_final(lg_sha256* s, unsigned char out[LG_SHA256_DIGEST_LEN]) {
  uint64_t bits = s->bytes * 8;
  int i;
  s->block[s->used++] = 0x80;
  if (s->used > 56) {
    memset(s->block + s->used, 0, 64 - s->used);
    compress(s->state, s->block);
    s->used = 0;
  }
  memset(s->block + s->used, 0, 56 - s->used);
  for (i = 0; i < 8; i++) s->block[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
  compress(s->state, s->block);
  for (i = 0; i < 8; i++) {
    out[4 * i] = (unsigned char)(s->state[i] >> 24);
    out[4 * i + 1] = (unsigned char)(s->state[i] >> 16);
    out[4 * i + 2] = (unsigned char)(s->state[i] >> 8);
    out[4 * i + 3] = (unsigned char)s->state[i];
  }
}

void lg_sha256_hex(const unsigned char digest[LG_SHA256_DIGEST_LEN], char hex[LG_SHA256_HEX_LEN + 1]) {
  static const char digits[] = "0123456789abcdef";
  int i;
  for (i = 0; i < LG_SHA256_DIGEST_LEN; i++) {
    hex[2 * i] = digits[digest[i] >> 4];
    hex[2 * i + 1] = digits[digest[i] & 15];
  }
  hex[LG_SHA256_HEX_LEN] = '\0';
}

int lg_sha256_file(const char* path, char hex[LG_SHA256_HEX_LEN + 1]) {
  unsigned char buf[16384], digest[LG_SHA256_DIGEST_LEN];
  lg_sha256 s;
  ssize_t n;
  int saved, fd = open(path, O_RDONLY);
  if (fd < 0) return -1;
  lg_sha256_init(&s);
  for (;;) {
    n = read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      saved = errno;
      close(fd);
      errno = saved;
      return -1;
    }
    lg_sha256_update(&s, buf, (size_t)n);
  }
  close(fd);
  lg_sha256_final(&s, digest);
  lg_sha256_hex(digest, hex);
  return 0;
}
