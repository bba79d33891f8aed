/*
 * test_rdma_cc.c — the update rules of the RDMA congestion controls, driven by hand with chosen
 * feedback and checked to the bit per second against the papers' equations: DCQCN's cut,
 * α EWMA, rate-decrease interval and the fast-recovery / additive / hyper increase stages
 * (src/transport/cc_dcqcn.c); HPCC's utilisation, its EWMA and window law (cc_hpcc.c);
 * PowerTCP's power and rate update (cc_powertcp.c). TIMELY's rule is in tests/sim/test_timely.c.
 *
 * The network tests (tests/sim/test_rdma.c) show what the controls achieve together — fairness,
 * utilisation, recovery — and pass for many wrong variants of a rule. Here each control runs on
 * a queue pair that never sends: the test sets the clock, hands the control CNPs, ACKs and INT
 * records exactly as the engine would (qp->cc->on_cnp, qp->cc->on_ack), and compares the rate
 * it sets with the paper's formula evaluated step by step in the test.
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
#include "engine/telemetry.h"
#include "sim/sim.h"
#include "testlib.h"
#include "transport/rdma.h"
#include "transport/transport.h"

#define LINE 25e9 /* the NIC's rate, bits/s */

/* A 2-host, 25 Gb/s network that is built but never run, and one queue pair of `transport`
 * driven by hand: the clock is sim.net.engine.eq.now, set by the test. `sets`: rdma.* keys and values,
 * NULL-terminated. */
struct bench {
	struct sb_scenario sc;
	struct sb_sim sim;
	struct sb_flow *f;
	struct sb_rdma_qp *qp;
};

static void bench_open(struct bench *b, const char *transport, const struct sb_rdma_cc_ops *cc,
		       const char *const *sets, sb_time base_rtt)
{
	tl_single_switch(&b->sc, 2, LINE / 1e9, 64u << 20);
	for (; sets && *sets; sets += 2) {
		struct sb_error err = { "" };
		const struct sb_param *p = sb_param_find(sb_rdma_param_table, sets[0]);
		assert_non_null(p);
		if (sb_param_set_text(p, &b->sc.rdma, sets[1], &err))
			fail_msg("rdma.%s = %s: %s", sets[0], sets[1], err.msg);
	}
	tl_build(&b->sim, &b->sc);
	b->f = sb_flow_create(&b->sim.flows, 0, 1, 0, SB_SEC, sb_transport_find(transport));
	b->qp = sb_rdma_qp_of(b->f);
	memset(b->qp, 0, sizeof(*b->qp));
	b->qp->cc = cc;
	b->qp->mtu = 1000;
	b->qp->line_bps = (uint64_t)LINE;
	b->qp->rate_bps = (uint64_t)LINE;
	b->qp->base_rtt = base_rtt;
	b->qp->rto_at = SB_TIME_NEVER;
	cc->init(&b->sim.flows, b->f, b->qp);
}

static void bench_close(struct bench *b)
{
	sb_sim_free(&b->sim);
	sb_scenario_free(&b->sc);
}

static void at(struct bench *b, sb_time t)
{
	assert_true(t >= b->sim.net.engine.eq.now);
	b->sim.net.engine.eq.now = t;
}

/* The rate the NIC was given (whole bits per second) against the model's. */
static void expect_rate(const struct bench *b, double want, const char *what)
{
	double got = (double)b->qp->rate_bps;
	print_message("  %-44s %14.1f b/s, model %14.1f\n", what, got, want);
	if (fabs(got - want) > 1.0)
		fail_msg("%s: rate %.1f b/s, the rule gives %.1f", what, got, want);
}

/* ------------------------------------------------------------------------------------------ */
/* DCQCN (Zhu et al., SIGCOMM 2015, §3; the Mellanox model of the HPCC-lineage
 * artifacts, docs/transports.md). Times are µs after the first CNP at t0; CNPs come in the
 * middle of α intervals and rate checks come well inside timer periods, so each test runs
 * unchanged with rdma.dcqcn_first_cut = check (the first cut at the first rate-decrease check,
 * 4 µs later) and = cnp (at the CNP): the α intervals here are longer than the decrease
 * interval, so both first cuts find α = 1 (a halving); both start the α clock at the first CNP
 * with no CNP counted yet, and the increase timer at the cut. */

static const sb_time T0 = 100 * SB_US;

static sb_time us(double x) { return (sb_time)((double)T0 + x * (double)SB_US); } /* x may be < 0 */

static void dcqcn_cnp(struct bench *b, double at_us)
{
	at(b, us(at_us));
	b->qp->cc->on_cnp(&b->sim.flows, b->f, b->qp);
}

/* What the NIC would send at: an ACK brings the control's lazy clocks up to date. */
static void dcqcn_check(struct bench *b, double at_us, double want, const char *what)
{
	at(b, us(at_us));
	struct sb_rdma_feedback fb = { 0 };
	b->qp->cc->on_ack(&b->sim.flows, b->f, b->qp, &fb);
	expect_rate(b, want, what);
}

/* Cut and α. g = 1/16, α interval 20 µs, no increase within the test (timer 10 ms).
 *   t0      first CNP: α = 1, R = L(1 − 1/2) = L/2
 *   +110    5 quiet α intervals: α = (15/16)^5; the cut gives R (1 − α/2)
 *   +130    the interval ending at +120 saw a CNP: α ← (15/16) α + 1/16; R (1 − α/2)
 *   +310    +140 saw one too, then 8 quiet intervals (evaluated at once here, as the
 *           control catches up lazily): α ← ((15/16) α + 1/16) (15/16)^8; R (1 − α/2) */
