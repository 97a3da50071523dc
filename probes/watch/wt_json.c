/* The watch's one JSON document (see probes/watch/SCHEMA.md). */
#include "lg_measure_util.h"
#include "wt_state.h"

static void names_json(FILE* out, const wt_names* n) {
  int i;
  fputc('[', out);
  for (i = 0; i < n->len; i++) {
    if (i) fputc(',', out);
    lg_json_string(out, n->name[i]);
  }
  fputc(']', out);
}

/* ,"NAME":[[cpu index, name or task index, count or ns],...] for one kind. */
static void items_json(FILE* out, const wt_window* w, char kind, const char* name) {
  int i, first = 1;
  fprintf(out, ",\"%s\":[", name);
  for (i = 0; i < w->n_items; i++) {
    const wt_item* it = &w->items[i];
    if (it->kind != kind) continue;
    fprintf(out, "%s[%d,%u,%llu]", first ? "" : ",", it->cpu_ix, it->name, (unsigned long long)it->delta);
    first = 0;
  }
  fputc(']', out);
}

static void window_json(FILE* out, const wt_state* st, const wt_window* w) {
  int i;
  fprintf(out, "{\"t0\":%llu,\"t1\":%llu,\"cpu\":[", (unsigned long long)w->t0, (unsigned long long)w->t1);
  for (i = 0; i < st->ncpus; i++) {
    fprintf(out, "%s[%u,%u,%u,", i ? "," : "", w->cpu[i].irq_j, w->cpu[i].softirq_j, w->cpu[i].steal_j);
    if (w->cpu[i].smi < 0)
      fputs("null]", out);
    else
      fprintf(out, "%d]", w->cpu[i].smi);
  }
  fputc(']', out);
  items_json(out, w, 'i', "irq");
  items_json(out, w, 's', "softirq");
  items_json(out, w, 't', "tasks");
  if (w->irq_since) fprintf(out, ",\"irq_since\":%llu", (unsigned long long)w->irq_since);
  fprintf(out, ",\"tasks_since\":%llu,\"items_dropped\":%u}", (unsigned long long)w->tasks_since,
          w->items_dropped);
}

void wt_write_json(const wt_state* st, FILE* out, uint64_t interval_ns, const char* status) {
  uint64_t first = st->samples > st->cap ? st->samples - st->cap : 0, k;
  int i;
  fprintf(out,
          "{\"format\":\"labgate-probe-1\",\"probe\":\"watch\",\"status\":\"%s\",\"parameters\":{\"cpus\":[",
          status);
  for (i = 0; i < st->ncpus; i++) fprintf(out, "%s%d", i ? "," : "", st->cpus[i]);
  fprintf(out, "],\"interval_s\":%.6f,\"task_every\":%u,\"irq_every\":%u,\"keep\":%llu,\"user_hz\":100},",
          (double)interval_ns / 1e9, st->task_every, st->irq_every, (unsigned long long)st->cap);
  fprintf(out, "\"sources\":{\"interrupts\":\"proc_interrupts\",\"softirqs\":\"%s\",\"stat\":\"proc_stat\",",
          st->has_softirqs ? "proc_softirqs"
                           : "not available: no /proc/softirqs (before 2.6.31); "
                             "per-CPU softirq time from /proc/stat only");
  fputs("\"smi\":", out);
  lg_json_string(out, st->smi_why[0] ? st->smi_why : "msr_0x34");
  fprintf(out, ",\"tasks\":\"%s\"},\"placement\":",
          st->has_schedstat ? "proc_task_schedstat" : "proc_task_stat_jiffies");
  lg_json_string(out, st->placement ? st->placement : "on any CPU (not asked to keep away)");
  fputs(",\"names\":{\"irq\":", out);
  names_json(out, &st->irq_names);
  fputs(",\"softirq\":", out);
  names_json(out, &st->softirq_names);
  fputs("},\"tasks\":[", out);
  for (i = 0; i < st->ntasks; i++) {
    fprintf(out, "%s{\"pid\":%d,\"comm\":", i ? "," : "", st->tasks[i].pid);
    lg_json_string(out, st->tasks[i].comm);
    fputc('}', out);
  }
  fprintf(out, "],\"tasks_not_kept\":%llu,\"windows_not_kept\":%llu,\"windows\":[",
          (unsigned long long)(st->tasks_not_kept + st->tasks_unlisted), (unsigned long long)first);
  /* Window 0 is the baseline read (no deltas): left out. */
  for (k = first > 0 ? first : 1; k < st->samples; k++) {
    if (k > (first > 0 ? first : 1)) fputc(',', out);
    window_json(out, st, &st->ring[k % st->cap]);
  }
  fputs("],\"memory\":", out);
  lg_json_memory(out);
  fputs("}\n", out);
}
