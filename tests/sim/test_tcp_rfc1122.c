/*
 * test_tcp_rfc1122.c — the receiver's delayed ACKs segment by segment (tcp.delack_count > 1):
 *
 *   RFC 1122 §4.2.3.2, RFC 5681 §4.2  an ACK for at least every second full-sized segment
 *                     (every delack_count), and within the delayed-ACK timeout of the first
 *                     unacknowledged segment: the timer starts with that segment and is not
 *                     restarted by later ones
 *   RFC 5681 §4.2     an immediate ACK for an out-of-order segment, for a segment that fills
 *                     all or part of a gap, and for a duplicate
 *   RFC 7323 §4.3     a delayed ACK echoes the timestamp of the earliest unacknowledged
 *                     segment (TS.Recent is not updated by later segments of the same ACK)
 *   the flow's last segment is acknowledged at once (it carries the sender's FIN, which
 *   receivers acknowledge at once; docs/transports.md)
 *
 * The test hands the receiver its segments at chosen instants (tcp_harness.h's scripted peer;
 * the sender's own packets are all lost) and reads the ACKs it sends from the tap.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include "tcp_harness.h"
#include "testlib.h"

#define SEG 1000u
#define T0 TH_SCRIPT_START
#define TIMEOUT (500 * SB_US)

static void start(struct th_script *s, const char *count, uint64_t segs)
{
	const char *const sets[] = { "delack_count", count, "delack_timeout_us", "500", "tlp", "false",
				     "init_rto_us", "1000000", "min_rto_us", "1000000" };
	const char *err = th_script_start(s, "newreno", segs * SEG, 2 * SEG, sets, 10);
	if (err)
		fail_msg("%s", err);
	th_script_run(s, T0);
}

struct acks {
	uint32_t n;              /* ACKs sent since the last look */
	sb_time t, echo;         /* the last one's send time and echoed timestamp */
	uint64_t ack;            /* its cumulative ACK */
	bool sack;               /* it reports a SACK block */
};

/* The receiver's ACKs since the previous call. */
static struct acks acks_since(const struct th_script *s, uint32_t *mark)
{
	struct acks a = { 0 };
	for (uint32_t i = *mark; i < s->tap.nev; i++) {
		const struct th_event *e = &s->tap.ev[i];
		if (e->type != SB_PKT_ACK)
			continue;
		a.n++;
		a.t = e->t;
		a.echo = e->t_sent;
		a.ack = e->seq;
		a.sack = e->sack != 0;
	}
	*mark = s->tap.nev;
	return a;
}

static void expect(const struct th_script *s, uint32_t *mark, const char *what, uint32_t n, sb_time t, uint64_t ack,
		   sb_time echo)
{
	struct acks a = acks_since(s, mark);
	if (a.n != n || (n && (a.t != t || a.ack != ack || a.echo != echo)))
		fail_msg("%s: %u ACK(s), the last at %.3f us for %llu echoing %.3f us; expected %u, at %.3f us for %llu "
			 "echoing %.3f us",
			 what, a.n, sb_time_to_us(a.t), (unsigned long long)a.ack, sb_time_to_us(a.echo), n,
			 sb_time_to_us(t), (unsigned long long)ack, sb_time_to_us(echo));
}

/* The segment `seg`, "sent" at seg microseconds (a distinct timestamp per segment). */
static sb_time ts(uint32_t seg) { return (sb_time)(seg + 1) * SB_US; }

static void data(struct th_script *s, sb_time at, uint32_t seg)
{
	th_script_data(s, at, seg, ts(seg), false);
}

static void test_delack_rules(void **state)
{
	(void)state;
	static struct th_script s;
	start(&s, "2", 20);
	uint32_t mark = s.tap.nev;
	/* one segment: no ACK until the timer, TIMEOUT after it */
	sb_time t = T0 + 100 * SB_US;
	data(&s, t, 0);
	expect(&s, &mark, "one segment, at once", 0, 0, 0, 0);
	th_script_run(&s, t + TIMEOUT + SB_US);
	expect(&s, &mark, "one segment, the timer", 1, t + TIMEOUT, 1 * SEG, ts(0));
	/* two segments: the second is acknowledged at once, echoing the first's timestamp */
	t += TIMEOUT + 100 * SB_US;
	data(&s, t, 1);
	data(&s, t + 10 * SB_US, 2);
	expect(&s, &mark, "every second segment", 1, t + 10 * SB_US, 3 * SEG, ts(1));
	/* out of order (3 missing): at once, with its SACK */
	t += 100 * SB_US;
	data(&s, t, 4);
	struct acks a = acks_since(&s, &mark);
	assert_int_equal(a.n, 1);
	assert_int_equal(a.t, t);
	assert_int_equal(a.ack, 3 * SEG);
	assert_true(a.sack);
	/* the segment that fills the gap: at once */
	t += 100 * SB_US;
	data(&s, t, 3);
	expect(&s, &mark, "filling the gap", 1, t, 5 * SEG, ts(3));
	/* gaps at 5 and 7: segment 5 fills part of them, 7 the rest; each at once */
	t += 100 * SB_US;
	data(&s, t, 6);
	data(&s, t, 8);
	a = acks_since(&s, &mark);
	assert_int_equal(a.n, 2);
	t += 100 * SB_US;
	data(&s, t, 5);
	expect(&s, &mark, "filling part of the gaps", 1, t, 7 * SEG, ts(5));
	t += 100 * SB_US;
	data(&s, t, 7);
	expect(&s, &mark, "filling the last gap", 1, t, 9 * SEG, ts(7));
	/* a duplicate: at once */
	t += 100 * SB_US;
	data(&s, t, 2);
	a = acks_since(&s, &mark);
	assert_int_equal(a.n, 1);
	assert_int_equal(a.t, t);
	assert_int_equal(a.ack, 9 * SEG);
	/* in order again, in pairs up to 19; the last segment alone is acknowledged at once */
	for (uint32_t k = 9; k < 19; k += 2) {
		t += 100 * SB_US;
		data(&s, t, k);
		data(&s, t + SB_US, k + 1);
		expect(&s, &mark, "a pair", 1, t + SB_US, (uint64_t)(k + 2) * SEG, ts(k));
	}
	t += 100 * SB_US;
	data(&s, t, 19);
	expect(&s, &mark, "the last segment", 1, t, 20 * SEG, ts(19));
	th_script_end(&s);
}

/* With an ACK every 3 segments, the timer runs from the first unacknowledged segment: two
 * segments 100 us apart are acknowledged TIMEOUT after the first. */
static void test_delack_timer_from_first(void **state)
{
	(void)state;
	static struct th_script s;
	start(&s, "3", 20);
	uint32_t mark = s.tap.nev;
	sb_time t = T0 + 100 * SB_US;
	data(&s, t, 0);
	data(&s, t + 100 * SB_US, 1);
	expect(&s, &mark, "two of three", 0, 0, 0, 0);
	th_script_run(&s, t + TIMEOUT + 200 * SB_US);
	expect(&s, &mark, "the timer", 1, t + TIMEOUT, 2 * SEG, ts(0));
	/* the third of a group goes at once */
	t += TIMEOUT + 300 * SB_US;
	data(&s, t, 2);
	data(&s, t + SB_US, 3);
	data(&s, t + 2 * SB_US, 4);
	expect(&s, &mark, "every third", 1, t + 2 * SB_US, 5 * SEG, ts(2));
	th_script_end(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delack_rules),
		cmocka_unit_test(test_delack_timer_from_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