static void dcqcn_cut_and_alpha_mode(const char *first_cut)
{
	const char *const sets[] = { "dcqcn_first_cut", first_cut, "dcqcn_g", "0.0625", "dcqcn_alpha_interval_us", "20",
				     "dcqcn_rate_decrease_interval_us", "4", "dcqcn_rp_timer_us", "10000", NULL };
	struct bench b;
	bench_open(&b, "dcqcn", &sb_rdma_cc_dcqcn, sets, 10 * SB_US);
	const double g = 0.0625;
	double r = LINE, alpha = 1;
	dcqcn_check(&b, -50, r, "before any CNP: line rate");
	dcqcn_cnp(&b, 0);
	if (!strcmp(first_cut, "check"))
		dcqcn_check(&b, 3, r, "first CNP, before the first check: no cut yet");
	r *= 1 - alpha / 2;
	dcqcn_check(&b, 5, r, "first CNP: alpha = 1, a halving");
	dcqcn_check(&b, 105, r, "quiet: alpha decays, the rate stays");
	dcqcn_cnp(&b, 110);
	alpha = pow(1 - g, 5);
	r *= 1 - alpha / 2;
	dcqcn_check(&b, 115, r, "after 5 quiet intervals: R (1 - a/2)");
	dcqcn_cnp(&b, 130);
	alpha = (1 - g) * alpha + g;
	r *= 1 - alpha / 2;
	dcqcn_check(&b, 135, r, "a CNP in the last interval: a <- (1-g)a + g");
	dcqcn_cnp(&b, 310);
	alpha = ((1 - g) * alpha + g) * pow(1 - g, 8);
	r *= 1 - alpha / 2;
	dcqcn_check(&b, 315, r, "then 8 quiet intervals at once");
	bench_close(&b);
}

/* The rate-decrease interval: however many CNPs arrive, the rate is cut at most once per
 * 4 µs check. 12 CNPs one µs apart span three checks, or four depending on where the clock's
 * ticks fall: 3 or 4 halvings (α stays 1: its first tick is 1 ms away), never 12. */
static void dcqcn_decrease_interval_mode(const char *first_cut)
{
	const char *const sets[] = { "dcqcn_first_cut", first_cut, "dcqcn_alpha_interval_us", "1000",
				     "dcqcn_rate_decrease_interval_us", "4", "dcqcn_rp_timer_us", "10000", NULL };
	struct bench b;
	bench_open(&b, "dcqcn", &sb_rdma_cc_dcqcn, sets, 10 * SB_US);
	dcqcn_cnp(&b, 0);
	dcqcn_check(&b, 5, LINE / 2, "first CNP");
	for (int j = 0; j < 12; j++)
		dcqcn_cnp(&b, 30.5 + j);
	at(&b, us(50));
	struct sb_rdma_feedback fb = { 0 };
	b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb);
	double got = (double)b.qp->rate_bps;
	int cuts = (int)lround(log2(LINE / 2 / got));
	print_message("  12 CNPs over 12 us: %d cuts, rate %.0f b/s\n", cuts, got);
	assert_in_range(cuts, 3, 4);
	assert_true(fabs(got - LINE / 2 / pow(2, cuts)) <= 1.0);
	bench_close(&b);
}

/* Increase. F = 2, R_AI = 1 Gb/s, R_HAI = 3 Gb/s, timer 100 µs, g = 1/16, α interval 20 µs, no
 * byte counter (every event is a timer event: F fast-recovery events, one additive, then hyper
 * increases). Each event first moves the target R_T (by R_AI or R_HAI, not at all in fast
 * recovery, never beyond line rate) and then halves the gap: R ← (R_T + R)/2.
 *   t0     first CNP: R = L/2, R_T stays L (no increase since a cut: target not clamped)
 *   +100   one fast-recovery event: R = (L + L/2)/2
 *   +170   CNP: after an increase the cut clamps R_T = R, then R (1 − α/2), α = (15/16)^8
 *   +270…  events 1, 2 fast recovery; 3 additive; 4, 5, 6 hyper (R_T reaches L at the 5th)
 *   +830, +850  two CNPs, two cuts, no increase between them: the first clamps R_T to the rate
 *          it finds, the second leaves R_T alone (artifact CLAMP_TARGET_RATE = 0)
 *   +950   a fast-recovery event halves the gap to that R_T. */
static void dcqcn_increase_stages_mode(const char *first_cut)
{
	const char *const sets[] = { "dcqcn_first_cut", first_cut, "dcqcn_g", "0.0625", "dcqcn_alpha_interval_us", "20",
				     "dcqcn_rate_decrease_interval_us", "4", "dcqcn_rp_timer_us", "100",
				     "dcqcn_fast_recovery", "2", "dcqcn_ai_mbps", "1000", "dcqcn_hai_mbps", "3000",
				     "dcqcn_byte_counter_bytes", "0", "dcqcn_clamp_target", "false", NULL };
	struct bench b;
	bench_open(&b, "dcqcn", &sb_rdma_cc_dcqcn, sets, 10 * SB_US);
	const double g = 0.0625, ai = 1e9, hai = 3e9;
	double r = LINE, rt = LINE, alpha = 1;
	dcqcn_cnp(&b, 0);
	r /= 2;
	dcqcn_check(&b, 50, r, "first cut; no increase before the timer");
	r = (rt + r) / 2;
	dcqcn_check(&b, 150, r, "one fast-recovery event: (R_T + R)/2");
	dcqcn_cnp(&b, 170);
	alpha = pow(1 - g, 8);
	rt = r;
	r *= 1 - alpha / 2;
	dcqcn_check(&b, 220, r, "cut after an increase: R_T = R, R (1 - a/2)");
	static const char *const stage[] = { "fast recovery 1", "fast recovery 2", "additive (R_T + R_AI)",
					     "hyper 1 (R_T + R_HAI)", "hyper 2, R_T capped at line rate", "hyper 3" };
	for (int j = 1; j <= 6; j++) {
		if (j == 3)
			rt += ai;
		else if (j > 3)
			rt = fmin(rt + hai, LINE);
		r = (rt + r) / 2;
		dcqcn_check(&b, 170 + 100 * j + 50, r, stage[j - 1]);
	}
	/* α: +g at the tick after the CNP at +170, then 32 quiet intervals to +830 */
	alpha = ((1 - g) * alpha + g) * pow(1 - g, 32);
	dcqcn_cnp(&b, 830);
	rt = r;
	r *= 1 - alpha / 2;
	dcqcn_check(&b, 835, r, "cut after increases: R_T clamped to R");
	alpha = (1 - g) * alpha + g;
	dcqcn_cnp(&b, 850);
	r *= 1 - alpha / 2;
	dcqcn_check(&b, 855, r, "second cut without an increase between");
	r = (rt + r) / 2;
	dcqcn_check(&b, 1000, r, "fast recovery towards the first cut's R_T");
	bench_close(&b);
}

