/*
 * event.h — the discrete-event core.
 *
 * An event is a function, an object and a 64-bit argument to call it with at a given time.
 * Events fire in (time, scheduling order): ties at the same picosecond fire in the order they
 * were scheduled, so a run is deterministic whatever the queue's internal layout.
 *
 * Two structures hold pending events, split by how far ahead they are:
 *   near  a timing wheel of SB_WHEEL_SIZE buckets, each SB_TICK_PS picoseconds wide, covering
 *         the ticks [cur_tick, cur_tick + SB_WHEEL_SIZE) (about 4.2 us: a serialisation, a
 *         link delay, a PFC frame). Almost every event lands here, in O(1). A bucket is a
 *         linked list of slots sorted by time; equal times keep insertion order, which is
 *         scheduling order (see below). A bitmap of non-empty buckets finds the next event
 *         with a few count-trailing-zeros.
 *   far   a 4-ary min-heap of 16-byte (time, sequence << 24 | slot) entries for the rest
 *         (timeouts, flow arrivals, sampling). When the wheel moves to a later tick, every far
 *         event that now falls inside the wheel moves into it, in (time, sequence) order.
 * Why insertion order is scheduling order in a bucket: a tick enters the wheel only when the
 * wheel advances, and at that moment its bucket is empty and receives the far events of that
 * tick in heap order; everything scheduled into it afterwards has a larger sequence number.
 * So only the far heap needs sequence numbers (40 bits: FIFO for 10^12 scheduled events).
 *
 * Slots are 32 bytes (callback, object, argument, list link and time within the tick) and
 * come from a free list: no allocation per event; arrays grow geometrically and are reused.
 * At most 2^24 events may be pending. (Measured before the wheel, both slower than the plain
 * 4-ary heap: an unrolled 4-child tournament, and a radix heap.)
 *
 * There is no cancel: owners of timers keep their own deadline and ignore stale firings
 * (see sb_flow_arm_timer). That is cheaper than a decrease-key heap and simpler to reason
 * about.
 */
#ifndef SB_EVENT_H
#define SB_EVENT_H

#include <stddef.h>
#include <stdint.h>
#include "core/time.h"

typedef void (*sb_event_fn)(void *obj, uint64_t arg);

#define SB_TICK_BITS 8                       /* a wheel bucket spans 256 ps */
#define SB_TICK_PS ((sb_time)1 << SB_TICK_BITS)
#define SB_WHEEL_BITS 14
#define SB_WHEEL_SIZE (1u << SB_WHEEL_BITS)  /* buckets: the wheel covers 4.19 us */
#define SB_WHEEL_MASK (SB_WHEEL_SIZE - 1)
#define SB_SLOT_NONE 0u                      /* slot 0 is never used: "no slot" */

struct sb_event {
	sb_time when;
	sb_event_fn fn;
	void *obj;
	uint64_t arg;
};

struct sb_event_slot {
	uint32_t next;   /* next slot in the same bucket (or in the free list) */
	uint32_t sub;    /* when % SB_TICK_PS: the time within the bucket's tick */
	sb_event_fn fn;
	void *obj;
	uint64_t arg;
};
_Static_assert(sizeof(struct sb_event_slot) == 32, "two event slots per cache line");

struct sb_wheel_bucket {
	uint32_t head, tail; /* SB_SLOT_NONE when empty */
};

/* A far event: time, then sequence number << 24 | slot index, compared as one 128-bit key. */
struct sb_far_entry {
	sb_time when;
	uint64_t order;
};

