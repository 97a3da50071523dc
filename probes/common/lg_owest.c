/* One-way delay, the measuring side's store: the kept exchanges, the offset
 * intervals' intersection and the per-direction histograms (see lg_owest.h). */
#include "lg_owest.h"

#include <stdlib.h>
#include <string.h>

#include "lg_measure_util.h"

static int64_t ow_width(const lg_ow_exchange* e) { return e->t4 - e->t1; }

static void ow_swap(lg_ow_exchange* x, lg_ow_exchange* y) {
  lg_ow_exchange t = *x;
  *x = *y;
  *y = t;
}

/* The K fastest exchanges: a max-heap on the round trip, the slowest kept on top. */
static void ow_keep(lg_owest* o, const lg_ow_exchange* e) {
  int i = 0;
  if (o->kept_len < LG_OW_KEEP) {
    i = o->kept_len++;
    o->kept[i] = *e;
    while (i > 0 && ow_width(&o->kept[(i - 1) / 2]) < ow_width(&o->kept[i])) {
      ow_swap(&o->kept[(i - 1) / 2], &o->kept[i]);
      i = (i - 1) / 2;
    }
    return;
  }
  if (ow_width(e) >= ow_width(&o->kept[0])) return;
  o->kept[0] = *e;
  for (;;) {
    int l = 2 * i + 1, r = l + 1, m = i;
    if (l < o->kept_len && ow_width(&o->kept[l]) > ow_width(&o->kept[m])) m = l;
    if (r < o->kept_len && ow_width(&o->kept[r]) > ow_width(&o->kept[m])) m = r;
    if (m == i) return;
    ow_swap(&o->kept[m], &o->kept[i]);
    i = m;
  }
}

/* The histograms' reference: the fastest exchange so far (warm-up included).
 * While the offset holds still, it is within half that round trip of the
 * reference, so a - ref + bias and b + ref + bias are never below 0. */
static void ow_set_reference(lg_owest* o) {
  const lg_ow_exchange* best = &o->kept[0];
  int i;
  for (i = 1; i < o->kept_len; i++)
    if (ow_width(&o->kept[i]) < ow_width(best)) best = &o->kept[i];
  o->ref_ns = ((best->t2 - best->t1) - (best->t4 - best->t2)) / 2;
  o->bias_ns = (ow_width(best) + 1) / 2 + 1; /* +1: the halving above rounds toward 0 */
  o->have_ref = 1;
}

static void ow_record(lg_owest* o, lg_hist* h, int64_t v) {
  if (v < 0) {
    o->out_of_range++;
    v = 0;
  }
  lg_hist_record(h, (uint64_t)v);
}

static lg_hist* ow_hist(void) {
  lg_hist* h = (lg_hist*)malloc(sizeof(lg_hist));
  if (h == NULL) return NULL;
  lg_hist_reset(h);
  lg_prefault(h, sizeof(lg_hist));
  return h;
}

int lg_ow_init(lg_owest* o, int both) {
  memset(o, 0, sizeof(*o));
  o->lo = INT64_MIN;
  o->hi = INT64_MAX;
  o->a_to_b = ow_hist();
  if (both) o->b_to_a = ow_hist();
  return o->a_to_b == NULL || (both && o->b_to_a == NULL) ? -1 : 0;
}

void lg_ow_free(lg_owest* o) {
  free(o->a_to_b);
  free(o->b_to_a);
  o->a_to_b = o->b_to_a = NULL;
}

void lg_ow_book(lg_owest* o, uint64_t seq, int64_t t1, int64_t t2, int64_t t4, int measured) {
  lg_ow_exchange e;
  const int64_t a = t2 - t1, b = t4 - t2;
  o->stamped++;
  e.seq = seq;
  e.t1 = t1;
  e.t2 = t2;
  e.t4 = t4;
  if (-b > o->lo) o->lo = -b;
  if (a < o->hi) o->hi = a;
  ow_keep(o, &e);
  if (!measured) return;
  if (!o->have_ref) ow_set_reference(o);
  ow_record(o, o->a_to_b, a - o->ref_ns + o->bias_ns);
  if (o->b_to_a) ow_record(o, o->b_to_a, b + o->ref_ns + o->bias_ns);
}

static int ow_by_width(const void* x, const void* y) {
  const int64_t wx = ow_width((const lg_ow_exchange*)x), wy = ow_width((const lg_ow_exchange*)y);
  return wx < wy ? -1 : wx > wy;
}

void lg_ow_write_json(const lg_owest* o, const lg_anchor* anchor, FILE* out) {
  lg_ow_exchange sorted[LG_OW_KEEP];
  int i;
  memcpy(sorted, o->kept, sizeof(lg_ow_exchange) * (size_t)o->kept_len);
  qsort(sorted, (size_t)o->kept_len, sizeof(lg_ow_exchange), ow_by_width);
  fprintf(out, "{\"anchor\":");
  lg_anchor_write_json(anchor, out);
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
  if (o->b_to_a) {
    fprintf(out, ",\"b_to_a\":");
    lg_hist_write_json(o->b_to_a, out);
  }
  fprintf(out, "}");
}
