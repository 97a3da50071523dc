/* The stream receiver's worst receive gaps (see st_gaps.h): the slow path and the summary. */
#include "st_gaps.h"

#include <stdlib.h>
#include <string.h>

#include "lg_measure_util.h"

int st_gaps_init(st_gaps* g, int udp, unsigned worst) {
  memset(g, 0, sizeof(*g));
  g->udp = udp;
  g->fd = -1;
  g->hist = (lg_hist*)malloc(sizeof(lg_hist));
  if (g->hist == NULL || lg_outliers_init(&g->outliers, worst, 0, 0) != 0) {
    free(g->hist);
    g->hist = NULL;
    return -1;
  }
  lg_hist_reset(g->hist);
  lg_prefault(g->hist, sizeof(lg_hist));
  lg_moment_init(&g->moment, 1);
  return 0;
}

void st_gaps_free(st_gaps* g) {
  lg_outliers_free(&g->outliers);
  free(g->hist);
  g->hist = NULL;
}

void st_gaps_session(st_gaps* g, int fd, uint64_t warmup_ns) {
  g->fd = fd;
  g->last_ns = 0;
  g->offset = 0;
  g->next_seq = 0;
  g->warmup_ns = warmup_ns;
  g->measure_from_ns = UINT64_MAX;
  g->sessions++;
  /* UDP: the datagram that ends a gap carries the kernel's receive stamp, so
   * how long it lay in the socket is known; TCP keeps none (said so). */
  lg_moment_stamps(&g->moment, fd, g->udp);
}

void st_gaps_keep(st_gaps* g, uint64_t gap, uint64_t now, uint64_t seq) {
  lg_moment_keep(&g->moment, &g->outliers, g->fd, seq, gap, now, now);
}

/* Rare (a loss), so a linear search for the smallest kept is fine. */
void st_gaps_loss(st_gaps* g, uint64_t now, uint64_t seq, uint64_t lost) {
  st_loss b;
  unsigned i, least = 0;
  g->loss_bursts++;
  g->lost += lost;
  b.seq = seq;
  b.at_ns = now;
  b.lost = lost;
  b.pause_ns = g->pause_ns;
  b.pause_end_ns = g->pause_end_ns;
  g->pause_ns = 0; /* the next burst's pause is the longest after this one */
  if (g->loss_len < ST_LOSS_KEPT) {
    g->loss[g->loss_len++] = b;
    return;
  }
  for (i = 1; i < g->loss_len; i++)
    if (g->loss[i].lost < g->loss[least].lost) least = i;
  if (lost > g->loss[least].lost) g->loss[least] = b;
}

void st_gaps_write_json(const st_gaps* g, FILE* out) {
  const lg_hist* h = g->hist;
  fprintf(out, ",\"receive_gaps\":{\"proto\":\"%s\",\"what\":", g->udp ? "udp" : "tcp");
  lg_json_string(out, g->udp ? "time between two datagrams of the measured phase read in a row"
                             : "time between two reads that returned data (a read boundary is not a packet "
                               "boundary: a gap is time the receiver got nothing, not a packet's delay)");
  fprintf(out, ",\"warmup\":");
  lg_json_string(out, g->udp ? "excluded: datagrams marked warm-up by the client"
                             : "excluded: the client's warm-up, counted from the first byte read");
  fprintf(out,
          ",\"sessions\":%llu,\"count\":%llu,\"p50_ns\":%llu,\"p99_ns\":%llu,\"max_ns\":%llu,"
          "\"mean_ns\":%llu",
          (unsigned long long)g->sessions, (unsigned long long)h->total,
          (unsigned long long)lg_hist_percentile(h, 50), (unsigned long long)lg_hist_percentile(h, 99),
          (unsigned long long)h->max, (unsigned long long)(h->total ? h->sum / h->total : 0));
  if (g->udp) {
    unsigned i;
    fprintf(out, ",\"loss_bursts\":%llu,\"lost\":%llu,\"reordered\":%llu,\"largest_seq_gaps\":[",
            (unsigned long long)g->loss_bursts, (unsigned long long)g->lost, (unsigned long long)g->reordered);
    for (i = 0; i < g->loss_len; i++) {
      const st_loss* b = &g->loss[i];
      fprintf(out, "%s{\"seq\":%llu,\"at_ns\":%llu,\"lost\":%llu,\"pause_ns\":%llu,\"pause_end_ns\":%llu}",
              i ? "," : "", (unsigned long long)b->seq, (unsigned long long)b->at_ns, (unsigned long long)b->lost,
              (unsigned long long)b->pause_ns, (unsigned long long)b->pause_end_ns);
    }
    fputc(']', out);
  }
  fputs("},\"gap_outliers\":", out);
  lg_outliers_write_json(&g->outliers, out);
  fputs(",\"outlier_sources\":", out);
  lg_moment_write_json(&g->moment, out);
}
