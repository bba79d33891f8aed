/*
 * test_tcp_rfc6298.c — the retransmission timer against RFC 6298, rule by rule.
 *
 *   (2.2)  the first sample R: SRTT = R, RTTVAR = R/2, RTO = SRTT + max(G, K RTTVAR), K = 4
 *   (2.3)  later samples R': RTTVAR = (1 − β) RTTVAR + β |SRTT − R'| (with the old SRTT),
 *          then SRTT = (1 − α) SRTT + α R', α = 1/8, β = 1/4
 *   (2.4)  RTO at least tcp.min_rto_us; (2.5) at most 60 s
 *   §3     Karn: no sample from the ACK of a retransmitted segment (data or SYN)
 *   (5.1)  the timer starts when data is sent and it is not running (and only then)
 *   (5.2)  it stops when everything outstanding is acknowledged
 *   (5.3)  an ACK of new data restarts it with the current RTO
 *   (5.4)-(5.6) on expiry: retransmit, RTO doubles (at most 60 s), the timer restarts
 *
 * The expected values are the RFC's formulas evaluated here in exact arithmetic (the samples
 * are chosen so that every product is a whole number of picoseconds). The engine-level tests
 * play the receiver (tcp_harness.h's scripted peer): every data packet is lost and the test
 * delivers the ACKs, at instants it chooses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include "tcp_harness.h"
#include "testlib.h"
#include "transport/tcp_engine.h"

#define SEG 1000u

static void start(struct th_script *s, const char *transport, uint64_t segs, uint64_t win, const char *const *sets,
		  size_t nsets)
{
	const char *err = th_script_start(s, transport, segs * SEG, win * SEG, sets, nsets);
	if (err)
		fail_msg("%s", err);
	th_script_run(s, TH_SCRIPT_START);
}

/* The same, with the flow not started yet: the caller sets the tap's rules. */
static void prepare(struct th_script *s, const char *transport, uint64_t segs, uint64_t win, const char *const *sets,
		    size_t nsets)
{
	const char *err = th_script_start(s, transport, segs * SEG, win * SEG, sets, nsets);
	if (err)
		fail_msg("%s", err);
}

/* A sender initialised with tcp.min_rto_us = 1 (the smallest the key takes) and granularity
 * `g_ns`, for the estimator's own tests. */
static struct sb_tcp *estimator(struct th_script *s, const char *g_ns, const char *min_rto_us)
{
	const char *const sets[] = { "clock_granularity_ns", g_ns, "min_rto_us", min_rto_us, "tlp", "false" };
	start(s, "newreno", 100, 10, sets, 6);
	struct sb_tcp *tcp = s->tcp;
	tcp->srtt = tcp->rttvar = 0;
	return tcp;
}

/* (2.2) and (2.3): three samples, below and above SRTT. */
static void test_rfc6298_estimator(void **state)
{
	(void)state;
	static struct th_script s;
	const sb_time G = 10 * SB_US;
	struct sb_tcp *tcp = estimator(&s, "10000", "1");
	/* (2.2): R = 100 us */
	double R = 100e6, srtt = R, rttvar = R / 2;
	tcp_rtt_sample(tcp, (sb_time)R);
	assert_int_equal(tcp->srtt, (sb_time)srtt);
	assert_int_equal(tcp->rttvar, (sb_time)rttvar);
	assert_int_equal(tcp->rto, (sb_time)(srtt + 4 * rttvar)); /* 4 RTTVAR = 200 us > G */
	/* (2.3): R' = 60 us, below SRTT; RTTVAR first, from the old SRTT */
	double r2 = 60e6;
	rttvar = 0.75 * rttvar + 0.25 * (srtt > r2 ? srtt - r2 : r2 - srtt);
	srtt = 0.875 * srtt + 0.125 * r2;
	tcp_rtt_sample(tcp, (sb_time)r2);
	assert_int_equal(tcp->rttvar, (sb_time)rttvar); /* 47.5 us */
	assert_int_equal(tcp->srtt, (sb_time)srtt);     /* 95 us */
	assert_int_equal(tcp->rto, (sb_time)(srtt + 4 * rttvar));
	/* R' = 200 us, above SRTT: |SRTT − R'| is the absolute difference */
	double r3 = 200e6;
	rttvar = 0.75 * rttvar + 0.25 * (srtt > r3 ? srtt - r3 : r3 - srtt);
	srtt = 0.875 * srtt + 0.125 * r3;
	tcp_rtt_sample(tcp, (sb_time)r3);
	assert_int_equal(tcp->rttvar, (sb_time)rttvar); /* 61.875 us */
	assert_int_equal(tcp->srtt, (sb_time)srtt);     /* 108.125 us */
	assert_int_equal(tcp->rto, (sb_time)(srtt + 4 * rttvar));
	/* a run of equal samples: RTTVAR decays by 3/4 a sample until K RTTVAR < G, then the
	 * granularity term takes over: RTO = SRTT + max(G, 4 RTTVAR) */
	bool saw_g = false;
	for (int i = 0; i < 40; i++) {
		tcp_rtt_sample(tcp, (sb_time)r3);
		sb_time var = 4 * tcp->rttvar;
		assert_int_equal(tcp->rto, tcp->srtt + (var > G ? var : G));
		saw_g |= var < G;
	}
	assert_true(saw_g);
	th_script_end(&s);
}

