#include "core/event.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"

#define SLOT_BITS 24
#define SLOT_MASK ((1u << SLOT_BITS) - 1)
#define OCCUPIED_WORDS (SB_WHEEL_SIZE / 64)

/* Chain slots [from, to) onto the free list. */
static void free_range(struct sb_eventq *q, uint32_t from, uint32_t to)
{
	for (uint32_t i = to; i-- > from;) {
		q->slots[i].next = q->free_slot;
		q->free_slot = i;
	}
}

void sb_eventq_init(struct sb_eventq *q)
{
	memset(q, 0, sizeof(*q));
	q->slots_cap = 1024;
	q->slots = sb_xcalloc_aligned(q->slots_cap, sizeof(*q->slots), 64); /* a slot never straddles lines */
	free_range(q, 1, q->slots_cap); /* slot 0 stands for "none" */
	q->bucket = sb_xcalloc(SB_WHEEL_SIZE, sizeof(*q->bucket));
	q->occupied = sb_xcalloc(OCCUPIED_WORDS, sizeof(*q->occupied));
	q->far_cap = 256;
	q->far = sb_xmalloc(q->far_cap * sizeof(*q->far));
	q->far_due_tick = UINT64_MAX;
}

void sb_eventq_free(struct sb_eventq *q)
{
	free(q->slots);
	free(q->bucket);
	free(q->occupied);
	free(q->far);
	memset(q, 0, sizeof(*q));
}

_Noreturn void sb_schedule_in_past(const struct sb_eventq *q, sb_time when)
{
	/* An owner computed a deadline that already passed: firing it now would hide the bug,
	 * firing it "then" would make time run backwards. */
	fprintf(stderr, "sharebuf: event scheduled in the past (at %llu ps, now %llu ps)\n",
		(unsigned long long)when, (unsigned long long)q->now);
	abort();
}

/* Insert `slot` into a non-empty bucket after every slot of the same or an earlier time. */
void sb_wheel_insert_sorted(struct sb_eventq *q, struct sb_wheel_bucket *b, uint32_t slot)
{
	struct sb_event_slot *e = &q->slots[slot];
	if (q->slots[b->head].sub > e->sub) {
		e->next = b->head;
		b->head = slot;
		return;
	}
	uint32_t at = b->head;
	while (q->slots[at].next != SB_SLOT_NONE && q->slots[q->slots[at].next].sub <= e->sub)
		at = q->slots[at].next;
	e->next = q->slots[at].next;
	q->slots[at].next = slot;
	if (e->next == SB_SLOT_NONE)
		b->tail = slot;
}

typedef unsigned __int128 sb_u128;

/* (time, sequence) as one 128-bit key: one compare, no branch on ties. */
static inline sb_u128 key_of(const struct sb_far_entry *e)
{
	return ((sb_u128)e->when << 64) | e->order;
}

/* far[0] comes due when (its tick - the wheel's first tick) < SB_WHEEL_SIZE. A far event's
 * tick is at least SB_WHEEL_SIZE beyond the wheel's start when pushed, so no underflow. */
static inline void far_refresh(struct sb_eventq *q)
{
	q->far_due_tick = q->far_len ? (q->far[0].when >> SB_TICK_BITS) - (SB_WHEEL_SIZE - 1) : UINT64_MAX;
}

static void far_push_seq(struct sb_eventq *q, sb_time when, uint32_t slot, uint64_t seq)
{
	if (q->far_len == q->far_cap) {
		q->far_cap *= 2;
		q->far = sb_xrealloc(q->far, q->far_cap * sizeof(*q->far));
	}
	struct sb_far_entry ev = { when, (seq << SLOT_BITS) | slot };
	sb_u128 k = key_of(&ev);
	size_t i = q->far_len++;
	while (i > 0) {
		size_t parent = (i - 1) / 4;
		if (k >= key_of(&q->far[parent]))
			break;
		q->far[i] = q->far[parent];
		i = parent;
	}
	q->far[i] = ev;
	far_refresh(q);
}

static void far_push(struct sb_eventq *q, sb_time when, uint32_t slot)
{
	far_push_seq(q, when, slot, q->next_seq++);
}

