/*
 * test_reverie_pfc.c — Reverie's low-pass filter under PFC (docs/schemes/reverie.md, "The
 * filter under PFC").
 *
 * Theorem 1 of the paper (isolation) says lossless:lossy = α•:α° in steady state, whatever the
 * numbers of queues; its proof assumes q̂ = q. The filter, Eq. (5), is sampled as the authors'
 * artifact does it (inet-tub/ns3-datacenter, switch-mmu.cc, RemoveFromIngressAdmission): after
 * each departure of the queue, with the length after it, clamped to q̂ <= q. A lossless ingress
 * queue departs only when one of its packets reaches the head of the egress queue it feeds.
 * When two lossless ingress queues feed one egress queue (a FIFO), the one whose packets sit
 * behind the other's backlog takes no departure, hence no filter sample, for as long as that
 * backlog lasts — while it grows at line rate. Its PAUSE test (q̂ > Γ) compares a frozen value,
 * which the clamp set to about Γ at the end of its last drain, so it does not pause until Γ falls
 * below it: the two queues settle into alternation, each growing blind while the other drains
 * paused, and the lossless bytes far exceed what the filters (and Γ) say. The lossy queue is
 * judged on its own (accurate) filter and gets Γ° = α°/n°·(b* − q*), which shrinks as the
 * lossless queues grow.
 *
 * The scenario: one switch, 10 Gb/s, b* = 2,000,000 B, α• = 2, α° = 1, line-rate CBR. "Shared":
 * two lossless senders into one receiver (two lossless ingress queues, one egress FIFO) and two
 * lossy senders into another (one lossy egress queue); theory q• = 1,000,000, q° = 500,000 B.
 * "Separate": one lossless and one lossy sender into one receiver, priorities 3 and 1, served
 * round robin, so the lossless queue departs every other packet.
 *
 * What is pinned (each value measured, with margins far from the other side):
 *   - γ = 0 (the filter is the queue at each departure): 2:1 over any window;
 *   - γ = 0.999 with the artifact's rule (dequeue, clamp): lossless:lossy > 3 over 100-500 ms
 *     (measured 8.6), lossless filters below 60 % of the lossless bytes (38 %), and a lossless
 *     queue that grew by more than 100 KB without one filter sample (1.9 MB);
 *   - the same with a filter that samples independently of departures — `timer` (the artifact's
 *     disabled UpdateLpfCounters) or `arrival_dequeue` — or with separate FIFOs: 2:1 within 8 %,
 *     and no blind growth beyond a few packets.
 * A filter sampled at arrivals, or without the clamp (which then stays above the queue and
 * starves it: 0.6:1), fails the second point.
 *
 * SB_REVERIE_PFC_MS=3000 lengthens the long window (the doc's 3 s runs).
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
#include "mmu/bm_reverie.h"
#include "mmu/mmu.h"
#include "sim/sim.h"
#include "testlib.h"

enum layout { SHARED, SEPARATE };

#define B_STAR 2000000.0
#define WINDOW_MS 100 /* the drift is printed per window of this length */
#define MAX_WINDOWS 64

struct meter {
	enum layout layout;
	uint16_t ll_port[2];          /* ingress ports of the lossless queues */
	int n_ll;
	double ll, ly, ll_hat;        /* sums over the samples */
	uint64_t samples;
	/* blind growth: how much a lossless queue grew while its filter kept exactly one value */
	double start[2], prev_hat[2], blind_max;
	/* per-window sums, for the drift */
	double win_ll[MAX_WINDOWS], win_ly[MAX_WINDOWS];
	sb_time from;
};

struct result {
	double ratio, ll, ly, hat_share, blind_max;
	int nwin;
	double win_ratio[MAX_WINDOWS];
	uint64_t pauses;
};