/* (2.2) with G > K RTTVAR: RTO = SRTT + G, not SRTT + G + K RTTVAR. */
static void test_rfc6298_granularity(void **state)
{
	(void)state;
	static struct th_script s;
	struct sb_tcp *tcp = estimator(&s, "1000000", "1"); /* G = 1 ms */
	tcp_rtt_sample(tcp, 100 * SB_US);
	assert_int_equal(tcp->rto, 100 * SB_US + SB_MS);
	th_script_end(&s);
	/* G = 10 us below 4 RTTVAR = 200 us: the granularity adds nothing */
	tcp = estimator(&s, "10000", "1");
	tcp_rtt_sample(tcp, 100 * SB_US);
	assert_int_equal(tcp->rto, 300 * SB_US);
	th_script_end(&s);
}

/* (2.4) and (2.5): the bounds. */
static void test_rfc6298_bounds(void **state)
{
	(void)state;
	static struct th_script s;
	/* min RTO 1 ms; R = 250 us gives SRTT + 4 RTTVAR = 750 us, raised to 1 ms */
	struct sb_tcp *tcp = estimator(&s, "0", "1000");
	tcp_rtt_sample(tcp, 250 * SB_US);
	assert_int_equal(tcp->rto, SB_MS);
	/* just above the floor it is the formula's */
	tcp->srtt = 0;
	tcp_rtt_sample(tcp, 400 * SB_US);
	assert_int_equal(tcp->rto, 1200 * SB_US);
	/* R = 30 s: 90 s computed, 60 s kept */
	tcp->srtt = 0;
	tcp_rtt_sample(tcp, 30 * SB_SEC);
	assert_int_equal(tcp->rto, 60 * SB_SEC);
	th_script_end(&s);
	/* before any sample: tcp.init_rto_us (500 us), raised to the floor too */
	const char *const low[] = { "init_rto_us", "500", "tlp", "false" };
	start(&s, "newreno", 100, 10, low, 4);
	assert_int_equal(s.tcp->rto, SB_MS);
	assert_int_equal(s.tcp->rto_at, TH_SCRIPT_START + SB_MS);
	th_script_end(&s);
}

/* (5.4)-(5.6): with no ACK at all, the segment at snd_una is retransmitted at 1, 2, 4, 8 ms
 * of doubling RTOs, in both recovery modes; the RTO stops doubling at 60 s. */
static void test_rfc6298_backoff(void **state)
{
	(void)state;
	static struct th_script s;
	for (int sack = 0; sack < 2; sack++) {
		const char *const sets[] = { "tlp", "false", "sack", sack ? "true" : "false" };
		start(&s, "newreno", 100, 10, sets, 4);
		assert_int_equal(s.tcp->rto, SB_MS); /* tcp.init_rto_us before a sample */
		th_script_run(&s, TH_SCRIPT_START + 16 * SB_MS);
		sb_time at = TH_SCRIPT_START, rto = SB_MS;
		for (uint32_t k = 2; k <= 5; k++) {
			at += rto;
			if (th_sent_at(&s.tap, 0, k) != at)
				fail_msg("sack=%d: transmission %u of segment 0 at %.3f us, expected %.3f us", sack, k,
					 sb_time_to_us(th_sent_at(&s.tap, 0, k)), sb_time_to_us(at));
			rto *= 2;
		}
		assert_int_equal(s.f->timeouts, 4);
		assert_int_equal(s.tcp->rto, 16 * SB_MS);
		assert_int_equal(s.tcp->rto_at, at + 16 * SB_MS);
		th_script_end(&s);
	}
	/* the ceiling: an RTO of 40 s doubles to 60 s, not 80 s */
	const char *const sets[] = { "tlp", "false", "init_rto_us", "40000000" };
	start(&s, "newreno", 100, 10, sets, 4);
	th_script_run(&s, TH_SCRIPT_START + 40 * SB_SEC + SB_US);
	assert_int_equal(s.f->timeouts, 1);
	assert_int_equal(s.tcp->rto, 60 * SB_SEC);
	th_script_end(&s);
	/* and the SYN's timer the same way: SYNs at 0, 1 ms, 3 ms, 7 ms */
	const char *const syn[] = { "handshake", "true" };
	prepare(&s, "newreno", 100, 10, syn, 2);
	s.tap.drop_syns = 3;
	th_script_run(&s, TH_SCRIPT_START + 7 * SB_MS + SB_US);
	sb_time syns[4];
	uint32_t n = 0;
	for (uint32_t i = 0; i < s.tap.nev && n < 4; i++)
		if (s.tap.ev[i].type == SB_PKT_SYN && s.tap.ev[i].seq == 0)
			syns[n++] = s.tap.ev[i].t;
	assert_int_equal(n, 4);
	assert_int_equal(syns[1] - syns[0], SB_MS);
	assert_int_equal(syns[2] - syns[1], 2 * SB_MS);
	assert_int_equal(syns[3] - syns[2], 4 * SB_MS);
	th_script_end(&s);
}

