/* netem's parameters and per-frame decisions for the wire (see wire_netem.h). */
#include "wire_netem.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void wire_params_default(wire_params* p) {
  memset(p, 0, sizeof *p);
  p->dist = WIRE_DIST_UNIFORM;
  p->limit = 1000;
}

static int fail(char* err, size_t errlen, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* A non-negative decimal number followed by a suffix; returns the suffix or NULL. */
static const char* number(const char* text, double* v) {
  char* end;
  if (text[0] == '\0' || text[0] == '-' || text[0] == '+') return NULL;
  *v = strtod(text, &end);
  if (end == text || !isfinite(*v)) return NULL;
  return end;
}

typedef struct unit {
  const char* name;
  double scale;
} unit;

/* A number with one of `units` (case-insensitive, as tc), scaled and rounded,
 * within [min, max]. */
static int parse_scaled(const char* text, const unit* units, size_t n, double min, double max,
                        uint64_t* out) {
  double v;
  const char* suffix = number(text, &v);
  size_t i;
  if (!suffix) return -1;
  for (i = 0; i < n; i++) {
    if (strcasecmp(suffix, units[i].name) == 0) {
      double x = v * units[i].scale;
      if (x < min || x > max) return -1;
      *out = (uint64_t)llround(x);
      return 0;
    }
  }
  return -1;
}

static int parse_time(const char* text, uint64_t* ns) {
  static const unit kUnits[] = {{"s", 1e9},     {"sec", 1e9}, {"secs", 1e9}, {"ms", 1e6},    {"msec", 1e6},
                                {"msecs", 1e6}, {"us", 1e3},  {"usec", 1e3}, {"usecs", 1e3}, {"ns", 1},
                                {"nsec", 1},    {"nsecs", 1}, {"", 1e3}};
  /* An hour of delay is a typo, not a test. */
  return parse_scaled(text, kUnits, sizeof kUnits / sizeof kUnits[0], 0, 3600e9, ns);
}

static int parse_rate(const char* text, uint64_t* bps) {
  static const unit kUnits[] = {{"", 1},       {"bit", 1},      {"kbit", 1e3},        {"mbit", 1e6},
                                {"gbit", 1e9}, {"kibit", 1024}, {"mibit", 1048576.0}, {"gibit", 1073741824.0},
                                {"bps", 8},    {"kbps", 8e3},   {"mbps", 8e6},        {"gbps", 8e9}};
  return parse_scaled(text, kUnits, sizeof kUnits / sizeof kUnits[0], 1, 1e12, bps);
}

static int parse_percent(const char* text, double* prob) {
  double v;
  const char* rest = number(text, &v);
  if (!rest || (strcmp(rest, "%") != 0 && rest[0] != '\0') || v > 100) return -1;
  *prob = v / 100.0;
  return 0;
}

static int parse_count(const char* text, uint32_t min, uint32_t max, uint32_t* out) {
  char* end;
  unsigned long v;
  if (text[0] < '0' || text[0] > '9') return -1;
  v = strtoul(text, &end, 10);
  if (*end != '\0' || v < min || v > max) return -1;
  *out = (uint32_t)v;
  return 0;
}

/* A numeric token after a value would be netem's correlation, which the wire
 * does not model; refusing it beats measuring something else than asked. */
static int refuse_correlation(int argc, char* const* argv, int i, char* err, size_t errlen) {
  double v;
  if (i + 1 < argc && number(argv[i + 1], &v))
    return fail(err, errlen, "'%s %s': correlations are not modelled by the wire (netem's CORRELATION)",
                argv[i], argv[i + 1]);
  return 0;
}

int wire_params_parse(int argc, char* const* argv, wire_params* p, char* err, size_t errlen) {
  int i, gap_given = 0;
  wire_params_default(p);
  for (i = 0; i < argc; i++) {
    const char* key = argv[i];
    const char* val = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(key, "delay") == 0) {
      if (!val || parse_time(val, &p->delay_ns) != 0)
        return fail(err, errlen, "delay: '%s' is not a time (e.g. 2ms, 500us)", val ? val : "");
      i++;
      if (i + 1 < argc && parse_time(argv[i + 1], &p->jitter_ns) == 0) i++;
      if (refuse_correlation(argc, argv, i, err, errlen)) return -1;
    } else if (strcmp(key, "distribution") == 0) {
      if (val && strcmp(val, "uniform") == 0)
        p->dist = WIRE_DIST_UNIFORM;
      else if (val && strcmp(val, "normal") == 0)
        p->dist = WIRE_DIST_NORMAL;
      else
        return fail(err, errlen, "distribution: '%s' is not modelled (uniform or normal)", val ? val : "");
      i++;
    } else if (strcmp(key, "loss") == 0) {
      if (val && strcmp(val, "random") == 0) val = ++i + 1 < argc ? argv[i + 1] : NULL;
      if (!val || parse_percent(val, &p->loss) != 0)
        return fail(err, errlen, "loss: '%s' is not a percentage (e.g. 5%%; loss models are not modelled)",
                    val ? val : "");
      i++;
      if (refuse_correlation(argc, argv, i, err, errlen)) return -1;
    } else if (strcmp(key, "duplicate") == 0 || strcmp(key, "reorder") == 0) {
      double* prob = key[0] == 'd' ? &p->duplicate : &p->reorder;
      if (!val || parse_percent(val, prob) != 0)
        return fail(err, errlen, "%s: '%s' is not a percentage (e.g. 1%%)", key, val ? val : "");
      i++;
      if (refuse_correlation(argc, argv, i, err, errlen)) return -1;
    } else if (strcmp(key, "gap") == 0) {
      if (!val || parse_count(val, 0, 1000000, &p->gap) != 0)
        return fail(err, errlen, "gap: '%s' is not a frame count", val ? val : "");
      gap_given = 1;
      i++;
    } else if (strcmp(key, "rate") == 0) {
      if (!val || parse_rate(val, &p->rate_bps) != 0)
        return fail(err, errlen, "rate: '%s' is not a rate (e.g. 100mbit, 1gbit, 10mbps)", val ? val : "");
      i++;
      if (i + 1 < argc && number(argv[i + 1], &(double){0}))
        return fail(err, errlen, "rate: packet overhead and cell sizes are not modelled");
    } else if (strcmp(key, "limit") == 0) {
      if (!val || parse_count(val, 1, 1000000, &p->limit) != 0)
        return fail(err, errlen, "limit: '%s' is not a frame count of 1 or more", val ? val : "");
      i++;
    } else {
      return fail(err, errlen,
                  "'%s' is not a netem parameter the wire models "
                  "(delay, distribution, loss, duplicate, reorder, gap, rate, limit)",
                  key);
    }
  }
  /* As tc: reordering sends some frames without the delay, so it needs a delay;
   * and `reorder` without `gap` means gap 1. */
  if (p->reorder > 0 && p->delay_ns == 0)
    return fail(err, errlen, "reorder needs a delay (as tc: reordering is sending some frames undelayed)");
  if (p->reorder > 0 && !gap_given) p->gap = 1;
  return 0;
}

