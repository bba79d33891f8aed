/*
 * test_occamy.c — Occamy (§4: admission §4.2, expulsion §4.3, α and Eqs. 2–4 §4.4;
 * docs/schemes/occamy.md) against DT and against its own theory.
 *
 *  - expulsion off (and the artifact's empty-queue exception off) is bit-identical to DT with
 *    the same α on a TCP workload with drops; expulsion on changes the run;
 *  - Eq. (2): with N overloaded queues the free buffer settles at B/(1+αN);
 *  - expulsion (§4.3): a long-lived CBR queue that holds αB/(1+α) gives the excess back to a
 *    new burst.
 *    With enough spare bandwidth (Eq. 3 holds) the old queue is at the fair share T* by the
 *    time the burst reaches it, and the burst loses nothing; DT(α=8) keeps the buffer and the
 *    burst drops. With little spare bandwidth the excess drains at V = drain + spare, and the
 *    measured time is compared with t_conv = (q0 − T*)/V (docs/schemes/occamy.md §4);
 *  - the token bucket: at every instant, cells dequeued + cells expelled ≤ bucket + rate·t +
 *    one packet, and when tokens are the bottleneck expulsion uses nearly all of them;
 *  - no idle timer chain: once nothing is over-allocated no grant event remains.
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

static void set_param(struct sb_scenario *sc, const char *scheme, const char *param, const char *value)
{
	tl_set_scheme(sc, scheme, param, value);
}

/* --- expulsion off == DT --- */

static const char *tcp_text =
	"run: { seed = 3; duration_ms = 6.0; arrivals_ms = 4.0; sample_interval_us = 10.0; };\n"
	"topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 8; spines = 1;\n"
	"  host_rate_gbps = 25.0; host_delay_us = 2.0; fabric_rate_gbps = 25.0; fabric_delay_us = 2.0; };\n"
	"switch: { buffer_bytes = 300000; sched = \"drr\"; ecn_mode = \"step\";\n"
	"  ecn_kmin_bytes = 65000.0; ecn_kmax_bytes = 65000.0; };\n"
	"tcp: { mss = 1000; header_bytes = 48; min_rto_us = 1000.0; };\n"
	"workloads = (\n"
	"  { type = \"poisson\"; cdf = \"websearch\"; load = 0.5; load_ref = \"uplink\"; dest = \"other_rack\";\n"
	"    transport = \"dctcp\"; prio = 1; },\n"
	"  { type = \"incast\"; query_rate = 2000.0; fanin = 7; size_bytes = 600000; responders = \"next_rack\";\n"
	"    transport = \"dctcp\"; prio = 1; full_window = true; }\n"
	");\n";

static void run_tcp(struct sb_sim *sim, struct sb_scenario *sc, const char *scheme, const char *expel)
{
	tl_scenario(sc, tcp_text, NULL, 0);
	tl_set_scheme(sc, scheme, "alpha", "8");
	if (expel)
		set_param(sc, scheme, "expel", expel);
	tl_run_checked(sim, sc);
}

static uint64_t total(const struct sb_sim *sim, int what)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < sim->net.nswitches; i++)
		for (uint16_t g = 0; g < sim->net.switches[i]->nmmus; g++) {
			const struct sb_mmu *m = sim->net.switches[i]->mmus[g];
			n += what == 0 ? m->admitted : what == 1 ? m->released : what == 2 ? m->expelled : m->peak_used;
		}
	return n;
}

