/*
 * test_dt.c — Dynamic Thresholds, Complete Sharing and static partitioning against theory.
 *
 * DT steady state (Choudhury & Hahne): n egress queues of equal α, each permanently
 * overloaded, settle where q = α(B − n·q), i.e. q* = α·B/(1 + n·α), leaving B/(1+nα) free.
 * Overload comes from two line-rate CBR sources per output port (2:1), so every queue keeps
 * hitting its threshold.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmu/mmu.h"
#include "sim/sim.h"
#include "transport/cbr.h"
#include "transport/transport.h"
#include "testlib.h"

/* Single switch, n congested output ports (hosts 0..n-1), 2 CBR senders per port. */
static void overload_setup(struct sb_scenario *sc, int n, uint64_t buffer, int64_t cell)
{
	tl_single_switch(sc, 3 * n, 10, buffer);
	sc->sw.cell_bytes = cell;
}

static void overload_run(struct sb_sim *sim, struct sb_scenario *sc, int n)
{
	tl_build(sim, sc);
	for (int d = 0; d < n; d++)
		for (int k = 0; k < 2; k++)
			tl_cbr(sim, (uint32_t)(n + 2 * d + k), (uint32_t)d, 10000000000ULL, 1048, (sb_time)k * 100 * SB_NS);
	tl_run_and_check(sim);
}

static void check_dt_steady_state(int n, double alpha, int64_t cell)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	const uint64_t B = 2000000;
	overload_setup(&sc, n, B, cell);
	char a[32];
	snprintf(a, sizeof(a), "%g", alpha);
	tl_set_scheme(&sc, "dt", "alpha", a);
	overload_run(&sim, &sc, n);
	struct sb_mmu *m = sim.switches[0]->mmus[0];
	double units = cell ? (double)(B / (uint64_t)cell) : (double)B;
	double expect = alpha * units / (1 + n * alpha);
	for (int d = 0; d < n; d++) {
		double q = (double)m->q_egr[sb_mmu_qi((uint16_t)d, 1)];
		if (fabs(q - expect) > 0.03 * expect)
			fail_msg("n=%d alpha=%g cell=%lld: queue %d holds %.0f units, theory %.0f (%.2f%%)", n, alpha,
				 (long long)cell, d, q, expect, 100 * (q - expect) / expect);
	}
	/* free buffer B/(1+nα) */
	double free_units = (double)(m->buffer - m->used), expect_free = units / (1 + n * alpha);
	assert_true(fabs(free_units - expect_free) <= 0.03 * expect_free + 2 * 1048);
	assert_true(m->drops[SB_DROP_THRESHOLD] > 0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_dt_steady_state_bytes(void **state)
{
	(void)state;
	const int ns[] = { 1, 2, 4, 8 };
	const double alphas[] = { 0.5, 1, 2 };
	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j < 3; j++)
			check_dt_steady_state(ns[i], alphas[j], 0);
}

static void test_dt_steady_state_cells(void **state)
{
	(void)state;
	const int ns[] = { 1, 2, 4, 8 };
	const double alphas[] = { 0.5, 1, 2 };
	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j < 3; j++)
			check_dt_steady_state(ns[i], alphas[j], 200);
}

/* Complete sharing: the overloaded queues fill the whole buffer; never a drop before full. */
static void test_cs_fills_buffer(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	overload_setup(&sc, 2, 500000, 0);
	tl_set_scheme(&sc, "cs", NULL, NULL);
	overload_run(&sim, &sc, 2);
	struct sb_mmu *m = sim.switches[0]->mmus[0];
	assert_true(m->buffer - m->used < 1048);
	assert_int_equal(m->drops[SB_DROP_THRESHOLD], 0);
	assert_true(m->drops[SB_DROP_BUFFER_FULL] > 0);
	assert_true(m->peak_used <= m->buffer);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Static partitioning: each queue stops at its fixed share whatever the others do. */
static void test_static_share(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	overload_setup(&sc, 2, 600000, 0);
	tl_set_scheme(&sc, "static", "queue_bytes", "100000");
	overload_run(&sim, &sc, 2);
	struct sb_mmu *m = sim.switches[0]->mmus[0];
	for (int d = 0; d < 2; d++) {
		uint64_t q = m->q_egr[sb_mmu_qi((uint16_t)d, 1)];
		assert_true(q <= 100000 && q > 100000 - 1048);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dt_steady_state_bytes),
		cmocka_unit_test(test_dt_steady_state_cells),
		cmocka_unit_test(test_cs_fills_buffer),
		cmocka_unit_test(test_static_share),
	};
	return cmocka_run_group_tests_name("dt", tests, NULL, NULL);
}
