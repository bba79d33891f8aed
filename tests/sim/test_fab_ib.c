/*
 * test_fab_ib.c — FAB (Flow-Aware Buffer) and Cisco Intelligent Buffer (DT + AFD).
 *
 * Two kinds of test:
 *   - the MMU embedded directly (a fake clock and a one-slot timer, as examples/embed_mmu.c
 *     does), to check admission decisions packet by packet against hand-computed numbers;
 *   - whole simulations through the switch, ending with sb_sim_check, for the end-to-end
 *     claims (FAB with no short flow and IB without AFD are bit-identical to DT; a short flow's
 *     burst survives under FAB and not under DT; AFD holds an overloaded queue at
 *     queue-desired while an underloaded one sees no AFD drop).
 * Every MMU here runs with check_invariants, so counters are verified after every operation.
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
#include "mmu/bm_fab.h"
#include "mmu/bm_ib.h"
#include "mmu/mmu.h"
#include "sim/sim.h"
#include "testlib.h"
#include "transport/transport.h"

/* ------------------------------------------------------------------------------------------ */
/* A minimal embedder: a clock and the single timer a scheme may have pending. */

struct harness {
	sb_time now;
	bool armed;
	sb_time at;
	unsigned id;
	unsigned arms;
};

static sb_time h_now(void *ctx) { return ((struct harness *)ctx)->now; }

static void h_arm(void *ctx, struct sb_mmu *m, sb_time at, unsigned id)
{
	(void)m;
	struct harness *h = ctx;
	assert_false(h->armed); /* IB keeps at most one timer pending */
	h->armed = true;
	h->at = at;
	h->id = id;
	h->arms++;
}

/* New MMU of 4 ports at 10 Gb/s; params = NULL-terminated name/value pairs. */
static struct sb_mmu *h_mmu(struct harness *h, const char *scheme, uint64_t buffer, const char *const *params)
{
	static const uint64_t rates[4] = { 10000000000ULL, 10000000000ULL, 10000000000ULL, 10000000000ULL };
	struct sb_mmu_config cfg = { .nports = 4, .buffer_bytes = buffer, .port_rate_bps = rates, .seed = 42 };
	struct sb_mmu_env env = { .ctx = h, .now = h_now, .arm_timer = h_arm };
	struct sb_mmu *m = sb_mmu_new(sb_bm_find(scheme), &cfg, &env);
	assert_non_null(m);
	m->check_invariants = true;
	struct sb_error err = { "" };
	for (size_t i = 0; params && params[i]; i += 2)
		if (sb_mmu_set_param(m, params[i], params[i + 1], &err))
			fail_msg("%s.%s: %s", scheme, params[i], err.msg);
	if (sb_mmu_start(m, &err))
		fail_msg("start: %s", err.msg);
	return m;
}

/* Move the clock to t, firing the pending timer on the way (and any it re-arms). */
static void h_advance(struct harness *h, struct sb_mmu *m, sb_time t)
{
	while (h->armed && h->at <= t) {
		h->now = h->at;
		h->armed = false;
		sb_mmu_timer(m, h->id);
	}
	h->now = t;
}

static struct sb_mmu_pkt h_pkt(uint16_t out, uint32_t bytes, uint32_t flow)
{
	return (struct sb_mmu_pkt){ .in_port = 3, .out_port = out, .prio = 1, .bytes = bytes, .flow_hash = flow };
}

/* Release everything queued on (out, prio 1) in packets of `bytes`. */
static void h_drain(struct sb_mmu *m, uint16_t out, uint32_t bytes)
{
	struct sb_mmu_pkt p = h_pkt(out, bytes, 0);
	while (m->q_egr[sb_mmu_qi(out, 1)] >= bytes)
		sb_mmu_release(m, &p, SB_RELEASE_TX);
}

/* Drain (out, 1), check that the MMU is empty and consistent, free it. */
static void h_drain_free(struct sb_mmu *m, uint16_t out, uint32_t bytes)
{
	h_drain(m, out, bytes);
	assert_int_equal(m->used, 0);
	struct sb_error err = { "" };
	if (sb_mmu_check(m, &err))
		fail_msg("invariants: %s", err.msg);
	sb_mmu_free(m);
}

/* ------------------------------------------------------------------------------------------ */
/* FAB, packet by packet */

