/*
 * test_lossless.c — what every lossless-capable scheme promises (Reverie §2.2.1: a lossless
 * packet is never dropped by a threshold; DSH §II-C, Eq. 1, and §IV-A: headroom per queue, or
 * insurance per port, of Eq. 1 loses nothing): no lossless packet is lost when the headroom is
 * sized by the formula, however many senders converge on a port; an undersized headroom loses
 * lossless packets, and only there (cause headroom); every PAUSE is followed by a RESUME once
 * its queue drains, and (sonic, reverie) exactly at the XON hysteresis point; a lossy scheme
 * refuses lossless traffic.
 *
 * The incast: N senders (64 or 128) each send a 100 KB lossless CBR burst at line rate to host
 * 0 — N:1 at line rate, far beyond the buffer — while two DCTCP flows and one CBR source send
 * lossy traffic to the same port (the CBR at line rate, twice its round-robin share). Hosts
 * obey PFC; their NIC queues hold what they may not send. The same table runs sonic (DT and
 * ABM), reverie, sih and dsh.
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
#include "mmu/bm_dsh.h"
#include "mmu/bm_reverie.h"
#include "mmu/bm_sonic.h"
#include "mmu/mmu.h"
#include "sim/sim.h"
#include "testlib.h"
#include "transport/flow.h"
#include "transport/transport.h"

/* What the end of a run looks like from the scheme's side, whatever the scheme: the lossless
 * ingress queues (and, for DSH, ports) still asserting PAUSE, the highest headroom it used and
 * the headroom it had. sonic and reverie share pfc_ingress.c (a headroom pool for the switch);
 * sih has η per queue and dsh η of insurance per port, both read through bm_dsh.h. */
struct lossless_state {
	uint32_t asserted;      /* queues (and DSH ports) whose PAUSE has not been answered by RESUME */
	uint64_t peak_headroom; /* sonic/reverie: the pool's high-water mark; sih: one queue's; dsh: one port's insurance */
	uint64_t headroom;      /* the limit that peak is measured against */
};

static struct lossless_state lossless_state_of(const struct sb_mmu *m)
{
	struct lossless_state st = { 0 };
	const struct sb_pfc_ingress *pi = sb_sonic_pfc(m);
	if (!pi)
		pi = sb_reverie_pfc(m);
	if (pi) {
		st.asserted = pi->npaused;
		st.peak_headroom = pi->peak_used;
		st.headroom = pi->pool;
		return st;
	}
	struct sb_dsh_pools pools;
	sb_dsh_get_pools(m, &pools);
	assert_true(pools.buffer > 0); /* the scheme is one of the four lossless ones */
	for (uint16_t port = 0; port < m->nports; port++) {
		struct sb_dsh_port_view pv;
		sb_dsh_port(m, port, &pv);
		st.asserted += pv.paused;
		for (uint8_t prio = 0; prio < SB_MMU_NPRIO; prio++) {
			struct sb_dsh_queue_view qv;
			sb_dsh_queue(m, port, prio, &qv);
			st.asserted += qv.paused;
		}
	}
	st.peak_headroom = sb_dsh_stats(m)->peak_headroom;
	st.headroom = sb_dsh_eta(m, sb_dsh_stats(m)->peak_headroom_port);
	return st;
}