/* The byte counter (Zhu et al. §3, Fig. 6's BC; dcqcn_byte_counter_bytes = 10,000 here): after a
 * cut, every 10,000 wire bytes sent is an increase event as the timer's are. With T timer and B
 * byte events counted since the cut, F = 2: max(T, B) < F fast recovery, min(T, B) > F hyper
 * increase, otherwise additive. R_AI = 0.5 Gb/s, R_HAI = 2 Gb/s, timer 100 µs, α stays 1 (its
 * interval is 1 ms), first cut at the CNP (a halving), clamp_target = false:
 *   −40…−11  bytes sent before the first CNP count for nothing
 *   0        first CNP: R = L/2, R_T = L
 *   +1…+10   10 packets of 1,000 wire bytes: one byte event (fast recovery), R = 3L/4
 *   +14      CNP, cut at the check at +16: after an increase R_T ← R = 3L/4, R = 3L/8
 *   +17…+66  50 packets: a byte event exactly at the 10th, 20th, … packet (none at the 9th):
 *            B = 0, 1 fast recovery; B = 2, 3, 4 additive (T = 0)
 *   +116…+316  timer events with T = 0, 1, 2: additive (min(T, B) ≤ F)
 *   +416     T = 3, B = 5: min = 3 > F, hyper
 *   +470…    10 more packets: a byte event with T = 4, B = 5: hyper (R_T capped at L). */
static void test_dcqcn_byte_counter_stages(void **state)
{
	(void)state;
	const char *const sets[] = { "dcqcn_first_cut", "cnp", "dcqcn_alpha_interval_us", "1000",
				     "dcqcn_rate_decrease_interval_us", "4", "dcqcn_rp_timer_us", "100",
				     "dcqcn_fast_recovery", "2", "dcqcn_ai_mbps", "500", "dcqcn_hai_mbps", "2000",
				     "dcqcn_byte_counter_bytes", "10000", "dcqcn_clamp_target", "false", NULL };
	struct bench b;
	bench_open(&b, "dcqcn", &sb_rdma_cc_dcqcn, sets, 10 * SB_US);
	const double ai = 0.5e9, hai = 2e9, F = 2;
	double r = LINE, rt = LINE;
	for (int j = 0; j < 30; j++) {
		at(&b, us(-40 + j));
		b.qp->cc->on_send(&b.sim.flows, b.f, b.qp, 1000);
	}
	dcqcn_cnp(&b, 0);
	r /= 2;
	dcqcn_check(&b, 0.5, r, "first cut at the CNP");
	for (int j = 1; j <= 10; j++) {
		at(&b, us(j));
		b.qp->cc->on_send(&b.sim.flows, b.f, b.qp, 1000);
	}
	r = (rt + r) / 2;
	expect_rate(&b, r, "one byte event: fast recovery");
	dcqcn_cnp(&b, 14);
	rt = r;
	r /= 2;
	dcqcn_check(&b, 16.5, r, "cut after an increase: R_T = R");
	int T = 0, B = 0;
	/* one increase event of the stage rule, the model's side */
	#define EVENT(by_timer)                                                                        \
		do {                                                                                   \
			double hi_ = fmax(T, B), lo_ = fmin(T, B);                                     \
			if (hi_ >= F)                                                                  \
				rt = fmin(rt + (lo_ > F ? hai : ai), LINE);                            \
			r = (rt + r) / 2;                                                              \
			if (by_timer)                                                                  \
				T++;                                                                   \
			else                                                                           \
				B++;                                                                   \
		} while (0)
	for (int j = 1; j <= 50; j++) {
		at(&b, us(16.5 + j));
		b.qp->cc->on_send(&b.sim.flows, b.f, b.qp, 1000);
		if (j % 10 == 0)
			EVENT(false);
		char what[64];
		snprintf(what, sizeof what, "packet %d after the cut (T %d, B %d)", j, T, B);
		expect_rate(&b, r, what);
	}
	for (int k = 1; k <= 4; k++) {
		EVENT(true);
		char what[64];
		snprintf(what, sizeof what, "timer event %d (T %d, B %d), R_T %.2f G", k, T, B, rt / 1e9);
		dcqcn_check(&b, 16 + 100 * k + 50, r, what);
	}
	for (int j = 1; j <= 10; j++) {
		at(&b, us(470 + j));
		b.qp->cc->on_send(&b.sim.flows, b.f, b.qp, 1000);
	}
	EVENT(false);
	expect_rate(&b, r, "byte event with T 4, B 5: hyper");
	#undef EVENT
	bench_close(&b);
}

/* dcqcn_clamp_target = true (the paper's Algorithm: every cut sets R_T ← R_C): two cuts with no
 * increase between leave R_T at the rate the second cut found, so the next fast-recovery event
 * halves the gap to it, not to the line rate the first cut kept. The rate floor: R_C never
 * falls below rdma.min_rate_mbps (Mellanox's min rate), and the next increase starts from it. */
