/*
 * test_dt.c — Dynamic Thresholds, Complete Sharing and static partitioning against theory.
 *
 * DT steady state (Choudhury & Hahne): n egress queues of equal α, each permanently
 * overloaded, settle where q = α(B − n·q), i.e. q* = α·B/(1 + n·α), leaving B/(1+nα) free.
 * Overload comes from two line-rate CBR sources per output port (2:1), so every queue keeps
 * hitting its threshold. With a different α per priority the same argument gives
 * q_i = α_i·(B − Σ_j q_j), i.e. q_i* = α_i·B/(1 + Σ_j α_j). The admission rule at its exact
 * boundary (the arriving packet must fit under the threshold: q + L ≤ T) is checked on the
 * MMU alone, with Complete Sharing's and static partitioning's boundaries.
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
	struct sb_mmu *m = sim.net.switches[0]->mmus[0];
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

/* Two overloaded queues on two ports with different priorities and α_1 = 0.5, α_2 = 2: each
 * uses its own priority's α, so they settle at α_i·B/(1 + α_1 + α_2) = B/7 and 4B/7, leaving
 * B/3.5 free. A DT that used one α for all priorities would give both B/3 (α = 1) or another
 * common value: the two queues would be equal. */
static void test_dt_alpha_per_priority(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	const uint64_t B = 2000000;
	const double a1 = 0.5, a2 = 2;
	overload_setup(&sc, 2, B, 0);
	tl_set_scheme(&sc, "dt", "alpha", "[1, 0.5, 2, 1, 1, 1, 1, 1]");
	tl_build(&sim, &sc);
	for (int d = 0; d < 2; d++)
		for (int k = 0; k < 2; k++) {
			struct sb_flow *f = tl_cbr(&sim, (uint32_t)(2 + 2 * d + k), (uint32_t)d, 10000000000ULL, 1048,
						   (sb_time)k * 100 * SB_NS);
			f->prio = (uint8_t)(1 + d); /* port 0: priority 1, port 1: priority 2 */
		}
	tl_run_and_check(&sim);
	struct sb_mmu *m = sim.net.switches[0]->mmus[0];
	double q1 = (double)m->q_egr[sb_mmu_qi(0, 1)], q2 = (double)m->q_egr[sb_mmu_qi(1, 2)];
	TL_EXPECT_NEAR(q1, a1 * (double)B / (1 + a1 + a2), 0.03, "DT alpha 0.5 (priority 1) next to alpha 2");
	TL_EXPECT_NEAR(q2, a2 * (double)B / (1 + a1 + a2), 0.03, "DT alpha 2 (priority 2) next to alpha 0.5");
	TL_EXPECT_NEAR((double)(m->buffer - m->used), (double)B / (1 + a1 + a2), 0.03, "DT free buffer");
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* The MMU alone, 3000 bytes, accounting in bytes. */
static struct sb_mmu *bare(const char *scheme, const char *key, const char *value)
{
	static const uint64_t rates[4] = { 10000000000ULL, 10000000000ULL, 10000000000ULL, 10000000000ULL };
	struct sb_mmu_config cfg = { .nports = 4, .buffer_bytes = 3000, .port_rate_bps = rates };
	const char *const kv[] = { key, value, NULL };
	struct sb_mmu *m = sb_mmu_new(sb_bm_find(scheme), &cfg, NULL);
	m->check_invariants = true;
	tl_mmu_start(m, key ? kv : NULL);
	return m;
}

static enum sb_drop_cause offer(struct sb_mmu *m, uint16_t port, uint32_t bytes)
{
	struct sb_mmu_pkt p = { .in_port = 3, .out_port = port, .prio = 1, .bytes = bytes };
	return sb_mmu_admit(m, &p);
}

/* DT admits a packet iff q + L ≤ α·(B − Q), all on pre-arrival counters (docs/schemes/dt.md).
 * With α = 1, B = 3000 and one queue holding 1000 B the threshold is 2000 B: a 1000-byte packet
 * ends exactly on it and is admitted, a 1001-byte one would end beyond it and is refused even
 * though q = 1000 is still below T. */
static void test_dt_admission_boundary(void **state)
{
	(void)state;
	struct sb_mmu *m = bare("dt", NULL, NULL);
	assert_int_equal(offer(m, 0, 1000), SB_ADMIT);    /* q 0, T 3000 */
	assert_int_equal(offer(m, 0, 1001), SB_DROP_THRESHOLD); /* q 1000 < T 2000, q + L = 2001 */
	assert_int_equal(offer(m, 0, 1000), SB_ADMIT);    /* q + L = 2000 = T */
	assert_int_equal(offer(m, 0, 1), SB_DROP_THRESHOLD);    /* q 2000 > T 1000 */
	assert_int_equal(m->used, 2000);
	sb_mmu_free(m);
}

/* Complete Sharing admits up to the last byte of the buffer, and static partitioning up to the
 * last byte of a queue's share: B/(ports × queues_per_port) by default, 3000/(4 × 2) = 375 B. */
static void test_cs_static_boundaries(void **state)
{
	(void)state;
	struct sb_mmu *m = bare("cs", NULL, NULL);
	for (uint16_t p = 0; p < 3; p++)
		assert_int_equal(offer(m, p, 1000), SB_ADMIT); /* the third fills the buffer exactly */
	assert_int_equal(offer(m, 3, 1), SB_DROP_BUFFER_FULL);
	sb_mmu_free(m);
	m = bare("static", "queue_bytes", "1000");
	assert_int_equal(offer(m, 0, 600), SB_ADMIT);
	assert_int_equal(offer(m, 0, 401), SB_DROP_THRESHOLD); /* q 600 < 1000, q + L = 1001 */
	assert_int_equal(offer(m, 0, 400), SB_ADMIT);          /* q + L = 1000: the share, exactly */
	assert_int_equal(offer(m, 1, 1000), SB_ADMIT);         /* another queue's share is its own */
	sb_mmu_free(m);
	m = bare("static", "queues_per_port", "2");
	assert_int_equal(offer(m, 0, 375), SB_ADMIT);
	assert_int_equal(offer(m, 0, 1), SB_DROP_THRESHOLD);
	sb_mmu_free(m);
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
	struct sb_mmu *m = sim.net.switches[0]->mmus[0];
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
	struct sb_mmu *m = sim.net.switches[0]->mmus[0];
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
		cmocka_unit_test(test_dt_alpha_per_priority),
		cmocka_unit_test(test_dt_admission_boundary),
		cmocka_unit_test(test_cs_fills_buffer),
		cmocka_unit_test(test_cs_static_boundaries),
		cmocka_unit_test(test_static_share),
	};
	return cmocka_run_group_tests_name("dt", tests, NULL, NULL);
}