static void incast_scenario(struct sb_scenario *sc, int fanin, const char *scheme, const char *keys)
{
	char text[8192];
	int n = snprintf(text, sizeof(text),
			 "run: { duration_ms = 80; sample_interval_us = 0; };\n"
			 "topology: { type = \"single\"; hosts = %d; host_rate_gbps = 10.0; host_delay_us = 1.0; };\n"
			 "switch: { scheme = \"%s\"; %s };\n"
			 "workloads = ({ type = \"cbr\"; dst = 0; prio = 3; class = \"lossless\"; rate_gbps = 10.0;\n"
			 "               size_bytes = 100000; srcs = [",
			 fanin + 4, scheme, keys);
	for (int i = 1; i <= fanin; i++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%s%d", i > 1 ? ", " : "", i);
	snprintf(text + n, sizeof(text) - (size_t)n,
		 "]; },\n"
		 "  { type = \"longlived\"; srcs = [%d, %d]; dst = 0; prio = 1; size_bytes = 2000000; },\n"
		 "  { type = \"cbr\"; srcs = [%d]; dst = 0; prio = 1; rate_gbps = 10.0; size_bytes = 2000000; });\n",
		 fanin + 1, fanin + 2, fanin + 3);
	tl_scenario(sc, text, NULL, 0);
}

struct incast_result {
	uint64_t lossless_drops, headroom_drops, pool_drops, lossy_drops, pauses, resumes, peak_headroom;
	uint64_t headroom; /* the limit peak_headroom is measured against (lossless_state) */
	uint64_t flows, completed; /* lossless flows, and those whose every byte arrived */
};

/* Run to the end (every source finite, so the event queue drains) and check the PFC state
 * machine came to rest: no ingress queue (or DSH port) still asserting PAUSE, no port of any
 * node paused, one RESUME per PAUSE at both levels. */
static struct incast_result run_incast(int fanin, const char *scheme, const char *keys)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	incast_scenario(&sc, fanin, scheme, keys);
	tl_run_kept(&sim, &sc);
	struct sb_mmu *m = sim.net.switches[0]->mmus[0];
	struct lossless_state st = lossless_state_of(m);
	struct incast_result r = {
		.lossless_drops = sim.net.stats.pkts_dropped_lossless,
		.headroom_drops = sim.net.stats.drops[SB_DROP_HEADROOM],
		.pool_drops = sim.net.stats.drops[SB_DROP_POOL_FULL],
		.lossy_drops = sim.net.stats.pkts_dropped - sim.net.stats.pkts_dropped_lossless,
		.pauses = m->pfc_pauses_sent,
		.resumes = m->pfc_resumes_sent,
		.peak_headroom = st.peak_headroom,
		.headroom = st.headroom,
	};
	for (uint32_t i = 0; i < sim.flows.table.next_id; i++) {
		const struct sb_flow *f = sb_flow_get(&sim.flows, i);
		r.flows += f->lossless;
		r.completed += f->lossless && f->completed;
	}
	print_message("%3d:1 %-7s %-40s lossless drops %llu (headroom %llu, pool_full %llu), lossy drops %llu, "
		      "PAUSE %llu, RESUME %llu, port PAUSE %llu, peak headroom %llu of %llu B, lossless bursts whole "
		      "%llu/%llu, ended at %.2f ms\n",
		      fanin, scheme, keys, (unsigned long long)r.lossless_drops, (unsigned long long)r.headroom_drops,
		      (unsigned long long)r.pool_drops, (unsigned long long)r.lossy_drops, (unsigned long long)r.pauses,
		      (unsigned long long)r.resumes, (unsigned long long)m->pfc_port_pauses_sent,
		      (unsigned long long)r.peak_headroom, (unsigned long long)r.headroom, (unsigned long long)r.completed,
		      (unsigned long long)r.flows, (double)sb_now(&sim.net.engine) / SB_MS);
	assert_true(sb_now(&sim.net.engine) < sb_time_from_ms(80)); /* everything finished before the end */
	assert_int_equal(st.asserted, 0);
	assert_int_equal(r.pauses, r.resumes);
	assert_int_equal(m->pfc_port_pauses_sent, m->pfc_port_resumes_sent);
	for (uint32_t i = 0; i < sim.net.nnodes; i++)
		for (uint16_t p = 0; p < sim.net.nodes[i]->nports; p++)
			if (sim.net.nodes[i]->ports[p].paused || sim.net.nodes[i]->ports[p].port_paused)
				fail_msg("%s port %u still paused (mask 0x%02x, port level %d) after the traffic ended",
					 sim.net.nodes[i]->name, p, sim.net.nodes[i]->ports[p].paused,
					 sim.net.nodes[i]->ports[p].port_paused);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return r;
}

/*
 * Every lossless scheme, with its headroom from the formula (`keys`), and with a headroom too
 * small for what one link delivers after a PAUSE (`small`): 2000 B, against two frames plus
 * the link's bytes both ways, ~4.6 KB at 10 Gb/s and 1 µs (Eq. 1: 8,436 B).
 *
 * sih and dsh reserve for `lossless_queues` per port (by default the run's lossless
 * priorities; the paper's Tomahawk has 7). The run has one lossless priority, and sih's
 * 7 × η × 68 ports would not fit the 3.5 MB buffer, so sih is set to reserve for the one it
 * has (which is also the default). DSH keeps its defaults. Its undersized case needs the port level to act, the
 * only path into its insurance: N_q = 1 (U3 with the run's single lossless queue per port) so
 * that X_poff = T, and no U7 fallback, so a full insurance drops (as test_dsh_scenarios.c's
 * port-safety run); with the fallback the same packets go to shared.
 *
 * `uses_headroom`: the formula case must fill some headroom. DSH holds a paused queue's
 * in-flight bytes in shared and touches its insurance only when the port level acts, which
 * this incast may not need (docs/schemes/dsh.md §6), so it is not required there.
 * `per_link`: the peak is that of one queue's headroom (sih) or one port's insurance (dsh),
 * which one link fills, rather than a pool's (sonic, reverie).
 */
