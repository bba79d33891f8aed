/*
 * test_tcp_rfc5681.c — window growth and the congestion responses of RFC 5681 (with RFC 3465's
 * byte counting, as the engine implements it) and NewReno's fast recovery of RFC 6582
 * (tcp.sack = false), rule by rule.
 *
 *   RFC 5681 §3.1   slow start: cwnd += min(N, L) per ACK of N new bytes, L = tcp.abc_limit_segs
 *                   MSS (RFC 3465 §2.2); congestion avoidance: one MSS once cwnd bytes are
 *                   acknowledged (RFC 3465 §2.1: bytes_acked >= cwnd, less cwnd kept)
 *   RFC 5681 (4)    ssthresh = max(FlightSize / 2, 2 SMSS), FlightSize not cwnd; after a
 *                   timeout cwnd = LW = 1 SMSS; ssthresh held on a repeated timeout
 *   RFC 5681 §3.2   fast retransmit on the third duplicate ACK
 *   RFC 3168 §6.1.2 an ECN echo: ssthresh as for a loss, cwnd = ssthresh, at most once per
 *                   window of data (the ECN response of controls without their own)
 *   RFC 6582 §3.2   step 2: recover = HighData, cwnd = ssthresh + 3 SMSS, not below recover
 *                   (after a timeout's go-back-N); step 3: +1 SMSS per further duplicate;
 *                   step 4: a partial ACK retransmits the next hole, deflates by the
 *                   acknowledged bytes and adds back one SMSS, restarts the timer on the first
 *                   one only (the Impatient variant, §4); step 5: a full ACK (>= recover)
 *                   ends recovery with cwnd = min(ssthresh, FlightSize + SMSS) (option 1)
 *
 * The test plays the receiver (tcp_harness.h's scripted peer): every data packet is lost and
 * the test delivers the ACKs. Expected values are the RFC formulas evaluated here.
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
#define T0 TH_SCRIPT_START

static void start(struct th_script *s, const char *transport, uint64_t segs, uint64_t win, const char *const *sets,
		  size_t nsets)
{
	const char *err = th_script_start(s, transport, segs * SEG, win * SEG, sets, nsets);
	if (err)
		fail_msg("%s", err);
	th_script_run(s, T0);
}

/* An ACK at `at` of everything below `cum`, echoing the first window's send time. */
static void ack(struct th_script *s, sb_time at, uint64_t cum)
{
	th_script_ack(s, at, cum, 0, 0, T0, false);
}

/* Slow start: cwnd grows by the bytes acknowledged, at most L = 2 MSS an ACK. */
static void test_rfc5681_slow_start(void **state)
{
	(void)state;
	static struct th_script s;
	const char *const sets[] = { "tlp", "false" };
	start(&s, "newreno", 1000, 20, sets, 2);
	uint64_t cwnd = 20 * SEG;
	assert_int_equal(s.tcp->cwnd, cwnd);
	/* one segment: + 1 MSS */
	ack(&s, T0 + 50 * SB_US, 1 * SEG);
	cwnd += SEG;
	assert_int_equal(s.tcp->cwnd, cwnd);
	/* four segments at once: + L = 2 MSS */
	ack(&s, T0 + 52 * SB_US, 5 * SEG);
	cwnd += 2 * SEG;
	assert_int_equal(s.tcp->cwnd, cwnd);
	/* the window is full again: flight = cwnd */
	assert_int_equal(s.tcp->snd_max - s.tcp->snd_una, cwnd);
	th_script_end(&s);
	/* without the limit (tcp.abc_limit_segs = 0, as Linux): the four segments' 4 MSS */
	const char *const nolimit[] = { "tlp", "false", "abc_limit_segs", "0" };
	start(&s, "newreno", 1000, 20, nolimit, 4);
	ack(&s, T0 + 50 * SB_US, 4 * SEG);
	assert_int_equal(s.tcp->cwnd, 24 * SEG);
	th_script_end(&s);
}

/* Congestion avoidance by byte counting (RFC 3465 §2.1): one MSS when the bytes acknowledged
 * reach cwnd, the excess carried; slow start that reaches ssthresh hands the rest on. */
