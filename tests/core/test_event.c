/*
 * test_event.c — the event queue's timing wheel and far heap against a plain reference model:
 * FIFO ties, the near/far boundary, wrap-around, large jumps, growth, and random interleaved
 * schedule and pop (events that schedule more events, as a simulation does).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include "core/event.h"
#include "core/rng.h"

#define HORIZON ((sb_time)SB_WHEEL_SIZE * SB_TICK_PS) /* the wheel's span in ps */

/* The reference: pending (time, sequence, id) in an array; the next event is found by a
 * linear scan for the smallest (time, sequence). Obviously right, and slow. */
struct model_ev {
	sb_time when;
	uint64_t seq, id;
};

struct model {
	struct model_ev *ev;
	size_t n, cap;
	uint64_t seq;
};

static void model_add(struct model *m, sb_time when, uint64_t id)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->ev = realloc(m->ev, m->cap * sizeof(*m->ev));
		assert_non_null(m->ev);
	}
	m->ev[m->n++] = (struct model_ev){ when, m->seq++, id };
}

static struct model_ev model_pop(struct model *m)
{
	assert_true(m->n > 0);
	size_t best = 0;
	for (size_t i = 1; i < m->n; i++)
		if (m->ev[i].when < m->ev[best].when ||
		    (m->ev[i].when == m->ev[best].when && m->ev[i].seq < m->ev[best].seq))
			best = i;
	struct model_ev e = m->ev[best];
	m->ev[best] = m->ev[--m->n];
	return e;
}

/* A run: the queue, the model, and what the fired events do. */
struct run {
	struct sb_eventq q;
	struct model m;
	struct sb_rng rng;
	uint64_t next_id, fired, budget;
	sb_time (*delay)(struct run *r); /* delay of an event scheduled by a firing event */
};

static void fire(void *obj, uint64_t id);

static void both_schedule(struct run *r, sb_time when)
{
	uint64_t id = r->next_id++;
	model_add(&r->m, when, id);
	sb_schedule(&r->q, when, fire, r, id);
}

/* Every firing must be the model's next event, at the model's time; it then schedules 0-2
 * more events while the budget lasts. */
static void fire(void *obj, uint64_t id)
{
	struct run *r = obj;
	struct model_ev want = model_pop(&r->m);
	assert_int_equal(id, want.id);
	assert_int_equal(r->q.now, want.when);
	r->fired++;
	if (r->next_id >= r->budget)
		return;
	unsigned k = (unsigned)sb_rng_below(&r->rng, 3);
	for (unsigned i = 0; i < k; i++)
		both_schedule(r, r->q.now + r->delay(r));
}

static void run_init(struct run *r, uint64_t seed, uint64_t budget, sb_time (*delay)(struct run *r))
{
	*r = (struct run){ .budget = budget, .delay = delay };
	sb_eventq_init(&r->q);
	sb_rng_init(&r->rng, seed, 0);
}

static void run_finish(struct run *r)
{
	sb_eventq_run_until(&r->q, SB_TIME_NEVER - 1);
	assert_int_equal(r->m.n, 0);
	assert_int_equal(r->fired, r->next_id);
	assert_int_equal(r->q.executed, r->fired);
	assert_int_equal(sb_eventq_peek_time(&r->q), SB_TIME_NEVER);
	sb_eventq_free(&r->q);
	free(r->m.ev);
}

/* Delays as a network makes them: many ties (0 and whole nanoseconds), a bucket's worth, a
 * serialisation, a link delay, right at the wheel's edge, and far timeouts. */
static sb_time mixed_delay(struct run *r)
{
	switch (sb_rng_below(&r->rng, 8)) {
	case 0: return 0;
	case 1: return sb_rng_below(&r->rng, 4) * SB_NS;
	case 2: return sb_rng_below(&r->rng, SB_TICK_PS);
	case 3: return sb_rng_below(&r->rng, 400) * SB_NS;
	case 4: return 2 * SB_US + sb_rng_below(&r->rng, 3) * 80;
	case 5: return HORIZON - 2 * SB_TICK_PS + sb_rng_below(&r->rng, 4 * SB_TICK_PS);
	case 6: return HORIZON + sb_rng_below(&r->rng, 3) * SB_TICK_PS;
	default: return sb_rng_below(&r->rng, 5) * SB_MS + sb_rng_below(&r->rng, 2) * SB_US;
	}
}

