/*
 * test_reverie_options.c — Reverie's options beyond the paper's defaults (docs/schemes/reverie.md
 * §2): Eqs. (4)–(6) of §3.3, and where the paper is silent (when the filter updates, how n_p
 * counts congested queues, a first-RTT boost for lossy packets) the artifact's answers and our
 * alternatives. Each runs on a standalone MMU whose every counter the test knows, so the
 * expected decisions and filter values follow by hand from these formulas:
 *
 *   Γ(i,p) = α/n_p · max(0, b* − q*)          threshold, Eq. (6)
 *   n_p    = max(1, Σ_i min(1, q̂(i,p)/CI))    fractional count of congested queues, CI = 20,480 B
 *   q̂      ← γ·q̂ + (1−γ)·q, then min(q̂, q)    the filter, Eq. (5) with the artifact's clamp
 *   lossy  admitted iff L + q̂_egr ≤ Γ (and q* + L ≤ b*); α_high instead of α° for unscheduled
 *          (first-RTT) packets when unsched_boost is on.
 *
 * Every MMU here has no headroom unless stated (b* = the buffer) and 8 Gb/s ports.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "mmu/bm_reverie.h"
#include "mmu/mmu.h"
#include "testlib.h"

/* A standalone 2-port reverie MMU of `buffer` bytes with the given parameters. */
static struct sb_mmu *reverie_mmu(uint64_t buffer, uint8_t lossless_mask, const char *const *kv)
{
	static const uint64_t rates[2] = { 8000000000ULL, 8000000000ULL };
	struct sb_mmu_config cfg = { .nports = 2, .buffer_bytes = buffer, .port_rate_bps = rates,
				     .lossless_prio_mask = lossless_mask, .max_frame_bytes = 1000, .seed = 1 };
	struct sb_mmu_env env = { 0 };
	struct sb_mmu *m = sb_mmu_new(sb_bm_find("reverie"), &cfg, &env);
	m->check_invariants = true;
	tl_mmu_start(m, kv);
	return m;
}

static void admit_n(struct sb_mmu *m, struct sb_mmu_pkt *p, int n)
{
	for (int i = 0; i < n; i++)
		assert_int_equal(sb_mmu_admit(m, p), SB_ADMIT);
}

static void release_n(struct sb_mmu *m, struct sb_mmu_pkt *p, int n)
{
	for (int i = 0; i < n; i++)
		sb_mmu_release(m, p, SB_RELEASE_TX);
}

/* ---------------------------------------------------------------------------------------- */
/* (a) alpha_high / unsched_boost: an unscheduled lossy packet is judged against α_high.      */

/* b* = 10,000 B, γ = 0. Six 1000 B packets, one departure: q = q̂ = q* = 5000 B, n_p = 1, so
 * Γ = α·5000. A plain packet needs 1000 + 5000 ≤ 5000: dropped (threshold). An unscheduled
 * one, against α_high·(b* − q*):
 *   α_high = 1024: admitted while there is room; q̂ stays 5000 (no departure), so it is the
 *                  buffer that stops them: (b* − q*)/L = 5 admitted, then buffer_full (b* = b
 *                  here, and the physical check comes first);
 *   α_high = 1.5:  admitted while 6000 ≤ 1.5·(10,000 − q*), i.e. q* ≤ 6000: 2 admitted
 *                  (q* = 5000, 6000), then a threshold drop;
 *   unsched_boost = false: the paper's rule, judged like the plain packet: dropped. */