static void test_expel_off_is_dt(void **state)
{
	(void)state;
	struct sb_scenario a, b, c;
	struct sb_sim dt, off, on;
	run_tcp(&dt, &a, "dt", NULL);
	run_tcp(&off, &b, "occamy", "false");
	run_tcp(&on, &c, "occamy", "true");
	/* the scenario has teeth: DT(8) drops, and expulsion changes the run */
	assert_true(dt.net.stats.drops[SB_DROP_THRESHOLD] > 100);
	assert_true(total(&on, 2) > 0);
	assert_true(on.net.engine.eq.executed != dt.net.engine.eq.executed);
	/* bit-identical: events, every counter, every flow record, every occupancy extreme */
	assert_int_equal(off.net.engine.eq.executed, dt.net.engine.eq.executed);
	assert_memory_equal(&off.flows.stats, &dt.flows.stats, sizeof(dt.flows.stats));
	assert_memory_equal(&off.net.stats, &dt.net.stats, sizeof(dt.net.stats));
	assert_int_equal(off.nrecords, dt.nrecords);
	assert_memory_equal(off.records, dt.records, dt.nrecords * sizeof(*dt.records));
	for (int w = 0; w < 4; w++)
		assert_int_equal(total(&off, w), total(&dt, w));
	for (uint32_t i = 0; i < dt.net.nswitches; i++)
		assert_memory_equal(off.net.switches[i]->drops, dt.net.switches[i]->drops, sizeof(dt.net.switches[i]->drops));
	printf("expel off == dt(8): %llu events, %zu flows, %llu drops; expel on: %llu expelled, %llu threshold drops\n",
	       (unsigned long long)dt.net.engine.eq.executed, dt.nrecords, (unsigned long long)dt.net.stats.pkts_dropped,
	       (unsigned long long)total(&on, 2), (unsigned long long)on.net.stats.drops[SB_DROP_THRESHOLD]);
	sb_sim_free(&dt);
	sb_sim_free(&off);
	sb_sim_free(&on);
	sb_scenario_free(&a);
	sb_scenario_free(&b);
	sb_scenario_free(&c);
}

/* --- Eq. (2) --- */

static void check_eq2(int n, double alpha)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	const uint64_t B = 2000000;
	tl_single_switch(&sc, 3 * n, 10, B);
	char a[32];
	snprintf(a, sizeof(a), "%g", alpha);
	tl_set_scheme(&sc, "occamy", "alpha", a);
	tl_build(&sim, &sc);
	for (int d = 0; d < n; d++)
		for (int k = 0; k < 2; k++)
			tl_cbr(&sim, (uint32_t)(n + 2 * d + k), (uint32_t)d, 10000000000ULL, 1000, (sb_time)k * 100 * SB_NS);
	tl_run_and_check(&sim);
	struct sb_mmu *m = sim.net.switches[0]->mmus[0];
	double free_units = (double)(m->buffer - m->used), expect = (double)B / (1 + n * alpha);
	double q_expect = alpha * (double)B / (1 + n * alpha);
	printf("occamy alpha=%g N=%d: free %.0f B, Eq.(2) %.0f B; expelled %llu, threshold drops %llu\n", alpha, n,
	       free_units, expect, (unsigned long long)m->expelled, (unsigned long long)m->drops[SB_DROP_THRESHOLD]);
	assert_true(fabs(free_units - expect) <= 0.03 * expect + 2000);
	for (int d = 0; d < n; d++) {
		double q = (double)m->q_egr[sb_mmu_qi((uint16_t)d, 1)];
		assert_true(fabs(q - q_expect) <= 0.03 * q_expect + alpha * 1000);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_eq2_free_buffer(void **state)
{
	(void)state;
	const int ns[] = { 1, 2, 4 };
	for (size_t i = 0; i < 3; i++) {
		check_eq2(ns[i], 8);
		check_eq2(ns[i], 2);
	}
}

/* --- §4.3 convergence --- */

struct conv_probe {
	struct sb_sim *sim;
	struct sb_mmu *m;
	sb_time t0;          /* burst start */
	uint64_t tstar;      /* fair share T* */
	sb_time old_at_tstar, new_at_tstar; /* first time the old queue ≤ T*, the new one ≥ T* */
	uint64_t old_max_after; /* largest old queue after it first reached T* (+ slack check) */
	uint64_t cells_checked;
};

static void conv_sample(void *obj, uint64_t arg)
{
	struct conv_probe *p = obj;
	(void)arg;
	sb_time now = sb_now(&p->sim->net.engine);
	uint64_t q_old = p->m->q_egr[sb_mmu_qi(0, 1)], q_new = p->m->q_egr[sb_mmu_qi(1, 1)];
	if (now >= p->t0) {
		if (!p->old_at_tstar && q_old <= p->tstar)
			p->old_at_tstar = now;
		if (!p->new_at_tstar && q_new >= p->tstar)
			p->new_at_tstar = now;
	}
	if (now + 100 * SB_NS < p->sim->stop_at)
		sb_at(&p->sim->net.engine, now + 100 * SB_NS, conv_sample, p, 0);
}

struct conv_result {
	double t_old_us, t_new_us; /* after the burst start */
	uint64_t burst_lost;       /* payload bytes of the burst never delivered */
	uint64_t expelled;
};

/* Old: hosts 2,3 → host 0 at 10 G each (2:1) from t = 0. New: `k` senders → host 1 from 1.5 ms,
 * `burst_per_sender` bytes each at 10 G. 1000-byte packets = 5 tokens of 200 B. */
static struct conv_result run_convergence(const char *expel, const char *token_rate, int k, uint64_t burst_per_sender,
					  double B, double alpha)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 4 + k, 10, (uint64_t)B);
	sc.run.duration_ms = 3;
	tl_set_scheme(&sc, "occamy", "expel", expel);
	char a[32];
	snprintf(a, sizeof(a), "%g", alpha);
	set_param(&sc, "occamy", "alpha", a);
	if (token_rate)
		set_param(&sc, "occamy", "token_rate_gbps", token_rate);
	tl_build(&sim, &sc);
	const sb_time t0 = 1500 * SB_US;
	tl_cbr(&sim, 2, 0, 10000000000ULL, 1000, 0);
	tl_cbr(&sim, 3, 0, 10000000000ULL, 1000, 0);
	struct sb_flow *burst[16];
	for (int i = 0; i < k; i++) {
		burst[i] = sb_flow_create(&sim.flows, (uint32_t)(4 + i), 1, burst_per_sender, t0, sb_transport_find("cbr"));
		sb_cbr_configure(burst[i], 10000000000ULL, 1000);
	}
	struct conv_probe p = { .sim = &sim, .m = sim.net.switches[0]->mmus[0], .t0 = t0,
				.tstar = (uint64_t)(alpha * B / (1 + 2 * alpha)) };
	sb_at(&sim.net.engine, 100 * SB_NS, conv_sample, &p, 0);
	tl_run_and_check(&sim);
	struct conv_result r = { 0 };
	r.t_old_us = p.old_at_tstar ? (double)(p.old_at_tstar - t0) / SB_US : -1;
	r.t_new_us = p.new_at_tstar ? (double)(p.new_at_tstar - t0) / SB_US : -1;
	for (int i = 0; i < k; i++)
		r.burst_lost += burst_per_sender - burst[i]->bytes_received;
	r.expelled = p.m->expelled;
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return r;
}