static void test_rfc5681_congestion_avoidance(void **state)
{
	(void)state;
	static struct th_script s;
	const char *const sets[] = { "tlp", "false" };
	start(&s, "newreno", 1000, 20, sets, 2);
	/* cwnd 20 MSS, ssthresh 21 MSS: the first two-segment ACK fills slow start with 1 MSS
	 * and leaves 1 MSS acknowledged for congestion avoidance */
	s.tcp->ssthresh = 21 * SEG;
	sb_time t = T0 + 50 * SB_US;
	uint64_t una = 2 * SEG;
	ack(&s, t, una);
	assert_int_equal(s.tcp->cwnd, 21 * SEG);
	/* bytes_acked = 1 MSS; 20 more segments make 21 MSS = cwnd: 22 MSS exactly then */
	for (uint32_t k = 1; k <= 20; k++) {
		una += SEG;
		ack(&s, t += SB_US, una);
		uint64_t expect = k < 20 ? 21 * SEG : 22 * SEG;
		if (s.tcp->cwnd != expect)
			fail_msg("after %u more segments in congestion avoidance: cwnd %llu, expected %llu", k,
				 (unsigned long long)s.tcp->cwnd, (unsigned long long)expect);
	}
	/* 21 segments: 21 MSS counted, below cwnd = 22 MSS */
	for (uint32_t k = 1; k <= 21; k++) {
		una += SEG;
		ack(&s, t += SB_US, una);
	}
	assert_int_equal(s.tcp->cwnd, 22 * SEG);
	/* a 3-segment ACK: 24 MSS counted, one increase, 2 MSS carried... */
	una += 3 * SEG;
	ack(&s, t += SB_US, una);
	assert_int_equal(s.tcp->cwnd, 23 * SEG);
	/* ...so 21 more segments reach the new cwnd (2 + 21 = 23 MSS) */
	for (uint32_t k = 1; k <= 21; k++) {
		una += SEG;
		ack(&s, t += SB_US, una);
		uint64_t expect = k < 21 ? 23 * SEG : 24 * SEG;
		if (s.tcp->cwnd != expect)
			fail_msg("carried bytes: after %u more segments cwnd %llu, expected %llu", k,
				 (unsigned long long)s.tcp->cwnd, (unsigned long long)expect);
	}
	th_script_end(&s);
}

/* RFC 5681 (4) on a timeout: ssthresh = max(FlightSize / 2, 2 SMSS), cwnd = 1 SMSS, and on the
 * next timeout of the same segment ssthresh is held. CUBIC (ssthresh = β cwnd) tells holding
 * from recomputing, since cwnd is 1 MSS by the second timeout. */
static void test_rfc5681_timeout_response(void **state)
{
	(void)state;
	static struct th_script s;
	for (int sack = 0; sack < 2; sack++) {
		const char *const sets[] = { "tlp", "false", "sack", sack ? "true" : "false" };
		/* three segments in flight: FlightSize / 2 = 1.5 MSS, below the 2 MSS floor */
		start(&s, "newreno", 3, 3, sets, 4);
		th_script_run(&s, T0 + SB_MS + SB_US);
		assert_int_equal(s.f->timeouts, 1);
		assert_int_equal(s.tcp->ssthresh, 2 * SEG);
		assert_int_equal(s.tcp->cwnd, 1 * SEG);
		th_script_end(&s);
		/* ten in flight, cwnd 20: ssthresh is half the flight (5), not half of cwnd (10) */
		start(&s, "newreno", 10, 20, sets, 4);
		assert_int_equal(s.tcp->snd_max, 10 * SEG);
		th_script_run(&s, T0 + SB_MS + SB_US);
		assert_int_equal(s.tcp->ssthresh, 5 * SEG);
		assert_int_equal(s.tcp->cwnd, 1 * SEG);
		th_script_end(&s);
		/* CUBIC, 20 segments: β cwnd = 14 MSS at the first timeout, held at the second */
		start(&s, "cubic", 100, 20, sets, 4);
		th_script_run(&s, T0 + SB_MS + SB_US);
		assert_int_equal(s.tcp->ssthresh, 14 * SEG);
		assert_int_equal(s.tcp->cwnd, 1 * SEG);
		th_script_run(&s, T0 + 3 * SB_MS + SB_US);
		assert_int_equal(s.f->timeouts, 2);
		assert_int_equal(s.tcp->ssthresh, 14 * SEG);
		assert_int_equal(s.tcp->cwnd, 1 * SEG);
		th_script_end(&s);
		/* progress in between: the next timeout is a new one, ssthresh from the window of
		 * then (β × 2 MSS, raised to 2 MSS) */
		start(&s, "cubic", 100, 20, sets, 4);
		th_script_run(&s, T0 + SB_MS + SB_US);
		sb_time rexmit = th_sent_at(&s.tap, 0, 2);
		th_script_ack(&s, rexmit + 50 * SB_US, SEG, 0, 0, rexmit, true);
		assert_int_equal(s.tcp->cwnd, 2 * SEG);
		assert_int_equal(s.tcp->rto_at, rexmit + 50 * SB_US + 2 * SB_MS); /* Karn: still 2 ms */
		th_script_run(&s, rexmit + 50 * SB_US + 2 * SB_MS + SB_US);
		assert_int_equal(s.f->timeouts, 2);
		assert_int_equal(s.tcp->ssthresh, 2 * SEG);
		th_script_end(&s);
	}
}