struct sb_eventq {
	sb_time now;        /* time of the event being executed (or last executed) */
	uint64_t cur_tick;  /* the wheel's first tick; now / SB_TICK_PS after every pop */
	struct sb_event_slot *slots;
	uint32_t free_slot; /* head of the free list */
	uint32_t slots_cap;
	uint64_t near;      /* events in the wheel */
	struct sb_wheel_bucket *bucket;           /* SB_WHEEL_SIZE */
	uint64_t *occupied;                       /* bit b: bucket b is non-empty */
	struct sb_far_entry *far;
	size_t far_len, far_cap;
	uint64_t far_due_tick;  /* the first wheel tick at which far[0] falls inside the wheel
				 * (UINT64_MAX: none), so a move of the wheel checks one word */
	uint64_t next_seq;
	uint64_t executed;  /* events fired so far */
};

void sb_eventq_init(struct sb_eventq *q);
void sb_eventq_free(struct sb_eventq *q);

/* Out-of-line parts of sb_schedule: far events, a full free list, a bucket insert that is not
 * an append, and the abort for a time in the past. */
void sb_schedule_slow(struct sb_eventq *q, sb_time when, sb_event_fn fn, void *obj, uint64_t arg);
void sb_wheel_insert_sorted(struct sb_eventq *q, struct sb_wheel_bucket *b, uint32_t slot);
_Noreturn void sb_schedule_in_past(const struct sb_eventq *q, sb_time when);

/* Schedule fn(obj, arg) at absolute time `when`, which must not be before now: time never
 * runs backwards, so an earlier `when` is a bug of the caller and aborts with a message.
 * Inline because it runs once or twice per packet hop: the usual case is a near event
 * appended to its bucket. */
static inline void sb_schedule(struct sb_eventq *q, sb_time when, sb_event_fn fn, void *obj, uint64_t arg)
{
	if (__builtin_expect(when < q->now, 0))
		sb_schedule_in_past(q, when);
	uint64_t tick = when >> SB_TICK_BITS;
	uint32_t s = q->free_slot;
	if (__builtin_expect(tick - q->cur_tick >= SB_WHEEL_SIZE || s == SB_SLOT_NONE, 0)) {
		sb_schedule_slow(q, when, fn, obj, arg);
		return;
	}
	struct sb_event_slot *e = &q->slots[s];
	q->free_slot = e->next;
	*e = (struct sb_event_slot){ SB_SLOT_NONE, (uint32_t)(when & (SB_TICK_PS - 1)), fn, obj, arg };
	uint32_t b_index = (uint32_t)(tick & SB_WHEEL_MASK);
	struct sb_wheel_bucket *b = &q->bucket[b_index];
	q->near++;
	if (b->head == SB_SLOT_NONE) {
		b->head = b->tail = s;
		q->occupied[b_index >> 6] |= 1ull << (b_index & 63);
	} else if (q->slots[b->tail].sub <= e->sub) {
		q->slots[b->tail].next = s;
		b->tail = s;
	} else {
		sb_wheel_insert_sorted(q, b, s);
	}
}

/* Reserve `n` far-event sequence numbers, the first returned: events scheduled later with
 * sb_schedule_reserved() then tie with others as if they had been scheduled now, one after
 * the other (the file workload reads its flow list as the run goes, yet its flows start in
 * the order they would have had if all were scheduled at build time). */
uint64_t sb_eventq_reserve(struct sb_eventq *q, uint64_t n);
/* Schedule a far event with a sequence number from sb_eventq_reserve(). `when` must lie
 * beyond the wheel (its tick at least SB_WHEEL_SIZE after the wheel's first): only the far
 * heap orders by sequence; aborts otherwise (the caller reads too late). */
void sb_schedule_reserved(struct sb_eventq *q, sb_time when, sb_event_fn fn, void *obj, uint64_t arg, uint64_t seq);

/* Pop the earliest event into *ev and advance `now`; 0 when the queue is empty. */
int sb_eventq_pop(struct sb_eventq *q, struct sb_event *ev);

/* Time of the earliest pending event, SB_TIME_NEVER when empty. */
sb_time sb_eventq_peek_time(const struct sb_eventq *q);

/* Run events until the queue is empty or the next event is later than `until`. */
void sb_eventq_run_until(struct sb_eventq *q, sb_time until);

#endif
