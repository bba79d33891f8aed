#include "core/event.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"

#define SLOT_BITS 24
#define SLOT_MASK ((1u << SLOT_BITS) - 1)

void sb_eventq_init(struct sb_eventq *q)
{
	memset(q, 0, sizeof(*q));
	q->cap = 1024;
	q->heap = sb_xmalloc(q->cap * sizeof(*q->heap));
	q->slots_cap = 1024;
	q->slots = sb_xmalloc(q->slots_cap * sizeof(*q->slots));
	q->free_slots = sb_xmalloc(q->slots_cap * sizeof(*q->free_slots));
	for (size_t i = 0; i < q->slots_cap; i++)
		q->free_slots[i] = (uint32_t)(q->slots_cap - 1 - i);
	q->nfree = q->slots_cap;
}

void sb_eventq_free(struct sb_eventq *q)
{
	free(q->heap);
	free(q->slots);
	free(q->free_slots);
	memset(q, 0, sizeof(*q));
}

typedef unsigned __int128 sb_u128;

/* (time, sequence) as one 128-bit key: one compare, no branch on ties. */
static inline sb_u128 key_of(const struct sb_heap_entry *e)
{
	return ((sb_u128)e->when << 64) | e->order;
}

static uint32_t slot_alloc(struct sb_eventq *q)
{
	if (q->nfree == 0) {
		size_t old = q->slots_cap;
		if (old * 2 > SLOT_MASK + 1u) {
			fprintf(stderr, "sharebuf: more than %u pending events\n", SLOT_MASK + 1u);
			abort();
		}
		q->slots_cap *= 2;
		q->slots = sb_xrealloc(q->slots, q->slots_cap * sizeof(*q->slots));
		q->free_slots = sb_xrealloc(q->free_slots, q->slots_cap * sizeof(*q->free_slots));
		for (size_t i = q->slots_cap; i-- > old;)
			q->free_slots[q->nfree++] = (uint32_t)i;
	}
	return q->free_slots[--q->nfree];
}

void sb_schedule(struct sb_eventq *q, sb_time when, sb_event_fn fn, void *obj, uint64_t arg)
{
	if (when < q->now) {
		/* Time never runs backwards: an owner computed a deadline that already passed. */
		fprintf(stderr, "sharebuf: event scheduled in the past (at %llu ps, now %llu ps)\n",
			(unsigned long long)when, (unsigned long long)q->now);
		abort();
	}
	if (q->len == q->cap) {
		q->cap *= 2;
		q->heap = sb_xrealloc(q->heap, q->cap * sizeof(*q->heap));
	}
	uint32_t slot = slot_alloc(q);
	q->slots[slot] = (struct sb_event_slot){ fn, obj, arg };
	struct sb_heap_entry ev = { when, (q->next_seq++ << SLOT_BITS) | slot };
	sb_u128 k = key_of(&ev);
	size_t i = q->len++;
	while (i > 0) {
		size_t parent = (i - 1) / 4;
		if (k >= key_of(&q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = ev;
}

int sb_eventq_pop(struct sb_eventq *q, struct sb_event *out)
{
	if (q->len == 0)
		return 0;
	struct sb_heap_entry top = q->heap[0];
	uint32_t slot = (uint32_t)(top.order & SLOT_MASK);
	const struct sb_event_slot *s = &q->slots[slot];
	*out = (struct sb_event){ top.when, top.order >> SLOT_BITS, s->fn, s->obj, s->arg };
	q->free_slots[q->nfree++] = slot;

	struct sb_heap_entry last = q->heap[--q->len];
	sb_u128 last_key = key_of(&last);
	struct sb_heap_entry *h = q->heap;
	size_t n = q->len, i = 0;
	/* Sift the hole down: pick the smallest of up to four children with data-dependent
	 * selects rather than branches (event times are random, so branches mispredict). */
	for (;;) {
		size_t c = 4 * i + 1;
		if (c >= n)
			break;
		size_t best = c;
		sb_u128 best_key = key_of(&h[c]);
		size_t end = c + 4 < n ? c + 4 : n;
		for (size_t k = c + 1; k < end; k++) {
			sb_u128 kk = key_of(&h[k]);
			bool less = kk < best_key;
			best = less ? k : best;
			best_key = less ? kk : best_key;
		}
		if (best_key >= last_key)
			break;
		h[i] = h[best];
		i = best;
	}
	if (n)
		h[i] = last;
	q->now = out->when;
	return 1;
}

void sb_eventq_run_until(struct sb_eventq *q, sb_time until)
{
	struct sb_event ev;
	while (q->len && q->heap[0].when <= until) {
		sb_eventq_pop(q, &ev);
		q->executed++;
		ev.fn(ev.obj, ev.arg);
	}
}
