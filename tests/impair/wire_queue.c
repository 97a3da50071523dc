/* Min-heap of frames by (due, order) for the wire (see wire_queue.h). */
#include "wire_queue.h"

#include <stdlib.h>

int wire_queue_init(wire_queue* q, size_t cap) {
  q->items = calloc(cap ? cap : 1, sizeof *q->items);
  q->len = 0;
  q->cap = cap;
  q->next_order = 0;
  return q->items ? 0 : -1;
}

void wire_queue_free(wire_queue* q) {
  free(q->items);
  q->items = NULL;
  q->len = q->cap = 0;
}

static int before(const wire_item* x, const wire_item* y) {
  return x->due < y->due || (x->due == y->due && x->order < y->order);
}

int wire_queue_push(wire_queue* q, uint64_t due, void* frame) {
  size_t i;
  if (q->len == q->cap) return -1;
  i = q->len++;
  q->items[i].due = due;
  q->items[i].order = q->next_order++;
  q->items[i].frame = frame;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    wire_item tmp;
    if (!before(&q->items[i], &q->items[parent])) break;
    tmp = q->items[i];
    q->items[i] = q->items[parent];
    q->items[parent] = tmp;
    i = parent;
  }
  return 0;
}

const wire_item* wire_queue_top(const wire_queue* q) { return q->len ? &q->items[0] : NULL; }

void* wire_queue_pop(wire_queue* q) {
  void* frame;
  size_t i = 0;
  if (q->len == 0) return NULL;
  frame = q->items[0].frame;
  q->items[0] = q->items[--q->len];
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    wire_item tmp;
    if (l < q->len && before(&q->items[l], &q->items[m])) m = l;
    if (r < q->len && before(&q->items[r], &q->items[m])) m = r;
    if (m == i) break;
    tmp = q->items[i];
    q->items[i] = q->items[m];
    q->items[m] = tmp;
    i = m;
  }
  return frame;
}