/* α = 0 refuses every long-flow packet and α_short admits every short one, so each decision
 * shows how the packet was classified: 1000-byte packets are short while the counter including
 * them is below 21 000, i.e. for the first 20; idle exactly the window keeps the count, idle
 * longer than the window restarts it. */
static void test_fab_counter_and_idle_reset(void **state)
{
	(void)state;
	struct harness h = { 0 };
	const char *const params[] = { "alpha", "0", "alpha_short", "1024", NULL };
	struct sb_mmu *m = h_mmu(&h, "fab", 1000000, params);
	struct sb_fab_state *s = sb_mmu_state(m);
	assert_int_equal(s->threshold_bytes, 21000);
	assert_true(s->window == 5 * SB_MS);
	for (int i = 1; i <= 22; i++) {
		h_advance(&h, m, (sb_time)i * SB_US);
		struct sb_mmu_pkt p = h_pkt(0, 1000, 7);
		enum sb_drop_cause why = sb_mmu_admit(m, &p);
		assert_int_equal(why, i <= 20 ? SB_ADMIT : SB_DROP_THRESHOLD);
	}
	const sb_time last = 22 * SB_US;
	/* idle for exactly the window: not "longer than", the flow is still long */
	h_advance(&h, m, last + 5 * SB_MS);
	struct sb_mmu_pkt p = h_pkt(0, 1000, 7);
	assert_int_equal(sb_mmu_admit(m, &p), SB_DROP_THRESHOLD);
	assert_int_equal(s->idle_resets, 0);
	/* idle one picosecond longer than the window: the counter restarts at this packet */
	h_advance(&h, m, last + 10 * SB_MS + 1);
	assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
	assert_int_equal(s->idle_resets, 1);
	assert_int_equal(s->short_arrivals, 21);
	assert_int_equal(m->admitted, 21);
	assert_int_equal(m->drops[SB_DROP_THRESHOLD], 3);
	h_drain_free(m, 0, 1000);
}

/* Queue (0,1) filled by a long flow up to its DT limit, α = 0.5 of a 300 000-byte buffer:
 * a packet is admitted while q + 1000 ≤ 0.5·(300 000 − q), i.e. from q ≤ 99 333, so the queue
 * stops at 100 000. A short flow's 20-packet burst is admitted on top (α_short), taking q to
 * 120 000, well past the long flows' threshold 0.5·(300 000 − 120 000) = 90 000; the long
 * flow stays refused.
 * Under DT with the same α the burst's first packet is refused. */
static uint64_t fill_long_then_burst(const char *scheme, int *burst_admitted)
{
	struct harness h = { 0 };
	const char *const params[] = { "alpha", "0.5", NULL };
	struct sb_mmu *m = h_mmu(&h, scheme, 300000, params);
	int guard = 0;
	for (;; guard++) {
		assert_true(guard < 1000);
		h.now += SB_US;
		struct sb_mmu_pkt p = h_pkt(0, 1000, 0xA);
		if (sb_mmu_admit(m, &p) != SB_ADMIT)
			break;
	}
	assert_int_equal(m->q_egr[sb_mmu_qi(0, 1)], 100000);
	*burst_admitted = 0;
	for (int i = 0; i < 20; i++) {
		struct sb_mmu_pkt p = h_pkt(0, 1000, 0xB);
		*burst_admitted += sb_mmu_admit(m, &p) == SB_ADMIT;
	}
	struct sb_mmu_pkt p = h_pkt(0, 1000, 0xA);
	assert_int_equal(sb_mmu_admit(m, &p), SB_DROP_THRESHOLD);
	uint64_t q = m->q_egr[sb_mmu_qi(0, 1)];
	h_drain_free(m, 0, 1000);
	return q;
}

static void test_fab_short_burst_beyond_dt(void **state)
{
	(void)state;
	int admitted;
	assert_int_equal(fill_long_then_burst("fab", &admitted), 120000);
	assert_int_equal(admitted, 20);
	assert_true(120000 > 0.5 * (300000 - 120000));
	assert_int_equal(fill_long_then_burst("dt", &admitted), 100000);
	assert_int_equal(admitted, 0);
}

