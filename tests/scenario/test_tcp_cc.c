/*
 * test_tcp_cc.c — the TCP congestion controls' own rules (src/transport/cc_newreno.c,
 * cc_cubic.c, cc_dctcp.c), each control driven by hand through sb_tcp_init() and its ops, with
 * no network: NewReno's ssthresh (RFC 5681 Eq. 4), CUBIC's multiplicative decrease, fast
 * convergence and TCP-friendly region (RFC 8312 §4.2, 4.5, 4.6), DCTCP's α and its cut
 * (RFC 8257 §3.3–3.4). The engine (fast recovery, RTO, SACK…) is tests/sim/test_tcp.c's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim/sim.h"
#include "testlib.h"
#include "transport/tcp.h"

/* A control on a flow that is not part of any network; the clock is sim.net.engine.eq.now. */
struct bench {
	struct sb_scenario sc;
	struct sb_sim sim;
	struct sb_flow f;
	struct sb_tcp *tcp;
};

static void bench_open(struct bench *b, const struct sb_tcp_cc_ops *cc)
{
	sb_scenario_defaults(&b->sc);
	memset(&b->sim, 0, sizeof b->sim);
	b->sim.sc = &b->sc;
	b->sim.flows = (struct sb_flows){ .net = &b->sim.net, .tcp = &b->sc.tcp, .rdma = &b->sc.rdma };
	memset(&b->f, 0, sizeof b->f);
	b->sim.net.engine.eq.now = 1 * SB_SEC;
	sb_tcp_init(&b->sim.flows, &b->f, cc);
	b->tcp = sb_tcp_of(&b->f);
}

static void bench_close(struct bench *b) { sb_scenario_free(&b->sc); }

/* `segs` segments in flight from snd_una = `una` segments. */
static void in_flight(struct sb_tcp *tcp, uint64_t una, uint64_t segs)
{
	tcp->snd_una = una * tcp->mss;
	tcp->snd_nxt = tcp->snd_max = (una + segs) * tcp->mss;
}

/* RFC 5681 Eq. (4): ssthresh = max(FlightSize / 2, 2 SMSS), whatever cwnd is. */
static void test_newreno_ssthresh(void **state)
{
	(void)state;
	struct bench b;
	bench_open(&b, &sb_cc_newreno);
	struct sb_tcp *tcp = b.tcp;
	tcp->cwnd = 100 * (uint64_t)tcp->mss;
	in_flight(tcp, 7, 40);
	assert_int_equal(tcp->cc->ssthresh(&b.sim.flows, &b.f, tcp, false), 20 * (uint64_t)tcp->mss);
	assert_int_equal(tcp->cc->ssthresh(&b.sim.flows, &b.f, tcp, true), 20 * (uint64_t)tcp->mss);
	in_flight(tcp, 7, 3);
	assert_int_equal(tcp->cc->ssthresh(&b.sim.flows, &b.f, tcp, false), 2 * (uint64_t)tcp->mss);
	bench_close(&b);
}

/* CUBIC, ACK-clocked by hand: one ACK per segment, a window of them per RTT, until time `until`
 * after the current epoch began (s). Returns cwnd in segments. */
static double cubic_ack_until(struct bench *b, sb_time rtt, sb_time from, double until)
{
	struct sb_tcp *tcp = b->tcp;
	while (sb_time_to_sec(b->sim.net.engine.eq.now - from) < until) {
		double cwnd_seg = (double)tcp->cwnd / tcp->mss;
		b->sim.net.engine.eq.now += (sb_time)((double)rtt / cwnd_seg);
		tcp->snd_una += tcp->mss;
		tcp->snd_nxt += tcp->mss;
		tcp->snd_max = tcp->snd_nxt;
		tcp->cc->on_ack(&b->sim.flows, &b->f, tcp, tcp->mss);
	}
	return (double)tcp->cwnd / tcp->mss;
}