static void test_dcqcn_clamp_and_floor(void **state)
{
	(void)state;
	const char *const sets[] = { "dcqcn_first_cut", "cnp", "dcqcn_alpha_interval_us", "1000",
				     "dcqcn_rate_decrease_interval_us", "4", "dcqcn_rp_timer_us", "100",
				     "dcqcn_fast_recovery", "5", "dcqcn_clamp_target", "true", "min_rate_mbps", "1000",
				     NULL };
	struct bench b;
	bench_open(&b, "dcqcn", &sb_rdma_cc_dcqcn, sets, 10 * SB_US);
	double r = LINE, rt;
	dcqcn_cnp(&b, 0);
	rt = r;
	r /= 2;
	dcqcn_check(&b, 1, r, "first cut: R_T = L");
	dcqcn_cnp(&b, 2); /* due at the check at +4; α is still 1 (its clock: 1 ms) */
	rt = r;
	r /= 2;
	dcqcn_check(&b, 5, r, "second cut, clamp on: R_T = R before it");
	r = (rt + r) / 2;
	dcqcn_check(&b, 110, r, "fast recovery towards the clamped R_T");
	/* four halvings at the checks +112 … +124 (clamp on: R_T ← R each time): 9.375 G, 4.6875 G,
	 * 2.34375 G, 1.171875 G, then 0.586 G is below the floor: R = 1 G, R_T = 1.171875 G */
	const double floor_bps = 1e9;
	for (int j = 0; j < 4; j++) {
		dcqcn_cnp(&b, 111 + 4 * j);
		rt = r;
		r = fmax(r / 2, floor_bps);
	}
	dcqcn_check(&b, 130, r, "cut to the floor rdma.min_rate_mbps");
	r = (rt + r) / 2;
	dcqcn_check(&b, 230, r, "fast recovery from the floor, not from below it");
	bench_close(&b);
}

/* Each DCQCN test with the first cut at the first rate-decrease check (the default, the NICs'
 * and the artifacts' way) and at the first CNP. */
#define BOTH_FIRST_CUTS(name)                                                                         \
	static void test_##name(void **state)                                                         \
	{                                                                                             \
		(void)state;                                                                          \
		print_message("rdma.dcqcn_first_cut = check\n");                                      \
		name##_mode("check");                                                                 \
		print_message("rdma.dcqcn_first_cut = cnp\n");                                        \
		name##_mode("cnp");                                                                   \
	}
BOTH_FIRST_CUTS(dcqcn_cut_and_alpha)
BOTH_FIRST_CUTS(dcqcn_decrease_interval)
BOTH_FIRST_CUTS(dcqcn_increase_stages)

/* ------------------------------------------------------------------------------------------ */
/* HPCC (Li et al., SIGCOMM 2019, Algorithm 1), one hop at 25 Gb/s, base RTT T = 10 µs, so the
 * line-rate window is W_max = 31,250 B. Each sample is an ACK whose INT says the hop sent
 * `tx` bytes over `dt` and holds `q` bytes, against the previous ACK:
 *     u = min(q, q_prev)·8/(B·T) + tx·8/(dt·B),   U ← (1 − τ/T) U + (τ/T) u,  τ = min(dt, T)
 *     U ≥ η or incStage ≥ maxStage:  W = Wc/(U/η) + W_AI, incStage = 0
 *     otherwise:                     W = Wc + W_AI,       incStage + 1
 * W within [min rate·T, W_max]; the QP sends at W/T. The QP never sends, so every ACK passes
 * the last update's snd_nxt and updates Wc ← W (one ACK per RTT, as FAST_REACT's reference).
 * η = 0.95, maxStage = 2, W_AI = 100 Mb/s × T = 125 B. The samples: a hop at line rate with a
 * standing queue of 0.2 BDP (u = 1.2) until U passes η and the window shrinks, then a hop at
 * 40 % without queue (u = 0.4): two additive steps, then multiplicative ones. */
static void test_hpcc_window_law(void **state)
{
	(void)state;
	static const char *const sets[] = { "hpcc_eta", "0.95", "hpcc_mi_thresh", "2", "hpcc_ai_mbps", "100", NULL };
	struct bench b;
	const sb_time T = 10 * SB_US;
	bench_open(&b, "hpcc", &sb_rdma_cc_hpcc, sets, T);
	const double Tsec = 10e-6, B = LINE, eta = 0.95, w_ai = 100e6 * Tsec / 8, w_max = B * Tsec / 8;
	static struct sb_int_rec rec;
	rec = (struct sb_int_rec){ .nhops = 1 };
	rec.hop[0] = (struct sb_int_hop){ .ts = 100 * SB_US, .tx_bytes = 0, .rate_bps = (uint64_t)B, .qlen = 6250 };
	struct sb_rdma_feedback fb = { .ack = 1, .hops = &rec };
	at(&b, 100 * SB_US);
	b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb); /* the first INT is only remembered */
	expect_rate(&b, B, "first ACK: nothing to compare with");
	static const struct { double dt_us, tx, q; } s[] = {
		{ 5, 15625, 6250 }, { 5, 15625, 6250 }, { 5, 15625, 6250 }, { 5, 15625, 6250 }, { 5, 15625, 6250 },
		{ 20, 25000, 0 }, { 4, 5000, 0 }, { 4, 5000, 0 }, { 4, 5000, 0 }, { 10, 12500, 0 },
	};
	double U = 0, wc = w_max, q_prev = 6250, w_least = w_max;
	int stage = 0;
	for (size_t k = 0; k < sizeof(s) / sizeof(s[0]); k++) {
		double u = fmin(s[k].q, q_prev) * 8 / (B * Tsec) + s[k].tx * 8 / (s[k].dt_us * 1e-6 * B);
		double tau = fmin(s[k].dt_us * 1e-6, Tsec);
		U = (1 - tau / Tsec) * U + tau / Tsec * u;
		double w;
		if (U >= eta || stage >= 2) {
			w = wc / (U / eta) + w_ai;
			stage = 0;
		} else {
			w = wc + w_ai;
			stage++;
		}
		w = fmin(fmax(w, b.sc.rdma.min_rate_mbps * 1e6 * Tsec / 8), w_max);
		wc = w;
		w_least = fmin(w_least, w);
		q_prev = s[k].q;
		rec.hop[0].ts += (sb_time)(s[k].dt_us * SB_US);
		rec.hop[0].tx_bytes += (uint64_t)s[k].tx;
		rec.hop[0].qlen = (uint32_t)s[k].q;
		fb.ack++;
		at(&b, rec.hop[0].ts + T / 2);
		b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb);
		char what[64];
		snprintf(what, sizeof what, "sample %zu: u %.3f, U %.4f, W %.1f B", k + 1, u, U, w);
		expect_rate(&b, w * 8 / Tsec, what);
		assert_int_equal(b.qp->window, (uint64_t)(w + 0.5));
	}
	assert_true(w_least < 0.7 * w_max); /* the law did act: the window shrank, then recovered */
	assert_true(wc == w_max);
	bench_close(&b);
}