static void sample(struct tl_every *e)
{
	struct meter *s = e->ctx;
	struct sb_mmu *m = e->sim->net.switches[0]->mmus[0];
	const struct sb_pfc_ingress *pi = sb_reverie_pfc(m);
	double ll = 0, ly = 0, hat = 0;
	for (uint16_t port = 0; port < m->nports; port++) {
		/* lossless bytes in the shared pool (headroom apart), as Theorem 1 counts them */
		ll += (double)(m->q_ing[sb_mmu_qi(port, 3)] - sb_pfc_hdrm(pi, port, 3));
		ly += (double)m->q_egr[sb_mmu_qi(port, 1)];
	}
	for (int i = 0; i < s->n_ll; i++) {
		uint16_t p = s->ll_port[i];
		double q = (double)m->q_ing[sb_mmu_qi(p, 3)], h = sb_reverie_lpf(m, false, p, 3);
		hat += h;
		/* a filter sample moves q̂ unless q̂ = q already; a queue that shrank is not growing */
		if (h != s->prev_hat[i] || q < s->start[i])
			s->start[i] = q;
		else if (q - s->start[i] > s->blind_max)
			s->blind_max = q - s->start[i];
		s->prev_hat[i] = h;
	}
	s->ll += ll;
	s->ly += ly;
	s->ll_hat += hat;
	s->samples++;
	size_t w = (size_t)((sb_now(&e->sim->net.engine) - s->from) / sb_time_from_ms(WINDOW_MS));
	if (w < MAX_WINDOWS) {
		s->win_ll[w] += ll;
		s->win_ly[w] += ly;
	}
}

/* Run a layout at γ with extra reverie keys; time averages over [from, to] ms. */
static struct result run(enum layout layout, double gamma, const char *keys, double from, double to)
{
	const char *wl = layout == SHARED
		? "{ type = \"cbr\"; srcs = [1, 2]; dst = 0; prio = 3; class = \"lossless\"; rate_gbps = 10.0; },\n"
		  "{ type = \"cbr\"; srcs = [4, 5]; dst = 3; prio = 1; rate_gbps = 10.0; }"
		: "{ type = \"cbr\"; srcs = [1]; dst = 0; prio = 3; class = \"lossless\"; rate_gbps = 10.0; },\n"
		  "{ type = \"cbr\"; srcs = [2]; dst = 0; prio = 1; rate_gbps = 10.0; }";
	char text[2048];
	snprintf(text, sizeof(text),
		 "run: { duration_ms = %g; };\n"
		 "topology: { type = \"single\"; hosts = %d; host_rate_gbps = 10.0; host_delay_us = 1.0; };\n"
		 "switch: { scheme = \"reverie\"; buffer_bytes = 4000000; reverie: { shared_pool_bytes = %.0f;\n"
		 "  headroom = \"bytes\"; headroom_bytes = 20000; headroom_prios = 1; alpha_lossless = 2;\n"
		 "  alpha_lossy = 1; gamma = %g; %s }; };\n"
		 "workloads = (%s);\n",
		 to, layout == SHARED ? 6 : 3, B_STAR, gamma, keys, wl);
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_scenario(&sc, text, NULL, 0);
	/* Eleven runs of up to half a second: the per-operation audit (test_reverie.c runs it on
	 * the same layouts) would take most of the time; the end-of-run check still runs. */
	sc.run.check_invariants = false;
	tl_build(&sim, &sc);
	struct meter *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	s->layout = layout;
	s->n_ll = layout == SHARED ? 2 : 1;
	s->ll_port[0] = 1, s->ll_port[1] = 2;
	s->from = sb_time_from_ms(from);
	struct tl_every e;
	tl_every_start(&e, &sim, s->from, sb_time_from_ms(to), SB_US, sample, s);
	tl_run_and_check(&sim);
	assert_int_equal(sim.net.stats.pkts_dropped_lossless, 0);
	struct result r = { .ll = s->ll / (double)s->samples, .ly = s->ly / (double)s->samples,
			    .blind_max = s->blind_max, .pauses = sim.net.switches[0]->mmus[0]->pfc_pauses_sent };
	r.ratio = r.ll / r.ly;
	r.hat_share = s->ll_hat / s->ll;
	for (int w = 0; w < MAX_WINDOWS && (double)(w + 1) * WINDOW_MS <= to - from; w++, r.nwin++)
		r.win_ratio[w] = s->win_ll[w] / s->win_ly[w];
	free(s);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return r;
}

