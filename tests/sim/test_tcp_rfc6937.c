/*
 * test_tcp_rfc6937.c — SACK loss recovery, ACK by ACK: RFC 6675's entry, pipe and NextSeg
 * (with its rescue retransmission), and Proportional Rate Reduction (RFC 6937 §3) with its
 * exact arithmetic, in the variant the engine documents (tcp.recovery = prr: PRR-SSRB).
 *
 * RFC 6937 §3, on every ACK in recovery:
 *     DeliveredData = change in snd.una + change in SACKed bytes; prr_delivered += DeliveredData
 *     if pipe > ssthresh:  sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) − prr_out
 *     else (SSRB):         sndcnt = MIN(ssthresh − pipe, MAX(prr_delivered − prr_out,
 *                                                        DeliveredData) + MSS)
 *     cwnd = pipe + MAX(sndcnt, 0)
 * with RecoverFS = snd.nxt − snd.una at the start of recovery and prr_out the data sent since
 * (retransmissions and new data). The test keeps its own account of those quantities (pipe
 * per RFC 6675 SetPipe: each SACK of a segment in flight lowers it by one segment, each
 * transmission raises it by one) and compares cwnd, pipe and the packets sent after every
 * ACK. It plays the receiver (tcp_harness.h): all data is lost, the test SACKs.
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

static void start(struct th_script *s, const char *transport, uint64_t segs, uint64_t win, const char *recovery)
{
	const char *const sets[] = { "tlp", "false", "rack", "false", "recovery", recovery };
	const char *err = th_script_start(s, transport, segs * SEG, win * SEG, sets, 6);
	if (err)
		fail_msg("%s", err);
	th_script_run(s, T0);
}

/* SACK `n` segments from segment number `seg`, the cumulative ACK unchanged. */
static void sack(struct th_script *s, sb_time at, uint32_t seg, uint32_t n)
{
	th_script_ack(s, at, s->tcp->snd_una, seg, n, T0, false);
}

/* RFC 6937's state, kept by the test. */
struct prr {
	uint64_t ssthresh, recover_fs, prr_delivered, prr_out, pipe, cwnd, sent;
};

static int64_t ceil_div(uint64_t a, uint64_t b) { return (int64_t)((a + b - 1) / b); }

/* One ACK in recovery that delivered `delivered` bytes (pipe already lowered by them). */
static void prr_ack(struct prr *m, uint64_t delivered)
{
	m->prr_delivered += delivered;
	int64_t sndcnt;
	if (m->pipe > m->ssthresh) {
		sndcnt = ceil_div(m->prr_delivered * m->ssthresh, m->recover_fs) - (int64_t)m->prr_out;
	} else {
		int64_t owed = (int64_t)m->prr_delivered - (int64_t)m->prr_out;
		int64_t limit = (owed > (int64_t)delivered ? owed : (int64_t)delivered) + SEG;
		int64_t room = (int64_t)m->ssthresh - (int64_t)m->pipe;
		sndcnt = room < limit ? room : limit;
	}
	m->cwnd = m->pipe + (uint64_t)(sndcnt > 0 ? sndcnt : 0);
}

/* Segments go out while pipe < cwnd (each one segment of pipe and of prr_out). */
static void prr_send(struct prr *m)
{
	while (m->pipe < m->cwnd) {
		m->pipe += SEG;
		m->prr_out += SEG;
		m->sent++;
	}
}

static void check(const struct th_script *s, const struct prr *m, const char *what, uint32_t k)
{
	if (s->tcp->cwnd != m->cwnd || tcp_pipe(s->tcp) != m->pipe || s->f->pkts_sent != m->sent)
		fail_msg("%s %u: cwnd %llu pipe %llu sent %llu; RFC 6937: cwnd %llu pipe %llu sent %llu", what, k,
			 (unsigned long long)s->tcp->cwnd, (unsigned long long)tcp_pipe(s->tcp),
			 (unsigned long long)s->f->pkts_sent, (unsigned long long)m->cwnd, (unsigned long long)m->pipe,
			 (unsigned long long)m->sent);
}

