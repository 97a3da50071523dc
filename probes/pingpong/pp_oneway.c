/* One-way delay, client side: the kept exchanges, the offset intervals'
 * intersection and the per-direction histograms (see pp_oneway.h). */
#include "pp_oneway.h"

#include <stdlib.h>
#include <string.h>

#include "lg_measure_util.h"

static int64_t width(const pp_ow_exchange* e) { return e->t4 - e->t1; }

static void swap_exchanges(pp_ow_exchange* x, pp_ow_exchange* y) {
  pp_ow_exchange t = *x;
  *x = *y;
  *y = t;
}

/* The K fastest exchanges: a max-heap on the round trip, the slowest kept on top. */
static void keep(pp_oneway* o, const pp_ow_exchange* e) {
  int i = 0;
  if (o->kept_len < PP_OW_KEEP) {
    i = o->kept_len++;
    o->kept[i] = *e;
    while (i > 0 && width(&o->kept[(i - 1) / 2]) < width(&o->kept[i])) {
      swap_exchanges(&o->kept[(i - 1) / 2], &o->kept[i]);
      i = (i - 1) / 2;
    }
    return;
  }
  if (width(e) >= width(&o->kept[0])) return;
  o->kept[0] = *e;
  for (;;) {
    int l = 2 * i + 1, r = l + 1, m = i;
    if (l < o->kept_len && width(&o->kept[l]) > width(&o->kept[m])) m = l;
    if (r < o->kept_len && width(&o->kept[r]) > width(&o->kept[m])) m = r;
    if (m == i) return;
    swap_exchanges(&o->kept[m], &o->kept[i]);
    i = m;
  }
}

/* The histograms' reference: the fastest exchange so far (warm-up included).
 * While the offset holds still, it is within half that round trip of the
 * reference, so a - ref + bias and b + ref + bias are never below 0. */
static void set_reference(pp_oneway* o) {
  const pp_ow_exchange* best = &o->kept[0];
  int i;
  for (i = 1; i < o->kept_len; i++)
    if (width(&o->kept[i]) < width(best)) best = &o->kept[i];
  o->ref_ns = ((best->t2 - best->t1) - (best->t4 - best->t2)) / 2;
  o->bias_ns = (width(best) + 1) / 2 + 1; /* +1: the halving above rounds toward 0 */
  o->have_ref = 1;
}

static void record(pp_oneway* o, lg_hist* h, int64_t v) {
  if (v < 0) {
    o->out_of_range++;
    v = 0;
  }
  lg_hist_record(h, (uint64_t)v);
}

int pp_ow_init(pp_oneway* o) {
  memset(o, 0, sizeof(*o));
  o->lo = INT64_MIN;
  o->hi = INT64_MAX;
  o->a_to_b = (lg_hist*)malloc(sizeof(lg_hist));
  o->b_to_a = (lg_hist*)malloc(sizeof(lg_hist));
  if (o->a_to_b == NULL || o->b_to_a == NULL) return -1;
  lg_hist_reset(o->a_to_b);
  lg_hist_reset(o->b_to_a);
  lg_prefault(o->a_to_b, sizeof(lg_hist));
  lg_prefault(o->b_to_a, sizeof(lg_hist));
  lg_anchor_take(&o->anchor);
  return 0;
}

void pp_ow_free(pp_oneway* o) {
  free(o->a_to_b);
  free(o->b_to_a);
  o->a_to_b = o->b_to_a = NULL;
}

void pp_ow_book(pp_oneway* o, uint64_t seq, uint64_t t1_mono, uint64_t t4_mono, const unsigned char* reply,
                int measured) {
  pp_ow_exchange e;
  uint64_t stamp;
  int64_t a, b;
  memcpy(&stamp, reply + 8, 8);
  /* A server that only echoes returns the client's own send stamp. */
  if (stamp == t1_mono) {
    o->unstamped++;
    return;
  }
  o->stamped++;
  e.seq = seq;
  e.t1 = (int64_t)lg_anchor_real(&o->anchor, t1_mono);
  e.t2 = (int64_t)stamp;
  e.t4 = (int64_t)lg_anchor_real(&o->anchor, t4_mono);
  a = e.t2 - e.t1;
  b = e.t4 - e.t2;
  if (-b > o->lo) o->lo = -b;
  if (a < o->hi) o->hi = a;
  keep(o, &e);
  if (!measured) return;
  if (!o->have_ref) set_reference(o);
  record(o, o->a_to_b, a - o->ref_ns + o->bias_ns);
  record(o, o->b_to_a, b + o->ref_ns + o->bias_ns);
}

static int by_width(const void* x, const void* y) {
  const int64_t wx = width((const pp_ow_exchange*)x), wy = width((const pp_ow_exchange*)y);
  return wx < wy ? -1 : wx > wy;
}

void pp_ow_write_json(const pp_oneway* o, FILE* out) {
  pp_ow_exchange sorted[PP_OW_KEEP];
  int i;
  memcpy(sorted, o->kept, sizeof(pp_ow_exchange) * (size_t)o->kept_len);
  qsort(sorted, (size_t)o->kept_len, sizeof(pp_ow_exchange), by_width);
  fprintf(out, "{\"anchor\":");
  lg_anchor_write_json(&o->anchor, out);
  fprintf(out, ",\"stamped\":%llu,\"unstamped\":%llu,\"intersection\":", (unsigned long long)o->stamped,
          (unsigned long long)o->unstamped);
  if (o->stamped)
    fprintf(out, "{\"lo_ns\":%lld,\"hi_ns\":%lld}", (long long)o->lo, (long long)o->hi);
  else
    fprintf(out, "null");
  fprintf(out, ",\"reference\":");
  if (o->have_ref)
    fprintf(out, "{\"offset_ns\":%lld,\"bias_ns\":%lld}", (long long)o->ref_ns, (long long)o->bias_ns);
  else
    fprintf(out, "null");
  fprintf(out, ",\"out_of_range\":%llu,\"kept\":[", (unsigned long long)o->out_of_range);
  for (i = 0; i < o->kept_len; i++)
    fprintf(out, "%s{\"seq\":%llu,\"t1\":%lld,\"t2\":%lld,\"t4\":%lld}", i ? "," : "",
            (unsigned long long)sorted[i].seq, (long long)sorted[i].t1, (long long)sorted[i].t2,
            (long long)sorted[i].t4);
  fprintf(out, "],\"a_to_b\":");
  lg_hist_write_json(o->a_to_b, out);
  fprintf(out, ",\"b_to_a\":");
  lg_hist_write_json(o->b_to_a, out);
  fprintf(out, "}");
}
