/* test_core.c — event queue ordering and determinism, RNG streams, pools, parameter tables. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/event.h"
#include "core/param.h"
#include "core/pool.h"
#include "core/rng.h"

struct trace {
	uint64_t order[4096];
	sb_time when[4096];
	size_t n;
	struct sb_eventq *q;
};

static void record(void *obj, uint64_t arg)
{
	struct trace *t = obj;
	t->when[t->n] = t->q->now;
	t->order[t->n++] = arg;
}

static void test_event_order_and_ties(void **state)
{
	(void)state;
	struct sb_eventq q;
	struct trace *t = calloc(1, sizeof(*t));
	sb_eventq_init(&q);
	t->q = &q;
	struct sb_rng r;
	sb_rng_init(&r, 7, 0);
	/* 2000 events at random times with many ties */
	sb_time at[2000];
	for (uint64_t i = 0; i < 2000; i++) {
		at[i] = sb_rng_below(&r, 50) * SB_NS;
		sb_schedule(&q, at[i], record, t, i);
	}
	sb_eventq_run_until(&q, SB_TIME_NEVER - 1);
	assert_int_equal(t->n, 2000);
	for (size_t i = 1; i < t->n; i++) {
		assert_true(t->when[i - 1] <= t->when[i]);
		/* same time: fired in scheduling order */
		if (t->when[i - 1] == t->when[i])
			assert_true(t->order[i - 1] < t->order[i]);
	}
	for (size_t i = 0; i < t->n; i++)
		assert_int_equal(t->when[i], at[t->order[i]]);
	assert_int_equal(q.executed, 2000);
	sb_eventq_free(&q);
	free(t);
}

static void test_event_run_until_boundary(void **state)
{
	(void)state;
	struct sb_eventq q;
	struct trace t = { .n = 0 };
	sb_eventq_init(&q);
	t.q = &q;
	sb_schedule(&q, 10, record, &t, 1);
	sb_schedule(&q, 20, record, &t, 2);
	sb_schedule(&q, 30, record, &t, 3);
	sb_eventq_run_until(&q, 20);
	assert_int_equal(t.n, 2); /* events at exactly `until` run */
	assert_int_equal(sb_eventq_peek_time(&q), 30);
	/* an event at exactly now is fine and fires before later ones */
	sb_schedule(&q, 20, record, &t, 4);
	sb_eventq_run_until(&q, 100);
	assert_int_equal(t.order[2], 4);
	assert_int_equal(t.when[2], 20);
	assert_int_equal(t.order[3], 3);
	sb_eventq_free(&q);
}

/* Scheduling before now is a bug of the caller (time would run backwards): the queue aborts
 * with a message instead of silently reordering history. Checked in a child process. */
static void test_event_past_aborts(void **state)
{
	(void)state;
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sb_eventq q;
		struct trace t = { .n = 0 };
		sb_eventq_init(&q);
		t.q = &q;
		sb_schedule(&q, 20, record, &t, 1);
		sb_eventq_run_until(&q, 20);
		freopen("/dev/null", "w", stderr); /* the expected message, not noise in the log */
		sb_schedule(&q, 19, record, &t, 2);
		_exit(0);
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

static void test_rng_streams(void **state)
{
	(void)state;
	struct sb_rng a, b, c;
	sb_rng_init(&a, 42, 3);
	sb_rng_init(&b, 42, 3);
	sb_rng_init(&c, 42, 4);
	int same_ac = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t x = sb_rng_u64(&a), y = sb_rng_u64(&b), z = sb_rng_u64(&c);
		assert_int_equal(x, y);
		same_ac += x == z;
	}
	assert_true(same_ac == 0);
	/* a stream does not depend on how much another stream was used */
	struct sb_rng d, e;
	sb_rng_init(&d, 42, 4);
	for (int i = 0; i < 10; i++)
		sb_rng_u64(&a);
	sb_rng_init(&e, 42, 4);
	assert_int_equal(sb_rng_u64(&d), sb_rng_u64(&e));
	/* uniform in [0,1), below() unbiased enough, exponential mean */
	double sum = 0, esum = 0;
	uint64_t counts[10] = { 0 };
	for (int i = 0; i < 200000; i++) {
		double u = sb_rng_uniform(&a);
		assert_true(u >= 0 && u < 1);
		sum += u;
		counts[sb_rng_below(&a, 10)]++;
		esum += sb_rng_exponential(&a, 3.0);
	}
	assert_true(sum / 200000 > 0.497 && sum / 200000 < 0.503);
	for (int i = 0; i < 10; i++)
		assert_true(counts[i] > 19400 && counts[i] < 20600);
	assert_true(esum / 200000 > 2.97 && esum / 200000 < 3.03);
}