static void test_random_against_model(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct run r;
		run_init(&r, seed, 200000, mixed_delay);
		/* a start spread from the first tick to far away, with duplicates */
		for (int i = 0; i < 300; i++)
			both_schedule(&r, sb_rng_below(&r.rng, 3) == 0 ? 0 : sb_rng_below(&r.rng, 20 * SB_US));
		run_finish(&r);
	}
}

/* Delays that crowd a few buckets: out-of-order inserts at every depth of a bucket's list,
 * with ties (multiples of 32 ps) that must keep scheduling order. */
static sb_time dense_delay(struct run *r)
{
	return sb_rng_below(&r->rng, 3 * SB_TICK_PS / 32) * 32 + (sb_rng_below(&r->rng, 4) == 0 ? 1 : 0);
}

static void test_crowded_buckets_against_model(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct run r;
		run_init(&r, seed, 100000, dense_delay);
		for (int i = 0; i < 2000; i++) /* hundreds of events per bucket, in random order */
			both_schedule(&r, sb_rng_below(&r.rng, 4 * SB_TICK_PS));
		run_finish(&r);
	}
}

/* run_until in slices, with schedules from outside between them (as tests and the report
 * sampler do): the wheel must not move past an event it did not fire. */
static void test_random_in_slices(void **state)
{
	(void)state;
	struct run r;
	run_init(&r, 99, 100000, mixed_delay);
	for (int i = 0; i < 100; i++)
		both_schedule(&r, sb_rng_below(&r.rng, 10 * SB_US));
	for (sb_time until = 0; r.m.n; until += 3 * SB_US + 17) {
		sb_eventq_run_until(&r.q, until);
		assert_true(r.q.now <= until);
		sb_time next = sb_eventq_peek_time(&r.q);
		assert_true(next > until);
		if (r.next_id < r.budget && sb_rng_below(&r.rng, 2))
			both_schedule(&r, (until > r.q.now ? until : r.q.now) + mixed_delay(&r));
	}
	run_finish(&r);
}

struct trace {
	sb_time when[64];
	uint64_t id[64];
	size_t n;
	struct sb_eventq *q;
};

static void record(void *obj, uint64_t id)
{
	struct trace *t = obj;
	assert_true(t->n < 64);
	t->when[t->n] = t->q->now;
	t->id[t->n++] = id;
}

/* Ties stay FIFO when some of them were far at scheduling time and moved into the wheel later. */
static void test_ties_across_far_and_near(void **state)
{
	(void)state;
	struct sb_eventq q;
	struct trace t = { .q = &q };
	sb_eventq_init(&q);
	sb_time T = 3 * HORIZON + 5;
	sb_schedule(&q, T, record, &t, 1);                 /* far */
	sb_schedule(&q, T - 2 * HORIZON, record, &t, 10);  /* far, fires first */
	sb_schedule(&q, T, record, &t, 2);                 /* far */
	sb_eventq_run_until(&q, T - 2 * HORIZON);          /* now T is still beyond the wheel */
	sb_schedule(&q, T, record, &t, 3);                 /* far */
	sb_schedule(&q, T - HORIZON + SB_TICK_PS, record, &t, 11); /* far too */
	sb_eventq_run_until(&q, T - HORIZON + SB_TICK_PS); /* firing 11 brings T's tick into the wheel */
	sb_schedule(&q, T, record, &t, 4);                 /* near */
	sb_schedule(&q, T - 1, record, &t, 12);            /* near, same tick, earlier */
	sb_schedule(&q, T, record, &t, 5);
	sb_eventq_run_until(&q, SB_TIME_NEVER - 1);
	uint64_t want[] = { 10, 11, 12, 1, 2, 3, 4, 5 };
	assert_int_equal(t.n, 8);
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(t.id[i], want[i]);
	assert_int_equal(t.when[2], T - 1);
	assert_int_equal(t.when[7], T);
	sb_eventq_free(&q);
}

/* Right at the wheel's edge: the last near tick and the first far one, in both orders. */
static void test_near_far_boundary(void **state)
{
	(void)state;
	struct sb_eventq q;
	struct trace t = { .q = &q };
	sb_eventq_init(&q);
	sb_schedule(&q, HORIZON, record, &t, 1);     /* first tick outside the wheel: far */
	sb_schedule(&q, HORIZON - 1, record, &t, 2); /* last picosecond inside */
	sb_schedule(&q, HORIZON - SB_TICK_PS, record, &t, 3);
	sb_schedule(&q, HORIZON, record, &t, 4);
	sb_schedule(&q, HORIZON + SB_TICK_PS - 1, record, &t, 5);
	assert_int_equal(sb_eventq_peek_time(&q), HORIZON - SB_TICK_PS);
	sb_eventq_run_until(&q, SB_TIME_NEVER - 1);
	uint64_t want[] = { 3, 2, 1, 4, 5 };
	assert_int_equal(t.n, 5);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(t.id[i], want[i]);
	sb_eventq_free(&q);
}

