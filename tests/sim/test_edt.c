/*
 * test_edt.c — Enhanced Dynamic Threshold (src/mmu/bm_edt.c).
 *
 * Vectors are worked from the EDT paper (TPDS'17): Theorem 5 and its corrected draining-regime
 * form (docs/schemes/edt.md §4), the derived cn2/TM1 (§4.2), the Fig. 12–14 scenario, the state
 * machine's transitions, and a reduced Fig. 17 ON/OFF run. The DT
 * theorems (E1–E10) that validate the simulator itself are in tests/sim/test_dt_theory.c.
 *
 * Every switch is the paper's: 16 ports at 1 Gb/s, B = 1 MB (10^6 B), α = 1, 1500-byte
 * packets. An output port is overloaded at R Gb/s by ceil(R) CBR senders of at most 1 Gb/s
 * each (the paper does not say how; our choice, docs/schemes/edt.md §5).
 *
 * Tolerances are at packet granularity (ours, from a packet-level reference model of the rules,
 * docs/schemes/edt.md §4, values in experiments/edt/refmodel.tsv): a DT first drop within 3 % of
 * the fluid theory plus one packet time (12 µs, a 1500-byte packet at 1 Gb/s), the free buffer at
 * that drop within 1 % of B; an EDT first drop at most max(2 %, (N+1) %) early and never late.
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

/* ------------------- the state machine, driven directly (no simulator) ------------------- */

static sb_time fake_now;
static sb_time armed_at[64];
static unsigned armed_id[64];
static int narmed;

static sb_time fake_clock(void *ctx)
{
	(void)ctx;
	return fake_now;
}

static void fake_arm(void *ctx, struct sb_mmu *m, sb_time at, unsigned id)
{
	(void)ctx;
	(void)m;
	assert_true(narmed < 64);
	armed_at[narmed] = at;
	armed_id[narmed++] = id;
}

/* 16 ports at 1 Gb/s sharing `buffer`; `timers` false = an embedder without arm_timer. This MMU
 * serves ports [0, own_ports) of the switch (0 = all 16), as with switch.mmu_ports. */
static struct sb_mmu *direct_mmu_ports(uint64_t buffer, bool timers, const char *const *sets, uint16_t own_ports)
{
	static const uint64_t rates[16] = { [0 ... 15] = 1000000000ULL };
	struct sb_mmu_config cfg = { .nports = 16, .port_hi = own_ports, .buffer_bytes = buffer, .port_rate_bps = rates };
	struct sb_mmu_env env = { .now = fake_clock, .arm_timer = timers ? fake_arm : NULL };
	struct sb_mmu *m = sb_mmu_new(sb_bm_find("edt"), &cfg, &env);
	tl_mmu_start(m, sets);
	m->check_invariants = true;
	fake_now = 0;
	narmed = 0;
	return m;
}

static struct sb_mmu *direct_mmu(uint64_t buffer, bool timers, const char *const *sets)
{
	return direct_mmu_ports(buffer, timers, sets, 0);
}

static enum sb_drop_cause enq(struct sb_mmu *m, uint16_t port)
{
	struct sb_mmu_pkt p = { .in_port = 15, .out_port = port, .prio = 1, .bytes = PKT };
	return sb_mmu_admit(m, &p);
}

static void deq(struct sb_mmu *m, uint16_t port)
{
	struct sb_mmu_pkt p = { .in_port = 15, .out_port = port, .prio = 1, .bytes = PKT };
	sb_mmu_release(m, &p, SB_RELEASE_TX);
}

static struct sb_edt_queue_view view(const struct sb_mmu *m, uint16_t port)
{
	struct sb_edt_queue_view v;
	sb_edt_queue(m, port, 1, &v);
	return v;
}

/* §4.2, eqs. 73 and 78 (docs/schemes/edt.md §2.1): cn2 = 4αB/(2+αP)^2 in packets,
 * TM1 = 4(1+αP)/(2+αP)^2 · d, d = 1.25 B/C. */