/* CUBIC (ssthresh = 0.7 cwnd = 14 MSS) with RecoverFS = 22 MSS: prr_delivered × 14/22 is never
 * a whole number of bytes for one segment delivered, so the CEIL shows; the reduction runs from
 * pipe = 18 MSS down through ssthresh into the slow-start reduction bound. */
static void test_prr_one_loss(void **state)
{
	(void)state;
	static struct th_script s;
	start(&s, "cubic", 1000, 20, "prr");
	sb_time t = T0 + 50 * SB_US;
	/* limited transmit (RFC 3042): segments 20 and 21 for the first two SACKs */
	sack(&s, t, 1, 1);
	sack(&s, t, 2, 1);
	assert_int_equal(s.f->pkts_sent, 22);
	assert_false(s.tcp->in_recovery);
	/* the third: segment 0 lost (3 MSS SACKed above it), recovery */
	sack(&s, t, 3, 1);
	assert_true(s.tcp->in_recovery);
	struct prr m = { .ssthresh = 14 * SEG, .recover_fs = 22 * SEG, .pipe = (22 - 3 - 1) * SEG, .sent = 22 };
	assert_int_equal(s.tcp->ssthresh, m.ssthresh);
	assert_int_equal(s.tcp->recover_fs, m.recover_fs);
	assert_int_equal(s.tcp->recover, 22 * SEG);
	prr_ack(&m, SEG);
	m.pipe += SEG; /* the fast retransmit goes whatever cwnd says */
	m.prr_out += SEG;
	m.sent++;
	prr_send(&m);
	check(&s, &m, "entry", 3);
	assert_int_equal(s.tcp->cwnd, 18 * SEG + 637); /* ⌈1000 × 14 / 22⌉ = 637 */
	bool proportional = false, ssrb = false;
	for (uint32_t k = 4; k < 40; k++) {
		bool above = m.pipe - SEG > m.ssthresh;
		sack(&s, t += SB_US, k, 1);
		m.pipe -= SEG;
		prr_ack(&m, SEG);
		prr_send(&m);
		check(&s, &m, "SACK of segment", k);
		proportional |= above;
		ssrb |= !above;
	}
	assert_true(proportional && ssrb);
	assert_true(s.tcp->in_recovery);
	th_script_end(&s);
}

/* NewReno (ssthresh = FlightSize / 2 = 11 MSS): 17 of 22 segments lost at once, so pipe
 * (2 MSS) is far below ssthresh from the first ACK and the slow-start reduction bound paces
 * the recovery: MAX(prr_delivered − prr_out, DeliveredData) + MSS, here with an ACK that
 * SACKs two segments. Recovery ends at the ACK of RecoveryPoint with cwnd = ssthresh. */
