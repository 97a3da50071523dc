/* The wire's queue of frames waiting for their departure time: a binary
 * min-heap on (due time, arrival order), so frames due at the same time keep
 * their order (netem's tfifo) and a frame due earlier overtakes the rest. */
#ifndef LABGATE_TESTS_IMPAIR_WIRE_QUEUE_H
#define LABGATE_TESTS_IMPAIR_WIRE_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One queued frame: the owner's payload pointer travels with its due time. */
typedef struct wire_item {
  uint64_t due;   /**< CLOCK_MONOTONIC ns */
  uint64_t order; /**< tie-break: enqueue order */
  void* frame;
} wire_item;

typedef struct wire_queue {
  wire_item* items;
  size_t len, cap;
  uint64_t next_order;
} wire_queue;

/** An empty queue holding at most `cap` items. Returns 0 or -1 (no memory). */
int wire_queue_init(wire_queue* q, size_t cap);
void wire_queue_free(wire_queue* q);

/** Adds a frame; returns 0, or -1 when the queue is full (the caller drops it). */
int wire_queue_push(wire_queue* q, uint64_t due, void* frame);

/** The earliest item, or NULL when empty. */
const wire_item* wire_queue_top(const wire_queue* q);

/** Removes the earliest item and returns its frame (NULL when empty). */
void* wire_queue_pop(wire_queue* q);

#ifdef __cplusplus
}
#endif

#endif