static void test_convergence_agile(void **state)
{
	(void)state;
	/* B = 1 MB, α = 8, N = M = 1: q0 = 8B/9 = 888,889 B, T* = 8B/17 = 470,588 B, excess
	 * 418,301 B. Tokens = Σ port rates = 100 G, dequeues 20 G: spare 80 G, plus the old port's
	 * own 10 G, V = 90 G, t_conv = (q0 − T*)/V = 37.2 µs. The burst: 6 senders × 100 KB at
	 * 10 G (R = 60 G, net growth 50 G) reaches T* after T* / 50 G = 75.3 µs. Eq. (3),
	 * R ≤ V(1 + (1+αN)/(αM)) = 191 G, holds, so the old queue must be down to T* when the burst
	 * gets there: the reallocation takes max(t_conv, 75.3 µs). The burst (600 KB, 100 KB
	 * drained meanwhile) overflows its fair share by 29.4 KB; DT(α=8) drains the old queue at
	 * 10 G only, so the burst is cut long before its share. */
	const double B = 1000000, alpha = 8;
	const double q0 = alpha * B / (1 + alpha), tstar = alpha * B / (1 + 2 * alpha);
	const double t_conv = (q0 - tstar) / (90e9 / 8 / 1e6), t_new = tstar / (50e9 / 8 / 1e6);
	const double overflow = 600000 - 100000 - tstar;
	struct conv_result occ = run_convergence("true", NULL, 6, 100000, B, alpha);
	struct conv_result dt = run_convergence("false", NULL, 6, 100000, B, alpha);
	printf("agile: t_conv %.1f us, burst reaches T* after %.1f us (theory %.1f); occamy: old at T* after %.1f us, "
	       "burst lost %llu B (overflow of its share %.0f B), %llu expelled; dt(8): old at T* after %.1f us, "
	       "burst lost %llu B\n",
	       t_conv, occ.t_new_us, t_new, occ.t_old_us, (unsigned long long)occ.burst_lost, overflow,
	       (unsigned long long)occ.expelled, dt.t_old_us, (unsigned long long)dt.burst_lost);
	assert_true(occ.t_old_us > 0 && occ.t_new_us > 0);
	assert_true(occ.t_old_us <= 1.1 * fmax(t_conv, t_new));
	assert_true(fabs(occ.t_new_us - t_new) <= 0.1 * t_new);
	assert_true(occ.expelled > 100);
	assert_true((double)occ.burst_lost <= 2 * overflow);
	/* DT(8): the old queue never gets to T* within the run's window, the burst loses 6x more */
	assert_true(dt.t_old_us < 0 || dt.t_old_us > 3 * occ.t_old_us);
	assert_true(dt.burst_lost > 5 * occ.burst_lost);
}