static void test_edt_derived_parameters(void **state)
{
	(void)state;
	struct sb_edt_derived d;
	struct sb_mmu *m = direct_mmu(1000000, true, NULL);
	sb_edt_get_derived(m, 1, &d);
	assert_int_equal(d.cn2, 8);              /* 12,345.7 B */
	assert_int_equal(d.tm2, 10 * SB_MS);     /* the paper's d for B/C = 8 ms */
	assert_true(llabs((long long)d.tm1 - 2098765432LL) < 1000); /* 68/324 · 10 ms */
	assert_int_equal(d.cn1, 3);
	assert_int_equal(d.ports, 16);
	sb_mmu_free(m);
	/* the DPDK testbed: P = 4, B = 256 KB, d = 10 ms -> 18.96 packets, 5.556 ms */
	m = direct_mmu(256000, true, (const char *const[]){ "ports", "4", "d_us", "10000", NULL });
	sb_edt_get_derived(m, 1, &d);
	assert_int_equal(d.cn2, 18);
	assert_true(llabs((long long)d.tm1 - 5555555556LL) < 1000);
	sb_mmu_free(m);
	/* overrides win; α = 2 derives per priority: 8e6 / 34^2 / 1500 = 4.6 */
	m = direct_mmu(1000000, true, (const char *const[]){ "cn2", "20", "tm1_us", "5560", NULL });
	sb_edt_get_derived(m, 1, &d);
	assert_int_equal(d.cn2, 20);
	assert_int_equal(d.tm1, 5560 * SB_US);
	sb_mmu_free(m);
	m = direct_mmu(1000000, true, (const char *const[]){ "alpha", "2", NULL });
	sb_edt_get_derived(m, 1, &d);
	assert_int_equal(d.cn2, 4);
	sb_mmu_free(m);
	/* an MMU serving 8 of the switch's ports derives with P = 8: 4e6 / 100 / 1500 = 26.7 */
	m = direct_mmu_ports(1000000, true, NULL, 8);
	sb_edt_get_derived(m, 1, &d);
	assert_int_equal(d.ports, 8);
	assert_int_equal(d.cn2, 26);
	sb_mmu_free(m);
}

/* The two threshold forms with the machine off: "dt" admits while q + L <= α(B − Q) (one queue
 * stops at 333 packets = 499,500 B), "paper" while q < α(B − Q) (334 packets, 501,000 B). At the
 * exact boundary, B = 4500: the second packet ends exactly on T = 4500 − 1500 = 3000 and "dt"
 * admits it (q + L = T), as "paper" does (q = 1500 < T); the third is refused by both. */
static void test_edt_threshold_forms(void **state)
{
	(void)state;
	const char *forms[2] = { "dt", "paper" };
	const int expect[2] = { 333, 334 };
	for (int k = 0; k < 2; k++) {
		for (int exact = 0; exact < 2; exact++) {
			struct sb_mmu *m = direct_mmu(exact ? 4500 : 1000000, true,
						      (const char *const[]){ "enable", "false", "threshold_test", forms[k], NULL });
			int n = 0;
			while (enq(m, 0) == SB_ADMIT)
				n++;
			assert_int_equal(n, exact ? 2 : expect[k]);
			assert_int_equal(m->drops[SB_DROP_THRESHOLD], 1);
			assert_int_equal(sb_edt_stats(m)->entered, 0);
			sb_mmu_free(m);
		}
	}
}

