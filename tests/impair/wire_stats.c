/* Counters of the wire and their JSON (see wire_stats.h). */
#include "wire_stats.h"

uint64_t wire_order_arrive(wire_order* o) { return o->next_seq++; }

void wire_order_depart(wire_order* o, wire_counts* c, uint64_t seq) {
  uint64_t* slot = &o->left[seq % WIRE_SEQ_RING];
  if (*slot == seq + 1) {
    c->dup_departures++;
    return;
  }
  *slot = seq + 1;
  if (seq + 1 < o->highest_left)
    c->out_of_order++;
  else
    o->highest_left = seq + 1;
}

static void counts_json(FILE* out, const wire_counts* c) {
  fprintf(out,
          "{\"received\":%llu,\"forwarded\":%llu,\"lost\":%llu,\"duplicated\":%llu,\"reordered\":%llu,"
          "\"limit_drops\":%llu,\"tx_errors\":%llu,\"out_of_order\":%llu,\"dup_departures\":%llu}",
          (unsigned long long)c->received, (unsigned long long)c->forwarded, (unsigned long long)c->lost,
          (unsigned long long)c->duplicated, (unsigned long long)c->reordered,
          (unsigned long long)c->limit_drops, (unsigned long long)c->tx_errors,
          (unsigned long long)c->out_of_order, (unsigned long long)c->dup_departures);
}

static void dir_json(FILE* out, const wire_dir_stats* d) {
  fputs("{\"frames\":", out);
  counts_json(out, &d->all);
  fputs(",\"udp\":", out);
  counts_json(out, &d->udp);
  fprintf(out, ",\"socket_drops\":%llu,\"truncated\":%llu}", (unsigned long long)d->socket_drops,
          (unsigned long long)d->truncated);
}

void wire_stats_json(FILE* out, const wire_dir_stats* a_to_b, const wire_dir_stats* b_to_a,
                     const char* extra) {
  fputs("{\"a_to_b\":", out);
  dir_json(out, a_to_b);
  fputs(",\"b_to_a\":", out);
  dir_json(out, b_to_a);
  if (extra && extra[0]) fprintf(out, ",%s", extra);
  fputs("}\n", out);
}
