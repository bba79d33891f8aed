/*
 * test_abm.c — Active Buffer Management against the paper's theory (§3.2 and Appendix A:
 * Lemmas 1–2, Theorems 1–3, burst tolerance).
 *
 * Numbers are worked from those equations with B = 3,932,160 B (9.6 KiB × 40 ports × 10 Gb/s,
 * the artifact's leaf) and b = 10 Gb/s. Every simulated scenario is one switch with 10 Gb/s hosts and
 * unresponsive CBR senders: two line-rate senders per congested port (2:1 overload) keep each
 * queue at its threshold, as the fluid model assumes. The theory describes steady states and
 * fluid bursts without the first-RTT boost, so the theory tests switch the boost off; its own
 * test shows what it changes. Every run checks the core invariants after each operation and
 * ABM's own (γ in (0,1], n_p >= 1, reserve accounting) at every update tick.
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
#include "mmu/bm_abm.h"
#include "mmu/mmu.h"
#include "sim/report.h"
#include "sim/sim.h"
#include "transport/flow.h"
#include "testlib.h"

#define B_SPEC 3932160ULL       /* the artifact's leaf: 9.6 KiB × 40 ports × 10 Gb/s */
#define PKT 1048u               /* CBR wire size */
#define PKT_TIME_PS 838400      /* 1048 B at 10 Gb/s */
#define GBPS10 10000000000ULL

static struct sb_mmu *mmu0(struct sb_sim *sim) { return sim->net.switches[0]->mmus[0]; }

/* Set a parameter of scheme `name` in the scenario without selecting that scheme (the
 * switch keeps running sc->sw.scheme); with param NULL, select the scheme. */
static void scheme_set(struct sb_scenario *sc, const char *name, const char *param, const char *value)
{
	if (!param) {
		tl_set_scheme(sc, name, NULL, NULL);
		return;
	}
	char *keep = strdup(sc->sw.scheme);
	tl_set_scheme(sc, name, param, value);
	free(sc->sw.scheme);
	sc->sw.scheme = keep;
}

/* hosts, buffer, scheme; ABM with the first-RTT boost off unless the test turns it on */
static void setup(struct sb_scenario *sc, int hosts, uint64_t buffer, const char *scheme)
{
	tl_single_switch(sc, hosts, 10, buffer);
	scheme_set(sc, scheme, NULL, NULL);
	if (!strcmp(scheme, "abm"))
		scheme_set(sc, "abm", "first_rtt", "false");
	if (!strcmp(scheme, "dt"))
		scheme_set(sc, "dt", "alpha", "0.5");
}

/* Two line-rate CBR senders into port `dst`, priority `prio`, half a packet apart. */
static void overload(struct sb_sim *sim, uint32_t dst, uint32_t first_src, uint8_t prio, sb_time start)
{
	for (uint32_t k = 0; k < 2; k++) {
		struct sb_flow *f = tl_cbr(sim, first_src + k, dst, GBPS10, PKT, start + k * PKT_TIME_PS / 2);
		f->prio = prio;
	}
}

static double rel(double got, double want) { return fabs(got - want) / want; }

/* Relative check; with SB_TEST_VERBOSE set, every comparison is printed (docs/schemes/abm.md
 * quotes these lines). */
#define EXPECT_NEAR(got, want, tol, ...)                                                          \
	do {                                                                                      \
		double g_ = (double)(got), w_ = (double)(want);                                   \
		if (getenv("SB_TEST_VERBOSE") || rel(g_, w_) > (tol)) {                           \
			print_message(__VA_ARGS__);                                               \
			print_message(": measured %.6g, theory %.6g (%+.2f%%)\n", g_, w_,         \
				      100 * (g_ - w_) / w_);                                      \
		}                                                                                 \
		if (rel(g_, w_) > (tol))                                                          \
			fail_msg("outside the tolerance of %.2f%%", 100 * (tol));                 \
	} while (0)

/* ---------------------------------------------------------------------------------------- */
/* 1. n_p = 1 and γ = 1 turn ABM into DT (paper footnote 3): identical outputs, bit for bit. */

extern const char sb_default_scenario[];

static char *run_default_to_dir(const char *scheme, bool abm_as_dt)
{
	const char *sets[] = { "run.duration_ms=8", "run.arrivals_ms=6" };
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_scenario(&sc, sb_default_scenario, sets, 2);
	scheme_set(&sc, scheme, NULL, NULL);
	scheme_set(&sc, "dt", "alpha", "0.5");
	if (abm_as_dt) {
		scheme_set(&sc, "abm", "n_mode", "one");
		scheme_set(&sc, "abm", "gamma_mode", "one");
		scheme_set(&sc, "abm", "first_rtt", "false");
	}
	char *dir = tl_run_streamed(&sim, &sc);
	struct sb_error err;
	if (sb_report_write(&sim, dir, 0.0, &err))
		fail_msg("write: %s", err.msg);
	assert_true(sim.net.stats.drops[SB_DROP_THRESHOLD] > 100); /* the threshold really binds */
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return dir;
}

static char *slurp_in(const char *dir, const char *name)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *s = tl_slurp(path);
	assert_non_null(s);
	return s;
}

/* Remove the line containing `key` from s, in place. */
static void drop_line(char *s, const char *key)
{
	char *at = strstr(s, key);
	if (!at)
		return;
	char *start = at, *end = strchr(at, '\n');
	while (start > s && start[-1] != '\n')
		start--;
	end = end ? end + 1 : at + strlen(at);
	memmove(start, end, strlen(end) + 1);
}