static void far_pop(struct sb_eventq *q)
{
	struct sb_far_entry last = q->far[--q->far_len];
	sb_u128 last_key = key_of(&last);
	struct sb_far_entry *h = q->far;
	size_t n = q->far_len, i = 0;
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
	far_refresh(q);
}

/* Double the slots (the free list is empty), up to the 2^24 the far entries can name. */
static void grow_slots(struct sb_eventq *q)
{
	uint32_t old = q->slots_cap;
	if ((uint64_t)old * 2 > SLOT_MASK + 1u) {
		fprintf(stderr, "sharebuf: more than %u pending events\n", SLOT_MASK);
		abort();
	}
	q->slots_cap = old * 2;
	struct sb_event_slot *slots = sb_xcalloc_aligned(q->slots_cap, sizeof(*slots), 64);
	memcpy(slots, q->slots, (size_t)old * sizeof(*slots));
	free(q->slots);
	q->slots = slots;
	free_range(q, old, q->slots_cap);
}

void sb_schedule_slow(struct sb_eventq *q, sb_time when, sb_event_fn fn, void *obj, uint64_t arg)
{
	if (q->free_slot == SB_SLOT_NONE)
		grow_slots(q);
	if ((when >> SB_TICK_BITS) - q->cur_tick < SB_WHEEL_SIZE) {
		sb_schedule(q, when, fn, obj, arg); /* near after all: the free list was empty */
		return;
	}
	uint32_t s = q->free_slot;
	q->free_slot = q->slots[s].next;
	q->slots[s] = (struct sb_event_slot){ SB_SLOT_NONE, 0, fn, obj, arg };
	far_push(q, when, s);
}

uint64_t sb_eventq_reserve(struct sb_eventq *q, uint64_t n)
{
	uint64_t first = q->next_seq;
	q->next_seq += n;
	return first;
}

void sb_schedule_reserved(struct sb_eventq *q, sb_time when, sb_event_fn fn, void *obj, uint64_t arg, uint64_t seq)
{
	if ((when >> SB_TICK_BITS) - q->cur_tick < SB_WHEEL_SIZE || when < q->now) {
		fprintf(stderr, "sharebuf: an event with a reserved sequence number at %llu ps is inside the wheel "
				"(now %llu ps)\n", (unsigned long long)when, (unsigned long long)q->now);
		abort();
	}
	if (q->free_slot == SB_SLOT_NONE)
		grow_slots(q);
	uint32_t s = q->free_slot;
	q->free_slot = q->slots[s].next;
	q->slots[s] = (struct sb_event_slot){ SB_SLOT_NONE, 0, fn, obj, arg };
	far_push_seq(q, when, s, seq);
}

/* A far event falls inside the wheel that starts at `tick`. */
static inline bool far_due(const struct sb_eventq *q, uint64_t tick)
{
	return q->far_len && (q->far[0].when >> SB_TICK_BITS) - tick < SB_WHEEL_SIZE;
}

/* Bring in every far event that falls inside the wheel starting at `tick`. Their buckets are
 * empty (those ticks were outside the wheel until now), and they arrive in (time, sequence)
 * order, so appending keeps each bucket sorted with ties in scheduling order. */
static void far_to_wheel(struct sb_eventq *q, uint64_t tick)
{
	while (far_due(q, tick)) {
		sb_time when = q->far[0].when;
		uint32_t s = (uint32_t)(q->far[0].order & SLOT_MASK);
		far_pop(q);
		uint32_t b_index = (uint32_t)((when >> SB_TICK_BITS) & SB_WHEEL_MASK);
		struct sb_wheel_bucket *b = &q->bucket[b_index];
		q->slots[s].next = SB_SLOT_NONE;
		q->slots[s].sub = (uint32_t)(when & (SB_TICK_PS - 1));
		if (b->head == SB_SLOT_NONE) {
			b->head = s;
			q->occupied[b_index >> 6] |= 1ull << (b_index & 63);
		} else {
			q->slots[b->tail].next = s;
		}
		b->tail = s;
		q->near++;
	}
}

/* Move the wheel's first tick to `tick`, the tick of the next event. Inline: the wheel moves
 * on most events, far events come due on few of those moves. */