/* ------------------------------------------------------------------------------------------ */
/* PowerTCP (Addanki et al., NSDI 2022, Algorithm 1 with the rate form of cc_powertcp.c), one hop
 * at 25 Gb/s, base RTT τ = 10 µs. Each ACK's INT against the previous one gives
 *     λ = Δq·8/Δt + Δtx·8/Δt (at least B/2),   Γ' = λ·(q·8 + B·τ)/(B²·τ)
 *     Γ ← (Γ(τ − Δt) + Γ'·Δt)/τ,                R ← γ (R_ref/(Γ/η) + β) + (1 − γ) R
 * with R_ref the rate at the last update (every ACK here), γ = 0.9, β = 150 Mb/s, η = 0.95;
 * Γ starts at 1. Samples: a growing queue (λ above B), a standing one, then a draining link. */
static void test_powertcp_rate_law(void **state)
{
	(void)state;
	static const char *const sets[] = { "powertcp_gamma", "0.9", "powertcp_beta_mbps", "150", "powertcp_eta", "0.95",
					    NULL };
	struct bench b;
	const sb_time T = 10 * SB_US;
	bench_open(&b, "powertcp", &sb_rdma_cc_powertcp, sets, T);
	const double tau = 10e-6, B = LINE, gamma = 0.9, beta = 150e6, eta = 0.95;
	static struct sb_int_rec rec;
	rec = (struct sb_int_rec){ .nhops = 1 };
	rec.hop[0] = (struct sb_int_hop){ .ts = 100 * SB_US, .tx_bytes = 0, .rate_bps = (uint64_t)B, .qlen = 0 };
	struct sb_rdma_feedback fb = { .ack = 1, .hops = &rec };
	at(&b, 100 * SB_US);
	b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb);
	static const struct { double dt_us, tx, q; } s[] = {
		{ 2, 6250, 5000 }, { 2, 6250, 10000 }, { 5, 15625, 10000 }, { 5, 15625, 10000 },
		{ 5, 15625, 4000 }, { 20, 20000, 0 }, { 5, 5000, 0 },
	};
	double power = 1, r = B, q_prev = 0;
	for (size_t k = 0; k < sizeof(s) / sizeof(s[0]); k++) {
		double dt = s[k].dt_us * 1e-6;
		double lambda = fmax((s[k].q - q_prev) * 8 / dt + s[k].tx * 8 / dt, B / 2);
		double sample = lambda * (s[k].q * 8 + B * tau) / (B * B * tau);
		double d = fmin(dt, tau);
		power = (power * (tau - d) + sample * d) / tau;
		double ref = r;
		r = gamma * (ref / (power / eta) + beta) + (1 - gamma) * r;
		r = fmin(fmax(r, b.sc.rdma.min_rate_mbps * 1e6), B);
		r = floor(r + 0.5); /* the NIC's whole bits per second are the next reference */
		q_prev = s[k].q;
		rec.hop[0].ts += (sb_time)(s[k].dt_us * SB_US);
		rec.hop[0].tx_bytes += (uint64_t)s[k].tx;
		rec.hop[0].qlen = (uint32_t)s[k].q;
		fb.ack++;
		at(&b, rec.hop[0].ts + T / 2);
		b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb);
		char what[64];
		snprintf(what, sizeof what, "sample %zu: power %.4f (sample %.4f)", k + 1, power, sample);
		expect_rate(&b, r, what);
		assert_int_equal(b.qp->window, (uint64_t)(r * tau / 8 + 0.5));
	}
	bench_close(&b);
}

/* HPCC on a path of two hops of different rates (25 and 10 Gb/s), Li et al. Algorithm 1 line
 * by line: each hop's u_i = min(q_i, q_i')·8/(B_i·T) + tx_i·8/(Δt_i·B_i) with its own B_i and
 * Δt_i, the most loaded hop's (u, τ) feeding U ← (1 − τ/T) U + (τ/T) u (τ ≤ T); the
 * reference window Wc and incStage move only on an ACK beyond the snd_nxt of the last update
 * (once per RTT), while every ACK sets W from the current Wc. η = 0.95, maxStage = 1,
 * W_AI = 100 Mb/s × T. The queues rise and fall (so min(q, q') is neither q nor q'), the
 * maximum moves between the hops, and the last samples carry a standing queue of a megabyte:
 * W falls to its floor, rdma.min_rate_mbps × T = 1 Gb/s × T. */