static void test_prr_ssrb(void **state)
{
	(void)state;
	static struct th_script s;
	start(&s, "newreno", 1000, 20, "prr");
	sb_time t = T0 + 50 * SB_US;
	sack(&s, t, 17, 1);
	sack(&s, t, 18, 1);
	assert_int_equal(s.f->pkts_sent, 22);
	sack(&s, t, 19, 1); /* 0..16 have 3 MSS SACKed above: all lost */
	assert_true(s.tcp->in_recovery);
	assert_int_equal(s.tcp->board.lost + s.f->pkts_retx * SEG, 17 * SEG);
	struct prr m = { .ssthresh = 11 * SEG, .recover_fs = 22 * SEG, .pipe = (22 - 3 - 17) * SEG, .sent = 22 };
	assert_int_equal(s.tcp->ssthresh, m.ssthresh);
	prr_ack(&m, SEG);
	m.pipe += SEG;
	m.prr_out += SEG;
	m.sent++;
	prr_send(&m);
	check(&s, &m, "entry", 19);
	assert_int_equal(s.f->pkts_retx, 2); /* the fast retransmit and one more */
	/* segments 20 and 21 (limited transmit's) SACKed by one ACK: DeliveredData = 2 MSS */
	sack(&s, t += SB_US, 20, 2);
	m.pipe -= 2 * SEG;
	prr_ack(&m, 2 * SEG);
	prr_send(&m);
	check(&s, &m, "SACK of two segments", 20);
	/* the first three retransmissions arrive, each moving the cumulative ACK a segment */
	for (uint32_t k = 0; k < 3; k++) {
		th_script_ack(&s, t += SB_US, (k + 1) * SEG, 0, 0, th_sent_at(&s.tap, (uint64_t)k * SEG, 2), true);
		m.pipe -= SEG;
		prr_ack(&m, SEG);
		prr_send(&m);
		check(&s, &m, "SACK of retransmitted segment", k);
		/* RFC 6298 (5.3) in recovery too: the cumulative ACK restarted the timer */
		assert_int_equal(s.tcp->rto_at, sb_now(&s.sim.net.engine) + s.tcp->rto);
	}
	/* everything below RecoveryPoint (22 MSS) acknowledged: recovery ends, cwnd = ssthresh
	 * (PRR's cwnd is far below it), then congestion avoidance counts the 19 MSS acknowledged
	 * (RFC 3465: one MSS) */
	assert_true(s.tcp->cwnd < m.ssthresh - 2 * SEG);
	uint64_t snd_max = s.tcp->snd_max;
	th_script_ack(&s, t += SB_US, 22 * SEG, 0, 0, T0, false);
	assert_false(s.tcp->in_recovery);
	assert_int_equal(s.tcp->cwnd, 12 * SEG);
	assert_true(snd_max >= 22 * SEG);
	th_script_end(&s);
}

/* RFC 6675 recovery (tcp.recovery = rfc6675, cwnd = ssthresh) with nothing new to send: after
 * the lost segments, NextSeg rule 4 sends one rescue retransmission of the highest unSACKed
 * segment, once per recovery, however many ACKs follow. */
static void test_rfc6675_rescue_once(void **state)
{
	(void)state;
	static struct th_script s;
	start(&s, "newreno", 20, 20, "rfc6675");
	sb_time t = T0 + 50 * SB_US;
	for (uint32_t k = 3; k <= 5; k++)
		sack(&s, t, k, 1);
	assert_true(s.tcp->in_recovery);
	assert_int_equal(s.tcp->cwnd, 10 * SEG);
	for (uint32_t k = 6; k <= 15; k++)
		sack(&s, t += SB_US, k, 1);
	/* segments 0, 1, 2 (lost) were retransmitted, and 19, the highest unSACKed, rescued */
	for (uint32_t k = 0; k < 3; k++)
		assert_int_equal(th_transmissions(&s.tap, (uint64_t)k * SEG), 2);
	assert_int_equal(th_transmissions(&s.tap, 19 * SEG), 2);
	for (uint32_t k = 16; k < 19; k++)
		assert_int_equal(th_transmissions(&s.tap, (uint64_t)k * SEG), 1);
	/* SetPipe: 0, 1, 2 lost and retransmitted count once each, 16..18 once, 19 twice (its
	 * original was not deemed lost, so both copies may be in flight): 8 segments */
	assert_int_equal(tcp_pipe(s.tcp), 8 * SEG);
	/* more ACKs (the retransmissions arriving): no second rescue */
	for (uint32_t k = 0; k < 3; k++)
		th_script_ack(&s, t += SB_US, (k + 1) * SEG, 0, 0, th_sent_at(&s.tap, (uint64_t)k * SEG, 2), true);
	assert_int_equal(th_transmissions(&s.tap, 19 * SEG), 2);
	assert_true(s.tcp->in_recovery);
	th_script_end(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prr_one_loss),
		cmocka_unit_test(test_prr_ssrb),
		cmocka_unit_test(test_rfc6675_rescue_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