static int unscheduled_admitted(const char *alpha_high, const char *boost, enum sb_drop_cause *then,
				enum sb_drop_cause *plain)
{
	const char *kv[] = { "gamma", "0", "headroom", "bytes", "headroom_bytes", "0",
			     "alpha_high", alpha_high, "unsched_boost", boost, NULL };
	struct sb_mmu *m = reverie_mmu(10000, 0, kv);
	struct sb_mmu_pkt p = { .in_port = 0, .out_port = 1, .prio = 1, .bytes = 1000 };
	admit_n(m, &p, 6);
	release_n(m, &p, 1);
	assert_true(sb_reverie_lpf(m, true, 1, 1) == 5000);
	*plain = sb_mmu_admit(m, &p);
	struct sb_mmu_pkt u = p;
	u.tags = SB_MT_FIRST_RTT;
	int n = 0;
	while ((*then = sb_mmu_admit(m, &u)) == SB_ADMIT)
		n++;
	print_message("alpha_high = %s, unsched_boost = %s: plain packet %s; unscheduled packets admitted %d, then %s\n",
		      alpha_high, boost, sb_drop_cause_name[*plain], n, sb_drop_cause_name[*then]);
	release_n(m, &p, 5 + n);
	sb_mmu_free(m);
	return n;
}

static void test_unscheduled_boost(void **state)
{
	(void)state;
	enum sb_drop_cause then, plain;
	assert_int_equal(unscheduled_admitted("1024", "true", &then, &plain), 5);
	assert_int_equal(plain, SB_DROP_THRESHOLD);
	assert_int_equal(then, SB_DROP_BUFFER_FULL);
	assert_int_equal(unscheduled_admitted("1.5", "true", &then, &plain), 2);
	assert_int_equal(then, SB_DROP_THRESHOLD);
	assert_int_equal(unscheduled_admitted("1024", "false", &then, &plain), 0);
	assert_int_equal(plain, SB_DROP_THRESHOLD);
	assert_int_equal(then, SB_DROP_THRESHOLD);
}

/* ---------------------------------------------------------------------------------------- */
/* (b) lpf_update = arrival_dequeue: the filter also samples after each admitted arrival.     */

/* γ = 0.5, 1000 B packets into one lossy queue: three arrivals, two departures, an arrival,
 * two departures. After each event q̂ ← 0.5·q̂ + 0.5·q with the new q, then min(q̂, q):
 *   arrival_dequeue: 500, 1250, 2125 | 2062.5→2000, 1500→1000 | 1500 | 1250→1000, 500→0
 *   dequeue:         0, 0, 0         | 1000, 1000             | 1000 | 1000, 500→0
 * (binary fractions: the doubles are exact). */
static void test_filter_arrival_dequeue(void **state)
{
	(void)state;
	static const char ev[] = "AAADDADD";
	static const double want[2][8] = {
		{ 500, 1250, 2125, 2000, 1000, 1500, 1000, 0 },
		{ 0, 0, 0, 1000, 1000, 1000, 1000, 0 },
	};
	static const char *const modes[2] = { "arrival_dequeue", "dequeue" };
	for (int mode = 0; mode < 2; mode++) {
		const char *kv[] = { "gamma", "0.5", "headroom", "bytes", "headroom_bytes", "0", "lpf_update",
				     modes[mode], NULL };
		struct sb_mmu *m = reverie_mmu(1000000, 0, kv);
		struct sb_mmu_pkt p = { .in_port = 0, .out_port = 1, .prio = 1, .bytes = 1000 };
		print_message("lpf_update = %s:", modes[mode]);
		for (int i = 0; ev[i]; i++) {
			if (ev[i] == 'A')
				assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
			else
				sb_mmu_release(m, &p, SB_RELEASE_TX);
			double got = sb_reverie_lpf(m, true, 1, 1);
			print_message(" %c q=%llu q̂=%g (want %g)", ev[i], (unsigned long long)m->q_egr[sb_mmu_qi(1, 1)],
				      got, want[mode][i]);
			if (got != want[mode][i])
				fail_msg("event %d (%c): q̂ = %.17g, expected %g", i + 1, ev[i], got, want[mode][i]);
		}
		print_message("\n");
		sb_mmu_free(m);
	}
}

/* The same mode on a lossless queue: its filter rises with arrivals alone, so it can pause by
 * the threshold before its first departure. b = 10,000 B, headroom 2000 B × 2 ports × 1
 * priority: b* = 6000 B. After the k-th 1000 B arrival (sampled before the headroom decision,
 * with the packet in q*): q̂_k = 0.5·q̂_{k−1} + 0.5·1000k = 500, 1250, 2125, 3062.5 and
 * Γ = 6000 − 1000k = 5000, 4000, 3000, 2000: q̂ > Γ first at k = 4. Under `dequeue` the
 * filter is 0 until a departure and only pause_on_full_pool stops the queue, at q* > b*: k = 7. */