static void test_reduces_to_dt(void **state)
{
	(void)state;
	char *dt = run_default_to_dir("dt", false), *abm = run_default_to_dir("abm", true);
	const char *names[] = { "flows.csv", "drops.csv", "occupancy.csv", "summary.json" };
	for (size_t i = 0; i < 4; i++) {
		char *x = slurp_in(dt, names[i]), *y = slurp_in(abm, names[i]);
		if (i == 3) { /* the scheme's name is the one line that must differ */
			assert_non_null(strstr(x, "\"scheme\": \"dt\""));
			assert_non_null(strstr(y, "\"scheme\": \"abm\""));
			drop_line(x, "\"scheme\":");
			drop_line(y, "\"scheme\":");
		}
		assert_true(strlen(x) > 100);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
	tl_rmtree(dt);
	tl_rmtree(abm);
	free(dt);
	free(abm);
}

/* ---------------------------------------------------------------------------------------- */
/* 2. Steady state (App. Eq. 15-17; example A): one priority, N congested ports, γ = 1.      */

static void steady_state(const char *scheme, const char *n_mode, int n, double want_q, double want_used)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	setup(&sc, 3 * n, B_SPEC, scheme);
	sc.run.duration_ms = 2;
	if (n_mode)
		scheme_set(&sc, "abm", "n_mode", n_mode);
	tl_build(&sim, &sc);
	for (int d = 0; d < n; d++)
		overload(&sim, (uint32_t)d, (uint32_t)(n + 2 * d), 1, 0);
	tl_run_and_check(&sim);
	struct sb_mmu *m = mmu0(&sim);
	for (int d = 0; d < n; d++)
		/* a queue at its threshold sits up to one packet below it */
		EXPECT_NEAR(m->q_egr[sb_mmu_qi((uint16_t)d, 1)], want_q, 0.015 + PKT / want_q, "%s %s N=%d queue %d",
			    scheme, n_mode ? n_mode : "", n, d);
	EXPECT_NEAR(m->used, want_used, 0.015 + n * PKT / want_used, "%s N=%d occupancy", scheme, n);
	if (!strcmp(scheme, "abm")) {
		assert_true(fabs(sb_abm_n(m, 1) - n) < 0.05);
		for (int d = 0; d < n; d++) /* backlogged at line rate: γ = 1 within a packet per interval */
			assert_true(sb_abm_gamma(m, (uint16_t)d, 1) > 0.985);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_steady_state_example_a(void **state)
{
	(void)state;
	const double B = (double)B_SPEC;
	steady_state("abm", "thresh90", 10, B / 30, B / 3);    /* 131,072 B per queue, Q = B/3 */
	steady_state("abm", "satfrac", 10, B / 30, B / 3);     /* artifact n_p: same fixed point */
	steady_state("dt", NULL, 10, B / 12, 10 * B / 12);     /* 327,680 B, Q = 83.3 % of B */
	steady_state("abm", "thresh90", 1, B / 3, B / 3);      /* N = 1: ABM = DT = αB/(1+α) */
	steady_state("dt", NULL, 1, B / 3, B / 3);
}

/* ---------------------------------------------------------------------------------------- */
/* 3. Isolation, minimum guarantee (Thm 1, Fig. 4 bottom): AF (prio 2) has one congested
 *    queue, BE (prio 1) n_BE; all α = 0.5, γ = 1. ABM keeps AF at 0.5B/(1.5+0.5[n_BE>0]).    */

static void isolation(const char *scheme, int n_be, double want_af)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	int ports = n_be + 1;
	setup(&sc, 3 * ports, B_SPEC, scheme);
	sc.run.duration_ms = 2;
	tl_build(&sim, &sc);
	overload(&sim, 0, (uint32_t)ports, 2, 0);
	for (int d = 1; d < ports; d++)
		overload(&sim, (uint32_t)d, (uint32_t)(ports + 2 * d), 1, 0);
	tl_run_and_check(&sim);
	struct sb_mmu *m = mmu0(&sim);
	EXPECT_NEAR(m->q_egr[sb_mmu_qi(0, 2)], want_af, 0.02, "%s n_BE=%d: AF queue", scheme, n_be);
	if (!strcmp(scheme, "abm") && n_be > 0) { /* BE as a whole gets 0.5B/2 whatever n_BE */
		uint64_t be = 0;
		for (int d = 1; d < ports; d++)
			be += m->q_egr[sb_mmu_qi((uint16_t)d, 1)];
		/* each queue sits up to one packet below its threshold */
		EXPECT_NEAR(be, 0.25 * B_SPEC, 0.02 + n_be * PKT / (0.25 * B_SPEC), "abm n_BE=%d: BE total", n_be);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_isolation_minimum_guarantee(void **state)
{
	(void)state;
	isolation("abm", 0, 1310720);
	isolation("abm", 1, 983040);
	isolation("abm", 10, 983040);
	isolation("abm", 20, 983040);
	isolation("dt", 1, 983040);
	isolation("dt", 10, 302474);
	isolation("dt", 20, 0.5 * B_SPEC / (1.5 + 0.5 * 20));
}

/* ---------------------------------------------------------------------------------------- */
/* 4. No monopoly (Thm 2): one priority, any n, the steady-state occupancy stays <= αB/(1+α)
 *    (B/3 for α = 0.5), where DT with 20 queues takes nα/(1+nα) = 91 % of the buffer. The
 *    first interval runs on the initial n_p = 1 (tick lag), so sampling starts after 4 ticks. */

static uint64_t max_used_after(struct sb_sim *sim, sb_time from, sb_time step)
{
	uint64_t peak = 0;
	for (sb_time t = from; t < sim->stop_at; t += step) {
		sb_eventq_run_until(&sim->net.engine.eq, t);
		if (mmu0(sim)->used > peak)
			peak = mmu0(sim)->used;
	}
	return peak;
}

static void test_no_monopoly(void **state)
{
	(void)state;
	const int n = 20;
	const char *schemes[] = { "abm", "abm", "dt" }, *n_modes[] = { "thresh90", "satfrac", NULL };
	uint64_t peak[3], transient[3];
	for (int k = 0; k < 3; k++) {
		struct sb_scenario sc;
		struct sb_sim sim;
		setup(&sc, 3 * n, B_SPEC, schemes[k]);
		if (n_modes[k])
			scheme_set(&sc, "abm", "n_mode", n_modes[k]);
		sc.run.duration_ms = 1.5;
		tl_build(&sim, &sc);
		for (int d = 0; d < n; d++)
			overload(&sim, (uint32_t)d, (uint32_t)(n + 2 * d), 1, 0);
		peak[k] = max_used_after(&sim, 400 * SB_US, 2 * SB_US);
		tl_run_and_check(&sim);
		transient[k] = mmu0(&sim)->peak_used;
		if (getenv("SB_TEST_VERBOSE"))
			print_message("no monopoly, 20 queues, %s %s: peak %llu B (%.1f%% of B) overall, %llu B after "
				      "400 µs (bound B/3 = %llu B)\n", schemes[k], n_modes[k] ? n_modes[k] : "",
				      (unsigned long long)transient[k], 100.0 * (double)transient[k] / B_SPEC,
				      (unsigned long long)peak[k], (unsigned long long)(B_SPEC / 3));
		sb_sim_free(&sim);
		sb_scenario_free(&sc);
	}
	for (int k = 0; k < 2; k++) {
		if (peak[k] > B_SPEC / 3 + PKT)
			fail_msg("ABM %s: occupancy peaked at %llu B > B/3 = %llu B", n_modes[k],
				 (unsigned long long)peak[k], (unsigned long long)(B_SPEC / 3));
		assert_true(peak[k] > B_SPEC / 3 * 0.97); /* and sits at the bound */
	}
	/* Tick lag: thresh90 counts a queue only at 90 % of its threshold, which starts out as
	 * DT's, so the buffer first fills to DT's equilibrium; satfrac counts a queue from 28 KB
	 * on and catches up at the first tick. */
	assert_true(transient[0] > 0.85 * B_SPEC);
	assert_true(transient[1] < transient[0]);
	EXPECT_NEAR(peak[2], 20 * 0.5 * B_SPEC / 11, 0.02, "DT, 20 queues: occupancy");
}

/* ---------------------------------------------------------------------------------------- */
/* 5. Bounded drain time (Thm 3; examples C and C'): k priorities share one port under equal-
 *    weight DRR, so each drains at b/k. ABM: T = B/(12·(k/4)), Γ = T/μ = αB/((1+α)b) = 1.0486
 *    ms whatever k; DT: T = αB/(1+kα), Γ grows with k (2.097 ms for 4, 2.517 ms for 8).       */

static void drain_time(const char *scheme, int k, double want_q, double want_gamma_ms)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	setup(&sc, 1 + 2 * k, B_SPEC, scheme);
	sc.run.duration_ms = 5;
	/* 8 equal queues get exactly 1/8, the artifact's floor: below it (packet granularity in one
	 * interval) rr_floor would call a backlogged queue idle. */
	scheme_set(&sc, "abm", "gamma_min", "0.05");
	/* γ is measured in whole packets per interval: at b/8 an 80 µs interval holds ~12 packets,
	 * so γ steps by 8 %, and a queue above a lowered threshold drains for longer than an
	 * interval while a raised one fills at once, which biases the queues up by ~3 %. A 400 µs
	 * interval (60 packets) keeps that under 1 %; the theory is about the steady state. */
	scheme_set(&sc, "abm", "interval_us", "400");
	tl_build(&sim, &sc);
	struct sb_flow *f[16];
	for (int p = 0; p < k; p++)
		for (int j = 0; j < 2; j++) {
			f[2 * p + j] = tl_cbr(&sim, (uint32_t)(1 + 2 * p + j), 0, GBPS10, PKT, (sb_time)j * PKT_TIME_PS / 2);
			f[2 * p + j]->prio = (uint8_t)(8 - k + p);
		}
	/* measure each queue's drain rate from what its receivers got during [3, 5) ms, and its
	 * mean length over the same time (γ, hence T, moves by a packet per interval) */
	sb_eventq_run_until(&sim.net.engine.eq, 3 * SB_US * 1000);
	uint64_t before[16];
	for (int i = 0; i < 2 * k; i++)
		before[i] = f[i]->bytes_received;
	struct sb_mmu *m = mmu0(&sim);
	double mean_q[8] = { 0 };
	int samples = 0;
	for (sb_time t = 3 * SB_US * 1000; t < 5 * SB_US * 1000; t += SB_US, samples++) {
		sb_eventq_run_until(&sim.net.engine.eq, t);
		for (int p = 0; p < k; p++)
			mean_q[p] += (double)m->q_egr[sb_mmu_qi(0, (uint8_t)(8 - k + p))];
	}
	tl_run_and_check(&sim);
	double wire = (double)PKT / (double)(PKT - (uint32_t)sc.tcp.header_bytes);
	for (int p = 0; p < k; p++) {
		uint8_t prio = (uint8_t)(8 - k + p);
		double q = mean_q[p] / samples;
		double got = (double)(f[2 * p]->bytes_received - before[2 * p] + f[2 * p + 1]->bytes_received -
				      before[2 * p + 1]);
		double mu_bps = got * wire * 8 / 2e-3;
		EXPECT_NEAR(mu_bps, 1e10 / k, 0.01, "%s k=%d prio %u: drain rate (b/s)", scheme, k, prio);
		EXPECT_NEAR(q, want_q, 0.02, "%s k=%d prio %u: queue", scheme, k, prio);
		EXPECT_NEAR(q * 8 / mu_bps * 1e3, want_gamma_ms, 0.03, "%s k=%d prio %u: drain time (ms)", scheme, k,
			    prio);
		/* RR shares measured as γ = 1/k, to one packet per interval */
		double per_interval = 400e-6 * 1e10 / k / 8 / PKT;
		if (!strcmp(scheme, "abm"))
			EXPECT_NEAR(sb_abm_gamma(m, 0, prio) * 1000, 1000.0 / k, 1.5 / per_interval + 0.002,
				    "k=%d γ×1000", k);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_drain_time_bound(void **state)
{
	(void)state;
	const double B = (double)B_SPEC, bound_ms = 0.5 * B * 8 / 1.5 / 1e10 * 1e3; /* 1.048576 ms */
	drain_time("abm", 4, B / 12, bound_ms);
	drain_time("abm", 8, B / 24, bound_ms);
	drain_time("dt", 4, B / 6, 2 * bound_ms);
	drain_time("dt", 8, 0.1 * B, 0.1 * B * 8 / 1.25e9 * 1e3);
}

/* ---------------------------------------------------------------------------------------- */
/* 6. Burst tolerance (App. Eq. 28-39; example D): L holds 10 congested ports (prio 1); at t0
 *    a burst at r × b hits one new queue of priority 2 (m = 1). A spy on admission records
 *    when the burst queue first loses a packet (t1) and its length then ((r − γ)·t1).       */

static struct {
	const struct sb_bm_ops *real;
	uint16_t port;
	uint8_t prio;
	sb_time first_admit, first_drop;
	uint64_t q_at_drop, max_q;
} spy;
static struct sb_bm_ops spy_ops;

static enum sb_drop_cause spy_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	enum sb_drop_cause why = spy.real->admit(m, pkt);
	if (pkt->out_port == spy.port && pkt->prio == spy.prio) {
		uint64_t q = m->q_egr[sb_mmu_qi(pkt->out_port, pkt->prio)];
		if (why != SB_ADMIT && spy.first_drop == SB_TIME_NEVER) {
			spy.first_drop = sb_mmu_now(m);
			spy.q_at_drop = q;
		}
		if (why == SB_ADMIT && spy.first_admit == SB_TIME_NEVER)
			spy.first_admit = sb_mmu_now(m);
		if (why == SB_ADMIT && q + pkt->units > spy.max_q)
			spy.max_q = q + pkt->units;
	}
	return why;
}

static void spy_on(struct sb_mmu *m, uint16_t port, uint8_t prio)
{
	spy.real = m->ops;
	spy.port = port;
	spy.prio = prio;
	spy.first_drop = spy.first_admit = SB_TIME_NEVER;
	spy.q_at_drop = spy.max_q = 0;
	spy_ops = *m->ops;
	spy_ops.admit = spy_admit;
	m->ops = &spy_ops;
}

/* Fluid t1 with G_e = ∅ (App. A.6–A.7), in units of B/b: case 1 (Eq. 29) or case 2 (Eq. 39). */
static double fluid_t1(double w_new, double sum_old, double mu, double r)
{
	double r_crit = 1 + mu * (1 + sum_old) / sum_old;
	if (r <= r_crit)
		return w_new / ((r - 1) * (1 + sum_old + w_new));
	return w_new / ((1 + sum_old) * ((r - 1) + w_new * (-mu + (r - 1))));
}

static void burst(const char *scheme, int r, double want_q)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	const int n = 10;
	int burst_port = n, first_src = n + 1, hosts = first_src + 2 * n + r;
	setup(&sc, hosts, B_SPEC, scheme);
	const sb_time t0 = 600 * SB_US;
	sc.run.duration_ms = 1.6;
	tl_build(&sim, &sc);
	for (int d = 0; d < n; d++)
		overload(&sim, (uint32_t)d, (uint32_t)(first_src + 2 * d), 1, 0);
	for (int k = 0; k < r; k++) { /* r senders at b, spread over one packet time */
		struct sb_flow *f = tl_cbr(&sim, (uint32_t)(first_src + 2 * n + k), (uint32_t)burst_port, GBPS10, PKT,
					   t0 + (sb_time)k * PKT_TIME_PS / (sb_time)r);
		f->prio = 2;
	}
	spy_on(mmu0(&sim), (uint16_t)burst_port, 2);
	tl_run_and_check(&sim);
	bool abm = !strcmp(scheme, "abm");
	double w_new = 0.5, sum_old = abm ? 0.5 : 5.0, t1 = fluid_t1(w_new, sum_old, n, r);
	double B = (double)B_SPEC, unit_us = B * 8 / 1e10 * 1e6;
	EXPECT_NEAR(t1 * (r - 1) * B, want_q, 0.001, "formula vs example D table (%s r=%d)", scheme, r);
	assert_true(spy.first_drop != SB_TIME_NEVER);
	EXPECT_NEAR(spy.q_at_drop, want_q, 0.02, "%s r=%d: burst queue at the first loss", scheme, r);
	/* time from the burst's first packet at the switch (host serialisation + link delay after t0) */
	EXPECT_NEAR(sb_time_to_us(spy.first_drop - spy.first_admit), t1 * unit_us, 0.02,
		    "%s r=%d: zero-loss time (µs)", scheme, r);
	mmu0(&sim)->ops = spy.real;
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_burst_tolerance_example_d(void **state)
{
	(void)state;
	burst("abm", 2, 983040);   /* case 1: 0.25B after 786.4 µs */
	burst("abm", 40, 955478);  /* case 2: 0.24299B after 19.60 µs */
	burst("dt", 2, 302474);    /* 0.07692B after 241.98 µs */
	burst("dt", 40, 238870);   /* Eq. 8 exactly: 0.060748B after 4.90 µs */
}

/* ---------------------------------------------------------------------------------------- */
/* 7. First-RTT α: with 10 congested ports of the same priority, a new queue may hold only
 *    α/10·(B − Q) ≈ 131 KB; 30 senders each sending 20 KB, all of it tagged first-RTT, put a
 *    600 KB burst on one port. With the tag honoured (α_first_rtt = 64) it is absorbed
 *    whole; without, the burst queue stops at the normal threshold and loses packets.      */

static void first_rtt_burst(bool honour, uint64_t *max_q, uint64_t *normal_t, int *completed)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	const int n = 10, senders = 30;
	int burst_port = n, first_src = n + 1, hosts = first_src + 2 * n + senders;
	setup(&sc, hosts, B_SPEC, "abm");
	scheme_set(&sc, "abm", "first_rtt", honour ? "true" : "false");
	sc.tcp.first_rtt_bytes = 20000;
	sc.run.duration_ms = 1.3;
	const sb_time t0 = 500 * SB_US;
	tl_build(&sim, &sc);
	for (int d = 0; d < n; d++)
		overload(&sim, (uint32_t)d, (uint32_t)(first_src + 2 * d), 1, 0);
	struct sb_flow *f[30];
	for (int k = 0; k < senders; k++) {
		f[k] = tl_cbr(&sim, (uint32_t)(first_src + 2 * n + k), (uint32_t)burst_port, GBPS10, PKT,
			      t0 + (sb_time)k * PKT_TIME_PS / (sb_time)senders);
		f[k]->size = 20000;
	}
	spy_on(mmu0(&sim), (uint16_t)burst_port, 1);
	sb_eventq_run_until(&sim.net.engine.eq, t0 - 1);
	*normal_t = sb_abm_threshold(mmu0(&sim), (uint16_t)burst_port, 1, false);
	/* the tagged threshold is the same formula with α_first_rtt: 64/0.5 = 128 times larger */
	if (honour)
		EXPECT_NEAR(sb_abm_threshold(mmu0(&sim), (uint16_t)burst_port, 1, true), 128.0 * (double)*normal_t,
			    1e-6, "first-RTT threshold");
	tl_run_and_check(&sim);
	*max_q = spy.max_q;
	*completed = 0;
	for (int k = 0; k < senders; k++)
		*completed += f[k]->done;
	mmu0(&sim)->ops = spy.real;
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_first_rtt_alpha(void **state)
{
	(void)state;
	uint64_t q_on, t_on, q_off, t_off;
	int done_on, done_off;
	first_rtt_burst(true, &q_on, &t_on, &done_on);
	first_rtt_burst(false, &q_off, &t_off, &done_off);
	/* before the burst both runs are in the same steady state: T ≈ 0.05·(2/3)B = 131 KB */
	EXPECT_NEAR(t_on, 0.05 * 2.0 / 3.0 * B_SPEC, 0.03, "normal threshold before the burst");
	EXPECT_NEAR(t_off, t_on, 0.01, "threshold before the burst, tag ignored");
	if (getenv("SB_TEST_VERBOSE"))
		print_message("first-RTT burst of 30 x 20 KB: honoured: peak %llu B, %d/30 flows complete; "
			      "ignored: peak %llu B, %d/30 complete; normal threshold %llu B\n",
			      (unsigned long long)q_on, done_on, (unsigned long long)q_off, done_off,
			      (unsigned long long)t_off);
	assert_int_equal(done_on, 30);               /* every tagged byte got in */
	assert_true(q_on > 3 * t_on);                /* far beyond the normal threshold */
	assert_true(done_off < 30);                  /* without the tag the burst loses packets */
	assert_true(q_off <= t_off + PKT);
}

/* ---------------------------------------------------------------------------------------- */
/* 8. The MMU alone (no simulator): Eq. 9 arithmetic and the THRESH90 count (§3.1: congested
 *    at 0.9 of the threshold), and the idle suspension of the update timer.                 */

static sb_time clock_ps, timer_at;
static int timers_armed;

static sb_time fake_now(void *ctx) { (void)ctx; return clock_ps; }
static void fake_arm(void *ctx, struct sb_mmu *m, sb_time at, unsigned id)
{
	(void)ctx;
	(void)m;
	(void)id;
	timer_at = at;
	timers_armed++;
}

/* An ABM MMU of 4 ports at `rates` (NULL: all 10 Gb/s) with a fake clock and timer. */
static struct sb_mmu *bare_abm_rates(uint64_t buffer, const uint64_t *rates, const char *const *kv, size_t nkv)
{
	static const uint64_t all10[4] = { GBPS10, GBPS10, GBPS10, GBPS10 };
	struct sb_mmu_config cfg = { .nports = 4, .buffer_bytes = buffer, .port_rate_bps = rates ? rates : all10 };
	struct sb_mmu_env env = { .now = fake_now, .arm_timer = fake_arm };
	struct sb_error err;
	struct sb_mmu *m = sb_mmu_new(&sb_bm_abm, &cfg, &env);
	m->check_invariants = true;
	for (size_t i = 0; i + 1 < nkv; i += 2)
		if (sb_mmu_set_param(m, kv[i], kv[i + 1], &err))
			fail_msg("%s", err.msg);
	if (sb_mmu_start(m, &err))
		fail_msg("%s", err.msg);
	clock_ps = 0;
	timer_at = SB_TIME_NEVER;
	timers_armed = 0;
	return m;
}

static struct sb_mmu *bare_abm(uint64_t buffer, const char *const *kv, size_t nkv)
{
	return bare_abm_rates(buffer, NULL, kv, nkv);
}

static void put(struct sb_mmu *m, uint16_t port, uint8_t prio, uint32_t bytes)
{
	struct sb_mmu_pkt p = { .in_port = 3, .out_port = port, .prio = prio, .bytes = bytes };
	assert_int_equal(sb_mmu_admit(m, &p), SB_ADMIT);
}

static void take(struct sb_mmu *m, uint16_t port, uint8_t prio, uint32_t bytes)
{
	struct sb_mmu_pkt p = { .in_port = 3, .out_port = port, .prio = prio, .bytes = bytes };
	sb_mmu_release(m, &p, SB_RELEASE_TX);
}

static void fire(struct sb_mmu *m)
{
	assert_true(timer_at != SB_TIME_NEVER);
	clock_ps = timer_at;
	timer_at = SB_TIME_NEVER;
	sb_mmu_timer(m, 0);
}

static void test_eq9_arithmetic(void **state)
{
	(void)state;
	/* n_1 = 2 from two saturated prio-1 queues (satfrac, sat 1000 B); γ = 1/2 on port 0 from
	 * its two busy queues (rr); Q = 1,000,000: T = 0.5/2 · 2,932,160 · 0.5 = 366,520 B. */
	const char *kv[] = { "n_mode", "satfrac", "sat_bytes", "1000", "gamma_mode", "rr" };
	struct sb_mmu *m = bare_abm(B_SPEC, kv, 6);
	for (int i = 0; i < 400; i++)
		put(m, 0, 1, 1000);
	for (int i = 0; i < 300; i++)
		put(m, 0, 2, 1000);
	for (int i = 0; i < 300; i++)
		put(m, 1, 1, 1000);
	assert_int_equal(m->used, 1000000);
	fire(m);
	assert_true(sb_abm_n(m, 1) == 2.0);
	assert_true(sb_abm_gamma(m, 0, 1) == 0.5);
	assert_int_equal(sb_abm_threshold(m, 0, 1, false), 366520);
	/* the first-RTT α replaces α_p in the same product: 64/0.5 × 366,520 */
	assert_int_equal(sb_abm_threshold(m, 0, 1, true), 46914560);
	sb_mmu_free(m);
}

static void test_thresh90_count(void **state)
{
	(void)state;
	/* γ = 1, α = 0.5, B = 1,000,000: with queues A, C at 200,000 and B at 178,947 the tick's
	 * threshold is 0.5·(B − Q) = 210,526.5: A and C sit at 0.95T (counted), B at 0.85T (not). */
	const char *kv[] = { "gamma_mode", "one" };
	struct sb_mmu *m = bare_abm(1000000, kv, 2);
	put(m, 0, 1, 200000);
	put(m, 1, 1, 200000);
	put(m, 2, 1, 178947);
	fire(m);
	assert_true(sb_abm_n(m, 1) == 2.0);
	assert_true(sb_abm_n(m, 2) == 1.0); /* no congested queue: n clamps to 1 */
	take(m, 0, 1, 200000);
	take(m, 1, 1, 200000);
	take(m, 2, 1, 178947);
	fire(m); /* empty, but something left since the last tick: one more tick is due */
	assert_true(sb_abm_n(m, 1) == 1.0);
	int armed = timers_armed;
	fire(m); /* empty and quiet: the timer stops at the idle fixed point */
	assert_int_equal(timers_armed, armed);
	assert_true(timer_at == SB_TIME_NEVER);
	uint64_t ticks = sb_abm_ticks(m);
	clock_ps = 1234 * SB_US + 5; /* an arrival re-arms it at the next multiple of 80 µs */
	put(m, 0, 1, 1000);
	assert_true(timer_at == 1280 * SB_US);
	fire(m);
	assert_int_equal(sb_abm_ticks(m), ticks + 1);
	sb_mmu_free(m);
}

/* γ from one queue that holds 100 KB and sent one 1000-byte packet in an 80 µs interval
 * (a share of 0.01), and from one that sent nothing: never 0, never above 1. */
static double gamma_after(const char *idle_rule, const char *gamma_min, bool send_one)
{
	const char *kv[] = { "gamma_idle", idle_rule, "gamma_min", gamma_min };
	struct sb_mmu *m = bare_abm(B_SPEC, kv, 4);
	for (int i = 0; i < 101; i++)
		put(m, 0, 1, 1000);
	if (send_one)
		take(m, 0, 1, 1000);
	fire(m);
	double g = sb_abm_gamma(m, 0, 1);
	sb_mmu_free(m);
	return g;
}

static void test_gamma_idle_rules(void **state)
{
	(void)state;
	assert_true(gamma_after("rr_floor", "0.125", true) == 1.0);   /* 0.01 < 1/8: not backlogged */
	assert_true(fabs(gamma_after("rr_floor", "0.005", true) - 0.01) < 1e-12);
	assert_true(gamma_after("rr_floor", "0", false) == 1.0);      /* sent nothing: never γ = 0 */
	assert_true(gamma_after("clamp", "0.125", true) == 0.125);    /* raised to the floor */
	assert_true(gamma_after("clamp", "0", false) == 1.0);
	assert_true(gamma_after("short_queue", "0.125", true) == 1.0); /* sent <= 2 KiB */
}

/* γ = μ/b with b the largest port rate of the switch (paper §3, footnote 2), not the queue's
 * own port rate: on a switch with ports of 10, 40, 10 and 10 Gb/s, b = 40 Gb/s. A queue that
 * drains at its full 10 Gb/s has γ = 0.25, one on the 40 Gb/s port γ = 1, one draining at half
 * of 10 Gb/s γ = 0.125; before the first measurement a queue is taken to drain at its port's
 * full rate (γ = 0.25 on a 10 Gb/s port). The threshold is α·(B − Q)·γ (n_p = 1 here). With
 * rr, port 0's two busy queues share 10 Gb/s: γ = (10/40)/2. */
static void test_gamma_mixed_port_rates(void **state)
{
	(void)state;
	static const uint64_t rates[4] = { GBPS10, 4 * GBPS10, GBPS10, GBPS10 };
	const char *kv[] = { "n_mode", "one", "gamma_min", "0.1" };
	struct sb_mmu *m = bare_abm_rates(B_SPEC, rates, kv, 4);
	assert_true(sb_abm_gamma(m, 0, 1) == 0.25);
	assert_true(sb_abm_gamma(m, 1, 1) == 1.0);
	/* one 80 µs interval: port 0 sends 100,000 B (10 Gb/s), port 1 400,000 B (40 Gb/s), port 2
	 * 50,000 B (5 Gb/s); each keeps a backlog, so none counts as idle */
	const struct { uint16_t port; int pkts; double gamma; } q[] = { { 0, 100, 0.25 }, { 1, 400, 1.0 }, { 2, 50, 0.125 } };
	for (size_t i = 0; i < 3; i++) {
		for (int k = 0; k <= q[i].pkts; k++)
			put(m, q[i].port, 1, 1000);
		for (int k = 0; k < q[i].pkts; k++)
			take(m, q[i].port, 1, 1000);
	}
	fire(m);
	for (size_t i = 0; i < 3; i++) {
		print_message("port %u at %g Gb/s: gamma %.4f (mu/b = %.4f)\n", q[i].port, (double)rates[q[i].port] / 1e9,
			      sb_abm_gamma(m, q[i].port, 1), q[i].gamma);
		assert_true(fabs(sb_abm_gamma(m, q[i].port, 1) - q[i].gamma) < 1e-12);
	}
	/* T = 0.5 · (B − Q) · 0.25 with Q = 3 packets left */
	assert_int_equal(sb_abm_threshold(m, 0, 1, false), (uint64_t)(0.5 * (double)(B_SPEC - 3000) * 0.25));
	sb_mmu_free(m);

	const char *rr[] = { "n_mode", "one", "gamma_mode", "rr" };
	m = bare_abm_rates(B_SPEC, rates, rr, 4);
	put(m, 0, 1, 1000);
	put(m, 0, 2, 1000);
	put(m, 1, 1, 1000);
	fire(m);
	assert_true(sb_abm_gamma(m, 0, 1) == 0.125);
	assert_true(sb_abm_gamma(m, 1, 1) == 1.0);
	assert_true(sb_abm_gamma(m, 2, 1) == 0.25); /* empty: the share it would get on its own */
	sb_mmu_free(m);
}

/* satfrac (the artifact, docs/schemes/abm.md §3): an arrival refreshes its queue's share of n_p
 * from the queue's length *before* the packet, and a queue that drains without arrivals keeps
 * its share. Two queues of priority 1 each receive two 600-byte packets (sat_bytes = 1000): at
 * the second arrivals each held 600 B, so n_1 = 0.6 + 0.6 = 1.2 (post-arrival lengths, 1200 B
 * each, would have counted two whole queues). Draining one queue leaves n_1 at 1.2; its next
 * arrival, on an empty queue, takes its share to 0. */
static void test_satfrac_pre_arrival(void **state)
{
	(void)state;
	const char *kv[] = { "n_mode", "satfrac", "sat_bytes", "1000", "gamma_mode", "one" };
	struct sb_mmu *m = bare_abm(B_SPEC, kv, 6);
	for (int k = 0; k < 2; k++) {
		put(m, 0, 1, 600);
		put(m, 1, 1, 600);
	}
	fire(m);
	print_message("satfrac after 2 x 600 B on two queues: n = %g\n", sb_abm_n(m, 1));
	assert_true(fabs(sb_abm_n(m, 1) - 1.2) < 1e-12);
	take(m, 0, 1, 600);
	take(m, 0, 1, 600);
	fire(m);
	assert_true(fabs(sb_abm_n(m, 1) - 1.2) < 1e-12); /* stale until the queue's next arrival */
	put(m, 0, 1, 600); /* pre-arrival length 0: this queue's share drops to 0 */
	put(m, 2, 1, 600);
	put(m, 2, 1, 600); /* a third queue at 600 */
	fire(m);
	assert_true(fabs(sb_abm_n(m, 1) - 1.2) < 1e-12); /* 0 + 0.6 + 0.6 */
	sb_mmu_free(m);
}

/* ---------------------------------------------------------------------------------------- */
/* 9. Static reserve: each port keeps R outside the shared pool; the shared part of N
 *    congested queues settles at ω·B_s/(1+Nω) with B_s = B − ports·R.                        */

static void test_static_reserve(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	const int n = 4;
	const uint64_t B = 1000000, R = 20000;
	setup(&sc, 3 * n, B, "abm");
	sc.run.duration_ms = 2;
	scheme_set(&sc, "abm", "reserve_bytes", "20000");
	tl_build(&sim, &sc);
	for (int d = 0; d < n; d++)
		overload(&sim, (uint32_t)d, (uint32_t)(n + 2 * d), 1, 0);
	tl_run_and_check(&sim);
	double bs = (double)(B - 3 * n * R), w = 0.5 / n, want = (double)R + w * bs / (1 + n * w);
	for (int d = 0; d < n; d++)
		EXPECT_NEAR(mmu0(&sim)->q_egr[sb_mmu_qi((uint16_t)d, 1)], want, 0.015 + PKT / want, "reserve: queue %d", d);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* ---------------------------------------------------------------------------------------- */
/* 10. Invariants under a real workload (DCTCP web search + incast on a leaf-spine) in every
 *     mode, with cells, a reserve and split MMUs: counters, conservation, occupancy <= size,
 *     γ in (0,1], n_p >= 1 are checked after every operation and at every tick.              */

static void test_invariants_all_modes(void **state)
{
	(void)state;
	const char *variants[][6] = {
		{ "switch.abm.n_mode=thresh90", "switch.abm.gamma_mode=measured", "switch.cell_bytes=0" },
		{ "switch.abm.n_mode=satfrac", "switch.abm.alpha_first_rtt=1024", "switch.abm.gamma_idle=short_queue" },
		{ "switch.abm.n_mode=thresh90", "switch.abm.gamma_mode=rr", "switch.cell_bytes=200" },
		{ "switch.abm.reserve_bytes=3000", "switch.cell_bytes=256", "switch.mmu_ports=4" },
		{ "switch.abm.interval_us=16", "switch.sched=sp", "switch.abm.alpha=[1,0.5,0.5,0.5,0.5,0.5,0.5,0.5]",
		  "switch.abm.gamma_idle=clamp" },
	};
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		const char *sets[8] = { "run.duration_ms=4", "run.arrivals_ms=3", "switch.scheme=abm" };
		size_t n = 3;
		for (size_t i = 0; i < 6 && variants[v][i]; i++)
			sets[n++] = variants[v][i];
		struct sb_scenario sc;
		struct sb_sim sim;
		tl_scenario(&sc, sb_default_scenario, sets, n);
		tl_run_checked(&sim, &sc);
		uint64_t ticks = 0;
		for (uint32_t s = 0; s < sim.net.nswitches; s++)
			for (uint16_t g = 0; g < sim.net.switches[s]->nmmus; g++)
				ticks += sb_abm_ticks(sim.net.switches[s]->mmus[g]);
		assert_true(ticks > 10);
		assert_true(sim.net.stats.pkts_delivered > 1000);
		sb_sim_free(&sim);
		sb_scenario_free(&sc);
	}
}

/* A bad configuration is refused at start, with the parameter named. */
static void test_bad_parameters(void **state)
{
	(void)state;
	static const uint64_t rates[2] = { GBPS10, GBPS10 };
	struct sb_mmu_config cfg = { .nports = 2, .buffer_bytes = 10000, .port_rate_bps = rates };
	struct sb_error err;
	struct sb_mmu *m = sb_mmu_new(&sb_bm_abm, &cfg, NULL); /* no timer offered */
	assert_int_equal(sb_mmu_start(m, &err), -1);
	assert_non_null(strstr(err.msg, "timer"));
	sb_mmu_free(m);
	m = sb_mmu_new(&sb_bm_abm, &cfg, NULL);
	assert_int_equal(sb_mmu_set_param(m, "n_mode", "one", &err), 0);
	assert_int_equal(sb_mmu_set_param(m, "gamma_mode", "one", &err), 0);
	assert_int_equal(sb_mmu_set_param(m, "reserve_bytes", "5000", &err), 0);
	assert_int_equal(sb_mmu_start(m, &err), -1);
	assert_non_null(strstr(err.msg, "reserve_bytes"));
	sb_mmu_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reduces_to_dt),
		cmocka_unit_test(test_eq9_arithmetic),
		cmocka_unit_test(test_thresh90_count),
		cmocka_unit_test(test_gamma_idle_rules),
		cmocka_unit_test(test_gamma_mixed_port_rates),
		cmocka_unit_test(test_satfrac_pre_arrival),
		cmocka_unit_test(test_steady_state_example_a),
		cmocka_unit_test(test_isolation_minimum_guarantee),
		cmocka_unit_test(test_no_monopoly),
		cmocka_unit_test(test_drain_time_bound),
		cmocka_unit_test(test_burst_tolerance_example_d),
		cmocka_unit_test(test_first_rtt_alpha),
		cmocka_unit_test(test_static_reserve),
		cmocka_unit_test(test_invariants_all_modes),
		cmocka_unit_test(test_bad_parameters),
	};
	return cmocka_run_group_tests_name("abm", tests, NULL, NULL);
}