/* first_rtt mode: the tag alone decides, and no table exists. */
static void test_fab_first_rtt_mode(void **state)
{
	(void)state;
	struct harness h = { 0 };
	const char *const params[] = { "alpha", "0", "mode", "first_rtt", NULL };
	struct sb_mmu *m = h_mmu(&h, "fab", 1000000, params);
	struct sb_fab_state *s = sb_mmu_state(m);
	assert_null(s->table);
	for (int i = 0; i < 50; i++) { /* 50 KB of one flow: still short while tagged */
		struct sb_mmu_pkt p = h_pkt(0, 1000, 9);
		p.tags = SB_MT_FIRST_RTT;
		assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
	}
	struct sb_mmu_pkt p = h_pkt(0, 1000, 9);
	assert_int_equal(sb_mmu_admit(m, &p), SB_DROP_THRESHOLD);
	h_drain_free(m, 0, 1000);
}

/* Two flows in one slot share its counter (a collision can only make a flow look longer);
 * a flow in another slot is unaffected. */
static void test_fab_collisions_share(void **state)
{
	(void)state;
	struct harness h = { 0 };
	const char *const params[] = { "alpha", "0", "table_slots", "4", NULL };
	struct sb_mmu *m = h_mmu(&h, "fab", 1000000, params);
	struct sb_fab_state *s = sb_mmu_state(m);
	for (int i = 0; i < 15; i++) { /* flow 1: 15 000 bytes, short */
		struct sb_mmu_pkt p = h_pkt(0, 1000, 1);
		assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
	}
	struct sb_mmu_pkt p5 = h_pkt(0, 7000, 5); /* same slot: 22 000 ≥ 21 000, counted long */
	assert_int_equal(sb_mmu_admit(m, &p5), SB_DROP_THRESHOLD);
	assert_int_equal(s->shared_arrivals, 1);
	struct sb_mmu_pkt p2 = h_pkt(0, 7000, 2); /* its own slot: short */
	assert_int_equal(sb_mmu_admit(m, &p2), SB_ADMIT);
	assert_int_equal(s->table[1].owner, 1);
	assert_int_equal(s->table[1].bytes, 22000);
	sb_mmu_release(m, &p2, SB_RELEASE_TX); /* the 7000-byte one, then the 1000-byte ones */
	h_drain_free(m, 0, 1000);
}

static void test_fab_rejects_bad_table(void **state)
{
	(void)state;
	struct harness h = { 0 };
	static const uint64_t rates[4] = { 0 };
	struct sb_mmu_config cfg = { .nports = 4, .buffer_bytes = 10000, .port_rate_bps = rates };
	struct sb_mmu_env env = { .ctx = &h, .now = h_now, .arm_timer = h_arm };
	struct sb_error err = { "" };
	struct sb_mmu *m = sb_mmu_new(sb_bm_find("fab"), &cfg, &env);
	assert_int_equal(sb_mmu_set_param(m, "table_slots", "1000", &err), 0);
	assert_int_equal(sb_mmu_start(m, &err), -1);
	assert_non_null(strstr(err.msg, "power of two"));
	sb_mmu_free(m);
	/* IB with AFD needs timers */
	env.arm_timer = NULL;
	m = sb_mmu_new(sb_bm_find("ib"), &cfg, &env);
	assert_int_equal(sb_mmu_start(m, &err), -1);
	assert_non_null(strstr(err.msg, "timers"));
	sb_mmu_free(m);
}

/* ------------------------------------------------------------------------------------------ */
/* Whole simulations */

/* A run with drops of every kind: 6 NewReno senders (300 KB each) and a 6 Gb/s CBR flow into
 * host 0 through a 120 KB buffer, plus a short CBR burst into host 1. */
struct run_result {
	struct sb_net_stats net;
	struct sb_flow_stats stats;
	uint64_t admitted, released, peak, drops[SB_DROP_NCAUSES];
	sb_time finish[8];
};