/* A loss at cwnd W: ssthresh and the new cwnd are β·W (RFC 8312 §4.5, β = 0.7). */
static double cubic_loss(struct bench *b, double w_segs)
{
	struct sb_tcp *tcp = b->tcp;
	tcp->cwnd = (uint64_t)(w_segs * tcp->mss);
	in_flight(tcp, tcp->snd_una / tcp->mss, (uint64_t)w_segs);
	tcp->ssthresh = tcp->cc->ssthresh(&b->sim.flows, &b->f, tcp, false);
	tcp->cwnd = tcp->ssthresh;
	return (double)tcp->cwnd / tcp->mss;
}

/* Fast convergence (RFC 8312 §4.6). A loss at 1000 segments, then one at 800 < 1000: the flow
 * is giving up bandwidth, so it remembers W_max = 800·(1 + β)/2 = 680 instead of 800 and grows
 * back along W(t) = C(t − K)^3 + 680 from cwnd = 0.7·800 = 560, K = ((680 − 560)/C)^(1/3) =
 * 6.69 s (C = 0.4). RTT 100 ms: the cubic curve, not the TCP-friendly line, rules. cwnd chases
 * W(t + RTT), so it lies between W(t) and W(t + RTT) (±1 %). */
static void test_cubic_decrease_and_fast_convergence(void **state)
{
	(void)state;
	struct bench b;
	bench_open(&b, &sb_cc_cubic);
	struct sb_tcp *tcp = b.tcp;
	const double C = b.sc.tcp.cubic_c, beta = b.sc.tcp.cubic_beta;
	const sb_time rtt = 100 * SB_MS;
	tcp->srtt = rtt;
	assert_true(fabs(cubic_loss(&b, 1000) - beta * 1000) < 1);
	sb_time epoch = b.sim.net.engine.eq.now;
	double w = cubic_ack_until(&b, rtt, epoch, 20.0); /* well past K: beyond the old W_max */
	assert_true(w > 1000);
	double cw = cubic_loss(&b, 800);
	assert_true(fabs(cw - beta * 800) < 1);
	const double w_max = 800 * (1 + beta) / 2, K = cbrt((w_max - cw) / C);
	epoch = b.sim.net.engine.eq.now;
	const double checks[] = { 1.0, 3.0, K, 9.0 };
	for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
		double got = cubic_ack_until(&b, rtt, epoch, checks[i]);
		double t = sb_time_to_sec(b.sim.net.engine.eq.now - epoch);
		double lo = C * pow(t - K, 3) + w_max, hi = C * pow(t + sb_time_to_sec(rtt) - K, 3) + w_max;
		print_message("cubic after fast convergence: t = %.2f s (K = %.2f s): cwnd %.1f, W(t) %.1f, W(t+RTT) %.1f\n",
			      t, K, got, lo, hi);
		assert_true(got >= 0.99 * lo && got <= 1.01 * hi);
	}
	bench_close(&b);
}

/* RFC 9438 §4.2: the target W_cubic(t + RTT) is clamped to [cwnd, 1.5 cwnd], so one ACK of an
 * MSS after a long silence (the cubic curve far above cwnd) adds (1.5 cwnd − cwnd) / cwnd MSS =
 * half an MSS. The fast convergence of §4.6 applies only when W_max shrank: a second loss at
 * the same window keeps W_max, so cwnd is back at it after K = cbrt(W_max (1 − β) / C). And
 * ssthresh is at least 2 MSS (RFC 5681 (4), kept by RFC 9438 §4.6). */