static const struct {
	const char *scheme, *keys, *small;
	bool uses_headroom, per_link;
} lossless_schemes[] = {
	{ "sonic", "", "sonic: { headroom = \"bytes\"; headroom_bytes = 2000; };", true, false },
	{ "sonic", "sonic: { policy = \"abm\"; };",
	  "sonic: { policy = \"abm\"; headroom = \"bytes\"; headroom_bytes = 2000; };", true, false },
	{ "reverie", "", "reverie: { headroom = \"bytes\"; headroom_bytes = 2000; };", true, false },
	{ "sih", "sih: { lossless_queues = 1; };",
	  "sih: { lossless_queues = 1; headroom = \"bytes\"; headroom_bytes = 2000; };", true, true },
	{ "dsh", "",
	  "dsh: { nq_port_multiplier = 1; insurance_fallback = false; headroom = \"bytes\"; headroom_bytes = 2000; };",
	  false, true },
};

/* What one 10 Gb/s, 1 µs link can still deliver after a PAUSE leaves (DSH Eq. 1 without its
 * 3840 B allowance for processing delay, which these runs do not have): the bytes on the wire
 * both ways plus a frame being serialised at each end, 2·(C·D + frame) = 4,596 B with the
 * scenario's 1048-byte frames. Eq. (1) itself gives 8,436 B. */
#define INFLIGHT_10G_1US (2 * (1250 + 1048))
#define NSCHEMES (sizeof(lossless_schemes) / sizeof(lossless_schemes[0]))

static void test_incast_zero_lossless_drops(void **state)
{
	(void)state;
	static const int fanins[] = { 64, 128 };
	for (size_t f = 0; f < 2; f++)
		for (size_t i = 0; i < NSCHEMES; i++) {
			struct incast_result r = run_incast(fanins[f], lossless_schemes[i].scheme, lossless_schemes[i].keys);
			assert_int_equal(r.lossless_drops, 0);
			assert_true(r.pauses > 0);
			if (lossless_schemes[i].uses_headroom)
				assert_true(r.peak_headroom > 0);
			assert_true(r.peak_headroom <= r.headroom);
			if (lossless_schemes[i].per_link) {
				print_message("      peak headroom of one link %llu B <= in flight after PAUSE %d B\n",
					      (unsigned long long)r.peak_headroom, INFLIGHT_10G_1US);
				assert_true(r.peak_headroom <= INFLIGHT_10G_1US);
			}
			assert_true(r.lossy_drops > 0);          /* the lossy traffic did meet a full buffer */
			assert_int_equal(r.completed, r.flows); /* every lossless burst arrived whole */
			assert_int_equal(r.flows, fanins[f]);
		}
}

/* Headroom smaller than what is in flight after a PAUSE: lossless packets are lost, and every
 * one of them is counted with cause headroom. */
static void test_undersized_headroom_loses_lossless(void **state)
{
	(void)state;
	for (size_t i = 0; i < NSCHEMES; i++) {
		struct incast_result r = run_incast(64, lossless_schemes[i].scheme, lossless_schemes[i].small);
		assert_true(r.lossless_drops > 0);
		assert_int_equal(r.headroom_drops, r.lossless_drops);
		assert_true(r.completed < r.flows); /* CBR does not retransmit: the bursts stay incomplete */
	}
}

/* The control of DSH's undersized case: the same port-level settings (N_q = 1, no fallback)
 * with η from Eq. (1) lose nothing, although the port level acts and the insurance is used —
 * so the drops above come from the headroom's size alone, and the insurance holds at most η. */