/* NewReno, tcp.sack = false: the third duplicate ACK, the window through fast recovery, partial
 * and full ACKs. */
static void test_rfc6582_fast_recovery(void **state)
{
	(void)state;
	static struct th_script s;
	const char *const sets[] = { "sack", "false" };
	start(&s, "newreno", 21, 20, sets, 2);
	sb_time t = T0 + 50 * SB_US;
	/* two duplicates: nothing */
	ack(&s, t, 0);
	ack(&s, t, 0);
	assert_false(s.tcp->in_recovery);
	assert_int_equal(s.f->pkts_retx, 0);
	/* the third: retransmit segment 0, recover = HighData, ssthresh = FlightSize / 2,
	 * cwnd = ssthresh + 3 MSS */
	ack(&s, t, 0);
	assert_true(s.tcp->in_recovery);
	assert_int_equal(s.f->pkts_retx, 1);
	assert_int_equal(th_transmissions(&s.tap, 0), 2);
	assert_int_equal(s.tcp->recover, 20 * SEG);
	assert_int_equal(s.tcp->ssthresh, 10 * SEG);
	assert_int_equal(s.tcp->cwnd, 13 * SEG);
	/* each further duplicate: + 1 MSS; at 21 MSS the window passes snd_nxt = 20 MSS and the
	 * flow's last segment (20) goes */
	for (uint32_t k = 1; k <= 8; k++) {
		ack(&s, t, 0);
		assert_int_equal(s.tcp->cwnd, (13 + k) * SEG);
		assert_int_equal(s.f->pkts_sent, k < 8 ? 21 : 22);
	}
	/* a partial ACK of 5 segments: segment 5 is retransmitted, cwnd deflated by the 5 MSS
	 * acknowledged plus one MSS added back, and the timer restarted (the first partial ACK) */
	sb_time t1 = t + 10 * SB_US;
	ack(&s, t1, 5 * SEG);
	assert_true(s.tcp->in_recovery);
	assert_int_equal(th_transmissions(&s.tap, 5 * SEG), 2);
	assert_int_equal(s.tcp->cwnd, (21 - 5 + 1) * SEG);
	assert_int_equal(s.tcp->rto_at, t1 + s.tcp->rto);
	sb_time deadline = s.tcp->rto_at;
	/* a second partial ACK: segment 6 again, cwnd 17 - 1 + 1, the timer left alone */
	ack(&s, t1 + 10 * SB_US, 6 * SEG);
	assert_int_equal(th_transmissions(&s.tap, 6 * SEG), 2);
	assert_int_equal(s.tcp->cwnd, 17 * SEG);
	assert_int_equal(s.tcp->rto_at, deadline);
	/* the ACK of exactly recover (20 MSS) is a full ACK: recovery ends with cwnd =
	 * min(ssthresh, FlightSize + MSS) = 1 + 1 MSS (segment 20 is still out) */
	ack(&s, t1 + 20 * SB_US, 20 * SEG);
	assert_false(s.tcp->in_recovery);
	assert_int_equal(s.tcp->snd_max - s.tcp->snd_una, 1 * SEG);
	assert_int_equal(s.tcp->cwnd, 2 * SEG);
	th_script_end(&s);

	/* a full ACK with a large flight: cwnd = ssthresh */
	start(&s, "newreno", 100, 20, sets, 2);
	for (int i = 0; i < 3; i++)
		ack(&s, t, 0);
	for (int i = 0; i < 17; i++)
		ack(&s, t, 0); /* cwnd 13 + 17 = 30 MSS: segments 20..29 sent */
	assert_int_equal(s.tcp->snd_max, 30 * SEG);
	ack(&s, t + 10 * SB_US, 20 * SEG);
	assert_false(s.tcp->in_recovery);
	assert_int_equal(s.tcp->cwnd, 10 * SEG); /* min(10, 10 + 1) MSS */
	th_script_end(&s);
}