static void test_cubic_target_clamp_and_equal_wmax(void **state)
{
	(void)state;
	struct bench b;
	bench_open(&b, &sb_cc_cubic);
	struct sb_tcp *tcp = b.tcp;
	const double C = b.sc.tcp.cubic_c, beta = b.sc.tcp.cubic_beta;
	const sb_time rtt = 100 * SB_MS;
	bench_close(&b);
	for (int far = 0; far < 2; far++) {
		/* without the TCP-friendly region (ns-3's choice), so that the cubic curve alone
		 * sets the target */
		bench_open(&b, &sb_cc_cubic);
		b.sc.tcp.cubic_tcp_friendly = false;
		tcp = b.tcp;
		tcp->srtt = rtt;
		cubic_loss(&b, 20);
		sb_time epoch = b.sim.net.engine.eq.now;
		cubic_ack_until(&b, rtt, epoch, 0.001); /* the epoch begins, from 14 segments */
		double c0 = (double)tcp->cwnd / tcp->mss, K = cbrt((20 - beta * 20) / C);
		/* W(t + RTT) = 1.75 cwnd (between the clamp and twice cwnd), or far above */
		double t = far ? 100.0 : K + cbrt((1.75 * c0 - 20) / C) - sb_time_to_sec(rtt);
		b.sim.net.engine.eq.now = epoch + (sb_time)(t * (double)SB_SEC);
		uint64_t before = tcp->cwnd;
		tcp->snd_una += tcp->mss;
		tcp->cc->on_ack(&b.sim.flows, &b.f, tcp, tcp->mss);
		print_message("cubic: W(t + RTT) %.2f cwnd: one ACK adds %llu bytes\n", far ? 1e4 : 1.75,
			      (unsigned long long)(tcp->cwnd - before));
		assert_true(tcp->cwnd - before >= tcp->mss / 2 && tcp->cwnd - before <= tcp->mss / 2 + 1);
		bench_close(&b);
	}

	bench_open(&b, &sb_cc_cubic);
	tcp = b.tcp;
	tcp->srtt = rtt;
	cubic_loss(&b, 1000);
	cubic_ack_until(&b, rtt, b.sim.net.engine.eq.now, 20.0);
	double cw = cubic_loss(&b, 1000); /* the same W_max: no fast convergence */
	const double K = cbrt((1000 - cw) / C);
	sb_time epoch = b.sim.net.engine.eq.now;
	double got = cubic_ack_until(&b, rtt, epoch, K);
	print_message("cubic, a second loss at the same W_max: cwnd %.1f at K = %.2f s\n", got, K);
	assert_true(got >= 0.99 * 1000 && got <= 1.01 * (C * pow(sb_time_to_sec(rtt), 3) + 1000));
	assert_true(fabs(cw - beta * 1000) < 1);
	/* the floor */
	assert_int_equal((uint64_t)cubic_loss(&b, 2) * tcp->mss, 2 * tcp->mss);
	bench_close(&b);
}

/* The TCP-friendly region (RFC 8312 §4.2): with a short RTT standard TCP would grow faster than
 * the cubic curve, and CUBIC follows W_est(t) = W_epoch + 3(1 − β)/(1 + β)·t/RTT, 0.529 segments
 * per RTT for β = 0.7 — Reno's average rate at the same β. From W_max = 20 (cwnd 14), RTT
 * 100 µs, after 10 ms: 14 + 52.9 segments, where the cubic curve has hardly moved. The region
 * is chosen by comparing W_est with the cubic curve W(t) < W_max: from the first ACK on (1 ms:
 * 19.3 segments), not only once W_est passes W_max. */
static void test_cubic_tcp_friendly(void **state)
{
	(void)state;
	struct bench b;
	bench_open(&b, &sb_cc_cubic);
	const double beta = b.sc.tcp.cubic_beta;
	const sb_time rtt = 100 * SB_US;
	b.tcp->srtt = rtt;
	double w0 = cubic_loss(&b, 20);
	sb_time epoch = b.sim.net.engine.eq.now;
	for (double t = 0.001; t <= 0.0101; t += 0.003) {
		double got = cubic_ack_until(&b, rtt, epoch, t);
		double ts = sb_time_to_sec(b.sim.net.engine.eq.now - epoch);
		double want = w0 + 3 * (1 - beta) / (1 + beta) * ts / sb_time_to_sec(rtt);
		print_message("cubic TCP-friendly: t = %.1f ms: cwnd %.2f, W_est %.2f\n", ts * 1e3, got, want);
		assert_true(fabs(got - want) < 0.5);
	}
	bench_close(&b);
}