static void test_pool_reuse(void **state)
{
	(void)state;
	struct sb_pool p;
	sb_pool_init(&p, 64, 8);
	void *objs[20];
	for (int i = 0; i < 20; i++) {
		objs[i] = sb_pool_get(&p);
		memset(objs[i], 0xab, 64);
	}
	assert_int_equal(p.live, 20);
	assert_int_equal(p.capacity, 24);
	for (int i = 0; i < 20; i++)
		sb_pool_put(&p, objs[i]);
	assert_int_equal(p.live, 0);
	void *again = sb_pool_get(&p);
	assert_ptr_equal(again, objs[19]); /* LIFO: warmest object first */
	sb_pool_put(&p, again);
	assert_int_equal(p.capacity, 24); /* no growth on reuse */
	assert_int_equal(p.peak_live, 20);
	sb_pool_destroy(&p);
}

struct pobj {
	int64_t i;
	double d;
	double prio[8];
	int e;
	struct sb_int_list l;
	char *s;
	struct sb_str_list names;
};
static const char *const colors[] = { "red", "green", NULL };
static const struct sb_param ptab[] = {
	{ "i", SB_P_INT, offsetof(struct pobj, i), "3", 0, 10, "", NULL, "an int" },
	{ "d", SB_P_DOUBLE, offsetof(struct pobj, d), "0.5", 0, 1, "", NULL, "a double" },
	{ "prio", SB_P_PRIO, offsetof(struct pobj, prio), "1", 0, 100, "", NULL, "per priority" },
	{ "e", SB_P_ENUM, offsetof(struct pobj, e), "green", 0, 0, "", colors, "an enum" },
	{ "l", SB_P_INT_LIST, offsetof(struct pobj, l), "[1,2]", 0, 9, "", NULL, "a list" },
	{ "s", SB_P_STRING, offsetof(struct pobj, s), "x", 0, 0, "", NULL, "a string" },
	{ "names", SB_P_STR_LIST, offsetof(struct pobj, names), "", 0, 0, "", NULL, "strings" },
	SB_PARAM_END
};