/* A chain of events each one bucket-and-a-bit apart runs the wheel around many times. */
struct chain {
	struct sb_eventq *q;
	sb_time step, last;
	uint64_t left;
};

static void chain_step(void *obj, uint64_t arg)
{
	struct chain *c = obj;
	assert_int_equal(c->q->now, c->last + c->step);
	assert_int_equal(arg, c->left);
	c->last = c->q->now;
	if (--c->left)
		sb_schedule(c->q, c->q->now + c->step, chain_step, c, c->left);
}

static void test_wrap_around(void **state)
{
	(void)state;
	struct sb_eventq q;
	sb_eventq_init(&q);
	struct chain c[3] = {
		{ &q, SB_TICK_PS + 3, 0, 5 * SB_WHEEL_SIZE },
		{ &q, 1000 * SB_NS + 1, 0, 20000 },
		{ &q, HORIZON - 1, 0, 100 },
	};
	for (int i = 0; i < 3; i++)
		sb_schedule(&q, c[i].step, chain_step, &c[i], c[i].left);
	sb_eventq_run_until(&q, SB_TIME_NEVER - 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(c[i].left, 0);
	sb_eventq_free(&q);
}

/* Jumps far beyond the wheel, up to the end of time, with ties at each stop. */
static void test_large_jumps(void **state)
{
	(void)state;
	struct sb_eventq q;
	struct trace t = { .q = &q };
	sb_eventq_init(&q);
	sb_time at[] = { SB_TIME_NEVER - 1, SB_SEC, 3600 * SB_SEC, SB_SEC, 7, SB_TIME_NEVER - 1, (sb_time)1 << 62 };
	for (size_t i = 0; i < 7; i++)
		sb_schedule(&q, at[i], record, &t, i);
	sb_eventq_run_until(&q, SB_SEC);
	assert_int_equal(t.n, 3);
	sb_schedule(&q, SB_SEC, record, &t, 7); /* at now, after the jump */
	sb_schedule(&q, SB_SEC + 1, record, &t, 8);
	sb_eventq_run_until(&q, SB_TIME_NEVER - 1);
	uint64_t want[] = { 4, 1, 3, 7, 8, 2, 6, 0, 5 };
	assert_int_equal(t.n, 9);
	for (size_t i = 0; i < 9; i++)
		assert_int_equal(t.id[i], want[i]);
	assert_int_equal(q.now, SB_TIME_NEVER - 1);
	sb_eventq_free(&q);
}

/* Many pending events at once (the slot array grows) in one bucket and spread, still FIFO. */
static void count_in_order(void *obj, uint64_t arg)
{
	uint64_t *next = obj;
	assert_int_equal(arg, *next);
	(*next)++;
}

static void test_growth_and_crowded_bucket(void **state)
{
	(void)state;
	struct sb_eventq q;
	sb_eventq_init(&q);
	uint64_t next = 0, n = 100000;
	for (uint64_t i = 0; i < n; i++)
		sb_schedule(&q, 100 + (i / 1000) * 2 * SB_US, count_in_order, &next, i);
	sb_eventq_run_until(&q, SB_TIME_NEVER - 1);
	assert_int_equal(next, n);
	/* sub-tick times scheduled in descending order into one bucket: sorted, not appended */
	next = 0;
	sb_time base = q.now;
	for (uint64_t i = 0; i < 200; i++)
		sb_schedule(&q, base + SB_TICK_PS - 1 - i, count_in_order, &next, 199 - i);
	sb_eventq_run_until(&q, SB_TIME_NEVER - 1);
	assert_int_equal(next, 200);
	sb_eventq_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_against_model),
		cmocka_unit_test(test_crowded_buckets_against_model),
		cmocka_unit_test(test_random_in_slices),
		cmocka_unit_test(test_ties_across_far_and_near),
		cmocka_unit_test(test_near_far_boundary),
		cmocka_unit_test(test_wrap_around),
		cmocka_unit_test(test_large_jumps),
		cmocka_unit_test(test_growth_and_crowded_bucket),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
