/*
 * timers.c — the min-heap of MMU timers.
 */
#include "dataplane/timers.h"

#include <stdlib.h>

static inline bool before(const struct sb_dp_timer *a, const struct sb_dp_timer *b)
{
	return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

bool sb_dp_timers_init(struct sb_dp_timers *t, uint32_t cap)
{
	t->heap = calloc(cap, sizeof(*t->heap));
	t->n = 0;
	t->cap = t->heap ? cap : 0;
	t->seq = t->overflow = 0;
	return t->heap != NULL;
}

void sb_dp_timers_fini(struct sb_dp_timers *t)
{
	free(t->heap);
	t->heap = NULL;
	t->n = t->cap = 0;
}

void sb_dp_timers_arm(struct sb_dp_timers *t, sb_time at, unsigned id)
{
	if (t->n == t->cap) {
		t->overflow++;
		return;
	}
	uint32_t i = t->n++;
	struct sb_dp_timer x = { at, t->seq++, id };
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;
		if (!before(&x, &t->heap[parent]))
			break;
		t->heap[i] = t->heap[parent];
		i = parent;
	}
	t->heap[i] = x;
}

bool sb_dp_timers_pop_due(struct sb_dp_timers *t, sb_time now, unsigned *id)
{
	if (!t->n || t->heap[0].at > now)
		return false;
	*id = t->heap[0].id;
	struct sb_dp_timer x = t->heap[--t->n];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= t->n)
			break;
		if (c + 1 < t->n && before(&t->heap[c + 1], &t->heap[c]))
			c++;
		if (!before(&t->heap[c], &x))
			break;
		t->heap[i] = t->heap[c];
		i = c;
	}
	if (t->n)
		t->heap[i] = x;
	return true;
}
