/*
 * test_dt_theory.c — the simulator's DT against the EDT paper's fluid theory of when a
 * micro-burst is first dropped and how much buffer is then free (Shan et al., TPDS 2017,
 * Theorems 1–4, evaluated at the paper's parameters). These validate the
 * simulator (CBR sources, single switch, DT) before EDT is measured against the same theory in
 * tests/sim/test_edt.c.
 *
 * Set-up (§3): N ports overloaded at 2 Gb/s since t = 0 sit at the DT steady state
 * αB/(1+αN); at t0 = 20 ms, M empty ports start bursts at R_i. Tolerance at packet
 * granularity (ours, docs/schemes/edt.md §5): first drop within 3 % of theory plus one packet time (12 µs), free
 * buffer at that drop within 1 % of B.
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
#include "mmu/bm_edt.h"
#include "mmu/mmu.h"
#include "sim/sim.h"
#include "transport/cbr.h"
#include "transport/transport.h"
#include "testlib.h"
#include "bufprobe.h"

/* ------------------------------- DT: Theorems 1–4 (E1–E10) ------------------------------ */

static void dt_theory_case(const char *what, int N, int M, const double *rate, const double *t_ms,
			   const double *free_b)
{
	struct run r;
	struct stream st[24];
	int n = theory_streams(st, N, M, rate, 20, 0);
	run_setup(&r, "dt", M + N, st, n, 20 + 3 * t_ms[M - 1] + 1, NULL);
	tl_run_and_check(&r.sim);
	for (int i = 0; i < M; i++)
		expect_dt_drop(what, (uint16_t)i, t_ms[i], free_b[i]);
	run_free(&r);
}

static void test_dt_theorem1(void **state)
{
	(void)state;
	/* E1 case a: N=2, M=1, R=2 Gb/s; E2: N=0 (the 50 % worst case); E3 case b: N=1, M=3 */
	dt_theory_case("E1 Thm1a N=2 M=1", 2, 1, (double[]){ 2 }, (double[]){ 2.0 }, (double[]){ 250000 });
	dt_theory_case("E2 Thm1a N=0 M=1", 0, 1, (double[]){ 2 }, (double[]){ 4.0 }, (double[]){ 500000 });
	dt_theory_case("E3 Thm1b N=1 M=3", 1, 3, (double[]){ 2, 2, 2 }, (double[]){ 4 / 3.0, 4 / 3.0, 4 / 3.0 },
		       (double[]){ 166667, 166667, 166667 });
}

static void test_dt_theorems_2_3(void **state)
{
	(void)state;
	dt_theory_case("E4 Thm2 N=1 R=1.5,1.2", 1, 2, (double[]){ 1.5, 1.2 }, (double[]){ 4.70588, 10.0 },
		       (double[]){ 294117.6, 250000 });
	dt_theory_case("E5 Thm3 N=1 R=6,5", 1, 2, (double[]){ 6, 5 }, (double[]){ 0.307692, 0.358974 },
		       (double[]){ 192307.7, 179487.2 });
	dt_theory_case("E6 Thm3 N=0 R=5,4", 0, 2, (double[]){ 5, 4 }, (double[]){ 0.727273, 0.872727 },
		       (double[]){ 363636.4, 327272.7 });
}

/* Theorem 4 (E8–E10): N=2, M=1; the burst port gets 2 Gb/s from t0, plus 4 Gb/s on
 * [t0+1, t0+1+d6) and then `tail` Gb/s more until t0+4. */
static void dt_theorem4_case(const char *what, double d6, double tail, double t_ms, double free_b)
{
	struct run r;
	struct stream st[16];
	const double t0 = 20;
	int n = theory_streams(st, 2, 1, (double[]){ 2 }, t0, 4);
	n = add_rate(st, n, 0, 4, t0 + 1, d6);
	n = add_rate(st, n, 0, tail, t0 + 1 + d6, 3 - d6);
	run_setup(&r, "dt", 3, st, n, t0 + 6, NULL);
	tl_run_and_check(&r.sim);
	expect_dt_drop(what, 0, t_ms, free_b);
	run_free(&r);
}

static void test_dt_theorem4(void **state)
{
	(void)state;
	dt_theorem4_case("E8 Thm4b 6G for 0.5 ms", 0.5, 0, 1.166667, 229166.7);
	dt_theorem4_case("E9 Thm4c 6G 0.15 ms, 3G", 0.15, 1, 1.216667, 235416.7);
	dt_theorem4_case("E10 Thm4d 6G 0.1 ms, 3G", 0.1, 1, 1.350, 250000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dt_theorem1),
		cmocka_unit_test(test_dt_theorems_2_3),
		cmocka_unit_test(test_dt_theorem4),
	};
	return cmocka_run_group_tests_name("dt_theory", tests, NULL, NULL);
}