static void test_params(void **state)
{
	(void)state;
	struct pobj o, c;
	memset(&o, 0, sizeof(o));
	memset(&c, 0, sizeof(c));
	struct sb_error err;
	sb_params_defaults(ptab, &o);
	assert_int_equal(o.i, 3);
	assert_int_equal(o.e, 1);
	assert_int_equal(o.l.n, 2);
	assert_string_equal(o.s, "x");
	assert_int_equal(sb_param_set_text(sb_param_find(ptab, "i"), &o, "11", &err), -1);
	assert_string_equal(err.msg, "i: 11 is out of range, expected a value in [0, 10]");
	assert_int_equal(sb_param_set_text(sb_param_find(ptab, "i"), &o, "2.5", &err), -1);
	assert_string_equal(err.msg, "i: expected an integer, got a fractional number");
	assert_int_equal(sb_param_set_text(sb_param_find(ptab, "e"), &o, "blue", &err), -1);
	assert_string_equal(err.msg, "e: expected one of red|green, got \"blue\"");
	assert_int_equal(sb_param_set_text(sb_param_find(ptab, "prio"), &o, "[1,2,3]", &err), -1);
	assert_int_equal(sb_param_set_text(sb_param_find(ptab, "prio"), &o, "[0,1,2,3,4,5,6,7]", &err), 0);
	assert_true(o.prio[7] == 7.0);
	assert_int_equal(sb_param_set_text(sb_param_find(ptab, "d"), &o, "abc", &err), -1);
	/* string lists: empty by default; brackets, quotes and blanks optional */
	const struct sb_param *names = sb_param_find(ptab, "names");
	assert_int_equal(o.names.n, 0);
	assert_int_equal(sb_param_set_text(names, &o, "[\"spine0-leaf3\", spine1-leaf0 ]", &err), 0);
	assert_int_equal(o.names.n, 2);
	assert_string_equal(o.names.v[0], "spine0-leaf3");
	assert_string_equal(o.names.v[1], "spine1-leaf0");
	assert_int_equal(o.names.line[1], 0);
	assert_int_equal(sb_param_set_str_elem(names, &o, 0, 1, "a-b", 12, &err), 0);
	assert_int_equal(o.names.n, 1);
	assert_int_equal(o.names.line[0], 12);
	assert_int_equal(sb_param_set_text(names, &o, "a,,b", &err), -1);
	assert_string_equal(err.msg, "names: expected a list of strings, got an empty element in `a,,b`");
	assert_int_equal(sb_param_set_text(names, &o, "[a-b", &err), -1);
	assert_string_equal(err.msg, "names: expected a list [a, b, ...] with matching brackets, got `[a-b`");
	assert_int_equal(sb_param_set_text(names, &o, "x-y, z-w", &err), 0);
	/* A list with a hole or a lost bracket is a typo, never a shorter, longer or default list:
	 * `srcs=1,,2` once added host 0 (the unset middle element), "[1,2" and "alpha=[]" passed. */
	const struct sb_param *l = sb_param_find(ptab, "l"), *prio = sb_param_find(ptab, "prio");
	const char *bad_lists[] = { "1,,2", "1,2,", ",1", "[1,,2]", "[ , ]" };
	for (size_t i = 0; i < sizeof(bad_lists) / sizeof(bad_lists[0]); i++) {
		assert_int_equal(sb_param_set_text(l, &o, bad_lists[i], &err), -1);
		assert_non_null(strstr(err.msg, "l: expected a list of integers, got an empty element in `"));
	}
	const char *unbalanced[] = { "[1,2", "1,2]", "(1,2]", "[1,2)", "[", ")" };
	for (size_t i = 0; i < sizeof(unbalanced) / sizeof(unbalanced[0]); i++) {
		assert_int_equal(sb_param_set_text(l, &o, unbalanced[i], &err), -1);
		assert_non_null(strstr(err.msg, "l: expected a list [a, b, ...] with matching brackets, got `"));
	}
	assert_int_equal(o.l.n, 2); /* untouched by the failures: still [1, 2] */
	assert_int_equal(sb_param_set_text(l, &o, "[]", &err), 0); /* an empty integer list is "none" */
	assert_int_equal(o.l.n, 0);
	assert_int_equal(sb_param_set_text(l, &o, "(4, 5)", &err), 0);
	assert_true(o.l.n == 2 && o.l.v[0] == 4 && o.l.v[1] == 5);
	assert_int_equal(sb_param_set_text(prio, &o, "[]", &err), -1);
	assert_string_equal(err.msg, "prio: expected a number or a list of 8 numbers (one per priority), got an empty list");
	assert_int_equal(sb_param_set_text(prio, &o, "", &err), -1);
	assert_int_equal(sb_param_set_text(prio, &o, "[0,1,2,3,4,5,,7]", &err), -1);
	assert_true(o.prio[7] == 7.0 && o.prio[6] == 6.0);
	sb_params_defaults(ptab, &c);
	sb_params_copy(ptab, &c, &o);
	assert_true(c.prio[5] == 5.0);
	assert_ptr_not_equal(c.l.v, o.l.v);
	assert_int_equal(c.names.n, 2);
	assert_string_equal(c.names.v[1], "z-w");
	assert_ptr_not_equal(c.names.v, o.names.v);
	sb_params_free(ptab, &o);
	sb_params_free(ptab, &c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_order_and_ties),
		cmocka_unit_test(test_event_run_until_boundary),
		cmocka_unit_test(test_event_past_aborts),
		cmocka_unit_test(test_rng_streams),
		cmocka_unit_test(test_pool_reuse),
		cmocka_unit_test(test_params),
	};
	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