static void test_edt_enter_and_exits(void **state)
{
	(void)state;
	struct sb_mmu *m = direct_mmu(1000000, true, NULL);
	const struct sb_edt_stats *st = sb_edt_stats(m);
	/* cn2 − 1 net enqueues: still CONTROLLED, C2 counts them, TM1 runs */
	for (int i = 0; i < 7; i++)
		assert_int_equal(enq(m, 0), SB_ADMIT);
	assert_false(view(m, 0).uncontrolled);
	assert_int_equal(view(m, 0).c2, 7);
	assert_true(view(m, 0).tm1_running);
	/* a dequeue takes one back (a sawtooth that does not grow is no burst) */
	deq(m, 0);
	assert_int_equal(view(m, 0).c2, 6);
	assert_int_equal(enq(m, 0), SB_ADMIT);
	assert_int_equal(enq(m, 0), SB_ADMIT);
	assert_true(view(m, 0).uncontrolled);
	assert_int_equal(sb_edt_n_uncontrolled(m), 1);
	assert_int_equal(narmed, 1); /* TM2 */
	assert_int_equal(armed_at[0], 10 * SB_MS);
	assert_int_equal(armed_id[0], sb_mmu_qi(0, 1));
	/* UNCONTROLLED with n = 1: threshold B, far beyond DT's α(B − Q) ≈ B/2 */
	int admitted = 0;
	while (enq(m, 0) == SB_ADMIT)
		admitted++;
	assert_true(m->used > 990000 && m->used <= 1000000);
	assert_false(view(m, 0).uncontrolled); /* the refusal was an overflow: global pulse */
	assert_int_equal(st->exit_overflow, 1);
	(void)admitted;

	/* drain; cn1 = 3 consecutive dequeues would end UNCONTROLLED too (tested below) */
	while (m->used)
		deq(m, 0);
	/* queue 1 enters, queue 2 enters: n = 2, each capped at B/2 */
	for (int i = 0; i < 8; i++) {
		enq(m, 1);
		enq(m, 2);
	}
	assert_int_equal(sb_edt_n_uncontrolled(m), 2);
	while (enq(m, 1) == SB_ADMIT)
		;
	assert_true(m->q_egr[sb_mmu_qi(1, 1)] <= 500000 && m->q_egr[sb_mmu_qi(1, 1)] > 500000 - PKT);
	assert_true(view(m, 1).uncontrolled); /* a drop at the B/n cap is no exit (docs/schemes/edt.md §1) */
	assert_int_equal(view(m, 1).c2, 0);
	/* C1: cn1 consecutive dequeues -> CONTROLLED, n back to 1 */
	deq(m, 1);
	deq(m, 1);
	assert_true(view(m, 1).uncontrolled);
	enq(m, 1); /* an enqueue resets C1 */
	assert_int_equal(view(m, 1).c1, 0);
	deq(m, 1);
	deq(m, 1);
	deq(m, 1);
	assert_false(view(m, 1).uncontrolled);
	assert_int_equal(st->exit_c1, 1);
	assert_int_equal(sb_edt_n_uncontrolled(m), 1);
	while (m->q_egr[sb_mmu_qi(1, 1)])
		deq(m, 1);
	/* TM2: queue 1 re-enters later; its first spell's timer then fires stale and changes
	 * nothing. Queue 2's own deadline ends its spell, not a picosecond earlier. */
	assert_int_equal(narmed, 3);
	fake_now = 3 * SB_MS;
	for (int i = 0; i < 8; i++)
		enq(m, 1);
	assert_true(view(m, 1).uncontrolled);
	assert_int_equal(view(m, 1).tm2_expiry, 13 * SB_MS);
	fake_now = armed_at[1];
	sb_mmu_timer(m, armed_id[1]);
	assert_true(view(m, 1).uncontrolled);
	assert_true(view(m, 2).uncontrolled);
	fake_now = view(m, 2).tm2_expiry - 1;
	sb_mmu_timer(m, (unsigned)sb_mmu_qi(2, 1));
	assert_true(view(m, 2).uncontrolled);
	fake_now++;
	sb_mmu_timer(m, (unsigned)sb_mmu_qi(2, 1));
	assert_false(view(m, 2).uncontrolled);
	assert_true(view(m, 1).uncontrolled);
	assert_int_equal(st->exit_tm2, 1);
	assert_int_equal(st->entered, 4);
	assert_int_equal(st->max_uncontrolled, 2);
	sb_mmu_free(m);
}

/* TM1: growth of cn2 spread over more than TM1 is not a burst; the overflow pulse leaves the
 * C2 of CONTROLLED queues alone; a drop at a queue resets its C2 (Rule 1). */
static void test_edt_tm1_overflow_and_drop_rules(void **state)
{
	(void)state;
	struct sb_mmu *m = direct_mmu(1000000, true, NULL);
	struct sb_edt_derived d;
	sb_edt_get_derived(m, 1, &d);
	for (int i = 0; i < 7; i++)
		enq(m, 3);
	fake_now = d.tm1; /* the window closes with C2 = 7 < 8 */
	enq(m, 3);
	assert_false(view(m, 3).uncontrolled);
	assert_int_equal(view(m, 3).c2, 1); /* reset, then this arrival opened a new window */
	assert_int_equal(view(m, 3).tm1_expiry, 2 * d.tm1);
	for (int i = 0; i < 6; i++)
		enq(m, 3);
	assert_int_equal(view(m, 3).c2, 7);
	/* two queues go UNCONTROLLED and fill the buffer; the overflow returns both */
	for (int i = 0; i < 8; i++) {
		enq(m, 4);
		enq(m, 5);
	}
	for (int i = 8; i < 326; i++) { /* 2 × 326 + 14 (queue 3) packets: 1,000 B stay free */
		assert_int_equal(enq(m, 4), SB_ADMIT);
		assert_int_equal(enq(m, 5), SB_ADMIT);
	}
	assert_int_equal(m->used, 999000);
	assert_int_equal(sb_edt_n_uncontrolled(m), 2);
	assert_int_equal(enq(m, 6), SB_DROP_BUFFER_FULL);
	assert_int_equal(sb_edt_n_uncontrolled(m), 0);
	assert_int_equal(sb_edt_stats(m)->exit_overflow, 2);
	assert_int_equal(view(m, 3).c2, 7); /* untouched */
	/* now T1 = α·(B − Q) is tiny: queue 3's next arrival is a threshold drop -> C2 = 0 */
	deq(m, 4);
	deq(m, 4);
	assert_int_equal(enq(m, 3), SB_DROP_THRESHOLD);
	assert_int_equal(view(m, 3).c2, 0);
	assert_false(view(m, 3).tm1_running);
	sb_mmu_free(m);
}