static void test_hpcc_two_hops_per_rtt(void **state)
{
	(void)state;
	static const char *const sets[] = { "hpcc_eta", "0.95", "hpcc_mi_thresh", "1", "hpcc_ai_mbps", "100",
					    "min_rate_mbps", "1000", NULL };
	struct bench b;
	const sb_time T = 10 * SB_US;
	bench_open(&b, "hpcc", &sb_rdma_cc_hpcc, sets, T);
	const double Tsec = 10e-6, eta = 0.95, w_ai = 100e6 * Tsec / 8, w_max = LINE * Tsec / 8;
	const double w_min = b.sc.rdma.min_rate_mbps * 1e6 * Tsec / 8, Bh[2] = { 25e9, 10e9 };
	static struct sb_int_rec rec;
	rec = (struct sb_int_rec){ .nhops = 2 };
	rec.hop[0] = (struct sb_int_hop){ .ts = 100 * SB_US, .tx_bytes = 1000, .rate_bps = 25000000000ULL, .qlen = 6250 };
	rec.hop[1] = (struct sb_int_hop){ .ts = 101 * SB_US, .tx_bytes = 5000, .rate_bps = 10000000000ULL, .qlen = 0 };
	b.qp->snd_nxt = 10000;
	struct sb_rdma_feedback fb = { .ack = 1, .hops = &rec };
	at(&b, 102 * SB_US);
	b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb);
	static const struct { double dt[2], tx[2], q[2]; uint64_t ack, snd_nxt; } s[] = {
		{ { 5, 4 }, { 15625, 2500 }, { 6250, 1000 }, 10001, 20000 },   /* hop 0: u = 1.2 */
		{ { 5, 6 }, { 6250, 7500 }, { 3000, 2000 }, 15000, 25000 },    /* hop 1 the max; no update */
		{ { 5, 6 }, { 6250, 7500 }, { 9000, 4000 }, 20001, 30000 },    /* update */
		{ { 20, 20 }, { 10000, 5000 }, { 0, 0 }, 30001, 40000 },       /* τ = T */
		{ { 4, 4 }, { 2500, 1000 }, { 0, 0 }, 40000, 40000 },          /* = snd_nxt: no update */
		{ { 4, 4 }, { 2500, 1000 }, { 0, 0 }, 40001, 50000 },
		{ { 4, 4 }, { 2500, 1000 }, { 0, 0 }, 50001, 60000 },
		{ { 10, 10 }, { 6000, 2000 }, { 0, 0 }, 60001, 70000 },
		{ { 10, 10 }, { 6000, 2000 }, { 0, 0 }, 60002, 70000 },        /* no update */
		{ { 10, 10 }, { 6000, 2000 }, { 0, 0 }, 70001, 80000 },
		{ { 15, 15 }, { 46875, 3000 }, { 20000, 0 }, 80001, 82000 },   /* 1.5 T: τ = T; a queue builds ... */
		{ { 10, 10 }, { 31250, 2000 }, { 10000, 0 }, 82000, 84000 },   /* ... halves: min = q; = snd_nxt: held */
		{ { 10, 10 }, { 31250, 2000 }, { 1000000, 0 }, 84001, 90000 }, /* a megabyte builds ... */
		{ { 10, 10 }, { 31250, 2000 }, { 1000000, 0 }, 90001, 100000 },/* ... and stands */
		{ { 10, 10 }, { 31250, 2000 }, { 1000000, 0 }, 100001, 110000 },
		{ { 10, 10 }, { 31250, 2000 }, { 1000000, 0 }, 110001, 120000 }, /* W at its floor */
	};
	double U = 0, wc = w_max, q_prev[2] = { 6250, 0 };
	uint64_t last = 10000;
	int stage = 0, hop1_max = 0, held = 0, floored = 0, additive = 0;
	for (size_t k = 0; k < sizeof(s) / sizeof(s[0]); k++) {
		double u = -1, tau = 0;
		int arg = -1;
		for (int i = 0; i < 2; i++) {
			double ui = fmin(s[k].q[i], q_prev[i]) * 8 / (Bh[i] * Tsec) + s[k].tx[i] * 8 / (s[k].dt[i] * 1e-6 * Bh[i]);
			if (ui > u) {
				u = ui;
				tau = s[k].dt[i] * 1e-6;
				arg = i;
			}
			q_prev[i] = s[k].q[i];
		}
		hop1_max += arg == 1;
		tau = fmin(tau, Tsec);
		U = (1 - tau / Tsec) * U + tau / Tsec * u;
		bool update = s[k].ack > last;
		double w;
		if (U >= eta || stage >= 1) {
			w = wc / (U / eta) + w_ai;
			if (update)
				stage = 0;
		} else {
			w = wc + w_ai;
			additive += update;
			if (update)
				stage++;
		}
		w = fmin(w, w_max);
		if (w < w_min) {
			w = w_min;
			floored++;
		}
		if (update) {
			wc = w;
			last = s[k].snd_nxt;
		} else {
			held++;
		}
		for (int i = 0; i < 2; i++) {
			rec.hop[i].ts += (sb_time)(s[k].dt[i] * SB_US);
			rec.hop[i].tx_bytes += (uint64_t)s[k].tx[i];
			rec.hop[i].qlen = (uint32_t)s[k].q[i];
		}
		b.qp->snd_nxt = s[k].snd_nxt;
		fb.ack = s[k].ack;
		at(&b, (rec.hop[0].ts > rec.hop[1].ts ? rec.hop[0].ts : rec.hop[1].ts) + T / 2);
		b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb);
		char what[96];
		snprintf(what, sizeof what, "sample %zu: hop %d u %.3f, U %.4f, %s W %.1f B", k + 1, arg, u, U,
			 update ? "update," : "held Wc,", w);
		expect_rate(&b, w * 8 / Tsec, what);
		/* W rounded to whole bytes, at least one MTU (1000 B); ± 1 B where W is near x.5 */
		double want_win = fmax(floor(w + 0.5), 1000);
		assert_true(fabs((double)b.qp->window - want_win) <= 1);
	}
	assert_true(hop1_max >= 2 && held >= 3 && floored >= 1 && additive >= 1); /* every rule was used */
	bench_close(&b);
}

