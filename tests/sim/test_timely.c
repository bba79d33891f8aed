/*
 * test_timely.c — TIMELY (Mittal et al., SIGCOMM 2015, Algorithm 1; src/transport/cc_timely.c):
 * its rate rule driven directly with chosen RTT samples, and the queue it leaves at a
 * bottleneck, bounded by the delays its thresholds T_low and T_high stand for.
 *
 * Defaults (rdma.timely_*): α = 0.875, β = 0.8, T_low = 50 µs, T_high = 500 µs, minRTT = 20 µs,
 * δ = 10 Mb/s per 10 Gb/s of NIC rate (25 Mb/s at 25 Gb/s), hyper-active increase 5δ after 5
 * updates in a row with a gradient ≤ 0.
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
#include "sim/sim.h"
#include "testlib.h"
#include "transport/rdma.h"
#include "transport/transport.h"

/* One switch, `hosts` hosts at 25 Gb/s, 2 µs links, a 64 MB complete-sharing buffer (nothing is
 * dropped: the queue is TIMELY's alone). */
static void single_switch_25g(struct sb_scenario *sc, int hosts, double duration_ms)
{
	tl_single_switch(sc, hosts, 25, 64u << 20);
	sc->topo.host_delay_us = 2;
	sc->run.duration_ms = duration_ms;
	sc->run.arrivals_ms = duration_ms;
	free(sc->sw.scheme);
	sc->sw.scheme = strdup("cs");
}

/* ---------------------------------------------------------------------------------------- */
/* The rule, sample by sample.                                                                 */

/*
 * A QP at 10 Gb/s of a 25 Gb/s NIC gets one update per RTT sample (each ACK beyond the last
 * update's snd_nxt). With rtt_diff ← 0.125·rtt_diff + 0.875·(rtt − prev) and g = rtt_diff/20 µs:
 *
 *   #  RTT µs  branch                          rate (b/s)
 *   0  100     first sample: only remembered   10,000,000,000
 *   1  100     band, g = 0 ≤ 0: + δ            10,025,000,000
 *   2  110     band, g = 0.4375: × (1 − β g)   × 0.65    =  6,516,250,000
 *   3  110     band, g = 0.0546875             × 0.95625 =  6,231,164,062.5
 *   4-7 100    band, g < 0: + δ each           6,331,164,062.5
 *   8-9 100    5th and 6th g < 0 in a row: + 5δ 6,581,164,062.5
 *   10  30     below T_low: + δ                6,606,164,062.5
 *   11  40     below T_low, g = +0.0547 > 0: still + δ   6,631,164,062.5
 *   12 1000    above T_high: × (1 − β (1 − 500/1000)) = × 0.6   3,978,698,437.5
 *   13 2000    above T_high: × (1 − β (1 − 500/2000)) = × 0.4   1,591,479,375
 *   14 1000    above T_high with g < 0: × 0.6 all the same        954,887,625
 *
 * A sample whose ACK does not pass the last update's snd_nxt changes nothing. The NIC keeps
 * whole bits per second (one rounding per update), hence a tolerance of 2 b/s.
 */