/* Without arm_timer the TM2 expiry is found by a sweep before the next decision anywhere. */
static void test_edt_lazy_timers(void **state)
{
	(void)state;
	struct sb_mmu *m = direct_mmu(1000000, false, NULL);
	for (int i = 0; i < 8; i++)
		enq(m, 0);
	assert_int_equal(sb_edt_n_uncontrolled(m), 1);
	fake_now = view(m, 0).tm2_expiry;
	enq(m, 7); /* another queue's arrival */
	assert_int_equal(sb_edt_n_uncontrolled(m), 0);
	assert_int_equal(sb_edt_stats(m)->exit_tm2, 1);
	sb_mmu_free(m);
}

/* --------------------- EDT in the simulator: the paper's §5.1 scenario --------------------- */

/* Snapshot of an EDT MMU's queues at a given time (an event in the simulation). */
struct snap {
	struct sb_mmu *m;
	uint64_t q[4];
	uint32_t n_unc;
	bool unc[4];
};

static void take_snap(void *obj, uint64_t arg)
{
	(void)arg;
	struct snap *sn = obj;
	for (uint16_t p = 0; p < 4; p++) {
		sn->q[p] = sn->m->q_egr[sb_mmu_qi(p, 1)];
		sn->unc[p] = sb_edt_uncontrolled(sn->m, p, 1);
	}
	sn->n_unc = sb_edt_n_uncontrolled(sn->m);
}

static void snap_at(struct run *r, struct snap *sn, double ms)
{
	sn->m = r->m;
	sb_at(&r->sim.net.engine, sb_time_from_ms(ms), take_snap, sn, 0);
}

static void expect_edt_drop(const char *what, uint16_t port, double t_th, int N)
{
	double t = onset_ms(port), early = fmax(0.02, (N + 1) * 0.01) * t_th;
	printf("  %-28s port %u: first drop %.4f ms (theory %.4f), utilisation %.4f\n", what, port, t, t_th,
	       util_at_drop(port));
	if (t > t_th + PKT_TIME_MS || t < t_th - early)
		fail_msg("%s port %u: EDT first drop at %.4f ms, theory %.4f ms (at most %.3f ms early)", what, port, t,
			 t_th, early);
	if (util_at_drop(port) < 0.99)
		fail_msg("%s port %u: only %.4f of the buffer used at the first drop", what, port, util_at_drop(port));
}

/* Fig. 12 (§5.1): N=2 long-lived ports, one 6 ms burst at 2 Gb/s. DT loses a third of the
 * burst; EDT loses nothing, the burst queue reaches 750 KB while the long-lived ports shrink to
 * (B − 750 KB)/3 = 83 KB each; then C1 ends the spell, the burst drains and the long-lived
 * ports return to their DT steady state B/3. */
static void test_edt_fig12(void **state)
{
	(void)state;
	const double t0 = 30, dur = 6;
	struct stream st[8];
	int n = theory_streams(st, 2, 1, (double[]){ 2 }, t0, dur);
	struct run r;
	run_setup(&r, "dt", 3, st, n, t0 + 40, NULL);
	tl_run_and_check(&r.sim);
	double loss_dt = (double)P.drops[0] / (double)P.arrivals[0];
	printf("  DT: burst loss %.4f (fluid theory (d-2)/(2d) = %.4f, reference model 0.335)\n", loss_dt,
	       (dur - 2) / (2 * dur));
	assert_true(fabs(loss_dt - (dur - 2) / (2 * dur)) < 0.01);
	run_free(&r);

	struct snap before, end, after;
	run_setup(&r, "edt", 3, st, n, t0 + 40, NULL);
	snap_at(&r, &before, t0);
	snap_at(&r, &end, t0 + dur + 0.013); /* the last burst packet reaches the switch */
	snap_at(&r, &after, t0 + 30);
	tl_run_and_check(&r.sim);
	const struct sb_edt_stats *es = sb_edt_stats(r.m);
	printf("  EDT: burst drops %llu of %llu, peak %llu B; long-lived at burst end %llu, %llu B; "
	       "entered %llu, exits c1/overflow/tm2 %llu/%llu/%llu\n",
	       (unsigned long long)P.drops[0], (unsigned long long)P.arrivals[0], (unsigned long long)P.peak_q[0],
	       (unsigned long long)end.q[1], (unsigned long long)end.q[2], (unsigned long long)es->entered,
	       (unsigned long long)es->exit_c1, (unsigned long long)es->exit_overflow, (unsigned long long)es->exit_tm2);
	assert_int_equal(P.drops[0], 0);
	/* before the burst: both long-lived ports CONTROLLED at the DT steady state B/3 */
	assert_int_equal(before.n_unc, 0);
	for (int p = 1; p <= 2; p++)
		assert_true(fabs((double)before.q[p] - B_BYTES / 3.0) < 0.02 * B_BYTES / 3.0);
	/* at its end: burst port UNCONTROLLED near 750 KB, the others near (B − 750 KB)/3 */
	assert_true(end.unc[0] && end.n_unc == 1);
	assert_true(fabs((double)P.peak_q[0] - 750000) < 0.02 * 750000);
	for (int p = 1; p <= 2; p++)
		assert_true(fabs((double)end.q[p] - 250000 / 3.0) < 6000);
	/* afterwards: C1 returned the port (the long-lived ports' own start-up spells ended in an
	 * overflow), and the two long-lived ports are back at B/3 */
	assert_true(es->exit_c1 >= 1);
	assert_int_equal(after.n_unc, 0);
	assert_int_equal(after.q[0], 0);
	for (int p = 1; p <= 2; p++)
		assert_true(fabs((double)after.q[p] - B_BYTES / 3.0) < 0.02 * B_BYTES / 3.0);
	run_free(&r);
}