/* W_AI by default (rdma.hpcc_ai_mbps = 0): 10 Mb/s per 25 Gb/s of NIC rate (HPCC's run.py), so
 * 20 Mb/s × T on a 50 Gb/s NIC. A congested sample (u = 2 on a 50 Gb/s hop) shrinks W, a quiet
 * one (u = 0.3) adds W_AI: maxStage = 5, so additive. */
static void test_hpcc_default_ai(void **state)
{
	(void)state;
	static const char *const sets[] = { "hpcc_eta", "0.95", NULL };
	struct bench b;
	const sb_time T = 10 * SB_US;
	bench_open(&b, "hpcc", &sb_rdma_cc_hpcc, sets, T);
	const double L50 = 50e9, Tsec = 10e-6, eta = 0.95, w_ai = 20e6 * Tsec / 8, w_max = L50 * Tsec / 8;
	b.qp->line_bps = b.qp->rate_bps = (uint64_t)L50;
	b.qp->cc->init(&b.sim.flows, b.f, b.qp);
	static struct sb_int_rec rec;
	rec = (struct sb_int_rec){ .nhops = 1 };
	rec.hop[0] = (struct sb_int_hop){ .ts = 100 * SB_US, .rate_bps = 50000000000ULL };
	/* raising the line rate opened the window: the NIC may have pulled a packet already */
	struct sb_rdma_feedback fb = { .ack = b.qp->snd_nxt + 1, .hops = &rec };
	at(&b, 100 * SB_US);
	b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb);
	double U = 0, wc = w_max;
	static const double util[] = { 2.0, 0.3, 0.3 };
	for (int k = 0; k < 3; k++) {
		double u = util[k]; /* Δt = T: U = u */
		U = u;
		double w = U >= eta ? wc / (U / eta) + w_ai : wc + w_ai;
		wc = w = fmin(w, w_max);
		rec.hop[0].ts += T;
		rec.hop[0].tx_bytes += (uint64_t)(u * L50 * Tsec / 8);
		fb.ack++;
		at(&b, rec.hop[0].ts + T / 2);
		b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb);
		expect_rate(&b, w * 8 / Tsec, k ? "additive: W + 20 Mb/s x T" : "multiplicative");
	}
	bench_close(&b);
}

/* PowerTCP over two hops (25 and 10 Gb/s): the hop of largest normalised power Γ_i =
 * max(q̇_i + μ_i, B_i/2)·(q_i·8 + B_i·τ)/(B_i²·τ), each with its own B_i and Δt_i, is smoothed
 * with its Δt; the reference rate R_ref moves to the current rate only on an ACK beyond the
 * snd_nxt of the last update (Addanki et al. Algorithm 1: UPDATE_OLD once per RTT), while
 * every ACK sets R ← γ (R_ref/(Γ/η) + β) + (1 − γ) R. */
static void test_powertcp_two_hops_per_rtt(void **state)
{
	(void)state;
	static const char *const sets[] = { "powertcp_gamma", "0.8", "powertcp_beta_mbps", "200", "powertcp_eta", "0.9",
					    NULL };
	struct bench b;
	const sb_time T = 10 * SB_US;
	bench_open(&b, "powertcp", &sb_rdma_cc_powertcp, sets, T);
	const double tau = 10e-6, gamma = 0.8, beta = 200e6, eta = 0.9, Bh[2] = { 25e9, 10e9 };
	static struct sb_int_rec rec;
	rec = (struct sb_int_rec){ .nhops = 2 };
	rec.hop[0] = (struct sb_int_hop){ .ts = 100 * SB_US, .tx_bytes = 0, .rate_bps = 25000000000ULL, .qlen = 2000 };
	rec.hop[1] = (struct sb_int_hop){ .ts = 100 * SB_US, .tx_bytes = 0, .rate_bps = 10000000000ULL, .qlen = 0 };
	b.qp->snd_nxt = 10000;
	struct sb_rdma_feedback fb = { .ack = 1, .hops = &rec };
	at(&b, 100 * SB_US);
	b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb);
	static const struct { double dt[2], tx[2], q[2]; uint64_t ack, snd_nxt; } s[] = {
		{ { 2, 3 }, { 6250, 3000 }, { 5000, 1000 }, 10001, 20000 },
		{ { 2, 3 }, { 6250, 3750 }, { 8000, 6000 }, 20000, 20000 },  /* hop 1 the max; = snd_nxt: R_ref held */
		{ { 5, 4 }, { 15625, 5000 }, { 8000, 9000 }, 20001, 30000 },
		{ { 5, 4 }, { 15625, 2000 }, { 3000, 2000 }, 25000, 30000 }, /* draining: λ below B/2 at hop 1 */
		{ { 20, 20 }, { 20000, 10000 }, { 0, 0 }, 30001, 40000 },
		{ { 5, 5 }, { 5000, 3000 }, { 0, 0 }, 40001, 50000 },
	};
	double power = 1, r = LINE, ref = LINE, q_prev[2] = { 2000, 0 };
	uint64_t last = 10000;
	int hop1_max = 0, held = 0;
	for (size_t k = 0; k < sizeof(s) / sizeof(s[0]); k++) {
		double best = -1, best_dt = 0;
		int arg = -1;
		for (int i = 0; i < 2; i++) {
			double dt = s[k].dt[i] * 1e-6;
			double lambda = fmax((s[k].q[i] - q_prev[i]) * 8 / dt + s[k].tx[i] * 8 / dt, Bh[i] / 2);
			double g = lambda * (s[k].q[i] * 8 + Bh[i] * tau) / (Bh[i] * Bh[i] * tau);
			if (g > best) {
				best = g;
				best_dt = dt;
				arg = i;
			}
			q_prev[i] = s[k].q[i];
		}
		hop1_max += arg == 1;
		double d = fmin(best_dt, tau);
		power = (power * (tau - d) + best * d) / tau;
		if (s[k].ack > last) {
			ref = r;
			last = s[k].snd_nxt;
		} else {
			held++;
		}
		r = gamma * (ref / (power / eta) + beta) + (1 - gamma) * r;
		r = floor(fmin(fmax(r, b.sc.rdma.min_rate_mbps * 1e6), LINE) + 0.5);
		for (int i = 0; i < 2; i++) {
			rec.hop[i].ts += (sb_time)(s[k].dt[i] * SB_US);
			rec.hop[i].tx_bytes += (uint64_t)s[k].tx[i];
			rec.hop[i].qlen = (uint32_t)s[k].q[i];
		}
		b.qp->snd_nxt = s[k].snd_nxt;
		fb.ack = s[k].ack;
		at(&b, (rec.hop[0].ts > rec.hop[1].ts ? rec.hop[0].ts : rec.hop[1].ts) + T / 2);
		b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb);
		char what[80];
		snprintf(what, sizeof what, "sample %zu: hop %d, power %.4f, R_ref %.0f", k + 1, arg, power, ref);
		expect_rate(&b, r, what);
		assert_int_equal(b.qp->window, (uint64_t)(r * tau / 8 + 0.5));
	}
	assert_true(hop1_max >= 1 && held >= 2);
	bench_close(&b);
}