static void mixed_run(const char *scheme, const char *param, const char *value, struct run_result *r)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 10, 10, 120000);
	sc.run.duration_ms = 6;
	tl_set_scheme(&sc, scheme, "alpha", "0.5");
	if (param)
		tl_set_scheme(&sc, scheme, param, value);
	tl_build(&sim, &sc);
	struct sb_flow *f[8];
	for (uint32_t i = 0; i < 6; i++)
		f[i] = sb_flow_create(&sim.flows, 2 + i, 0, 300000, (sb_time)i * 3 * SB_US, sb_transport_find("newreno"));
	f[6] = tl_cbr(&sim, 8, 0, 6000000000ULL, 1048, 0);
	f[7] = tl_cbr(&sim, 9, 1, 10000000000ULL, 1048, 200 * SB_US);
	f[7]->size = 15000;
	tl_run_and_check(&sim);
	struct sb_mmu *m = sim.net.switches[0]->mmus[0];
	r->net = sim.net.stats;
	r->stats = sim.flows.stats;
	r->admitted = m->admitted;
	r->released = m->released;
	r->peak = m->peak_used;
	memcpy(r->drops, m->drops, sizeof(r->drops));
	for (int i = 0; i < 8; i++)
		r->finish[i] = f[i]->finish;
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void assert_same_run(const struct run_result *a, const struct run_result *b)
{
	assert_memory_equal(&a->net, &b->net, sizeof(a->net));
	assert_memory_equal(&a->stats, &b->stats, sizeof(a->stats));
	assert_int_equal(a->admitted, b->admitted);
	assert_int_equal(a->released, b->released);
	assert_int_equal(a->peak, b->peak);
	assert_memory_equal(a->drops, b->drops, sizeof(a->drops));
	assert_memory_equal(a->finish, b->finish, sizeof(a->finish));
}

/* FAB whose threshold makes no flow short, and IB without AFD, are DT bit for bit. */
static void test_fab_zero_threshold_and_ib_without_afd_equal_dt(void **state)
{
	(void)state;
	struct run_result dt, fab, ib, fab_default;
	mixed_run("dt", "alpha", "0.5", &dt);
	assert_true(dt.drops[SB_DROP_THRESHOLD] > 100); /* the run does exercise the threshold */
	assert_true(dt.stats.flows_completed >= 6);
	mixed_run("fab", "threshold_bytes", "0", &fab);
	assert_same_run(&dt, &fab);
	mixed_run("ib", "afd", "false", &ib);
	assert_same_run(&dt, &ib);
	/* and the comparison can fail: FAB with its default threshold differs */
	mixed_run("fab", "threshold_bytes", "21000", &fab_default);
	assert_true(memcmp(&dt.net, &fab_default.net, sizeof(dt.net)) != 0 ||
		    memcmp(&dt.stats, &fab_default.stats, sizeof(dt.stats)) != 0);
}

/* Two line-rate CBR flows overload host 0's port (2:1), so its queue sits at the long-flow DT
 * threshold; at 1 ms + φ a third host sends a 12 000-byte burst at line rate (12 packets,
 * 12 576 bytes on the wire: short for FAB). With deterministic CBR sources, DT gives each slot
 * freed by a departure to the first packet that arrives after it, so whether the burst gets
 * in depends on its phase φ: over 12 phases 70 ns apart DT delivers the burst at some and
 * loses all of it at others. FAB delivers it whole at every phase. Returns the burst bytes
 * delivered, summed over the phases. */
static uint64_t short_burst_runs(const char *scheme, uint64_t *threshold_drops)
{
	uint64_t delivered = 0;
	*threshold_drops = 0;
	for (int phase = 0; phase < 12; phase++) {
		struct sb_scenario sc;
		struct sb_sim sim;
		tl_single_switch(&sc, 4, 10, 600000);
		sc.run.duration_ms = 1.2;
		tl_set_scheme(&sc, scheme, "alpha", "0.5");
		tl_build(&sim, &sc);
		tl_cbr(&sim, 1, 0, 10000000000ULL, 1048, 0);
		tl_cbr(&sim, 2, 0, 10000000000ULL, 1048, 500 * SB_NS);
		struct sb_flow *burst =
			tl_cbr(&sim, 3, 0, 10000000000ULL, 1048, 1 * SB_MS + (sb_time)phase * 70 * SB_NS);
		burst->size = 12000;
		tl_run_and_check(&sim);
		struct sb_mmu *m = sim.net.switches[0]->mmus[0];
		delivered += burst->bytes_received;
		*threshold_drops += m->drops[SB_DROP_THRESHOLD];
		if (strcmp(scheme, "fab") == 0) {
			/* the burst, plus each long flow's first 20 packets (20 960 B < 21 000) */
			const struct sb_fab_state *s = sb_mmu_state(m);
			assert_int_equal(s->short_arrivals, 12 + 2 * 20);
			assert_true(burst->done);
		}
		sb_sim_free(&sim);
		sb_scenario_free(&sc);
	}
	return delivered;
}

