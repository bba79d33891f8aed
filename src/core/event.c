#include "core/event.h"

#include <stdlib.h>
#include <string.h>
#include "core/util.h"

void sb_eventq_init(struct sb_eventq *q)
{
	memset(q, 0, sizeof(*q));
	q->cap = 1024;
	q->heap = sb_xmalloc(q->cap * sizeof(*q->heap));
}

void sb_eventq_free(struct sb_eventq *q)
{
	free(q->heap);
	memset(q, 0, sizeof(*q));
}

static inline int before(const struct sb_event *a, const struct sb_event *b)
{
	return a->when < b->when || (a->when == b->when && a->seq < b->seq);
}

void sb_schedule(struct sb_eventq *q, sb_time when, sb_event_fn fn, void *obj, uint64_t arg)
{
	if (q->len == q->cap) {
		q->cap *= 2;
		q->heap = sb_xrealloc(q->heap, q->cap * sizeof(*q->heap));
	}
	struct sb_event ev = { when < q->now ? q->now : when, q->next_seq++, fn, obj, arg };
	size_t i = q->len++;
	while (i > 0) {
		size_t parent = (i - 1) / 4;
		if (!before(&ev, &q->heap[parent]))
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
	*out = q->heap[0];
	struct sb_event last = q->heap[--q->len];
	size_t n = q->len, i = 0;
	for (;;) {
		size_t c = 4 * i + 1;
		if (c >= n)
			break;
		size_t best = c, end = c + 4 < n ? c + 4 : n;
		for (size_t k = c + 1; k < end; k++)
			if (before(&q->heap[k], &q->heap[best]))
				best = k;
		if (!before(&q->heap[best], &last))
			break;
		q->heap[i] = q->heap[best];
		i = best;
	}
	if (n)
		q->heap[i] = last;
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