/* DCTCP (RFC 8257 §3.3–3.4), with the control's ECN hook fed ACKs by hand. The sender keeps
 * 20 segments in flight. The model, from the RFC: bytes acknowledged and bytes acknowledged
 * with ECE add up over an observation window; when SND.UNA passes Window_End,
 * α ← (1 − g) α + g·M/A and Window_End ← SND.NXT; on an ECE, at most once per window of data
 * (until SND.UNA reaches the SND.MAX of the last cut), cwnd ← cwnd (1 − α/2), at least 2 MSS.
 * α starts at 1 (§3.3), g = 1/16. The marks come in runs of different density, so α rises and
 * falls; the cwnd after every ACK is compared with the model's. */
static void test_dctcp_alpha_and_cut(void **state)
{
	(void)state;
	struct bench b;
	bench_open(&b, &sb_cc_dctcp);
	struct sb_tcp *tcp = b.tcp;
	const double g = b.sc.tcp.dctcp_g;
	const uint64_t mss = tcp->mss;
	/* the model's state; Window_End starts at the initial cwnd (nothing sent yet) */
	double alpha = 1, acked = 0, marked = 0;
	uint64_t wend = tcp->cwnd, cwr_end = 0, cwnd = 20 * mss;
	tcp->cwnd = cwnd;
	in_flight(tcp, 0, 20);
	int cuts = 0;
	double alpha_lo = 1;
	for (int k = 1; k <= 1200; k++) {
		/* ECE density per block of 100 ACKs: 0, 1/2, 0, 1/10, 1, 0, 1/4, ... */
		static const int every[] = { 0, 2, 0, 10, 1, 0, 4, 0, 3, 0, 1, 0 };
		int e = every[((k - 1) / 100) % 12];
		bool ece = e && k % e == 0;
		tcp->snd_una += mss;
		tcp->snd_nxt = tcp->snd_max = tcp->snd_una + 20 * mss;
		tcp->cc->on_ecn(&b.sim.flows, &b.f, tcp, mss, ece);
		acked += (double)mss;
		marked += ece ? (double)mss : 0;
		if (tcp->snd_una > wend) {
			alpha = (1 - g) * alpha + g * marked / acked;
			acked = marked = 0;
			wend = tcp->snd_nxt;
		}
		if (ece && tcp->snd_una >= cwr_end) {
			cwnd = (uint64_t)((double)cwnd * (1 - alpha / 2));
			if (cwnd < 2 * mss)
				cwnd = 2 * mss;
			cwr_end = tcp->snd_max;
			cuts++;
		}
		alpha_lo = fmin(alpha_lo, alpha);
		/* the cut is the window's new ssthresh too (RFC 3168 §6.1.2, which RFC 8257 §3.3
		 * refines): slow start must not grow it straight back */
		if (ece && cwr_end == tcp->snd_max && tcp->ssthresh != cwnd)
			fail_msg("ACK %d: ssthresh %llu after the cut to %llu", k, (unsigned long long)tcp->ssthresh,
				 (unsigned long long)cwnd);
		if (tcp->cwnd != cwnd)
			fail_msg("ACK %d (ECE %d): cwnd %llu, RFC 8257 gives %llu (alpha %.5f)", k, ece,
				 (unsigned long long)tcp->cwnd, (unsigned long long)cwnd, alpha);
		tcp->cwnd = cwnd = 20 * mss; /* the sender's window is held at 20 segments */
	}
	print_message("dctcp: %d cuts over 1200 ACKs, alpha from 1 down to %.4f, ends at %.4f\n", cuts, alpha_lo, alpha);
	assert_true(cuts >= 20 && alpha_lo < 0.3);
	bench_close(&b);
}

