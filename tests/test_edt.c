/*
 * test_edt.c — Enhanced Dynamic Threshold (src/mmu/bm_edt.c) and the DT theory it builds on.
 *
 * Vectors come from /work/shared/research/002-edt.md: §2.6 (E1–E12, DT Theorems 1–4 and EDT
 * Theorem 5), §3.3 (derived cn2/TM1), §3.5 and §5.3 (the paper's Fig. 12–14 scenario), §7
 * (state-machine tests). Every switch is the paper's: 16 ports at 1 Gb/s, B = 1 MB (10^6 B),
 * α = 1, 1500-byte packets. An output port is overloaded at R Gb/s by ceil(R) CBR senders of
 * at most 1 Gb/s each (the spec's "abstract sources", §6 item 15).
 *
 * Tolerances are at packet granularity (spec §2.6): a DT first drop within 3 % of the fluid
 * theory plus one packet time (12 µs, a 1500-byte packet at 1 Gb/s), the free buffer at that
 * drop within 1 % of B; an EDT first drop at most max(2 %, (N+1) %) early and never late.
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

#define B_BYTES 1000000
#define PKT 1500
#define PKT_TIME_MS 0.012 /* 1500 B at 1 Gb/s */
#define MAXP 32

/* ---------------------------------------------------------------------------------------
 * A probe around the scheme under test: the simulator looks the scheme up by name, so the
 * test swaps the MMU's ops for a copy whose hooks record what happens, then call through.
 * --------------------------------------------------------------------------------------- */
struct probe {
	const struct sb_bm_ops *inner;
	struct sb_bm_ops ops;
	sb_time first_arrival[MAXP], first_drop[MAXP];
	uint64_t used_at_first_drop[MAXP], peak_q[MAXP];
	uint64_t drops[MAXP], arrivals[MAXP];
	uint64_t trace;  /* rolling hash of every decision: compares two schemes exactly */
};
static struct probe P;

static enum sb_drop_cause probe_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	enum sb_drop_cause why = P.inner->admit(m, pkt);
	uint16_t d = pkt->out_port;
	if (P.arrivals[d]++ == 0)
		P.first_arrival[d] = sb_mmu_now(m);
	P.trace = (P.trace ^ (sb_mmu_now(m) * 31 + d * 7 + (uint64_t)why)) * 0x100000001b3ULL;
	return why;
}

static void probe_on_drop(struct sb_mmu *m, const struct sb_mmu_pkt *pkt, enum sb_drop_cause why)
{
	uint16_t d = pkt->out_port;
	if (P.drops[d]++ == 0) {
		P.first_drop[d] = sb_mmu_now(m);
		P.used_at_first_drop[d] = m->used;
	}
	if (P.inner->on_drop)
		P.inner->on_drop(m, pkt, why);
}

static void probe_on_enqueue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	uint64_t q = m->q_egr[sb_mmu_qi(pkt->out_port, pkt->prio)];
	if (q > P.peak_q[pkt->out_port])
		P.peak_q[pkt->out_port] = q;
	if (P.inner->on_enqueue)
		P.inner->on_enqueue(m, pkt);
}

static void probe_install(struct sb_mmu *m)
{
	memset(&P, 0, sizeof(P));
	P.inner = m->ops;
	P.ops = *m->ops;
	P.ops.admit = probe_admit;
	P.ops.on_drop = probe_on_drop;
	P.ops.on_enqueue = probe_on_enqueue;
	m->ops = &P.ops;
}

/* Time from a port's first arrival to its first drop, in ms (infinite if none). */
static double onset_ms(uint16_t port)
{
	if (!P.drops[port])
		return INFINITY;
	return (double)(P.first_drop[port] - P.first_arrival[port]) * 1e-9;
}

static inline double util_at_drop(uint16_t port) { return (double)P.used_at_first_drop[port] / B_BYTES; }

/* ---------------------------------------------------------------------------------------
 * Scenarios: one switch, `hosts` hosts at 1 Gb/s; output ports are hosts 0..; every stream
 * has its own sender host (after the output hosts), so each sender is at most 1 Gb/s.
 * --------------------------------------------------------------------------------------- */
struct stream {
	uint16_t dst;
	double gbps;      /* ≤ 1 */
	double start_ms;
	double dur_ms;    /* 0 = until the end */
};

struct run {
	struct sb_scenario sc;
	struct sb_sim sim;
	struct sb_mmu *m;
};