static void test_fab_sim_short_flow_survives(void **state)
{
	(void)state;
	uint64_t drops;
	assert_int_equal(short_burst_runs("fab", &drops), 12 * 12000);
	assert_true(drops > 12 * 500); /* the long flows keep hitting their threshold */
	uint64_t dt = short_burst_runs("dt", &drops);
	assert_true(dt <= 12 * 12000 - 3 * 12000); /* DT loses the whole burst at ≥ 3 phases of 12 */
	assert_true(drops > 12 * 500);
}

/* ------------------------------------------------------------------------------------------ */
/* IB */

static void test_ib_formulas(void **state)
{
	(void)state;
	/* p = max(0, 1 − min(s·M, M_fair)/(s·M)) */
	assert_true(sb_ib_afd_drop_prob(4000000, 125000, 15) == 0.0);   /* s·M = 1 875 000 ≤ M_fair */
	assert_true(sb_ib_afd_drop_prob(937500, 125000, 15) == 0.5);    /* half the fair rate */
	assert_true(fabs(sb_ib_afd_drop_prob(468750, 125000, 15) - 0.75) < 1e-12);
	assert_true(sb_ib_afd_drop_prob(0, 125000, 15) == 1.0);         /* M_fair = 0: drop all */
	assert_true(sb_ib_afd_drop_prob(0, 0, 15) == 0.0);              /* no arrivals: no drop */
	assert_true(sb_ib_afd_drop_prob(50, 10, 1) == 0.0);             /* s = 1: Cisco's 1 − M_fair/M */
	assert_true(sb_ib_afd_drop_prob(5, 10, 1) == 0.5);
	/* M_fair − a1(Q_now − Q_ref) + a2(Q_old − Q_ref), clamped to [0, cap] */
	assert_true(fabs(sb_ib_mfair_step(4e6, 200000, 150000, 100000, 1.8, 1.7, 0) - 3905000) < 1e-6);
	assert_true(fabs(sb_ib_mfair_step(4e6, 0, 0, 100000, 1.8, 1.7, 0) - 4010000) < 1e-6);
	assert_true(sb_ib_mfair_step(1000, 500000, 100000, 100000, 1.8, 1.7, 0) == 0.0);
	assert_true(sb_ib_mfair_step(4e6, 0, 0, 100000, 1.8, 1.7, 4e6) == 4e6);
	/* steady queue at Q: the integral term −(a1 − a2)(Q − Q_ref) = −0.1·(Q − Q_ref) per tick */
	assert_true(fabs(sb_ib_mfair_step(1e6, 300000, 300000, 100000, 1.8, 1.7, 0) - 980000) < 1e-6);
}

/* The timer stops once the MMU is idle and the next arrival replays the skipped ticks: one
 * packet at 0 (gone at 10 µs) keeps the 50 µs tick, the 100 µs tick stops; an arrival at
 * 1000.003 µs replays 18 ticks (150 … 1000 µs). Every queue saw Q = 0 at all 20 ticks, so
 * M_fair = 4 000 000 + 20·(1.8 − 1.7)·100 000 = 4 200 000, as a free-running timer gives. */