/* RFC 6582 step 2: after a timeout, the duplicate ACKs that go-back-N causes below recover do
 * not start a fast retransmit. */
static void test_rfc6582_recover_after_timeout(void **state)
{
	(void)state;
	static struct th_script s;
	const char *const sets[] = { "sack", "false" };
	start(&s, "newreno", 100, 20, sets, 2);
	th_script_run(&s, T0 + SB_MS + SB_US);
	assert_int_equal(s.f->timeouts, 1);
	assert_int_equal(s.tcp->recover, 20 * SEG);
	sb_time rexmit = th_sent_at(&s.tap, 0, 2);
	/* the retransmission of segment 0 is acknowledged: slow start from 1 MSS resends 1, 2 */
	th_script_ack(&s, rexmit + 50 * SB_US, SEG, 0, 0, rexmit, true);
	assert_int_equal(s.tcp->cwnd, 2 * SEG);
	uint64_t retx = s.f->pkts_retx;
	/* three duplicates for 1 MSS (below recover): no fast retransmit */
	for (int i = 0; i < 3; i++)
		th_script_ack(&s, rexmit + 60 * SB_US, SEG, 0, 0, rexmit, true);
	assert_false(s.tcp->in_recovery);
	assert_int_equal(s.f->pkts_retx, retx);
	assert_int_equal(s.tcp->ssthresh, 10 * SEG);
	th_script_end(&s);
}

/* RFC 3168 §6.1.2: ECE halves (ssthresh = max(FlightSize / 2, 2 MSS), cwnd = ssthresh) once
 * per window: not again until the data sent before the reduction is acknowledged. */
static void test_rfc3168_ecn_once_per_window(void **state)
{
	(void)state;
	static struct th_script s;
	const char *const sets[] = { "tlp", "false" };
	start(&s, "newreno", 1000, 20, sets, 2);
	sb_time t = T0 + 50 * SB_US;
	th_script_ack_flags(&s, t, 1 * SEG, 0, 0, T0, SB_PF_ECE);
	assert_int_equal(s.tcp->ssthresh, 19 * SEG / 2); /* 19 MSS in flight after the ACK */
	assert_int_equal(s.tcp->cwnd, 19 * SEG / 2);
	uint64_t end = s.tcp->snd_max;
	/* more echoes for the same window: no further reduction (congestion avoidance goes on) */
	for (uint64_t una = 2 * SEG; una < end; una += SEG) {
		th_script_ack_flags(&s, t += SB_US, una, 0, 0, T0, SB_PF_ECE);
		assert_int_equal(s.tcp->ssthresh, 19 * SEG / 2);
		assert_true(s.tcp->cwnd >= 19 * SEG / 2);
	}
	/* the window after: the next echo reduces again */
	uint64_t flight = s.tcp->snd_max - end;
	th_script_ack_flags(&s, t += SB_US, end, 0, 0, T0, SB_PF_ECE);
	assert_int_equal(s.tcp->ssthresh, flight / 2 > 2 * SEG ? flight / 2 : 2 * SEG);
	th_script_end(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc5681_slow_start),
		cmocka_unit_test(test_rfc5681_congestion_avoidance),
		cmocka_unit_test(test_rfc5681_timeout_response),
		cmocka_unit_test(test_rfc6582_fast_recovery),
		cmocka_unit_test(test_rfc6582_recover_after_timeout),
		cmocka_unit_test(test_rfc3168_ecn_once_per_window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