/* θ-PowerTCP (Addanki et al. §4, Algorithm 2; the rate form of cc_powertcp.c) from RTT samples
 * alone: with θ the ACK's RTT and Δt the time since the previous ACK,
 *     Γ' = max((θ − θ_prev)/Δt + 1, 0.5) · θ · η / τ,   Γ ← (Γ (τ − Δt) + Γ' Δt)/τ (Δt ≤ τ),
 *     R ← γ (R_ref/Γ + β) + (1 − γ) R,  R_ref ← R once per RTT,
 * γ = rdma.thetapowertcp_gamma = 0.7 (default), β = 150 Mb/s, η = 0.95, τ = 10 µs. The first
 * ACK is only remembered. RTTs rise (a queue builds), hold, then fall fast (the gradient floor 0.5). */
static void test_thetapowertcp_rate_law(void **state)
{
	(void)state;
	struct bench b;
	const sb_time T = 10 * SB_US;
	bench_open(&b, "thetapowertcp", &sb_rdma_cc_thetapowertcp, NULL, T);
	const double tau = 10e-6, gamma = 0.7, beta = 150e6, eta = 0.95;
	b.qp->snd_nxt = 10000;
	struct sb_rdma_feedback fb = { .ack = 1, .rtt = 10 * SB_US };
	sb_time now = 100 * SB_US;
	at(&b, now);
	b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb);
	expect_rate(&b, LINE, "first ACK: remembered");
	static const struct { double dt_us, rtt_us; uint64_t ack, snd_nxt; } s[] = {
		{ 1, 12, 10001, 20000 }, { 1, 14, 20000, 20000 }, { 2, 15, 20001, 30000 }, { 4, 15, 30001, 40000 },
		{ 1, 11, 35000, 40000 }, { 20, 10, 40001, 50000 }, { 3, 10.5, 50001, 60000 },
	};
	double power = 1, r = LINE, ref = LINE, prev_rtt = 10e-6;
	uint64_t last = 10000;
	for (size_t k = 0; k < sizeof(s) / sizeof(s[0]); k++) {
		double dt = s[k].dt_us * 1e-6, rtt = s[k].rtt_us * 1e-6;
		double a = fmax((rtt - prev_rtt) / dt + 1, 0.5);
		double d = fmin(dt, tau);
		power = (power * (tau - d) + a * rtt * eta / tau * d) / tau;
		prev_rtt = rtt;
		if (s[k].ack > last) {
			ref = r;
			last = s[k].snd_nxt;
		}
		r = gamma * (ref / power + beta) + (1 - gamma) * r;
		r = floor(fmin(fmax(r, b.sc.rdma.min_rate_mbps * 1e6), LINE) + 0.5);
		now += (sb_time)(s[k].dt_us * SB_US);
		b.qp->snd_nxt = s[k].snd_nxt;
		fb.ack = s[k].ack;
		fb.rtt = (sb_time)(s[k].rtt_us * SB_US);
		at(&b, now);
		b.qp->cc->on_ack(&b.sim.flows, b.f, b.qp, &fb);
		char what[80];
		snprintf(what, sizeof what, "sample %zu: RTT %.1f us, power %.4f", k + 1, s[k].rtt_us, power);
		expect_rate(&b, r, what);
		assert_int_equal(b.qp->window, (uint64_t)(r * tau / 8 + 0.5));
	}
	bench_close(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dcqcn_cut_and_alpha),
		cmocka_unit_test(test_dcqcn_decrease_interval),
		cmocka_unit_test(test_dcqcn_increase_stages),
		cmocka_unit_test(test_hpcc_window_law),
		cmocka_unit_test(test_powertcp_rate_law),
		cmocka_unit_test(test_dcqcn_byte_counter_stages),
		cmocka_unit_test(test_dcqcn_clamp_and_floor),
		cmocka_unit_test(test_hpcc_two_hops_per_rtt),
		cmocka_unit_test(test_hpcc_default_ai),
		cmocka_unit_test(test_powertcp_two_hops_per_rtt),
		cmocka_unit_test(test_thetapowertcp_rate_law),
	};
	return cmocka_run_group_tests_name("rdma_cc", tests, NULL, NULL);
}