/* Fig. 13/14 and Theorem 5: with bursts long enough to drop (20 ms), EDT's first drop comes at
 * buffer overflow, t = B/(M(R−C)) in DT's tracking regime (Theorem 5, §4.3), or
 * B/((1+αN)(M(R−C) − NC)) in its draining regime (our correction, docs/schemes/edt.md §4), with
 * the whole buffer in use; DT's comes at Theorem 1's t1, with 1 − 1/(1+α(M+N)) of it in use. */
static void edt_grid_cell(int N, int M, double t_edt, double t_dt)
{
	const double t0 = 30;
	struct stream st[16];
	double rates[3] = { 2, 2, 2 };
	int n = theory_streams(st, N, M, rates, t0, 20);
	char what[48];
	struct run r;
	snprintf(what, sizeof(what), "DT  N=%d M=%d", N, M);
	run_setup(&r, "dt", M + N, st, n, t0 + 12, NULL);
	tl_run_and_check(&r.sim);
	double free_dt = B_BYTES / (1.0 + (M + N)); /* Theorem 1a; 1b's (9) when it applies */
	if (M * 1.0 > 1 + N)
		free_dt = B_BYTES / ((1.0 + N) * ((1 + M) - N));
	expect_dt_drop(what, 0, t_dt, free_dt);
	double dt_onset = onset_ms(0);
	run_free(&r);

	/* Both threshold forms. With "dt" (q + L <= B/n) n queues at their caps leave a little
	 * under one packet per queue free, so simultaneous bursts with N = 0 never overflow the
	 * buffer: they sit at B/n until TM2. With "paper" (q < B/n) each cap admits the packet that
	 * crosses it, the buffer overflows and the global pulse ends every spell (docs/schemes/edt.md §4). */
	for (int form = 0; form < 2; form++) {
		snprintf(what, sizeof(what), "EDT N=%d M=%d %s", N, M, form ? "paper" : "dt");
		run_setup(&r, "edt", M + N, st, n, t0 + 12,
			  (const char *const[]){ form ? "threshold_test=paper" : "threshold_test=dt", NULL });
		tl_run_and_check(&r.sim);
		for (int i = 0; i < M; i++)
			expect_edt_drop(what, (uint16_t)i, t_edt, N);
		const struct sb_edt_stats *es = sb_edt_stats(r.m);
		printf("  EDT/DT time to the first drop = %.2f; entered %llu, exits c1/overflow/tm2 %llu/%llu/%llu\n",
		       onset_ms(0) / dt_onset, (unsigned long long)es->entered, (unsigned long long)es->exit_c1,
		       (unsigned long long)es->exit_overflow, (unsigned long long)es->exit_tm2);
		assert_true(es->max_uncontrolled >= (uint32_t)M);
		if (N == 0 && M > 1)
			assert_int_equal(form ? es->exit_overflow : es->exit_tm2, M);
		run_free(&r);
	}
}

static void test_edt_onset_theorem5(void **state)
{
	(void)state;
	edt_grid_cell(2, 1, 8.0, 2.0);     /* Theorem 5 and Fig. 14: 2 ms vs 8 ms, +300 % */
	edt_grid_cell(0, 1, 8.0, 4.0);     /* the worst case of Fig. 13: DT uses 50 % */
	edt_grid_cell(0, 2, 4.0, 8 / 3.0); /* two bursts split B/2 each (docs/schemes/edt.md §4) */
	edt_grid_cell(2, 2, 4.0, 1.6);
	edt_grid_cell(1, 3, 2.0, 4 / 3.0); /* the paper's (80) says 2.667 ms; draining regime */
}
/* Fig. 14: loss rate of the burst against its duration (N=2, M=1, R=2C). DT follows the fluid
 * (d − 2)/(2d) from 2 ms; EDT loses nothing below 8 ms, then our reference model's curve
 * (0.014 at 8 ms, 0.123 at 9, 0.211 at 10, 0.342 at 12; docs/schemes/edt.md §5). */