static inline void wheel_advance(struct sb_eventq *q, uint64_t tick)
{
	q->cur_tick = tick;
	if (tick >= q->far_due_tick)
		far_to_wheel(q, tick);
}

/* The first non-empty tick of the wheel; the wheel must hold an event. Buckets before
 * cur_tick's are (cur_tick + SB_WHEEL_SIZE)'s and later, so the scan wraps around once. */
static inline uint64_t next_near_tick(const struct sb_eventq *q)
{
	uint32_t start = (uint32_t)(q->cur_tick & SB_WHEEL_MASK);
	uint32_t w = start >> 6;
	uint64_t bits = q->occupied[w] & (~0ull << (start & 63));
	while (!bits) {
		w = (w + 1) & (OCCUPIED_WORDS - 1);
		bits = q->occupied[w];
	}
	uint32_t b = (w << 6) | (uint32_t)__builtin_ctzll(bits);
	return q->cur_tick + ((b - start) & SB_WHEEL_MASK);
}

/* The earliest event's tick and time; false when the queue is empty. */
static inline bool earliest(const struct sb_eventq *q, uint64_t *tick, sb_time *when)
{
	if (q->near) {
		*tick = next_near_tick(q);
		*when = (*tick << SB_TICK_BITS) | q->slots[q->bucket[*tick & SB_WHEEL_MASK].head].sub;
		return true;
	}
	if (q->far_len) {
		*when = q->far[0].when;
		*tick = *when >> SB_TICK_BITS;
		return true;
	}
	return false;
}

/* Remove the earliest event, if it is due by `until`, into *ev and advance `now`. */
static inline bool take_next(struct sb_eventq *q, sb_time until, struct sb_event *ev)
{
	uint64_t tick;
	sb_time when;
	if (!earliest(q, &tick, &when) || when > until)
		return false;
	if (tick != q->cur_tick)
		wheel_advance(q, tick);
	uint32_t b_index = (uint32_t)(tick & SB_WHEEL_MASK);
	struct sb_wheel_bucket *b = &q->bucket[b_index];
	/* The wheel is read in time order but sparsely (a line of buckets spans 2 ns): fetch the
	 * line the scan reaches a few lines from now, which a schedule 4 us ago last touched. */
	__builtin_prefetch(&q->bucket[(b_index + 32) & SB_WHEEL_MASK]);
	uint32_t s = b->head;
	struct sb_event_slot *e = &q->slots[s];
	*ev = (struct sb_event){ when, e->fn, e->obj, e->arg };
	b->head = e->next;
	if (b->head == SB_SLOT_NONE) {
		b->tail = SB_SLOT_NONE;
		q->occupied[b_index >> 6] &= ~(1ull << (b_index & 63));
	}
	e->next = q->free_slot;
	q->free_slot = s;
	q->near--;
	q->now = when;
	return true;
}

int sb_eventq_pop(struct sb_eventq *q, struct sb_event *ev)
{
	return take_next(q, SB_TIME_NEVER, ev);
}

sb_time sb_eventq_peek_time(const struct sb_eventq *q)
{
	uint64_t tick;
	sb_time when;
	return earliest(q, &tick, &when) ? when : SB_TIME_NEVER;
}

/* Start fetching what the event after the one about to run will touch first: its object and
 * argument (a port and a packet, mostly), last written microseconds ago and long gone from the
 * first-level cache. The event that runs now may schedule an earlier one; then
 * this was only a wasted hint. An argument that is not a pointer is harmless to prefetch. */
static inline void prefetch_following(const struct sb_eventq *q)
{
	if (!q->near)
		return;
	uint64_t tick = next_near_tick(q);
	const struct sb_event_slot *e = &q->slots[q->bucket[tick & SB_WHEEL_MASK].head];
	__builtin_prefetch(e->obj);
	__builtin_prefetch((const void *)(uintptr_t)e->arg);
}

void sb_eventq_run_until(struct sb_eventq *q, sb_time until)
{
	struct sb_event ev;
	while (take_next(q, until, &ev)) {
		q->executed++;
		prefetch_following(q);
		ev.fn(ev.obj, ev.arg);
	}
}
