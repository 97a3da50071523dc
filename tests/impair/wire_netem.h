/* The wire's impairment model: netem's parameters (parsed from tc's own syntax)
 * and netem's per-frame decisions (loss, duplication, reordering, delay with
 * jitter, rate), kept free of sockets so they can be unit tested. */
#ifndef LABGATE_TESTS_IMPAIR_WIRE_NETEM_H
#define LABGATE_TESTS_IMPAIR_WIRE_NETEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** How jitter spreads the delay (netem's `distribution`). */
typedef enum { WIRE_DIST_UNIFORM = 0, WIRE_DIST_NORMAL = 1 } wire_dist;

/** netem's parameters; probabilities are in [0, 1]. */
typedef struct wire_params {
  uint64_t delay_ns;  /**< fixed one-way delay added to every frame */
  uint64_t jitter_ns; /**< uniform: +-jitter; normal: standard deviation */
  wire_dist dist;
  double loss;       /**< probability a frame is dropped */
  double duplicate;  /**< probability a frame is sent twice */
  double reorder;    /**< probability a (gap-th) frame is sent at once, undelayed */
  uint32_t gap;      /**< netem's gap: only every gap-th frame may be reordered */
  uint64_t rate_bps; /**< link rate in bit/s; 0 = unlimited */
  uint32_t limit;    /**< frames queued per direction before tail drop (netem: 1000) */
} wire_params;

/** Fills `p` with netem's defaults (no impairment, limit 1000). */
void wire_params_default(wire_params* p);

/** Parses netem's arguments as `tc qdisc add ... netem ARGS` takes them:
 *  delay TIME [JITTER] | distribution uniform|normal | loss [random] PCT |
 *  duplicate PCT | reorder PCT | gap N | rate RATE | limit N.
 * TIME takes s/ms/us/ns (bare = us, like tc); PCT takes an optional '%';
 * RATE takes bit/kbit/mbit/gbit or bps/kbps/mbps (bytes). Anything netem has
 * but the wire does not model (correlations, loss models, corrupt, slot, ecn)
 * is refused rather than silently ignored. Returns 0, or -1 with `err` set. */
int wire_params_parse(int argc, char* const* argv, wire_params* p, char* err, size_t errlen);

/** Writes the parameters as a JSON object (no newline) into buf; returns 0 or -1 when it does not fit. */
int wire_params_json(const wire_params* p, char* buf, size_t len);

/** A small, fast, seedable generator (xorshift64*), so runs are repeatable. */
typedef struct wire_rng {
  uint64_t s;
} wire_rng;

void wire_rng_seed(wire_rng* r, uint64_t seed);
/** Uniform in [0, 1). */
double wire_rng_unit(wire_rng* r);

/** Per-direction state the decisions carry from frame to frame. */
typedef struct wire_flow {
  uint32_t counter;    /**< frames delayed since the last reorder (netem's q->counter) */
  uint64_t rate_until; /**< when the link is free again (rate only) */
} wire_flow;

/** How many copies of an arriving frame to keep: 0 (lost), 1 or 2 (duplicated),
 * as netem_enqueue does: one copy, +1 on a duplicate roll, -1 on a loss roll.
 * `dup_allowed` is 0 for a duplicate itself (netem re-enqueues it with
 * duplication off, but it still faces the loss roll). */
int wire_copies(const wire_params* p, wire_rng* r, int dup_allowed);

/** When a frame of `len` bytes arriving at `now` (ns) is due to leave. Sets
 * *reordered when netem's reorder rule sends it at once, ahead of the queue. */
uint64_t wire_due(const wire_params* p, wire_rng* r, wire_flow* f, uint64_t now, size_t len, int* reordered);

#ifdef __cplusplus
}
#endif

#endif