static void test_ib_idle_timer_replay(void **state)
{
	(void)state;
	struct harness h = { 0 };
	const char *const params[] = { "afd_mode", "queue", NULL };
	struct sb_mmu *m = h_mmu(&h, "ib", 1000000, params);
	struct sb_ib_state *s = sb_mmu_state(m);
	assert_true(h.armed && h.at == 50 * SB_US);
	struct sb_mmu_pkt p = h_pkt(0, 1000, 1);
	assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
	h_advance(&h, m, 10 * SB_US);
	sb_mmu_release(m, &p, SB_RELEASE_TX);
	h_advance(&h, m, 1000 * SB_US + 3 * SB_NS);
	assert_false(h.armed);
	assert_int_equal(s->ticks_run, 2);
	assert_true(fabs(s->mfair[sb_mmu_qi(0, 1)] - 4020000) < 1e-6);
	assert_int_equal(s->m_last[sb_mmu_qi(0, 1)], 0);
	assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
	assert_int_equal(s->ticks_skipped, 18);
	assert_int_equal(s->epoch, 20);
	assert_true(h.armed && h.at == 1050 * SB_US);
	for (uint16_t port = 0; port < 4; port++)
		assert_true(fabs(s->mfair[sb_mmu_qi(port, 1)] - 4200000) < 1e-6);
	h_drain_free(m, 0, 1000);
	/* afd_update = active: only port 0 (it saw the arrival) is updated at the 50 µs tick, and
	 * the replayed ticks, which saw no arrival, change nothing */
	const char *const active[] = { "afd_mode", "queue", "afd_update", "active", NULL };
	h = (struct harness){ 0 };
	m = h_mmu(&h, "ib", 1000000, active);
	s = sb_mmu_state(m);
	assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
	h_advance(&h, m, 10 * SB_US);
	sb_mmu_release(m, &p, SB_RELEASE_TX);
	h_advance(&h, m, 1000 * SB_US + 3 * SB_NS);
	assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
	assert_int_equal(s->epoch, 20);
	assert_true(fabs(s->mfair[sb_mmu_qi(0, 1)] - 4010000) < 1e-6);
	assert_true(s->mfair[sb_mmu_qi(1, 1)] == 4000000);
	/* with a clamp the replay stops at it */
	h_drain_free(m, 0, 1000);
	const char *const capped[] = { "afd_mode", "queue", "mfair_max", "4100000", NULL };
	h = (struct harness){ 0 };
	m = h_mmu(&h, "ib", 1000000, capped);
	s = sb_mmu_state(m);
	h_advance(&h, m, 2000 * SB_US);
	assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
	assert_true(s->mfair[sb_mmu_qi(2, 5)] == 4100000);
	h_drain_free(m, 0, 1000);
}

/* With M_fair = 0 and the queue above queue-desired: in flow mode an elephant that sent in
 * the last window is dropped, a mouse (6000 B so far, below elephant_bytes, but with a rate
 * measured in the last window) is not; in queue mode both are. */
static void mice_vs_elephant(const char *mode, enum sb_drop_cause *elephant, enum sb_drop_cause *mouse)
{
	struct harness h = { 0 };
	const char *const params[] = { "afd_mode", mode, "alpha", "1", NULL };
	struct sb_mmu *m = h_mmu(&h, "ib", 2000000, params);
	struct sb_ib_state *s = sb_mmu_state(m);
	for (int i = 0; i < 5; i++) { /* window 0: the mouse sends 5000 B, so its M_last > 0 */
		struct sb_mmu_pkt p = h_pkt(0, 1000, 0x3);
		assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
	}
	for (int i = 0; i < 160; i++) { /* window 0: 165 KB > 153 600, M_fair = 4e6: no drop */
		struct sb_mmu_pkt p = h_pkt(0, 1000, 0xE);
		assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
	}
	h_advance(&h, m, 60 * SB_US); /* one tick: M_last = 160 000 (elephant), 5000 (mouse) */
	s->mfair[sb_mmu_qi(0, 1)] = 0;
	struct sb_mmu_pkt e = h_pkt(0, 1000, 0xE), mo = h_pkt(0, 1000, 0x3);
	*elephant = sb_mmu_admit(m, &e);
	*mouse = sb_mmu_admit(m, &mo);
	h_drain_free(m, 0, 1000);
}

static void test_ib_flow_mode_spares_mice(void **state)
{
	(void)state;
	enum sb_drop_cause e, mo;
	mice_vs_elephant("flow", &e, &mo);
	assert_int_equal(e, SB_DROP_AQM);
	assert_int_equal(mo, SB_ADMIT);
	mice_vs_elephant("queue", &e, &mo);
	assert_int_equal(e, SB_DROP_AQM);
	assert_int_equal(mo, SB_DROP_AQM);
}

/* p = 0.5 (M_fair set to half of s·M_last): AFD refuses about half of 4000 arrivals, drawn
 * from the MMU's seeded stream (±4σ = ±126). Below queue-desired it refuses none. */
