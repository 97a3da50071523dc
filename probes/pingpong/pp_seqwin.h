/* Sequence bookkeeping of the pingpong client: which requests are still
 * outstanding, answered or given up as dropped, so that duplicated, late and
 * out-of-order replies are told apart in fixed memory (a ring of one state byte
 * per sequence number over the last 2^bits requests). */
#ifndef LABGATE_PROBES_PP_SEQWIN_H
#define LABGATE_PROBES_PP_SEQWIN_H

#include <stdint.h>

enum { PP_FREE = 0, PP_OUTSTANDING = 1, PP_ANSWERED = 2, PP_DROPPED = 3 };

/** What a reply turned out to be. */
typedef enum {
  PP_REPLY_OK,      /**< first reply to an outstanding request: a round trip */
  PP_REPLY_DUP,     /**< a second reply to an answered request */
  PP_REPLY_LATE,    /**< reply to a request already given up as dropped */
  PP_REPLY_UNKNOWN, /**< never sent, or older than the window: not ours */
} pp_reply_kind;

typedef struct pp_seqwin {
  uint8_t* state;
  uint64_t mask;             /**< window size - 1 */
  uint64_t next;             /**< the next sequence number to send */
  uint64_t oldest;           /**< no request below this is outstanding */
  uint64_t highest_answered; /**< highest seq answered + 1 (0 = none yet) */
} pp_seqwin;

/** Allocates a window of 2^bits requests. Returns 0 or -1. */
int pp_seqwin_init(pp_seqwin* w, unsigned bits);
void pp_seqwin_free(pp_seqwin* w);

/** Whether another request fits: the slot it would reuse is not outstanding. */
int pp_seqwin_can_send(const pp_seqwin* w);

/** Marks the next sequence number outstanding and returns it (check can_send first). */
uint64_t pp_seqwin_send(pp_seqwin* w);

/** Classifies a reply; `*out_of_order` is set when an OK reply arrives after a
 * reply to a later request. */
pp_reply_kind pp_seqwin_reply(pp_seqwin* w, uint64_t seq, int* out_of_order);

/** The oldest outstanding request, if any: returns 1 and sets *seq, else 0. */
int pp_seqwin_oldest(pp_seqwin* w, uint64_t* seq);

/** Gives up on an outstanding request (its receive timeout passed). */
void pp_seqwin_drop(pp_seqwin* w, uint64_t seq);

#endif