static void test_edt_fig14_loss_curve(void **state)
{
	(void)state;
	const double durs[] = { 3, 5, 7, 7.5, 9, 10, 12 };
	const double edt_ref[] = { 0, 0, 0, 0, 0.123, 0.211, 0.342 };
	for (size_t k = 0; k < sizeof(durs) / sizeof(durs[0]); k++) {
		struct stream st[8];
		int n = theory_streams(st, 2, 1, (double[]){ 2 }, 30, durs[k]);
		double loss[2];
		for (int e = 0; e < 2; e++) {
			struct run r;
			run_setup(&r, e ? "edt" : "dt", 3, st, n, 30 + durs[k] + 1, NULL);
			tl_run_and_check(&r.sim);
			loss[e] = (double)P.drops[0] / (double)P.arrivals[0];
			run_free(&r);
		}
		double fluid = (durs[k] - 2) / (2 * durs[k]);
		printf("  burst %4.1f ms: loss DT %.3f (fluid %.3f), EDT %.3f (reference model %.3f)\n", durs[k], loss[0],
		       fluid, loss[1], edt_ref[k]);
		assert_true(fabs(loss[0] - fluid) < 0.01);
		if (edt_ref[k] == 0)
			assert_true(loss[1] == 0);
		else
			assert_true(fabs(loss[1] - edt_ref[k]) < 0.015);
	}
}

/* TM2 (docs/schemes/edt.md §5): with d = 1 ms the spell ends before the buffer is used; the port then
 * re-enters and at the next expiry its queue is above T1 = αF, so it drops at ≈ 2.16 ms
 * (N=2; our reference model) instead of 7.9 ms — still later than DT's 2 ms. With N=0 the
 * drop comes at ≈ 4.32 ms (DT: 4 ms). */
static void edt_tm2_case(int N, double t_ref)
{
	const double t0 = 30;
	struct stream st[8];
	int n = theory_streams(st, N, 1, (double[]){ 2 }, t0, 20);
	struct run r;
	run_setup(&r, "edt", 1 + N, st, n, t0 + 12, (const char *const[]){ "d_us=1000", NULL });
	tl_run_and_check(&r.sim);
	const struct sb_edt_stats *es = sb_edt_stats(r.m);
	double t = onset_ms(0);
	printf("  EDT d=1ms N=%d: first drop %.4f ms (reference model %.2f), utilisation %.3f, tm2 exits %llu\n", N, t,
	       t_ref, util_at_drop(0), (unsigned long long)es->exit_tm2);
	assert_true(fabs(t - t_ref) < 0.03 * t_ref);
	assert_true(es->exit_tm2 >= 2);
	run_free(&r);
}

static void test_edt_tm2_expiry(void **state)
{
	(void)state;
	edt_tm2_case(2, 2.16);
	edt_tm2_case(0, 4.32);
}

/* TM1 (§4.2, eq. 77): a queue growing at 20 Mb/s net (1.02 Gb/s into 1 Gb/s) is below
 * cn2/TM1 ≈ 46 Mb/s and must never go UNCONTROLLED; 200 Mb/s net must. */
static void test_edt_slow_growth_is_no_burst(void **state)
{
	(void)state;
	const double rates[2] = { 1.02, 1.2 };
	for (int k = 0; k < 2; k++) {
		struct stream st[2];
		int n = add_rate(st, 0, 0, rates[k], 0, 20);
		struct run r;
		run_setup(&r, "edt", 1, st, n, 21, NULL);
		tl_run_and_check(&r.sim);
		uint64_t entered = sb_edt_stats(r.m)->entered;
		printf("  %.2f Gb/s for 20 ms: entered UNCONTROLLED %llu times, peak queue %llu B\n", rates[k],
		       (unsigned long long)entered, (unsigned long long)P.peak_q[0]);
		if (k == 0)
			assert_int_equal(entered, 0);
		else
			assert_true(entered >= 1);
		assert_int_equal(P.drops[0], 0);
		run_free(&r);
	}
}

