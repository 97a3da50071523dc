/* The jitter probe's measuring loop, run by one forked child per CPU: read the
 * clock back to back and record every gap between two reads. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "jt.h"
#include "lg_measure_util.h"

#define JT_ALIGN(n) (((n) + 63) & ~(size_t)63)

static size_t items_cap(const jt_config* cfg) {
  return lg_series_capacity(cfg->interval_ns, cfg->duration_ns);
}

size_t jt_slot_size(const jt_config* cfg) {
  return JT_ALIGN(sizeof(jt_slot)) + 2 * JT_ALIGN(sizeof(lg_hist)) +
         JT_ALIGN(items_cap(cfg) * sizeof(lg_interval)) + JT_ALIGN(cfg->max_events * sizeof(jt_event)) +
         JT_ALIGN(lg_outliers_bytes(JT_WORST, 0));
}

lg_hist* jt_hist(jt_slot* s) { return (lg_hist*)((char*)s + JT_ALIGN(sizeof(jt_slot))); }

lg_hist* jt_interval_hist(jt_slot* s) { return (lg_hist*)((char*)jt_hist(s) + JT_ALIGN(sizeof(lg_hist))); }

lg_interval* jt_items(jt_slot* s) {
  return (lg_interval*)((char*)jt_interval_hist(s) + JT_ALIGN(sizeof(lg_hist)));
}

jt_event* jt_events(jt_slot* s, const jt_config* cfg) {
  return (jt_event*)((char*)jt_items(s) + JT_ALIGN(items_cap(cfg) * sizeof(lg_interval)));
}

void* jt_outlier_mem(jt_slot* s, const jt_config* cfg) {
  return (char*)jt_events(s, cfg) + JT_ALIGN(cfg->max_events * sizeof(jt_event));
}

/* Spins until `end`, recording nothing: the warm-up brings caches, TLB and the
 * CPU's frequency to their running state. */
static uint64_t spin_until(uint64_t end) {
  uint64_t t;
  do t = lg_now_ns();
  while (t < end);
  return t;
}

void jt_spin(const jt_config* cfg, jt_slot* slot) {
  lg_hist* h = jt_hist(slot);
  jt_event* events = jt_events(slot, cfg);
  lg_series* s = &slot->series;
  const char* src = "none";
  uint64_t prev, start, end, t, gap;
  if (slot->cpu_asked >= 0 && lg_pin_cpu(slot->cpu_asked) != 0) {
    slot->pin_errno = errno ? errno : EINVAL;
    slot->done = 1;
    return;
  }
  slot->cpu_actual = lg_current_cpu(&src);
  strncpy(slot->cpu_source, src, sizeof(slot->cpu_source) - 1);
  lg_hist_reset(h);
  lg_series_init_at(s, cfg->interval_ns, jt_interval_hist(slot), jt_items(slot), items_cap(cfg));
  snprintf(slot->label, sizeof(slot->label), "jitter cpu %d", slot->cpu_asked);
  if (cfg->progress) lg_series_set_progress(s, 2, h, slot->label, cfg->duration_ns);
  lg_prefault(h, sizeof(lg_hist)); /* no page fault mid-run */
  lg_prefault(events, cfg->max_events * sizeof(jt_event));
  /* A forked child has one thread: RUSAGE_SELF counts it exactly on 2.6.18. */
  lg_moment_init(&slot->moment, 1);
  slot->moment.stamp_why = "not applicable: the jitter probe reads no socket";
  lg_outliers_init_at(&slot->outliers, jt_outlier_mem(slot, cfg), JT_WORST, 0, 0);
  start = spin_until(lg_now_ns() + cfg->warmup_ns);
  /* The switch counts of the first kept gap cover the run from its start. */
  lg_moment_rebase(&slot->moment, 1);
  end = start + cfg->duration_ns;
  lg_series_start(s, start);
  prev = start;
  for (;;) {
    t = lg_now_ns();
    if (t >= end) break; /* the window is [start, end): a gap ending later is not ours */
    gap = t - prev;
    lg_hist_record(h, gap);
    if (gap > cfg->threshold_ns) {
      if (slot->events_len < cfg->max_events) {
        events[slot->events_len].at_ns = prev - start;
        events[slot->events_len].gap_ns = gap;
        slot->events_len++;
      }
      slot->over_threshold++;
    }
    if (lg_outliers_wants(&slot->outliers, gap)) {
      /* One of the worst so far: where it ran and the switches since the last
       * one kept (getcpu, getrusage), in the pingpong probe's record; seq
       * numbers the gaps from 1. That time is ours, so the next gap starts
       * after it. */
      lg_outlier r;
      r.value_ns = gap;
      r.at_ns = t;
      r.seq = h->total;
      lg_moment_capture(&slot->moment, &r, -1, t);
      lg_outliers_add(&slot->outliers, &r);
      t = lg_now_ns();
    }
    if (lg_series_due(s, t)) {
      lg_series_record(s, t, gap);
      /* Closing an interval takes microseconds; that time is ours, not the
       * system's, so the next gap starts after it. */
      t = lg_now_ns();
    } else {
      lg_hist_record(s->cur, gap);
    }
    prev = t;
  }
  lg_series_finish(s, end);
  slot->measured_ns = end - start;
  slot->cpu_actual_end = lg_current_cpu(&src);
  __sync_synchronize();
  slot->done = 1;
}