/* CUBIC at a datacenter RTT (20 µs), where C·t³ moves nothing within a flow's life:
 *   before any loss the cnt clamp (Linux, ns-3: at least one segment per 20 acknowledged)
 *   grows cwnd 5 % per RTT — exactly 5 segments in the RTT of a 100-segment window — where the
 *   TCP-friendly line alone gives 3(1 − β)/(1 + β) = 0.53 segments per RTT;
 *   after a loss the clamp is off: with the TCP-friendly region the window grows by that line,
 *   without it (ns-3's TcpCubic) it stays within a hair of β·W_max for the RTT;
 *   a timeout forgets the loss: the clamp applies again. */
static double one_rtt_growth(struct bench *b, sb_time rtt)
{
	double before = (double)b->tcp->cwnd / b->tcp->mss;
	return cubic_ack_until(b, rtt, b->sim.net.engine.eq.now, sb_time_to_sec(rtt)) - before;
}

static void test_cubic_cnt_clamp_and_friendliness(void **state)
{
	(void)state;
	const sb_time rtt = 20 * SB_US;
	const bool friendly[] = { true, false };
	for (int i = 0; i < 2; i++) {
		struct bench b;
		bench_open(&b, &sb_cc_cubic);
		b.sc.tcp.cubic_tcp_friendly = friendly[i];
		struct sb_tcp *tcp = b.tcp;
		tcp->srtt = rtt;
		tcp->cwnd = 100 * (uint64_t)tcp->mss;
		tcp->ssthresh = 50 * (uint64_t)tcp->mss; /* congestion avoidance, no loss yet */
		double g_clamp = one_rtt_growth(&b, rtt);
		cubic_loss(&b, 100);
		double g_loss = one_rtt_growth(&b, rtt);
		/* a timeout: ssthresh from the control, cwnd back to the window it was */
		uint64_t w = tcp->cwnd;
		tcp->ssthresh = tcp->cc->ssthresh(&b.sim.flows, &b.f, tcp, true);
		tcp->cwnd = w;
		double g_rto = one_rtt_growth(&b, rtt);
		print_message("cubic, tcp_friendly %d: one RTT grows %.2f segments before a loss, %.3f after, %.2f after a timeout\n",
			      friendly[i], g_clamp, g_loss, g_rto);
		assert_true(fabs(g_clamp - 5.0) < 0.3);
		if (friendly[i])
			assert_true(fabs(g_loss - 3 * 0.3 / 1.7) < 0.1);
		else
			assert_true(g_loss >= 0 && g_loss < 0.05);
		assert_true(g_rto > 0.045 * (double)w / tcp->mss);
		bench_close(&b);
	}
	/* cnt_clamp = 0: the RFC alone, the TCP-friendly line before a loss too */
	struct bench b;
	bench_open(&b, &sb_cc_cubic);
	b.sc.tcp.cubic_cnt_clamp = 0;
	b.tcp->srtt = rtt;
	b.tcp->cwnd = 100 * (uint64_t)b.tcp->mss;
	b.tcp->ssthresh = 50 * (uint64_t)b.tcp->mss;
	assert_true(fabs(one_rtt_growth(&b, rtt) - 3 * 0.3 / 1.7) < 0.1);
	bench_close(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_newreno_ssthresh),
		cmocka_unit_test(test_cubic_decrease_and_fast_convergence),
		cmocka_unit_test(test_cubic_tcp_friendly),
		cmocka_unit_test(test_cubic_cnt_clamp_and_friendliness),
		cmocka_unit_test(test_dctcp_alpha_and_cut),
		cmocka_unit_test(test_cubic_target_clamp_and_equal_wmax),
	};
	return cmocka_run_group_tests_name("tcp_cc", tests, NULL, NULL);
}