/* With the state machine off EDT is DT, decision for decision (same threshold form, same α). */
static void test_edt_disabled_is_dt(void **state)
{
	(void)state;
	struct stream st[16];
	int n = 0;
	n = add_rate(st, n, 0, 2, 0, 0);
	n = add_rate(st, n, 1, 1.5, 2, 0);
	n = add_rate(st, n, 2, 3, 5, 4);
	n = add_rate(st, n, 3, 1.02, 1, 0);
	n = add_rate(st, n, 2, 2, 14, 6);
	const char *alphas[] = { "alpha=0.5", "alpha=1", "alpha=2" };
	for (int a = 0; a < 3; a++) {
		uint64_t trace[3], drops[3], admitted[3], peak[3];
		const char *scheme[3] = { "dt", "edt", "edt" };
		for (int k = 0; k < 3; k++) {
			struct run r;
			const char *sets[] = { alphas[a], k == 1 ? "enable=false" : "enable=true", NULL };
			run_setup(&r, scheme[k], 4, st, n, 25, k == 0 ? (const char *const[]){ alphas[a], NULL } : sets);
			tl_run_and_check(&r.sim);
			trace[k] = P.trace;
			drops[k] = r.sim.net.stats.pkts_dropped;
			admitted[k] = r.m->admitted;
			peak[k] = r.m->peak_used;
			run_free(&r);
		}
		printf("  %s: dt drops %llu, edt(off) %llu, edt(on) %llu\n", alphas[a], (unsigned long long)drops[0],
		       (unsigned long long)drops[1], (unsigned long long)drops[2]);
		assert_true(drops[0] > 0);
		assert_int_equal(trace[0], trace[1]);
		assert_int_equal(drops[0], drops[1]);
		assert_int_equal(admitted[0], admitted[1]);
		assert_int_equal(peak[0], peak[1]);
		assert_true(trace[2] != trace[0]); /* the comparison can tell the schemes apart */
	}
}

/* Invariants with cells and a switch split into two MMUs (switch.mmu_ports = 8): every
 * operation is checked (run.check_invariants), each MMU derives with its own P = 8 and keeps
 * its own n, and bursts in both halves go UNCONTROLLED independently. */