static void test_rate_rule(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	single_switch_25g(&sc, 2, 1);
	tl_build(&sim, &sc);
	/* never started (the run never runs): the test drives the control by hand */
	struct sb_flow *f = sb_flow_create(&sim.flows, 1, 0, 0, SB_MS, sb_transport_find("timely"));
	struct sb_rdma_qp *qp = sb_rdma_qp_of(f);
	memset(qp, 0, sizeof(*qp));
	qp->cc = &sb_rdma_cc_timely;
	qp->line_bps = 25000000000ULL;
	qp->rate_bps = 10000000000ULL;
	sb_rdma_cc_timely.init(&sim.flows, f, qp);
	static const struct {
		double rtt_us, rate;
		const char *why;
	} steps[] = {
		{ 100, 10000000000.0, "first sample" },
		{ 100, 10025000000.0, "g = 0: +δ" },
		{ 110, 6516250000.0, "g = 0.4375: ×(1 − βg)" },
		{ 110, 6231164062.5, "g = 0.0547: ×(1 − βg)" },
		{ 100, 6256164062.5, "g < 0: +δ" },
		{ 100, 6281164062.5, "g < 0: +δ" },
		{ 100, 6306164062.5, "g < 0: +δ" },
		{ 100, 6331164062.5, "g < 0: +δ" },
		{ 100, 6456164062.5, "5th g < 0: +5δ" },
		{ 100, 6581164062.5, "6th g < 0: +5δ" },
		{ 30, 6606164062.5, "< T_low: +δ" },
		{ 40, 6631164062.5, "< T_low, g > 0: +δ" },
		{ 1000, 3978698437.5, "> T_high: ×0.6" },
		{ 2000, 1591479375.0, "> T_high: ×0.4" },
		{ 1000, 954887625.0, "> T_high, g < 0: ×0.6" },
	};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		qp->snd_nxt += 1000;
		struct sb_rdma_feedback fb = { .ack = qp->snd_nxt, .rtt = sb_time_from_us(steps[i].rtt_us) };
		sb_rdma_cc_timely.on_ack(&sim.flows, f, qp, &fb);
		double got = (double)qp->rate_bps;
		print_message("  #%-2zu RTT %6.0f us, %s: rate measured %.1f, theory %.1f b/s\n", i, steps[i].rtt_us,
			      steps[i].why, got, steps[i].rate);
		if (fabs(got - steps[i].rate) > 2)
			fail_msg("step %zu: rate %.1f, expected %.1f", i, got, steps[i].rate);
		/* a second ACK within the same RTT is not a new completion event */
		struct sb_rdma_feedback same = { .ack = qp->snd_nxt, .rtt = sb_time_from_us(3000) };
		sb_rdma_cc_timely.on_ack(&sim.flows, f, qp, &same);
		assert_true((double)qp->rate_bps == got);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/*
 * The rule with every parameter moved off its default (α = 0.5, β = 0.5, T_low = 40 µs,
 * T_high = 200 µs, minRTT = 100 µs, δ = 100 Mb/s, Nδ = 400 Mb/s after N = 3), evaluated in the
 * test from Algorithm 1 step by step (the NIC's whole b/s fed back each time):
 *   rtt_diff ← (1 − α) rtt_diff + α (new − prev),  g = rtt_diff / minRTT
 *   new < T_low: + δ;  new > T_high: × (1 − β (1 − T_high/new));  g ≤ 0: + δ, or + Nδ from the
 *   N-th such update in a row;  else × (1 − β g).
 * RTTs exactly at T_low and at T_high fall in the band (the comparisons are strict), and a run of
 * negative gradients is broken by an update outside the band: the count starts again.
 */
static void test_rate_rule_parameters(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	single_switch_25g(&sc, 2, 1);
	static const char *const kv[] = { "timely_alpha", "0.5", "timely_beta", "0.5", "timely_tlow_us", "40",
					  "timely_thigh_us", "200", "timely_min_rtt_us", "100", "timely_ai_mbps", "100",
					  "timely_hai_mbps", "400", "timely_hai_after", "3", NULL };
	for (const char *const *p = kv; *p; p += 2) {
		struct sb_error err = { { 0 } };
		const struct sb_param *par = sb_param_find(sb_rdma_param_table, p[0]);
		assert_non_null(par);
		assert_int_equal(sb_param_set_text(par, &sc.rdma, p[1], &err), 0);
	}
	tl_build(&sim, &sc);
	struct sb_flow *f = sb_flow_create(&sim.flows, 1, 0, 0, SB_MS, sb_transport_find("timely"));
	struct sb_rdma_qp *qp = sb_rdma_qp_of(f);
	memset(qp, 0, sizeof(*qp));
	qp->cc = &sb_rdma_cc_timely;
	qp->line_bps = 25000000000ULL;
	qp->rate_bps = 10000000000ULL;
	sb_rdma_cc_timely.init(&sim.flows, f, qp);
	/* thresholds and RTTs in seconds as the control converts them (µs × 10⁻⁶, ps × 10⁻¹²): equal
	 * doubles at the boundaries, so "exactly at T_low" is exact */
	const double a = 0.5, beta = 0.5, tlow = sc.rdma.timely_tlow_us * 1e-6, thigh = sc.rdma.timely_thigh_us * 1e-6;
	const double minrtt = 100e-6, delta = 100e6, hai = 400e6;
	const int N = 3;
	/* RTTs (µs): first; band with g = 0 (+δ); rises (two cuts); falls: +δ, +δ, and at T_low
	 * exactly still the band, the third g ≤ 0 in a row: +Nδ; below T_low: +δ, which ends the run,
	 * so of the next three band updates with g ≤ 0 only the third adds Nδ; above T_high:
	 * × (1 − β (1 − 200/400)), which ends that run too: band, g < 0, + δ; at T_high exactly, the
	 * band's rule, here a cut by β g. */
	static const double rtts[] = { 100, 100, 104, 103, 102, 101, 40, 30, 45, 44, 43, 400, 150, 200 };
	double rate = 10e9, diff = 0, prev = 0;
	int neg = 0;
	for (size_t i = 0; i < sizeof(rtts) / sizeof(rtts[0]); i++) {
		double rtt = sb_time_to_sec(sb_time_from_us(rtts[i]));
		const char *why = "first sample";
		if (i > 0) {
			diff = (1 - a) * diff + a * (rtt - prev);
			double g = diff / minrtt;
			if (rtt < tlow) {
				rate += delta, neg = 0, why = "< T_low: +δ";
			} else if (rtt > thigh) {
				rate *= 1 - beta * (1 - thigh / rtt), neg = 0, why = "> T_high";
			} else if (g <= 0) {
				neg++;
				rate += neg >= N ? hai : delta;
				why = neg >= N ? "g <= 0: +Nδ" : "g <= 0: +δ";
			} else {
				rate *= 1 - beta * g, neg = 0, why = "g > 0: ×(1 − βg)";
			}
			rate = floor(fmin(fmax(rate, sc.rdma.min_rate_mbps * 1e6), 25e9) + 0.5);
		}
		prev = rtt;
		qp->snd_nxt += 1000;
		struct sb_rdma_feedback fb = { .ack = qp->snd_nxt, .rtt = sb_time_from_us(rtts[i]) };
		sb_rdma_cc_timely.on_ack(&sim.flows, f, qp, &fb);
		double got = (double)qp->rate_bps;
		print_message("  #%-2zu RTT %4.0f us, %-18s rate %.0f, rule %.0f b/s\n", i, rtts[i], why, got, rate);
		if (fabs(got - rate) > 1)
			fail_msg("step %zu: rate %.0f, the rule gives %.0f", i, got, rate);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* ---------------------------------------------------------------------------------------- */
/* The queue at a bottleneck.                                                                  */

static uint64_t queued(const struct sb_port *p)
{
	uint64_t q = 0;
	for (int i = 0; i < SB_NPRIO; i++)
		q += p->q[i].bytes;
	return q;
}

struct queue_probe {
	struct sb_sim *sim;
	struct sb_port *port;
	sb_time from, to;
	double sum, max;
	uint64_t n, tx0, tx1;
};

static void probe_tick(void *obj, uint64_t arg)
{
	(void)arg;
	struct queue_probe *pr = obj;
	sb_time now = sb_now(&pr->sim->net.engine);
	if (now == pr->from)
		pr->tx0 = pr->port->tx_bytes;
	double q = (double)queued(pr->port);
	pr->sum += q;
	pr->max = fmax(pr->max, q);
	pr->n++;
	if (now + SB_US <= pr->to)
		sb_at(&pr->sim->net.engine, now + SB_US, probe_tick, pr, 0);
	else
		pr->tx1 = pr->port->tx_bytes;
}

/*
 * 8 long TIMELY flows into one 25 Gb/s port, the queue sampled every µs over 5–10 ms. A packet
 * that finds q bytes queued has an RTT of base + q/C (the ACK path is idle), so a threshold of
 * T µs stands for a queue of (T − base RTT)·C:
 *
 *   peak ≥ q(T_low)   below T_low the rule only adds (test_rate_rule), so the rates can only
 *                     fall, as they must for the flows to share 25 Gb/s, after some packet saw
 *                     at least q(T_low);
 *   peak ≤ q(T_high)  above T_high every update cuts the rate;
 *   mean ≤ q(T_low)   TIMELY does not settle inside the band here: additive increase builds an
 *                     excess rate that is still growing when the queue reaches q(T_low), the
 *                     RTT gradient then is large and the cuts overshoot, the queue drains and
 *                     the next climb starts from below. The queue oscillates with its peaks
 *                     just above q(T_low), so its mean lies under q(T_low).
 *
 * Halving T_low's distance from the base RTT must move the queue with it.
 */
static void incast_queue(const char *tlow_us, double *mean, double *peak, double *q_low, double *q_high,
			 double *util)
{
	struct sb_scenario sc;
	single_switch_25g(&sc, 9, 10);
	if (tlow_us) {
		struct sb_error err = { { 0 } };
		const struct sb_param *p = sb_param_find(sb_rdma_param_table, "timely_tlow_us");
		assert_non_null(p);
		assert_int_equal(sb_param_set_text(p, &sc.rdma, tlow_us, &err), 0);
	}
	struct sb_sim sim;
	tl_build(&sim, &sc);
	struct sb_flow *f[8];
	for (int i = 0; i < 8; i++) {
		f[i] = sb_flow_create(&sim.flows, (uint32_t)(i + 1), 0, 0, 0, sb_transport_find("timely"));
		f[i]->prio = SB_DEFAULT_PRIO_LOSSLESS;
		f[i]->lossless = 1;
	}
	struct queue_probe pr = { .sim = &sim, .port = tl_port_to_host(&sim, 0), .from = 5 * SB_MS, .to = 10 * SB_MS };
	sb_at(&sim.net.engine, pr.from, probe_tick, &pr, 0);
	tl_run_and_check(&sim);
	const double c_bytes_per_us = 25e9 / 8 / 1e6;
	double base_us = sb_time_to_us(sb_rdma_qp_of(f[0])->base_rtt);
	*q_low = (sc.rdma.timely_tlow_us - base_us) * c_bytes_per_us;
	*q_high = (sc.rdma.timely_thigh_us - base_us) * c_bytes_per_us;
	*mean = pr.sum / (double)pr.n;
	*peak = pr.max;
	*util = (double)(pr.tx1 - pr.tx0) * 8 / (25e9 * sb_time_to_sec(pr.to - pr.from));
	double bdp = base_us * c_bytes_per_us;
	print_message("T_low %g us, T_high %g us, base RTT %.3f us (BDP %.0f B): queue mean %.0f B (%.2f BDP) <= "
		      "q(T_low) %.0f B (%.2f BDP); peak %.0f B in [q(T_low), q(T_high) = %.0f B]; utilisation %.4f\n",
		      sc.rdma.timely_tlow_us, sc.rdma.timely_thigh_us, base_us, bdp, *mean, *mean / bdp, *q_low,
		      *q_low / bdp, *peak, *q_high, *util);
	assert_int_equal(sim.net.stats.pkts_dropped, 0);
	tl_check_and_free(&sim, &sc);
}

static void test_queue_between_thresholds(void **state)
{
	(void)state;
	double mean, peak, q_low, q_high, util, mean50, q_low50;
	incast_queue(NULL, &mean, &peak, &q_low, &q_high, &util);
	assert_true(peak >= q_low && peak <= q_high);
	assert_true(mean <= q_low);
	assert_true(util >= 0.90);
	mean50 = mean, q_low50 = q_low;
	incast_queue("25", &mean, &peak, &q_low, &q_high, &util);
	assert_true(peak >= q_low && peak <= q_high);
	assert_true(mean <= q_low);
	assert_true(util >= 0.90);
	assert_true(q_low < q_low50 && mean < mean50); /* the queue follows T_low */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_rule),
		cmocka_unit_test(test_rate_rule_parameters),
		cmocka_unit_test(test_queue_between_thresholds),
	};
	return cmocka_run_group_tests_name("timely", tests, NULL, NULL);
}