static void test_arrival_dequeue_pauses_lossless_earlier(void **state)
{
	(void)state;
	static const char *const modes[2] = { "arrival_dequeue", "dequeue" };
	static const int want[2] = { 4, 7 };
	for (int mode = 0; mode < 2; mode++) {
		const char *kv[] = { "gamma", "0.5", "headroom", "bytes", "headroom_bytes", "2000",
				     "headroom_prios", "1", "lpf_update", modes[mode], NULL };
		struct sb_mmu *m = reverie_mmu(10000, 1u << 3, kv);
		struct sb_mmu_pkt p = { .in_port = 0, .out_port = 1, .prio = 3, .bytes = 1000, .tags = SB_MT_LOSSLESS };
		int k = 0;
		while (m->pfc_pauses_sent == 0 && k < 10) {
			assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
			k++;
		}
		print_message("lpf_update = %s: lossless queue pauses at arrival %d (theory %d), q̂ = %g\n", modes[mode],
			      k, want[mode], sb_reverie_lpf(m, false, 0, 3));
		assert_int_equal(k, want[mode]);
		if (mode == 0)
			assert_true(sb_reverie_lpf(m, false, 0, 3) == 3062.5);
		release_n(m, &p, k);
		assert_int_equal(m->pfc_resumes_sent, 1);
		sb_mmu_free(m);
	}
}

/* ---------------------------------------------------------------------------------------- */
/* (c) A fractional n_p.                                                                        */

/* b* = 100,000 B, γ = 0 (q̂ = q after each departure), CI = 20,480 B. Lossy queue A (port 1)
 * holds 21,000 B after a departure and queue B (port 0) 10,000 B; one more arrival to A
 * refreshes A's share (min(1, 21000/CI) = 1) and brings q* to 32,000 B. B's next evaluation
 * refreshes its share 10000/CI, so n_p = 1 + 10000/20480 = 1.48828125, and
 *     Γ(B) = 1/1.48828125 · (100,000 − 32,000) = 45,690.3 B.
 * Probing B with a packet of Γ − q̂ + 1 bytes is refused (threshold), one of Γ − q̂ bytes is
 * admitted: the boundary pins Γ to the byte, and with n_p rounded to 1 or 2 (Γ = 68,000 or
 * 34,000) both probes would get the same verdict. */
static void test_fractional_np(void **state)
{
	(void)state;
	const char *kv[] = { "gamma", "0", "headroom", "bytes", "headroom_bytes", "0", NULL };
	struct sb_mmu *m = reverie_mmu(100000, 0, kv);
	struct sb_mmu_pkt a = { .in_port = 0, .out_port = 1, .prio = 1, .bytes = 1000 };
	struct sb_mmu_pkt b = { .in_port = 1, .out_port = 0, .prio = 1, .bytes = 1000 };
	admit_n(m, &a, 22);
	release_n(m, &a, 1);
	admit_n(m, &b, 11);
	release_n(m, &b, 1);
	admit_n(m, &a, 1);
	const double ci = 20480, qa = 21000, qb = 10000, q_star = 32000, b_star = 100000;
	assert_true(sb_reverie_lpf(m, true, 1, 1) == qa);
	assert_true(sb_reverie_lpf(m, true, 0, 1) == qb);
	double n_p = fmin(1, qa / ci) + fmin(1, qb / ci);
	double gamma_b = 1 / n_p * (b_star - q_star);
	uint32_t edge = (uint32_t)floor(gamma_b - qb); /* largest L with L + q̂ ≤ Γ */
	struct sb_mmu_pkt over = b, at = b;
	over.bytes = edge + 1;
	at.bytes = edge;
	enum sb_drop_cause v_over = sb_mmu_admit(m, &over);
	double n_seen = sb_reverie_n(m, true, 1);
	enum sb_drop_cause v_at = sb_mmu_admit(m, &at);
	print_message("n_p: measured %.10g, theory %.10g; Γ(B) = %.1f B: a %u B packet %s, a %u B packet %s "
		      "(theory: threshold, admitted)\n",
		      n_seen, n_p, gamma_b, over.bytes, sb_drop_cause_name[v_over], at.bytes,
		      sb_drop_cause_name[v_at]);
	assert_true(n_seen == n_p);
	assert_true(n_p != floor(n_p));
	assert_int_equal(v_over, SB_DROP_THRESHOLD);
	assert_int_equal(v_at, SB_ADMIT);
	release_n(m, &at, 1);
	release_n(m, &a, 22);
	release_n(m, &b, 10);
	assert_int_equal(m->used, 0);
	sb_mmu_free(m);
}

