/*
 * test_flowlog.c — the summary's FCT groups (src/sim/flowlog.c): which finished flows each
 * group takes (all; short < 100 KB; long > 1 MB; incast responses, docs/outputs.md), their
 * count, mean and nearest-rank percentiles, over more flows than the spill keeps in memory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include "sim/flowlog.h"
#include "sim/report.h"
#include "sim/sim.h"

/* A finished flow of `size` bytes with slowdown `slowdown` (fct = slowdown × ideal). */
static void add(struct sb_sim *sim, uint64_t size, enum sb_flow_kind kind, double slowdown)
{
	struct sb_flow_result r = { .size = size, .kind = kind, .ideal = 1000, .fct = (sb_time)(slowdown * 1000) };
	sb_flowlog_add(sim, &r);
}

static void test_group_boundaries(void **state)
{
	(void)state;
	struct sb_sim *simp = calloc(1, sizeof(*simp)), *sim_ = simp;
	add(sim_, 99999, SB_KIND_BACKGROUND, 2);     /* short */
	add(sim_, 100000, SB_KIND_BACKGROUND, 3);    /* neither short nor long */
	add(sim_, 1000000, SB_KIND_BACKGROUND, 4);   /* neither: long means more than 1 MB */
	add(sim_, 1000001, SB_KIND_BACKGROUND, 5);   /* long */
	add(sim_, 0, SB_KIND_INCAST, 7);          /* incast (and short: 0 B) */
	struct sb_summary_group all, small, large, incast;
	sb_flowlog_groups(sim_, &all, &small, &large, &incast);
	assert_int_equal(all.count, 5);
	assert_true(all.mean == (2 + 3 + 4 + 5 + 7) / 5.0);
	assert_int_equal(small.count, 2);
	assert_true(small.mean == 4.5);
	assert_int_equal(large.count, 1);
	assert_true(large.p99 == 5);
	assert_int_equal(incast.count, 1);
	assert_true(incast.p50 == 7);
	assert_true(all.p50 == 4 && all.p99 == 7); /* nearest rank: ceil(0.5 × 5) = 3rd */
	sb_flowlog_free(sim_);
	free(simp);
}

/* 10^4 flows (past the spill's buffer): slowdowns 1..10^4 in a scrambled order. */
static void test_percentiles_many(void **state)
{
	(void)state;
	struct sb_sim *simp = calloc(1, sizeof(*simp)), *sim_ = simp;
	const int n = 10000;
	for (int i = 0; i < n; i++)
		add(sim_, 1000, SB_KIND_BACKGROUND, 1 + (double)((i * 7919) % n));
	struct sb_summary_group all, small, large, incast;
	sb_flowlog_groups(sim_, &all, &small, &large, &incast);
	assert_int_equal(all.count, n);
	assert_true(all.p50 == 5000 && all.p95 == 9500 && all.p99 == 9900);
	assert_true(all.mean == 5000.5);
	assert_int_equal(large.count, 0);
	assert_int_equal(incast.count, 0);
	sb_flowlog_free(sim_);
	free(simp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_boundaries),
		cmocka_unit_test(test_percentiles_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