static void test_ib_drop_probability_applied(void **state)
{
	(void)state;
	struct harness h = { 0 };
	const char *const params[] = { "afd_mode", "queue", "alpha", "1", NULL };
	struct sb_mmu *m = h_mmu(&h, "ib", 4000000, params);
	struct sb_ib_state *s = sb_mmu_state(m);
	size_t qi = sb_mmu_qi(0, 1);
	for (int i = 0; i < 200; i++) { /* window 0: 200 000 B */
		struct sb_mmu_pkt p = h_pkt(0, 1000, (uint32_t)i);
		assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
	}
	h_advance(&h, m, 50 * SB_US);
	assert_int_equal(s->m_last[qi], 200000);
	s->mfair[qi] = 0.5 * 15 * 200000;
	int refused = 0;
	for (int i = 0; i < 4000; i++) {
		struct sb_mmu_pkt p = h_pkt(0, 64, (uint32_t)i);
		enum sb_drop_cause why = sb_mmu_admit(m, &p);
		assert_true(why == SB_ADMIT || why == SB_DROP_AQM);
		refused += why == SB_DROP_AQM;
	}
	assert_true(refused > 2000 - 126 && refused < 2000 + 126);
	assert_int_equal(s->afd_drops[qi], (uint64_t)refused);
	/* M_fair = 0 (p = 1) on a queue below queue-desired: nothing refused */
	s->mfair[sb_mmu_qi(1, 1)] = 0;
	for (int i = 0; i < 150; i++) {
		struct sb_mmu_pkt p = h_pkt(1, 1000, 7);
		assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
	}
	assert_int_equal(s->afd_drops[sb_mmu_qi(1, 1)], 0);
	h_drain(m, 1, 1000);
	/* drain (0,1): 200 packets of 1000 B and the admitted 64-byte ones */
	struct sb_mmu_pkt small = h_pkt(0, 64, 0);
	for (int i = 0; i < 4000 - refused; i++)
		sb_mmu_release(m, &small, SB_RELEASE_TX);
	h_drain_free(m, 0, 1000);
}

/* Host 0's port is overloaded 2:1 by two line-rate CBR flows; host 1's port gets 5 Gb/s.
 * Buffer 4 MB with α = 1: DT alone would hold queue 0 at 2 MB. The queue first climbs while
 * M_fair (4e6) is above s·M ≈ 15 × 125 000 (no AFD drop), then AFD drops pull it down to
 * queue-desired (153 600 B) by ~3 ms. Above queue-desired AFD drops with p = 1 − M_fair/(s·M),
 * below it never, so from 4 ms on the queue stays at queue-desired (measured: 153 008 …
 * 161 392 in queue mode); since the queue stays above Q_ref, the integral term −0.1·(Q − Q_ref)
 * per tick keeps lowering M_fair until it reaches its floor 0 (~10 ms), after which every
 * packet above queue-desired is refused and the queue never exceeds it by more than one packet.
 * Queue 1 never reaches queue-desired, so AFD never drops there and its flow loses nothing. */