static double long_end_ms(void)
{
	const char *v = getenv("SB_REVERIE_PFC_MS");
	double ms = v ? atof(v) : 500;
	return ms > 200 ? ms : 500;
}

static void report(const char *what, double gamma, double from, double to, const struct result *r)
{
	print_message("%-34s γ = %-5g [%4.0f, %4.0f] ms: lossless %8.0f B, lossy %7.0f B, ratio %6.3f, "
		      "Σq̂•/Σq• %.2f, blind growth %7.0f B, PAUSE %llu\n",
		      what, gamma, from, to, r->ll, r->ly, r->ratio, r->hat_share, r->blind_max,
		      (unsigned long long)r->pauses);
	if (r->nwin > 1) {
		print_message("%-34s   per %d ms:", "", WINDOW_MS);
		for (int w = 0; w < r->nwin; w++)
			print_message(" %.2f", r->win_ratio[w]);
		print_message("\n");
	}
}

/* The γ sweep of the doc's table: the artifact's rule on the shared layout. γ = 0 is exactly
 * 2:1 (the filter is the queue at each departure, and the two queues stay in step); γ = 0.999
 * falls into the alternation within the first milliseconds (the filter lags the initial fill
 * by ~1000 departures, so the first PAUSE comes with the queues 3× over Γ) and stays there,
 * between 4.7:1 and 12.8:1 per 100 ms over 3 s. γ = 0.9 and 0.99 stay near 2:1 here; at 0.9
 * the same alternation starts after ~0.6 s (SB_REVERIE_PFC_MS=3000), at 0.5 after ~1 s. */
static void test_gamma_sweep_artifact_rule(void **state)
{
	(void)state;
	const double to = long_end_ms();
	static const double gammas[] = { 0, 0.9, 0.99, 0.999 };
	for (size_t i = 0; i < sizeof(gammas) / sizeof(gammas[0]); i++) {
		double g = gammas[i];
		struct result s = run(SHARED, g, "", 4, 8), l = run(SHARED, g, "", 100, to);
		report("shared FIFO, lpf_update = dequeue", g, 4, 8, &s);
		report("shared FIFO, lpf_update = dequeue", g, 100, to, &l);
		if (g == 0) {
			TL_EXPECT_NEAR(s.ratio, 2, 0.03, "  γ = 0, 4-8 ms, lossless:lossy");
			TL_EXPECT_NEAR(l.ratio, 2, 0.03, "  γ = 0, long window, lossless:lossy");
		} else if (g < 0.999) {
			TL_EXPECT_NEAR(s.ratio, 2, 0.05, "  γ = %g, 4-8 ms, lossless:lossy", g);
		} else {
			/* the mechanism: the lossless queues hold far more than their filters show,
			 * and one of them grew by a whole backlog without a sample */
			assert_true(l.ratio > 3);
			assert_true(l.hat_share < 0.6);
			assert_true(l.blind_max > 100000);
		}
	}
}

/* The same γ = 0.999 with the sample point moved off the departures, or with one lossless
 * queue per egress FIFO: Theorem 1 holds again. */
static void test_sampling_independent_of_departures(void **state)
{
	(void)state;
	const double to = long_end_ms(), g = 0.999;
	static const struct {
		const char *what, *keys;
		enum layout layout;
		double tol;
	} cases[] = {
		{ "shared FIFO, lpf_update = timer", "lpf_update = \"timer\";", SHARED, 0.08 },
		{ "shared FIFO, arrival_dequeue", "lpf_update = \"arrival_dequeue\";", SHARED, 0.05 },
		{ "separate FIFOs, dequeue", "", SEPARATE, 0.05 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct result r = run(cases[i].layout, g, cases[i].keys, 100, to);
		report(cases[i].what, g, 100, to, &r);
		TL_EXPECT_NEAR(r.ratio, 2, cases[i].tol, "  lossless:lossy");
		assert_true(r.blind_max < 5000); /* at most a few packets between samples */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gamma_sweep_artifact_rule),
		cmocka_unit_test(test_sampling_independent_of_departures),
	};
	return cmocka_run_group_tests_name("reverie filter under PFC", tests, NULL, NULL);
}