/* (5.1), (5.2), (5.3): when the timer starts, restarts and stops. */
static void test_rfc6298_timer_rules(void **state)
{
	(void)state;
	static struct th_script s;
	for (int sack = 0; sack < 2; sack++) {
		const char *const sets[] = { "tlp", "false", "sack", sack ? "true" : "false", "rack", "false" };
		start(&s, "newreno", 20, 10, sets, 6);
		const sb_time t0 = TH_SCRIPT_START;
		/* (5.1): the first window started it */
		assert_int_equal(s.tcp->rto_at, t0 + SB_MS);
		/* (5.3): the ACK of segment 0 at 50 us restarts it with the new RTO */
		sb_time t1 = t0 + 50 * SB_US;
		th_script_ack(&s, t1, SEG, 0, 0, t0, false);
		assert_int_equal(s.tcp->srtt, 50 * SB_US);
		assert_int_equal(s.tcp->rto, SB_MS); /* 150 us raised to min_rto */
		assert_int_equal(s.tcp->rto_at, t1 + SB_MS);
		if (sack) {
			/* (5.1): a SACK lets limited transmit send new data while the timer runs: the
			 * deadline stays */
			uint64_t sent = s.f->pkts_sent;
			th_script_ack(&s, t1 + 20 * SB_US, SEG, 5, 1, t0, false);
			assert_true(s.f->pkts_sent > sent);
			assert_int_equal(s.tcp->rto_at, t1 + SB_MS);
		}
		/* (5.2): everything acknowledged: the timer stops */
		sb_time t2 = t1 + 40 * SB_US;
		th_script_ack(&s, t2, s.tcp->snd_max, 0, 0, t0 + 45 * SB_US, false);
		if (s.tcp->snd_una < s.tcp->snd_max)
			th_script_ack(&s, t2, s.tcp->snd_max, 0, 0, t0 + 45 * SB_US, false);
		assert_int_equal(s.tcp->snd_una, s.tcp->snd_max);
		assert_int_equal(s.tcp->rto_at, SB_TIME_NEVER);
		th_script_end(&s);
	}
}

/* §3 (Karn): the ACK of a retransmission gives no sample, in both modes. */
static void test_rfc6298_karn(void **state)
{
	(void)state;
	static struct th_script s;
	for (int sack = 0; sack < 2; sack++) {
		const char *const sets[] = { "tlp", "false", "sack", sack ? "true" : "false" };
		start(&s, "newreno", 100, 10, sets, 4);
		th_script_run(&s, TH_SCRIPT_START + SB_MS + SB_US); /* the timeout resent segment 0 */
		sb_time rexmit = th_sent_at(&s.tap, 0, 2);
		assert_int_equal(rexmit, TH_SCRIPT_START + SB_MS);
		th_script_ack(&s, rexmit + 50 * SB_US, SEG, 0, 0, rexmit, true);
		assert_int_equal(s.tcp->snd_una, SEG);
		assert_int_equal(s.tcp->srtt, 0);
		/* the backed-off RTO stays until a sample (5.5, Karn's second half) */
		assert_int_equal(s.tcp->rto, 2 * SB_MS);
		/* an original's ACK is a first sample */
		th_script_ack(&s, rexmit + 60 * SB_US, 2 * SEG, 0, 0, rexmit + 10 * SB_US, false);
		assert_int_equal(s.tcp->srtt, 50 * SB_US);
		assert_int_equal(s.tcp->rttvar, 25 * SB_US);
		th_script_end(&s);
	}
	/* the handshake: the answer to a retransmitted SYN is no sample either */
	const char *const syn[] = { "handshake", "true" };
	prepare(&s, "newreno", 100, 10, syn, 2);
	s.tap.drop_syns = 1;
	s.tap.drop_all_data = false;
	sb_time rtt = sb_path_rtt(&s.sim.net, 0, 1, (uint32_t)s.sc.tcp.ack_bytes, (uint32_t)s.sc.tcp.ack_bytes);
	th_script_run(&s, TH_SCRIPT_START + SB_MS + rtt + SB_US / 1000);
	assert_false(s.tcp->syn_sent);
	assert_int_equal(s.tcp->srtt, 0);
	/* (5.7): the data's timer starts afresh from the initial RTO, not the SYN's 2 ms */
	assert_int_equal(s.tcp->rto, SB_MS);
	th_script_end(&s);
	/* ... and the answer to the first SYN is one */
	prepare(&s, "newreno", 100, 10, syn, 2);
	s.tap.drop_all_data = false;
	th_script_run(&s, TH_SCRIPT_START + rtt + SB_US / 1000);
	assert_false(s.tcp->syn_sent);
	assert_int_equal(s.tcp->srtt, rtt);
	th_script_end(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc6298_estimator),
		cmocka_unit_test(test_rfc6298_granularity),
		cmocka_unit_test(test_rfc6298_bounds),
		cmocka_unit_test(test_rfc6298_backoff),
		cmocka_unit_test(test_rfc6298_timer_rules),
		cmocka_unit_test(test_rfc6298_karn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