static void afd_overload_run(const char *mode, const char *update, int64_t cell, int64_t mmu_ports)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	/* with mmu_ports = 2, ports 0 and 1 share MMU 0, which gets 2/5 of the buffer */
	tl_single_switch(&sc, 5, 10, mmu_ports ? 10000000 : 4000000);
	sc.sw.cell_bytes = cell;
	sc.sw.mmu_ports = mmu_ports;
	sc.run.duration_ms = 16;
	tl_set_scheme(&sc, "ib", "alpha", "1");
	tl_set_scheme(&sc, "ib", "afd_mode", mode);
	tl_set_scheme(&sc, "ib", "afd_update", update);
	tl_build(&sim, &sc);
	tl_cbr(&sim, 2, 0, 10000000000ULL, 1048, 0);
	tl_cbr(&sim, 3, 0, 10000000000ULL, 1048, 300 * SB_NS);
	struct sb_flow *under = tl_cbr(&sim, 4, 1, 5000000000ULL, 1048, 100 * SB_NS);
	struct sb_mmu *m = sim.net.switches[0]->mmus[0];
	const struct sb_ib_state *s = sb_mmu_state(m);
	const size_t q0 = sb_mmu_qi(0, 1), q1 = sb_mmu_qi(1, 1);
	/* in MMU units: bytes, or 200-byte cells (a 1048-byte packet is 6 cells) */
	const uint64_t unit = cell ? (uint64_t)cell : 1, qref = 100000 / unit, desired = 153600 / unit;
	const uint64_t pkt = (1048 + unit - 1) / unit;
	const double mfair0 = 4000000.0 / (double)unit;
	uint64_t lo = UINT64_MAX, hi = 0, hi_late = 0, hi1 = 0, n = 0;
	double sum = 0, mfair_4ms = -1, mfair_8ms = -1;
	for (sb_time t = 4 * SB_MS; t <= 15 * SB_MS; t += 5 * SB_US) {
		sb_eventq_run_until(&sim.net.engine.eq, t);
		uint64_t q = m->q_egr[q0];
		lo = q < lo ? q : lo;
		hi = q > hi ? q : hi;
		sum += (double)q;
		n++;
		hi1 = m->q_egr[q1] > hi1 ? m->q_egr[q1] : hi1;
		if (t == 4 * SB_MS)
			mfair_4ms = s->mfair[q0];
		if (t == 8 * SB_MS)
			mfair_8ms = s->mfair[q0];
		if (t >= 11 * SB_MS) {
			assert_true(s->mfair[q0] == 0.0);
			hi_late = q > hi_late ? q : hi_late;
		}
	}
	tl_run_and_check(&sim);
	if (lo < qref || hi > desired + 16 * pkt || hi_late > desired + pkt)
		fail_msg("%s/%s/cell %lld: queue 0 ranged over [%llu, %llu] (%llu after 11 ms)", mode, update,
			 (long long)cell, (unsigned long long)lo,
			 (unsigned long long)hi, (unsigned long long)hi_late);
	assert_true(fabs(sum / (double)n - (double)desired) < 0.02 * (double)desired);
	assert_true(mfair_4ms > 0 && mfair_4ms < mfair0 && mfair_8ms < mfair_4ms);
	assert_true(s->afd_drops[q0] > 10000);
	assert_int_equal(s->afd_drops[q0], m->drops[SB_DROP_AQM]);
	assert_int_equal(m->drops[SB_DROP_THRESHOLD], 0); /* AFD, not DT, holds the queue */
	assert_int_equal(s->afd_drops[q1], 0);
	assert_true(hi1 < desired);
	assert_true(s->mfair[q1] > mfair0); /* below Q_ref the fair share only grows */
	if (mmu_ports) {
		/* MMU 1 (ports 2, 3) never holds a packet: its timer stopped at its first tick and no
		 * arrival ever woke it; MMU 0 never touches port 3, which is not its own */
		const struct sb_ib_state *s1 = sb_mmu_state(sim.net.switches[0]->mmus[1]);
		assert_int_equal(s1->ticks_run, 1);
		assert_int_equal(s1->ticks_skipped, 0);
		assert_true(s->mfair[sb_mmu_qi(3, 1)] == mfair0);
	} else if (strcmp(update, "active") == 0) { /* ports without arrivals are never updated */
		assert_true(s->mfair[sb_mmu_qi(3, 1)] == mfair0);
	} else {
		assert_true(s->mfair[sb_mmu_qi(3, 1)] > mfair0);
	}
	assert_true(under->pkts_sent > 9000);
	assert_true(under->bytes_received + 4000 >= under->pkts_sent * 1000); /* 1000 B payload each */
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_ib_afd_holds_overloaded_queue(void **state)
{
	(void)state;
	afd_overload_run("queue", "tick", 0, 0);
	afd_overload_run("flow", "tick", 0, 0);
	afd_overload_run("queue", "active", 0, 0); /* the artifact's configuration */
	afd_overload_run("flow", "tick", 200, 0);  /* 200-byte cells */
	afd_overload_run("flow", "tick", 0, 2);    /* three MMUs: ports {0,1}, {2,3}, {4} */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fab_counter_and_idle_reset),
		cmocka_unit_test(test_fab_short_burst_beyond_dt),
		cmocka_unit_test(test_fab_first_rtt_mode),
		cmocka_unit_test(test_fab_collisions_share),
		cmocka_unit_test(test_fab_rejects_bad_table),
		cmocka_unit_test(test_fab_zero_threshold_and_ib_without_afd_equal_dt),
		cmocka_unit_test(test_fab_sim_short_flow_survives),
		cmocka_unit_test(test_ib_formulas),
		cmocka_unit_test(test_ib_idle_timer_replay),
		cmocka_unit_test(test_ib_flow_mode_spares_mice),
		cmocka_unit_test(test_ib_drop_probability_applied),
		cmocka_unit_test(test_ib_afd_holds_overloaded_queue),
	};
	return cmocka_run_group_tests_name("fab_ib", tests, NULL, NULL);
}
