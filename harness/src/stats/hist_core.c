/* Log-linear latency histogram core: the parts that are not on the record path. */
#include "labgate/stats/hist_core.h"

#include <math.h>
#include <string.h>

void lg_hist_reset(lg_hist* h) {
  memset(h, 0, sizeof(*h));
  h->min = UINT64_MAX;
}

static void split_index(uint32_t index, int* bucket, uint64_t* sub) {
  int b = (int)(index >> (LG_HIST_SUB_BUCKET_BITS - 1)) - 1;
  uint64_t s = (index & (LG_HIST_SUB_BUCKET_HALF - 1)) + LG_HIST_SUB_BUCKET_HALF;
  if (b < 0) { /* the lower half of bucket 0 */
    s -= LG_HIST_SUB_BUCKET_HALF;
    b = 0;
  }
  *bucket = b;
  *sub = s;
}

uint64_t lg_hist_lowest_at(uint32_t index) {
  int bucket;
  uint64_t sub;
  split_index(index, &bucket, &sub);
  return sub << bucket;
}

uint64_t lg_hist_highest_at(uint32_t index) {
  int bucket;
  uint64_t sub;
  split_index(index, &bucket, &sub);
  return (sub << bucket) + (((uint64_t)1) << bucket) - 1;
}

void lg_hist_merge(lg_hist* into, const lg_hist* from) {
  uint32_t i;
  if (from->total == 0) return;
  for (i = 0; i < LG_HIST_COUNTS_LEN; i++) into->counts[i] += from->counts[i];
  into->total += from->total;
  into->sum += from->sum;
  into->overflow += from->overflow;
  if (from->min < into->min) into->min = from->min;
  if (from->max > into->max) into->max = from->max;
}

uint64_t lg_hist_percentile(const lg_hist* h, double p) {
  uint64_t rank, seen = 0;
  uint32_t i;
  double exact_rank;
  if (h->total == 0) return 0;
  if (p >= 100.0) return h->max;
  if (p <= 0.0) return h->min;
  /* The small epsilon keeps 99.9% of 1000 samples at rank 999, not 1000, when the
   * product lands a hair above an integer in binary floating point. */
  exact_rank = p / 100.0 * (double)h->total;
  rank = (uint64_t)ceil(exact_rank - 1e-9 * exact_rank);
  if (rank < 1) rank = 1;
  for (i = 0; i < LG_HIST_COUNTS_LEN; i++) {
    seen += h->counts[i];
    if (seen >= rank) {
      uint64_t v = lg_hist_highest_at(i);
      if (v > h->max) v = h->max;
      if (v < h->min) v = h->min;
      return v;
    }
  }
  return h->max; /* the rank falls among the overflow samples */
}

double lg_hist_mean(const lg_hist* h) {
  return h->total ? (double)h->sum / (double)h->total : 0.0;
}

double lg_hist_stddev(const lg_hist* h) {
  double mean, acc = 0.0;
  uint32_t i;
  if (h->total == 0) return 0.0;
  mean = lg_hist_mean(h);
  for (i = 0; i < LG_HIST_COUNTS_LEN; i++) {
    if (h->counts[i]) {
      uint64_t lo = lg_hist_lowest_at(i), hi = lg_hist_highest_at(i);
      double mid = ((double)lo + (double)hi) / 2.0;
      /* The exact min and max bound every sample: a single-valued run has 0 spread. */
      if (mid < (double)h->min) mid = (double)h->min;
      if (mid > (double)h->max) mid = (double)h->max;
      double d = mid - mean;
      acc += d * d * (double)h->counts[i];
    }
  }
  if (h->overflow) {
    double d = (double)h->max - mean;
    acc += d * d * (double)h->overflow;
  }
  return sqrt(acc / (double)h->total);
}

int lg_hist_write_json(const lg_hist* h, FILE* out) {
  uint32_t i;
  int first = 1;
  fprintf(out,
          "{\"format\":\"labgate-hist-1\",\"unit\":\"ns\",\"sub_bucket_bits\":%d,"
          "\"total\":%llu,\"min\":%llu,\"max\":%llu,\"sum\":%llu,\"overflow\":%llu,\"counts\":[",
          LG_HIST_SUB_BUCKET_BITS, (unsigned long long)h->total,
          (unsigned long long)(h->total ? h->min : 0), (unsigned long long)h->max,
          (unsigned long long)h->sum, (unsigned long long)h->overflow);
  for (i = 0; i < LG_HIST_COUNTS_LEN; i++) {
    if (h->counts[i]) {
      fprintf(out, "%s%u,%llu", first ? "" : ",", i, (unsigned long long)h->counts[i]);
      first = 0;
    }
  }
  return fprintf(out, "]}") < 0 ? -1 : 0;
}