static void test_convergence_rate_limited(void **state)
{
	(void)state;
	/* Same buffer, but only 30 G of tokens: spare = 30 − 20 = 10 G, V = 10 + 10 = 20 G, so
	 * t_conv = 418,301 B / 20 G = 167.3 µs. The burst (6 senders, net 50 G) would reach T* in
	 * 75 µs: here V is the bottleneck and the old queue's descent is timed by t_conv. The RR
	 * selector also serves the burst queue when it briefly crosses its own threshold, so the
	 * measured time may exceed t_conv somewhat, never undercut it by more than sampling. */
	const double B = 1000000, alpha = 8;
	const double q0 = alpha * B / (1 + alpha), tstar = alpha * B / (1 + 2 * alpha);
	double t_conv = (q0 - tstar) / (20e9 / 8 / 1e6);
	struct conv_result occ = run_convergence("true", "30", 6, 200000, B, alpha);
	struct conv_result dt = run_convergence("false", "30", 6, 200000, B, alpha);
	printf("rate-limited: t_conv %.1f us; occamy: old at T* after %.1f us (%.2f x t_conv); dt(8): %.1f us "
	       "(drain-only prediction %.1f us)\n",
	       t_conv, occ.t_old_us, occ.t_old_us / t_conv, dt.t_old_us, (q0 - tstar) / (10e9 / 8 / 1e6));
	assert_true(occ.t_old_us >= 0.9 * t_conv);
	assert_true(occ.t_old_us <= 1.5 * t_conv);
	assert_true(dt.t_old_us < 0 || dt.t_old_us > 1.5 * occ.t_old_us);
}

/* --- token bucket bound --- */

struct token_probe {
	struct sb_sim *sim;
	struct sb_mmu *m;
	double rate_cells_per_ps, depth_cells;
	double worst_slack;  /* min over samples of (allowance − used) in cells */
	uint64_t samples;
};

static void token_sample(void *obj, uint64_t arg)
{
	struct token_probe *p = obj;
	(void)arg;
	sb_time now = sb_now(&p->sim->net.engine);
	/* every packet is 1000 B = 5 tokens */
	double used = 5.0 * (double)(p->m->released + p->m->expelled);
	double allowance = p->depth_cells + p->rate_cells_per_ps * (double)now + 5.0;
	double slack = allowance - used;
	if (slack < p->worst_slack)
		p->worst_slack = slack;
	p->samples++;
	if (now + 50 * SB_NS < p->sim->stop_at)
		sb_at(&p->sim->net.engine, now + 50 * SB_NS, token_sample, p, 0);
}