static void test_dsh_port_level_formula_headroom(void **state)
{
	(void)state;
	struct incast_result r = run_incast(64, "dsh", "dsh: { nq_port_multiplier = 1; insurance_fallback = false; };");
	assert_int_equal(r.lossless_drops, 0);
	assert_true(r.peak_headroom > 0); /* the insurance was needed */
	print_message("      insurance peak %llu B <= in flight after PAUSE %d B <= eta %llu B\n",
		      (unsigned long long)r.peak_headroom, INFLIGHT_10G_1US, (unsigned long long)r.headroom);
	assert_true(r.peak_headroom <= INFLIGHT_10G_1US);
	assert_int_equal(r.completed, r.flows);
}

/* The artifact's Reverie, exactly (pause_on_full_pool = false): at line rate the 64 queues fill
 * the buffer before each has had a departure to lift its filter above 0, and a queue whose
 * filter is 0 never pauses (0 > Γ is false even at Γ = 0; docs/schemes/reverie.md §4), so it eats the headroom's share of the buffer
 * and lossless packets are lost (cause pool_full). The default closes that gap. */
static void test_reverie_artifact_edge_case(void **state)
{
	(void)state;
	struct incast_result r = run_incast(64, "reverie", "reverie: { pause_on_full_pool = false; };");
	assert_true(r.lossless_drops > 0);
	assert_int_equal(r.headroom_drops, 0); /* not the headroom's fault: it never filled */
	assert_true(r.pool_drops >= r.lossless_drops);
}

/* A lossy scheme has no PFC: lossless traffic is refused with the key and the alternatives. */
static void test_lossy_scheme_refused(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	struct sb_error err = { "" };
	incast_scenario(&sc, 4, "dt", "");
	int rc = sb_sim_build(&sim, &sc, &err);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	print_message("dt with lossless traffic: %s\n", err.msg);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err.msg, "switch.scheme"));
	assert_non_null(strstr(err.msg, "sonic, reverie, sih, dsh"));
	/* ...unless the user says the class is only a label */
	incast_scenario(&sc, 4, "dt", "");
	sc.sw.lossless_as_label = true;
	rc = sb_sim_build(&sim, &sc, &err);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	assert_int_equal(rc, 0);
}

/*
 * The reserve (reserved_bytes): a lossless queue's first bytes never pause, even when lossy
 * traffic has filled the ingress pool, and lossy traffic cannot take them. Standalone SONiC
 * MMU: b = 30,000 B, headroom 2000 B × 3 ports × 1 priority, b_ing = 24,000 B; reserve 3000 B
 * per lossless queue (R = 9000 B).
 */
static unsigned pauses_seen;
static void count_pfc(void *ctx, struct sb_mmu *m, uint16_t port, uint8_t mask, bool pause, bool port_level)
{
	(void)ctx, (void)m, (void)port, (void)mask, (void)port_level;
	pauses_seen += pause;
}

static void test_reserve(void **state)
{
	(void)state;
	static const uint64_t rates[3] = { 10000000000ULL, 10000000000ULL, 10000000000ULL };
	for (int reserve = 3000; reserve >= 0; reserve -= 3000) {
		struct sb_mmu_config cfg = { .nports = 3, .buffer_bytes = 30000, .port_rate_bps = rates,
					     .lossless_prio_mask = 1u << 3, .seed = 1 };
		struct sb_mmu_env env = { .send_pfc = count_pfc };
		struct sb_mmu *m = sb_mmu_new(sb_bm_find("sonic"), &cfg, &env);
		m->check_invariants = true;
		char r[16];
		snprintf(r, sizeof(r), "%d", reserve);
		struct sb_error err;
		const char *kv[] = { "headroom", "bytes", "headroom_bytes", "2000", "headroom_prios", "1",
				     "lossy_pool_fraction", "1", "alpha_lossy_egress", "10000", "reserved_bytes", r, NULL };
		for (const char *const *p = kv; *p; p += 2)
			assert_int_equal(sb_mmu_set_param(m, p[0], p[1], &err), 0);
		assert_int_equal(sb_mmu_start(m, &err), 0);
		pauses_seen = 0;
		struct sb_mmu_pkt lossy = { .in_port = 2, .out_port = 1, .prio = 1, .bytes = 1000 };
		struct sb_mmu_pkt ll = { .in_port = 0, .out_port = 1, .prio = 3, .bytes = 1000, .tags = SB_MT_LOSSLESS };
		int nlossy = 0, first_pause = 0;
		enum sb_drop_cause why;
		while ((why = sb_mmu_admit(m, &lossy)) == SB_ADMIT)
			nlossy++;
		for (int k = 1; k <= 6 && !first_pause; k++) {
			assert_int_equal(sb_mmu_admit(m, &ll), SB_ADMIT);
			if (pauses_seen)
				first_pause = k;
		}
		print_message("reserve %d B: lossy fills %d KB (then %s), first PAUSE at lossless packet %d\n", reserve,
			      nlossy, sb_drop_cause_name[why], first_pause);
		assert_int_equal(why, SB_DROP_POOL_FULL);
		/* lossy takes b_ing − R; the reserve admits 3 packets without pausing, the 4th pauses */
		assert_int_equal(nlossy, reserve ? 15 : 24);
		assert_int_equal(first_pause, reserve ? 4 : 1);
		sb_mmu_free(m);
	}
}