/* ---------------------------------------------------------------------------------------- */
/* (d) The filter decides, not the queue (Eq. 5 in every decision).                            */

/* test_pauses_fall_with_gamma (test_reverie.c) cannot tell q from q̂ in the PAUSE test: its
 * queues never exceed Γ, and what changes with γ there is n_p. Here each decision is put where
 * the raw queue and its filter give opposite answers. Every MMU: b = 104,000 B, headroom
 * 2000 B × 2 ports × 1 priority, so b* = 100,000 B; CI = 20,480 B; α = 1; 1000 B packets.
 * Lossless: ingress queue (0, 3); lossy: egress queues (1, 1) and (0, 1). */
static struct sb_mmu *decide_mmu(const char *gamma)
{
	const char *kv[] = { "gamma", gamma, "headroom", "bytes", "headroom_bytes", "2000", "headroom_prios", "1",
			     NULL };
	struct sb_mmu *m = reverie_mmu(104000, 1u << 3, kv);
	struct sb_reverie_pools pools;
	sb_reverie_pools(m, &pools);
	assert_int_equal(pools.b_shared, 100000);
	return m;
}

static void test_filter_decides_not_the_queue(void **state)
{
	(void)state;
	struct sb_mmu_pkt ll = { .in_port = 0, .out_port = 1, .prio = 3, .bytes = 1000, .tags = SB_MT_LOSSLESS };
	struct sb_mmu_pkt y1 = { .in_port = 0, .out_port = 1, .prio = 1, .bytes = 1000 };
	struct sb_mmu_pkt y2 = { .in_port = 1, .out_port = 0, .prio = 1, .bytes = 1000 };

	/* 1. PAUSE. A lossless burst of 60 packets, no departure: q̂ stays 0 (the filter samples at
	 *    departures), Γ = b* − q* = 100,000 − 1000k after the k-th arrival. The raw queue passes
	 *    Γ at k = 51 (51,000 > 49,000); the filter never does, so no PAUSE. A filter sampled at
	 *    arrivals (γ = 0.5: q̂_k ≈ 1000k − 1000) would pause at k = 51 too. */
	struct sb_mmu *m = decide_mmu("0.5");
	admit_n(m, &ll, 60);
	print_message("lossless burst of 60: q = %llu B > Γ = %d B, q̂ = %g, PAUSE frames %llu (expected 0)\n",
		      (unsigned long long)m->q_ing[sb_mmu_qi(0, 3)], 100000 - 60000, sb_reverie_lpf(m, false, 0, 3),
		      (unsigned long long)m->pfc_pauses_sent);
	assert_int_equal(m->pfc_pauses_sent, 0);
	assert_true(sb_reverie_lpf(m, false, 0, 3) == 0);
	release_n(m, &ll, 60);
	sb_mmu_free(m);

	/* 2. Lossy drop. The same burst into lossy queue (1, 1): the k-th packet is tested as
	 *    L + q̂ = 1000 <= Γ = 100,000 − 1000(k−1): all 60 admitted. On the raw queue,
	 *    1000k > 100,000 − 1000(k−1) would drop the 51st. */
	m = decide_mmu("0.5");
	admit_n(m, &y1, 60);
	release_n(m, &y1, 60);
	sb_mmu_free(m);

	/* 3. The clamp q̂ <= q. Four packets into (1, 1), three departures at γ = 0.5: q̂ = 1500,
	 *    1750, then 0.5·1750 + 0.5·1000 = 1375, clamped to q = 1000. Γ = b* − q* = 99,000, so a
	 *    probe of 98,000 B fits exactly (98,000 + 1000 <= 99,000); an unclamped 1375 refuses it. */
	m = decide_mmu("0.5");
	admit_n(m, &y1, 4);
	release_n(m, &y1, 3);
	struct sb_mmu_pkt probe = y1;
	probe.bytes = 98000;
	enum sb_drop_cause v = sb_mmu_admit(m, &probe);
	print_message("after a drain to 1000 B: q̂ = %g (expected 1000), a 98,000 B packet against Γ = 99,000: %s\n",
		      sb_reverie_lpf(m, true, 1, 1), sb_drop_cause_name[v]);
	assert_int_equal(v, SB_ADMIT);
	release_n(m, &probe, 1);
	release_n(m, &y1, 1);
	sb_mmu_free(m);

	/* 4. n_p counts filters, not queues. γ = 0. Queue (1, 1): 22 arrivals, one departure, so
	 *    q = q̂ = 21,000 >= CI: one whole congested queue. Queue (0, 1): 30 arrivals, no
	 *    departure: q = 30,000 but q̂ = 0, not congested. n_p = 1 and, with q* = 51,000,
	 *    Γ(1, 1) = 49,000: a 28,000 B probe fits exactly (28,000 + 21,000). Counting raw
	 *    queues, n_p = 2 and Γ = 24,500 would refuse it. */
	m = decide_mmu("0");
	admit_n(m, &y1, 22);
	release_n(m, &y1, 1);
	admit_n(m, &y2, 30);
	probe.bytes = 28000;
	v = sb_mmu_admit(m, &probe);
	print_message("n_p = %g with one queue at q̂ = 21,000 and one at q = 30,000, q̂ = 0; a 28,000 B packet: %s\n",
		      sb_reverie_n(m, true, 1), sb_drop_cause_name[v]);
	assert_int_equal(v, SB_ADMIT);
	assert_true(sb_reverie_n(m, true, 1) == 1.0);
	release_n(m, &probe, 1);
	release_n(m, &y1, 21);
	release_n(m, &y2, 30);
	sb_mmu_free(m);

	/* 5. RESUME uses α•, never the unscheduled boost. γ = 0. 101 lossless arrivals: the 101st
	 *    takes q* beyond b* and pauses (pause_on_full_pool; q̂ is still 0). The first departure
	 *    empties the headroom; after j more, q = q̂ = q* = 100,000 − 1000j and Γ = 1000j, so
	 *    q̂ + 2496 <= Γ first at j = 52 (q = 48,000). With α_high = 1024 in the resume test,
	 *    Γ = 1,024,000j would resume at j = 1. */
	m = decide_mmu("0");
	admit_n(m, &ll, 101);
	assert_int_equal(m->pfc_pauses_sent, 1);
	int departures = 0;
	while (m->pfc_resumes_sent == 0 && departures < 101) {
		sb_mmu_release(m, &ll, SB_RELEASE_TX);
		departures++;
	}
	print_message("RESUME at departure %d, q = %llu B (expected 53, 48,000 B)\n", departures,
		      (unsigned long long)m->q_ing[sb_mmu_qi(0, 3)]);
	assert_int_equal(departures, 53);
	assert_int_equal(m->q_ing[sb_mmu_qi(0, 3)], 48000);
	release_n(m, &ll, 101 - departures);
	sb_mmu_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unscheduled_boost),
		cmocka_unit_test(test_filter_arrival_dequeue),
		cmocka_unit_test(test_arrival_dequeue_pauses_lossless_earlier),
		cmocka_unit_test(test_fractional_np),
		cmocka_unit_test(test_filter_decides_not_the_queue),
	};
	return cmocka_run_group_tests_name("reverie options", tests, NULL, NULL);
}