static void test_edt_invariants_cells_two_mmus(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 16, 1, B_BYTES);
	sc.sw.cell_bytes = 200;
	sc.sw.mmu_ports = 8;
	sc.run.duration_ms = 30;
	tl_set_scheme(&sc, "edt", NULL, NULL);
	tl_build(&sim, &sc);
	assert_int_equal(sim.net.switches[0]->nmmus, 2);
	/* port 0 (MMU 0) and port 8 (MMU 1) take 2 Gb/s bursts; ports 1 and 9 long-lived 1.5 Gb/s */
	const uint32_t dst[4] = { 0, 8, 1, 9 }, src[4][2] = { { 2, 3 }, { 10, 11 }, { 4, 5 }, { 12, 13 } };
	const uint64_t second[4] = { 1000000000, 1000000000, 500000000, 500000000 };
	for (int k = 0; k < 4; k++) {
		uint64_t size = k < 2 ? 400 * (uint64_t)(PKT - sc.tcp.header_bytes) : 0; /* 4.8 ms bursts */
		for (int j = 0; j < 2; j++) {
			struct sb_flow *f = sb_flow_create(&sim.flows, src[k][j], dst[k], size, (sb_time)(5 + 3 * k) * SB_MS,
							   sb_transport_find("cbr"));
			sb_cbr_configure(f, j ? second[k] : 1000000000, PKT);
		}
	}
	tl_run_and_check(&sim);
	for (int g = 0; g < 2; g++) {
		struct sb_mmu *m = sim.net.switches[0]->mmus[g];
		struct sb_edt_derived d;
		sb_edt_get_derived(m, 1, &d);
		assert_int_equal(d.ports, 8);
		assert_int_equal(d.cn2, 13); /* its half of the buffer: 4 · 500 KB / 100 / 1500 */
		assert_true(sb_edt_stats(m)->entered >= 1);
		assert_true(sb_edt_stats(m)->max_uncontrolled <= 2);
		assert_true(m->peak_used <= m->buffer);
		assert_int_equal(sb_mmu_check(m, &(struct sb_error){ "" }), 0);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* A reduced §5.2.1 / Fig. 17 run: 16 output ports, each with 0.133 Gb/s background (constant
 * here, Poisson in the paper) and lognormal ON/OFF bursts at 2 Gb/s (ON mean 2 ms, OFF mean
 * 58 ms, std = mean), ~1.5 s of simulated time, ~350 bursts. A burst is lossless iff both of its
 * CBR flows complete. EDT must keep clearly more bursts lossless than DT, and drop fewer. */
struct onoff_result {
	int bursts, lossless, long_bursts, long_lossless;
	uint64_t drops;
};

static void onoff_run(const char *scheme, struct onoff_result *res)
{
	const int ports = 16;
	const double end_ms = 1500, sigma = sqrt(log(2.0));
	struct run r;
	tl_single_switch(&r.sc, 3 * ports, 1, B_BYTES);
	r.sc.run.duration_ms = end_ms + 30;
	tl_set_scheme(&r.sc, scheme, NULL, NULL);
	if (strcmp(scheme, "edt") == 0)
		tl_set_scheme(&r.sc, scheme, "ports", "16"); /* the paper's P: hosts only send here */
	tl_build(&r.sim, &r.sc);
	probe_install(r.sim.net.switches[0]->mmus[0]);
	uint32_t payload = PKT - (uint32_t)r.sc.tcp.header_bytes;
	struct sb_rng rng;
	sb_rng_init(&rng, 7, 1);
	static uint32_t first_flow[1024];
	static double dur[1024];
	int nb = 0;
	for (uint32_t d = 0; d < (uint32_t)ports; d++) {
		struct sb_flow *bg = sb_flow_create(&r.sim.flows, (d + 1) % ports, d, 0, 0, sb_transport_find("cbr"));
		sb_cbr_configure(bg, 133000000, PKT);
		double t = 58 * sb_rng_uniform(&rng); /* a random phase of the first OFF period */
		for (;;) {
			double z = sqrt(-2 * log(1 - sb_rng_uniform(&rng))) * cos(2 * M_PI * sb_rng_uniform(&rng));
			double on = exp(log(2.0) - sigma * sigma / 2 + sigma * z);
			if (t + on > end_ms || nb == 1024)
				break;
			uint64_t size = (uint64_t)ceil(on / PKT_TIME_MS) * payload;
			for (uint32_t k = 0; k < 2; k++) {
				struct sb_flow *f = sb_flow_create(&r.sim.flows, ports + 2 * d + k, d, size, sb_time_from_ms(t),
								   sb_transport_find("cbr"));
				sb_cbr_configure(f, 1000000000, PKT);
				if (k == 0)
					first_flow[nb] = f->id;
			}
			dur[nb++] = on;
			z = sqrt(-2 * log(1 - sb_rng_uniform(&rng))) * cos(2 * M_PI * sb_rng_uniform(&rng));
			t += on + exp(log(58.0) - sigma * sigma / 2 + sigma * z);
		}
	}
	tl_run_and_check(&r.sim);
	*res = (struct onoff_result){ .bursts = nb, .drops = r.sim.net.stats.pkts_dropped };
	for (int b = 0; b < nb; b++) {
		bool ok = sb_flow_get(&r.sim.flows, first_flow[b])->done && sb_flow_get(&r.sim.flows, first_flow[b] + 1)->done;
		res->lossless += ok;
		if (dur[b] >= 3 && dur[b] < 8) {
			res->long_bursts++;
			res->long_lossless += ok;
		}
	}
	run_free(&r);
}

static void test_edt_onoff_microbursts(void **state)
{
	(void)state;
	struct onoff_result dt, edt;
	onoff_run("dt", &dt);
	onoff_run("edt", &edt);
	printf("  %d bursts: lossless DT %d, EDT %d; of the %d lasting 3-8 ms: DT %d, EDT %d; drops DT %llu, EDT %llu\n",
	       dt.bursts, dt.lossless, edt.lossless, dt.long_bursts, dt.long_lossless, edt.long_lossless,
	       (unsigned long long)dt.drops, (unsigned long long)edt.drops);
	assert_int_equal(dt.bursts, edt.bursts);
	assert_true(dt.bursts > 200 && dt.long_bursts >= 20);
	assert_true(edt.lossless > dt.lossless);
	assert_true(edt.long_lossless >= dt.long_lossless + dt.long_bursts / 4);
	assert_true(edt.drops < dt.drops);
}
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edt_derived_parameters),
		cmocka_unit_test(test_edt_threshold_forms),
		cmocka_unit_test(test_edt_enter_and_exits),
		cmocka_unit_test(test_edt_tm1_overflow_and_drop_rules),
		cmocka_unit_test(test_edt_lazy_timers),
		cmocka_unit_test(test_edt_fig12),
		cmocka_unit_test(test_edt_onset_theorem5),
		cmocka_unit_test(test_edt_fig14_loss_curve),
		cmocka_unit_test(test_edt_tm2_expiry),
		cmocka_unit_test(test_edt_slow_growth_is_no_burst),
		cmocka_unit_test(test_edt_disabled_is_dt),
		cmocka_unit_test(test_edt_invariants_cells_two_mmus),
		cmocka_unit_test(test_edt_onoff_microbursts),
	};
	return cmocka_run_group_tests_name("edt", tests, NULL, NULL);
}