static void check_token_bound(const char *rate_gbps, const char *depth)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 6, 10, 1000000);
	sc.run.duration_ms = 2;
	tl_set_scheme(&sc, "occamy", "token_rate_gbps", rate_gbps);
	set_param(&sc, "occamy", "bucket_cells", depth);
	set_param(&sc, "occamy", "alpha", "1");
	tl_build(&sim, &sc);
	/* two ports, each fed 2:1; queues sit at their thresholds and every admission at the
	 * threshold over-allocates by up to α·L, so grants are always wanted */
	for (int d = 0; d < 2; d++)
		for (int k = 0; k < 2; k++)
			tl_cbr(&sim, (uint32_t)(2 + 2 * d + k), (uint32_t)d, 10000000000ULL, 1000, (sb_time)k * 100 * SB_NS);
	struct token_probe p = { .sim = &sim, .m = sim.net.switches[0]->mmus[0],
				 .rate_cells_per_ps = atof(rate_gbps) * 1e9 / 8 / 200 / 1e12,
				 .depth_cells = atof(depth), .worst_slack = 1e18 };
	sb_at(&sim.net.engine, 50 * SB_NS, token_sample, &p, 0);
	tl_run_and_check(&sim);
	/* spare bandwidth over the run: tokens minus the two ports' dequeues */
	double t = (double)sim.net.engine.eq.now;
	double spare_cells = p.depth_cells + p.rate_cells_per_ps * t - 5.0 * (double)p.m->released;
	double expelled_cells = 5.0 * (double)p.m->expelled;
	printf("tokens %s G depth %s: %llu samples, min slack %.1f cells; expelled %.0f cells of %.0f spare (%.1f%%)\n",
	       rate_gbps, depth, (unsigned long long)p.samples, p.worst_slack, expelled_cells, spare_cells,
	       100 * expelled_cells / spare_cells);
	assert_true(p.samples > 1000);
	assert_true(p.worst_slack >= -1e-6);
	assert_true(expelled_cells <= spare_cells + 5);
	if (atof(rate_gbps) < 30) /* tokens are the bottleneck: expulsion uses most of them */
		assert_true(expelled_cells >= 0.75 * spare_cells);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_token_bucket_bound(void **state)
{
	(void)state;
	check_token_bound("25", "8");    /* 5 G spare: tokens are the bottleneck */
	check_token_bound("22", "200");  /* DPDK-like deep bucket, 2 G spare */
	check_token_bound("60", "8");    /* plenty of spare: bound holds, demand-limited */
}

/* --- no idle timer chain --- */