int wire_params_json(const wire_params* p, char* buf, size_t len) {
  int n = snprintf(buf, len,
                   "{\"delay_ns\":%llu,\"jitter_ns\":%llu,\"distribution\":\"%s\",\"loss_pct\":%.4f,"
                   "\"duplicate_pct\":%.4f,\"reorder_pct\":%.4f,\"gap\":%u,\"rate_bit_s\":%llu,\"limit\":%u}",
                   (unsigned long long)p->delay_ns, (unsigned long long)p->jitter_ns,
                   p->dist == WIRE_DIST_NORMAL ? "normal" : "uniform", p->loss * 100, p->duplicate * 100,
                   p->reorder * 100, p->gap, (unsigned long long)p->rate_bps, p->limit);
  return n < 0 || (size_t)n >= len ? -1 : 0;
}

void wire_rng_seed(wire_rng* r, uint64_t seed) {
  /* splitmix64 of the seed: xorshift must not start at 0. */
  uint64_t z = seed + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  r->s = z ? z : 1;
}

double wire_rng_unit(wire_rng* r) {
  uint64_t x = r->s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  r->s = x;
  return (double)((x * 0x2545f4914f6cdd1dULL) >> 11) / 9007199254740992.0; /* 2^53 */
}

int wire_copies(const wire_params* p, wire_rng* r, int dup_allowed) {
  int count = 1;
  if (dup_allowed && p->duplicate > 0 && wire_rng_unit(r) < p->duplicate) count++;
  if (p->loss > 0 && wire_rng_unit(r) < p->loss) count--;
  return count;
}

/* netem's tabledist: uniform over [mu - sigma, mu + sigma), or normal (the
 * table netem ships spans about +-4 sigma; so is the sample clamped here). */
static int64_t jitter_sample(const wire_params* p, wire_rng* r) {
  double s = (double)p->jitter_ns;
  if (p->jitter_ns == 0) return 0;
  if (p->dist == WIRE_DIST_NORMAL) {
    double u1 = wire_rng_unit(r), u2 = wire_rng_unit(r);
    double z = sqrt(-2.0 * log(1.0 - u1)) * cos(2.0 * M_PI * u2);
    if (z > 4) z = 4;
    if (z < -4) z = -4;
    return (int64_t)llround(z * s);
  }
  return (int64_t)llround((wire_rng_unit(r) * 2.0 - 1.0) * s);
}

uint64_t wire_due(const wire_params* p, wire_rng* r, wire_flow* f, uint64_t now, size_t len, int* reordered) {
  int64_t delay;
  uint64_t base = now;
  *reordered = 0;
  /* netem: delayed unless gap is 0, fewer than gap-1 frames went since the last
   * reorder, or the reorder roll fails; a reordered frame goes to the head now. */
  if (!(p->gap == 0 || f->counter + 1 < p->gap || !(wire_rng_unit(r) < p->reorder))) {
    f->counter = 0;
    *reordered = 1;
    return now;
  }
  delay = (int64_t)p->delay_ns + jitter_sample(p, r);
  if (delay < 0) delay = 0; /* a time in the past: due at once */
  if (p->rate_bps) {
    /* netem: the frame waits for the one before it, then takes its own
     * serialisation time at the link rate. */
    if (f->rate_until > now) {
      delay -= (int64_t)(f->rate_until - now);
      if (delay < 0) delay = 0;
      base = f->rate_until;
    }
    delay += (int64_t)((double)len * 8.0 * 1e9 / (double)p->rate_bps);
  }
  f->counter++;
  if (p->rate_bps) f->rate_until = base + (uint64_t)delay;
  return base + (uint64_t)delay;
}