/* Set up (not run) a switch with the given streams; `extra` are scheme overrides "k=v". */
static void run_setup(struct run *r, const char *scheme, int ndst, const struct stream *st, int nst,
		      double end_ms, const char *const *extra)
{
	tl_single_switch(&r->sc, 16, 1, B_BYTES);
	if (ndst + nst > 16)
		r->sc.topo.hosts = ndst + nst;
	r->sc.run.duration_ms = end_ms;
	tl_set_scheme(&r->sc, scheme, NULL, NULL);
	for (; extra && *extra; extra++) {
		char k[64];
		const char *eq = strchr(*extra, '=');
		snprintf(k, sizeof(k), "%.*s", (int)(eq - *extra), *extra);
		tl_set_scheme(&r->sc, scheme, k, eq + 1);
	}
	tl_build(&r->sim, &r->sc);
	r->m = r->sim.switches[0]->mmus[0];
	probe_install(r->m);
	uint32_t payload = PKT - (uint32_t)r->sc.tcp.header_bytes;
	for (int i = 0; i < nst; i++) {
		uint64_t bps = (uint64_t)(st[i].gbps * 1e9 + 0.5);
		uint64_t size = 0;
		if (st[i].dur_ms > 0) /* whole packets, sent every PKT·8/rate from the start */
			size = (uint64_t)ceil(st[i].dur_ms * 1e-3 * (double)bps / (PKT * 8.0) - 1e-9) * payload;
		struct sb_flow *f = sb_flow_create(&r->sim, (uint32_t)(ndst + i), st[i].dst, size,
						   sb_time_from_ms(st[i].start_ms), sb_transport_find("cbr"));
		sb_cbr_configure(f, bps, PKT);
	}
}

static void run_free(struct run *r)
{
	sb_sim_free(&r->sim);
	sb_scenario_free(&r->sc);
}

/* Add `n_full` 1 Gb/s streams plus one of `rest` Gb/s to port `dst` (R = n_full + rest Gb/s). */
static int add_rate(struct stream *st, int k, uint16_t dst, double gbps, double start, double dur)
{
	for (; gbps > 1e-9; gbps -= 1)
		st[k++] = (struct stream){ dst, gbps > 1 ? 1 : gbps, start, dur };
	return k;
}

/* The theory's set-up (spec §2.0): ports M..M+N−1 overloaded at 2 Gb/s from t = 0 (steady
 * state long before `t0`), ports 0..M−1 burst at `rate[i]` from t0. Returns stream count. */
static int theory_streams(struct stream *st, int N, int M, const double *rate, double t0, double dur)
{
	int k = 0;
	for (int j = 0; j < N; j++)
		k = add_rate(st, k, (uint16_t)(M + j), 2, 0, 0);
	for (int i = 0; i < M; i++)
		k = add_rate(st, k, (uint16_t)i, rate[i], t0, dur);
	return k;
}

static void expect_dt_drop(const char *what, uint16_t port, double t_ms, double free_bytes)
{
	double t = onset_ms(port), tol = 0.03 * t_ms + PKT_TIME_MS;
	double f = (double)(B_BYTES - P.used_at_first_drop[port]);
	printf("  %-28s port %u: first drop %.4f ms (theory %.4f), free %.0f B (theory %.0f)\n", what, port, t,
	       t_ms, f, free_bytes);
	if (fabs(t - t_ms) > tol)
		fail_msg("%s port %u: first drop at %.4f ms, theory %.4f ms", what, port, t, t_ms);
	if (fabs(f - free_bytes) > 0.01 * B_BYTES)
		fail_msg("%s port %u: %.0f B free at the first drop, theory %.0f B", what, port, f, free_bytes);
}

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

/* 16 ports at 1 Gb/s sharing `buffer`; `timers` false = an embedder without arm_timer. */
static struct sb_mmu *direct_mmu(uint64_t buffer, bool timers, const char *const *sets)
{
	static const uint64_t rates[16] = { [0 ... 15] = 1000000000ULL };
	struct sb_mmu_config cfg = { .nports = 16, .buffer_bytes = buffer, .port_rate_bps = rates };
	struct sb_mmu_env env = { .now = fake_clock, .arm_timer = timers ? fake_arm : NULL };
	struct sb_mmu *m = sb_mmu_new(sb_bm_find("edt"), &cfg, &env);
	struct sb_error err;
	for (; sets && *sets; sets += 2)
		if (sb_mmu_set_param(m, sets[0], sets[1], &err))
			fail_msg("%s", err.msg);
	if (sb_mmu_start(m, &err))
		fail_msg("%s", err.msg);
	m->check_invariants = true;
	fake_now = 0;
	narmed = 0;
	return m;
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

/* §3.3 / §2.6: cn2 = 4αB/(2+αP)^2 in packets, TM1 = 4(1+αP)/(2+αP)^2 · d, d = 1.25 B/C. */
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
	assert_true(view(m, 1).uncontrolled); /* a drop at the B/n cap is no exit (spec §6 item 10) */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dt_theorem1),
		cmocka_unit_test(test_dt_theorems_2_3),
		cmocka_unit_test(test_dt_theorem4),
		cmocka_unit_test(test_edt_derived_parameters),
		cmocka_unit_test(test_edt_enter_and_exits),
		cmocka_unit_test(test_edt_tm1_overflow_and_drop_rules),
		cmocka_unit_test(test_edt_lazy_timers),
	};
	return cmocka_run_group_tests_name("edt", tests, NULL, NULL);
}