/*
 * XON hysteresis (Reverie §2.2.1 and §3.3 say only "below the threshold"; the rule and XON =
 * 1248 B, XON_OFFSET = 2496 B are the artifact's, SwitchMmu in switch-mmu.cc of
 * inet-tub/ns3-datacenter): a paused lossless queue resumes after a departure that leaves its headroom empty
 * and X < XON or X + XON_OFFSET ≤ Γ, X being the queue's ingress length (sonic) or its filter
 * (reverie), and not at any departure before.
 *
 * Standalone MMU, 3 ports: b = 30,000 B, headroom 4000 B × 3 ports × 1 priority, so the
 * ingress pool (sonic) or shared pool (reverie) is 18,000 B and, once the headroom is empty,
 * Γ = 18,000 − L − X with L bytes of lossy traffic parked in another queue (α = 1, n_p = 1).
 * 1000 B lossless packets arrive until the queue has 3000 B of headroom, then leave one by one
 * (headroom drains first). The queue resumes at the first departure leaving X < XON or
 * 2X ≤ 18,000 − L − XON_OFFSET:
 *   L = 14,000: Γ at X = 2000, 1000 is 2000, 3000: only X < XON can fire, at X = 1000; with
 *               XON = 2001 at X = 2000, and with XON = 2000 still at 1000 (strictly below);
 *   L = 8,000:  XON_OFFSET fires first, at X ≤ 3752 → 3000 (never above: 4000 + 2496 > 6000);
 *               with XON_OFFSET = 1000 at X ≤ 4500 → 4000.
 * PAUSE comes (sonic) at the first arrival with q > Γ = 18,000 − L − q: the 3rd (L = 14,000)
 * or 6th (L = 8,000); (reverie, γ = 0: the filter is 0 before any departure, so
 * pause_on_full_pool) when L + q > 18,000: the 5th or 11th.
 * Reverie compares the filter: at γ = 0.9 it is 0.1·4000 = 400 B after the first departure
 * of a 5000 B queue, below XON, and that departure resumes with 4000 B still queued.
 */
struct xon_case {
	const char *scheme, *gamma, *xon, *offset;
	int lossy, lossless;     /* packets of 1000 B */
	int pause_at;            /* theory: the lossless arrival that pauses */
	uint64_t resume_q;       /* theory: q_ing just after the departure that resumes */
	double resume_x;         /* theory: X then, the length (sonic) or the filter (reverie) */
};

