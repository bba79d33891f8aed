/*
 * test_tcp_rfc8985.c — RACK-TLP (RFC 8985) ACK by ACK, in the variant docs/transports.md
 * documents (no DSACK, so reo_wnd_mult stays 1):
 *
 *   §6.2 step 1   RACK.reordering_seen: an original (never retransmitted) delivered below
 *                 RACK.fack; a retransmission's delivery is not reordering
 *   §6.2 step 2   RACK.rtt is the RTT of the most recently sent delivered segment
 *   §6.2 step 4   reo_wnd = RACK.min_RTT / 4, but 0 when reordering was not seen and either
 *                 the sender is in recovery or more than (DupThresh − 1) segments are SACKed
 *   §6.2 step 5   a segment sent before RACK's is lost when xmit + RACK.rtt + reo_wnd <= now;
 *                 if not yet, the reordering timer is armed for that instant
 *   §7.2, §7.3    the probe timer (1 s before an RTT sample, at most the RTO); the probe is new
 *                 data if there is any, else the last segment; the RTO is re-armed after it
 *
 * The test plays the receiver (tcp_harness.h): the first window leaves at T0 in one burst, all
 * data is lost, and the test's ACKs echo the send times.
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

static void start(struct th_script *s, uint64_t segs, const char *tlp)
{
	const char *const sets[] = { "tlp", tlp };
	const char *err = th_script_start(s, "newreno", segs * SEG, 20 * SEG, sets, 2);
	if (err)
		fail_msg("%s", err);
	th_script_run(s, T0);
}

/* SACK segment `seg` of the first window (sent at T0). */
static void sack(struct th_script *s, sb_time at, uint32_t seg)
{
	th_script_ack(s, at, s->tcp->snd_una, seg, 1, T0, false);
}

/* RACK's window outside recovery: min_RTT / 4 with one or two segments SACKed, so the hole is
 * marked lost by the timer exactly then; in recovery it is 0. */
static void test_rack_reo_wnd_rules(void **state)
{
	(void)state;
	static struct th_script s;
	start(&s, 100, "false");
	const sb_time rtt = 50 * SB_US, t1 = T0 + rtt;
	sack(&s, t1, 1);
	assert_int_equal(s.tcp->min_rtt, rtt);
	assert_int_equal(s.tcp->rack.rtt, rtt);
	assert_int_equal(s.tcp->reo_at, t1 + rtt / 4);
	/* the timer: segment 0 is lost exactly at T0 + RACK.rtt + reo_wnd and goes again */
	th_script_run(&s, t1 + rtt / 4 + SB_US);
	assert_true(s.tcp->in_recovery);
	assert_int_equal(th_sent_at(&s.tap, 0, 2), t1 + rtt / 4);
	/* in recovery, without reordering, reo_wnd = 0 (with 2 MSS SACKed, not more than
	 * DupThresh − 1): the SACK of segment 3, sent in the same burst (after 2 by end_seq),
	 * marks 2 lost at once (PRR may hold its retransmission), and arms no timer */
	const sb_time t2 = t1 + 20 * SB_US;
	sack(&s, t2, 3);
	assert_int_equal(s.tcp->board.sacked, 2 * SEG);
	assert_int_equal(s.tcp->rack.rtt, t2 - T0);
	assert_int_equal(s.tcp->board.lost + (th_transmissions(&s.tap, 2 * SEG) - 1) * SEG, SEG);
	assert_int_equal(s.tcp->reo_at, SB_TIME_NEVER);
	/* the retransmission of 0 delivered below RACK.fack (4 MSS) is no reordering */
	sb_time rexmit = th_sent_at(&s.tap, 0, 2);
	th_script_ack(&s, t2 + SB_US, 2 * SEG, 0, 0, rexmit, true);
	assert_int_equal(s.tcp->rack.fack, 4 * SEG);
	assert_false(s.tcp->rack.reordering_seen);
	th_script_end(&s);

	/* outside recovery, two segments SACKed (2 MSS, not more than DupThresh − 1): still the
	 * window */
	start(&s, 100, "false");
	sack(&s, t1, 1);
	sack(&s, t1, 2);
	assert_false(s.tcp->in_recovery);
	assert_int_equal(s.tcp->board.lost, 0);
	assert_int_equal(s.tcp->reo_at, t1 + rtt / 4);
	/* three: no window, segment 0 is lost with the third SACK */
	sack(&s, t1, 3);
	assert_true(s.tcp->in_recovery);
	assert_int_equal(th_sent_at(&s.tap, 0, 2), t1);
	th_script_end(&s);
}

/* Reordering seen (an original delivered below RACK.fack) keeps min_RTT / 4 in recovery. */
static void test_rack_reordering_keeps_window(void **state)
{
	(void)state;
	static struct th_script s;
	start(&s, 100, "false");
	const sb_time rtt = 50 * SB_US, t1 = T0 + rtt;
	sack(&s, t1, 5);
	assert_false(s.tcp->rack.reordering_seen);
	sack(&s, t1, 3); /* below fack = 6 MSS, never retransmitted: reordered */
	assert_true(s.tcp->rack.reordering_seen);
	th_script_run(&s, t1 + rtt / 4 + SB_US); /* the timer: 0, 1, 2, 4 lost, recovery */
	assert_true(s.tcp->in_recovery);
	const sb_time t2 = t1 + 20 * SB_US;
	uint64_t lost = s.tcp->board.lost, retx = s.f->pkts_retx;
	sack(&s, t2, 7);
	/* segment 6 is not yet lost: the window still applies, and its timer is armed */
	assert_int_equal(s.tcp->board.lost + (s.f->pkts_retx - retx) * SEG, lost);
	assert_int_equal(s.tcp->reo_at, t2 + rtt / 4);
	th_script_end(&s);
}

/* §7.2/§7.3: before any RTT sample the probe timer is 1 s, capped by the RTO (1 ms): the probe
 * goes at the RTO's instant instead of the timeout, sends new data if there is any (else the
 * last segment again), and re-arms the RTO. */
static void test_tlp_probe_rules(void **state)
{
	(void)state;
	static struct th_script s;
	start(&s, 100, "true");
	assert_int_equal(s.tcp->tlp_at, T0 + SB_MS);
	th_script_run(&s, T0 + SB_MS + SB_US);
	assert_int_equal(s.f->timeouts, 0);
	assert_int_equal(s.tcp->stats.tlp_probes, 1);
	assert_int_equal(th_sent_at(&s.tap, 20 * SEG, 1), T0 + SB_MS); /* new data */
	assert_int_equal(th_transmissions(&s.tap, 0), 1);
	assert_int_equal(s.tcp->rto_at, T0 + 2 * SB_MS);
	th_script_run(&s, T0 + 2 * SB_MS + SB_US);
	assert_int_equal(s.f->timeouts, 1);
	th_script_end(&s);
	/* nothing new to send: the last segment is the probe */
	start(&s, 20, "true");
	th_script_run(&s, T0 + SB_MS + SB_US);
	assert_int_equal(s.f->timeouts, 0);
	assert_int_equal(th_sent_at(&s.tap, 19 * SEG, 2), T0 + SB_MS);
	assert_int_equal(th_transmissions(&s.tap, 0), 1);
	th_script_end(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rack_reo_wnd_rules),
		cmocka_unit_test(test_rack_reordering_keeps_window),
		cmocka_unit_test(test_tlp_probe_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