static void test_no_idle_timers(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 8, 10, 200000);
	sc.run.duration_ms = 50;
	tl_set_scheme(&sc, "occamy", "alpha", "8");
	tl_build(&sim, &sc);
	/* 2 MB from two senders fill port 0's queue to 8B/9; then a 1.2 MB burst from 4 senders
	 * into port 1 over-allocates it: expulsion until the burst's share is freed, then silence */
	for (int k = 0; k < 6; k++) {
		struct sb_flow *f = sb_flow_create(&sim.flows, (uint32_t)(2 + k), k < 2 ? 0 : 1, k < 2 ? 1000000 : 300000,
						   k < 2 ? 0 : 300 * SB_US, sb_transport_find("cbr"));
		sb_cbr_configure(f, 10000000000ULL, 1000);
	}
	tl_run_and_check(&sim);
	struct sb_mmu *m = sim.net.switches[0]->mmus[0];
	printf("idle: run ended at %.1f us of 50000, %llu expelled\n", (double)sim.net.engine.eq.now / SB_US,
	       (unsigned long long)m->expelled);
	assert_true(m->expelled > 20);
	/* the event queue ran dry long before the end: no timer re-arms itself on an idle MMU */
	assert_true(sim.net.engine.eq.now < 2 * SB_MS);
	assert_int_equal(m->used, 0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* --- the selector and the bucket, with the MMU embedded (docs/mmu.md §7) --- */

#define E_NPORTS 8
#define E_CAP 256

struct emb {
	struct sb_mmu *m;
	sb_time now;
	sb_time timer_at[64];
	int ntimers;
	uint32_t fifo[E_NPORTS][E_CAP]; /* sizes, prio 1 only */
	uint32_t head[E_NPORTS], count[E_NPORTS];
	int victims[256];
	sb_time victim_at[256];
	int nvictims;
};

static sb_time emb_now(void *ctx) { return ((struct emb *)ctx)->now; }

static void emb_arm(void *ctx, struct sb_mmu *m, sb_time at, unsigned id)
{
	struct emb *e = ctx;
	(void)m;
	assert_int_equal(id, 0);
	assert_true(e->ntimers < 64);
	e->timer_at[e->ntimers++] = at;
}

static bool emb_expel(void *ctx, struct sb_mmu *m, uint16_t port, uint8_t prio)
{
	struct emb *e = ctx;
	if (!e->count[port])
		return false;
	struct sb_mmu_pkt p = { .in_port = 0, .out_port = port, .prio = prio, .bytes = e->fifo[port][e->head[port]] };
	e->head[port] = (e->head[port] + 1) % E_CAP;
	e->count[port]--;
	assert_true(e->nvictims < 256);
	e->victims[e->nvictims] = port;
	e->victim_at[e->nvictims++] = e->now;
	sb_mmu_release(m, &p, SB_RELEASE_EXPELLED);
	return true;
}

/* Ports 0–3 run at 100 G but belong to another MMU; this one serves ports 4–7 at 10 G each,
 * so its tokens refill at 40 G: one 200-byte token every 40 ns. */
static struct emb *emb_new(const char *const *params)
{
	struct emb *e = calloc(1, sizeof(*e));
	assert_non_null(e);
	uint64_t rates[E_NPORTS];
	for (int i = 0; i < E_NPORTS; i++)
		rates[i] = i < 4 ? 100000000000ULL : 10000000000ULL;
	struct sb_mmu_config cfg = { .nports = E_NPORTS, .port_lo = 4, .port_hi = 8, .buffer_bytes = 100000,
				     .port_rate_bps = rates };
	struct sb_mmu_env env = { .ctx = e, .now = emb_now, .arm_timer = emb_arm, .expel_head = emb_expel };
	e->m = sb_mmu_new(sb_bm_find("occamy"), &cfg, &env);
	e->m->check_invariants = true;
	struct sb_error err;
	for (; params && params[0]; params += 2)
		if (sb_mmu_set_param(e->m, params[0], params[1], &err))
			fail_msg("%s", err.msg);
	if (sb_mmu_start(e->m, &err))
		fail_msg("%s", err.msg);
	return e;
}

static int emb_offer(struct emb *e, uint16_t port, int n)
{
	int admitted = 0;
	for (int i = 0; i < n; i++) {
		struct sb_mmu_pkt p = { .in_port = 0, .out_port = port, .prio = 1, .bytes = 1000 };
		if (sb_mmu_admit(e->m, &p) == SB_ADMIT) {
			e->fifo[port][(e->head[port] + e->count[port]++) % E_CAP] = 1000;
			admitted++;
		}
	}
	return admitted;
}

/* Fire armed timers in time order until none is left. */
static void emb_run_timers(struct emb *e)
{
	while (e->ntimers) {
		int k = 0;
		for (int i = 1; i < e->ntimers; i++)
			if (e->timer_at[i] < e->timer_at[k])
				k = i;
		sb_time at = e->timer_at[k];
		e->timer_at[k] = e->timer_at[--e->ntimers];
		assert_true(at >= e->now);
		e->now = at;
		sb_mmu_timer(e->m, 0);
		assert_true(e->ntimers <= 1); /* never more than one grant timer outstanding */
	}
}

static void emb_free(struct emb *e)
{
	struct sb_error err;
	if (sb_mmu_check(e->m, &err))
		fail_msg("%s", err.msg);
	sb_mmu_free(e->m);
	free(e);
}

static bool emb_any_over(const struct emb *e, double alpha)
{
	for (uint16_t p = 4; p < 8; p++)
		if ((double)e->m->q_egr[sb_mmu_qi(p, 1)] > alpha * (double)(e->m->buffer - e->m->used))
			return true;
	return false;
}

static void test_selector_round_robin(void **state)
{
	(void)state;
	const char *params[] = { "alpha", "1", NULL };
	struct emb *e = emb_new(params);
	/* α = 1, B = 100 KB: ports 4 and 5 take 30 KB each, then port 6 fills to its threshold.
	 * That lowers T = B − Q to 20 KB: ports 4 and 5 are over-allocated, port 6 (at T) is not. */
	assert_int_equal(emb_offer(e, 4, 30), 30);
	assert_int_equal(e->ntimers, 0); /* nothing over-allocated yet: no timer */
	assert_int_equal(emb_offer(e, 5, 30), 30);
	assert_int_equal(emb_offer(e, 6, 40), 20);
	assert_int_equal(e->ntimers, 1);
	emb_run_timers(e);
	/* round robin, one packet per grant: 4, 5, 4, 5, ... Each head drop lowers its queue by
	 * 1 KB and raises T by 1 KB: after 4,5,4,5,4,5,4 the queues hold 26 and 27 KB, T = 27 KB */
	assert_int_equal(e->nvictims, 7);
	for (int i = 0; i < e->nvictims; i++)
		assert_int_equal(e->victims[i], 4 + i % 2);
	assert_false(emb_any_over(e, 1));
	/* tokens: the full bucket (8) pays the first grant at once (8 → 3), the second overdraws
	 * (3 → −2), the third waits until the credit is positive again (2 tokens = 80 ns at 40 G,
	 * + 1 ps); after that every 1000-byte packet needs 5 tokens = 200 ns */
	assert_int_equal(e->victim_at[0], 0);
	assert_int_equal(e->victim_at[1], 0);
	assert_true(e->victim_at[2] >= 80 * SB_NS && e->victim_at[2] <= 80 * SB_NS + 2);
	for (int i = 3; i < e->nvictims; i++) {
		sb_time gap = e->victim_at[i] - e->victim_at[i - 1];
		assert_true(gap >= 199 * SB_NS && gap <= 201 * SB_NS);
	}
	printf("selector: %d grants, RR 4/5, 200 ns apart after the bucket; queues %llu %llu %llu, T %llu\n",
	       e->nvictims, (unsigned long long)e->m->q_egr[sb_mmu_qi(4, 1)],
	       (unsigned long long)e->m->q_egr[sb_mmu_qi(5, 1)], (unsigned long long)e->m->q_egr[sb_mmu_qi(6, 1)],
	       (unsigned long long)(e->m->buffer - e->m->used));
	emb_free(e);

	/* A packet costs whole tokens, rounded up: with 300-byte tokens (one per 60 ns at 40 G) a
	 * 1000-byte packet takes ceil(1000/300) = 4, so once the bucket is spent grants come 240 ns
	 * apart (3 tokens, 180 ns, would let expulsion read faster than the spare bandwidth). */
	const char *cells300[] = { "alpha", "1", "token_cell_bytes", "300", NULL };
	e = emb_new(cells300);
	emb_offer(e, 4, 30);
	emb_offer(e, 5, 30);
	emb_offer(e, 6, 40);
	emb_run_timers(e);
	assert_true(e->nvictims >= 6);
	for (int i = 4; i < e->nvictims; i++) {
		sb_time gap = e->victim_at[i] - e->victim_at[i - 1];
		assert_true(gap >= 239 * SB_NS && gap <= 241 * SB_NS);
	}
	emb_free(e);
}

static void test_selector_longest_and_options(void **state)
{
	(void)state;
	const char *longest[] = { "alpha", "1", "victim", "longest", NULL };
	struct emb *e = emb_new(longest);
	assert_int_equal(emb_offer(e, 4, 34), 34);
	assert_int_equal(emb_offer(e, 5, 30), 30);
	assert_int_equal(emb_offer(e, 6, 40), 18);
	emb_run_timers(e);
	/* port 4 (longer) first until it ties port 5, then ties go to the higher index */
	assert_true(e->nvictims >= 6);
	for (int i = 0; i < 4; i++)
		assert_int_equal(e->victims[i], 4);
	assert_int_equal(e->victims[4], 5);
	assert_false(emb_any_over(e, 1));
	emb_free(e);

	/* expel = false: DT only, no timer ever */
	const char *off[] = { "alpha", "1", "expel", "false", NULL };
	e = emb_new(off);
	emb_offer(e, 4, 30);
	emb_offer(e, 5, 30);
	emb_offer(e, 6, 40);
	assert_int_equal(e->ntimers, 0);
	assert_true(emb_any_over(e, 1));
	emb_free(e);

	/* empty_admit: with α = 0.001 DT refuses even a first packet (T = 100 B); the artifact's
	 * exception admits it into the empty queue, and only it */
	const char *strict[] = { "alpha", "0.001", "expel", "false", NULL };
	e = emb_new(strict);
	assert_int_equal(emb_offer(e, 4, 3), 0);
	emb_free(e);
	const char *artifact[] = { "alpha", "0.001", "expel", "false", "empty_admit", "true", NULL };
	e = emb_new(artifact);
	assert_int_equal(emb_offer(e, 4, 3), 1);
	emb_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expel_off_is_dt),
		cmocka_unit_test(test_eq2_free_buffer),
		cmocka_unit_test(test_convergence_agile),
		cmocka_unit_test(test_convergence_rate_limited),
		cmocka_unit_test(test_token_bucket_bound),
		cmocka_unit_test(test_no_idle_timers),
		cmocka_unit_test(test_selector_round_robin),
		cmocka_unit_test(test_selector_longest_and_options),
	};
	return cmocka_run_group_tests_name("occamy", tests, NULL, NULL);
}