static void run_xon_case(const struct xon_case *c)
{
	static const uint64_t rates[3] = { 10000000000ULL, 10000000000ULL, 10000000000ULL };
	struct sb_mmu_config cfg = { .nports = 3, .buffer_bytes = 30000, .port_rate_bps = rates,
				     .lossless_prio_mask = 1u << 3, .max_frame_bytes = 1000, .seed = 1 };
	struct sb_mmu_env env = { 0 };
	struct sb_mmu *m = sb_mmu_new(sb_bm_find(c->scheme), &cfg, &env);
	m->check_invariants = true;
	const char *kv[] = { "headroom", "bytes", "headroom_bytes", "4000", "headroom_prios", "1",
			     "xon_bytes", c->xon, "xon_offset_bytes", c->offset, NULL, NULL, NULL, NULL, NULL };
	const char **extra = &kv[10];
	if (c->gamma) {
		extra[0] = "gamma", extra[1] = c->gamma;
	} else { /* sonic: lossy traffic held only by the pools (thresholds "infinite") */
		extra[0] = "lossy_pool_fraction", extra[1] = "1", extra[2] = "alpha_lossy_egress", extra[3] = "10000";
	}
	tl_mmu_start(m, kv);
	struct sb_mmu_pkt lossy = { .in_port = 2, .out_port = 1, .prio = 1, .bytes = 1000 };
	struct sb_mmu_pkt ll = { .in_port = 0, .out_port = 1, .prio = 3, .bytes = 1000, .tags = SB_MT_LOSSLESS };
	for (int i = 0; i < c->lossy; i++)
		assert_int_equal(sb_mmu_admit(m, &lossy), SB_ADMIT);
	int pause_at = 0;
	for (int k = 1; k <= c->lossless; k++) {
		assert_int_equal(sb_mmu_admit(m, &ll), SB_ADMIT);
		if (!pause_at && m->pfc_pauses_sent)
			pause_at = k;
	}
	uint64_t *q = &m->q_ing[sb_mmu_qi(0, 3)], resume_q = UINT64_MAX;
	double resume_x = -1;
	int left = c->lossless;
	while (left > 0 && resume_q == UINT64_MAX) {
		sb_mmu_release(m, &ll, SB_RELEASE_TX);
		left--;
		if (m->pfc_resumes_sent) {
			resume_q = *q;
			resume_x = c->gamma ? sb_reverie_lpf(m, false, 0, 3) : (double)*q;
		}
	}
	print_message("%-7s γ %-4s XON %-4s XON_OFFSET %-4s lossy %5d B: PAUSE at lossless arrival %d (theory %d), "
		      "RESUME when q_ing fell to %llu B (theory %llu B), X = %g B (theory %g B)\n",
		      c->scheme, c->gamma ? c->gamma : "-", c->xon, c->offset, 1000 * c->lossy, pause_at, c->pause_at,
		      (unsigned long long)resume_q, (unsigned long long)c->resume_q, resume_x, c->resume_x);
	assert_int_equal(pause_at, c->pause_at);
	assert_int_equal(m->pfc_pauses_sent, 1);
	assert_int_equal(resume_q, c->resume_q);
	assert_true(fabs(resume_x - c->resume_x) <= 1e-9 * c->resume_x); /* 1 − 0.9 is inexact in binary */
	assert_int_equal(m->pfc_resumes_sent, 1);
	for (; left > 0; left--)
		sb_mmu_release(m, &ll, SB_RELEASE_TX);
	for (int i = 0; i < c->lossy; i++)
		sb_mmu_release(m, &lossy, SB_RELEASE_TX);
	assert_int_equal(m->used, 0);
	sb_mmu_free(m);
}

static void test_xon_hysteresis(void **state)
{
	(void)state;
	static const struct xon_case cases[] = {
		{ "sonic", NULL, "1248", "2496", 14, 5, 3, 1000, 1000 },
		{ "sonic", NULL, "2001", "2496", 14, 5, 3, 2000, 2000 },
		{ "sonic", NULL, "2000", "2496", 14, 5, 3, 1000, 1000 },
		{ "sonic", NULL, "1248", "2496", 8, 8, 6, 3000, 3000 },
		{ "sonic", NULL, "1248", "1000", 8, 8, 6, 4000, 4000 },
		{ "reverie", "0", "1248", "2496", 14, 7, 5, 1000, 1000 },
		{ "reverie", "0", "2001", "2496", 14, 7, 5, 2000, 2000 },
		{ "reverie", "0", "2000", "2496", 14, 7, 5, 1000, 1000 },
		{ "reverie", "0", "1248", "2496", 8, 13, 11, 3000, 3000 },
		{ "reverie", "0", "1248", "1000", 8, 13, 11, 4000, 4000 },
		{ "reverie", "0.9", "1248", "2496", 14, 5, 5, 4000, 400 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_xon_case(&cases[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lossy_scheme_refused),
		cmocka_unit_test(test_reserve),
		cmocka_unit_test(test_xon_hysteresis),
		cmocka_unit_test(test_incast_zero_lossless_drops),
		cmocka_unit_test(test_undersized_headroom_loses_lossless),
		cmocka_unit_test(test_dsh_port_level_formula_headroom),
		cmocka_unit_test(test_reverie_artifact_edge_case),
	};
	return cmocka_run_group_tests_name("pfc", tests, NULL, NULL);
}
