/*
 * timers.h — the MMU's timers in real time: a small binary min-heap of (time, timer id).
 *
 * Schemes arm a handful of timers (ABM's and IB's periodic updates, EDT's TM1/TM2, Occamy's
 * grants), so the heap has a fixed capacity allocated at start; the switch's loop fires every
 * due timer at each iteration and sleeps no longer than until the earliest. Timers firing
 * late by the loop's wake-up delay is a limit of software timing (docs/testbed.md).
 */
#ifndef SB_DP_TIMERS_H
#define SB_DP_TIMERS_H

#include <stdbool.h>
#include <stdint.h>
#include "core/time.h"

struct sb_dp_timer {
	sb_time at;
	uint64_t seq; /* arming order: equal times fire in the order armed */
	unsigned id;
};

struct sb_dp_timers {
	struct sb_dp_timer *heap;
	uint32_t n, cap;
	uint64_t seq;
	uint64_t overflow; /* arms refused because the heap was full (reported, never expected) */
};

bool sb_dp_timers_init(struct sb_dp_timers *t, uint32_t cap);
void sb_dp_timers_fini(struct sb_dp_timers *t);
void sb_dp_timers_arm(struct sb_dp_timers *t, sb_time at, unsigned id);
/* Earliest armed time, or SB_TIME_MAX-like UINT64_MAX when none. */
static inline sb_time sb_dp_timers_next(const struct sb_dp_timers *t) { return t->n ? t->heap[0].at : UINT64_MAX; }
/* Remove the earliest timer if it is due at `now`: true and its id in *id. */
bool sb_dp_timers_pop_due(struct sb_dp_timers *t, sb_time now, unsigned *id);

#endif
