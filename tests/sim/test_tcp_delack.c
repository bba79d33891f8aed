/*
 * test_tcp_delack.c — delayed ACKs (RFC 5681 §4.2, RFC 1122 4.2.3.2): one ACK per
 * tcp.delack_count segments, the timer, immediate ACKs for out-of-order data and filled
 * holes; and DCTCP with delayed ACKs, whose α stays exact thanks to RFC 8257 §3.2's CE state
 * machine at the receiver.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tcp_harness.h"
#include "testlib.h"

#define SEG 1000u

static void build(struct sb_sim *sim, const struct sb_scenario *sc)
{
	struct sb_error err = { { 0 } };
	if (sb_sim_build(sim, sc, &err) != 0)
		fail_msg("build: %s", err.msg);
	sim->flows.keep_finished = true; /* the tests read their flows after the run */
}

/* A flow of `segs` segments, all in the first window, with ACKs every `count` segments;
 * `lose` >= 0 loses that segment's original. Returns the ACKs the receiver sent. */
static uint32_t acks_for_quick(uint32_t segs, int count, int lose, uint32_t *with_sack, int quick)
{
	static struct th_tap tap;
	struct sb_scenario sc;
	th_scenario(&sc, 2, 10, 2);
	sc.tcp.delack_count = count;
	sc.tcp.quickack_segs = quick;
	struct sb_sim sim;
	build(&sim, &sc);
	struct sb_flow *f =
		sb_flow_create(&sim.flows, 0, 1, (uint64_t)segs * SEG, 10 * SB_US, sb_transport_find("newreno"));
	f->init_window = (uint64_t)segs * SEG;
	th_tap_attach(&tap, &sim, f->id);
	if (lose >= 0)
		th_lose(&tap, (uint64_t)lose * SEG, 1);
	sb_sim_run(&sim);
	assert_true(f->completed);
	assert_int_equal(f->timeouts, 0);
	/* nothing waited for the delayed-ACK timer (40 ms by default) */
	assert_true(f->finish - f->start < SB_MS);
	uint32_t n = th_count(&tap, SB_PKT_ACK);
	*with_sack = 0;
	for (uint32_t i = 0; i < tap.nev; i++)
		*with_sack += tap.ev[i].type == SB_PKT_ACK && tap.ev[i].sack;
	/* summary.json's counters: every ACK reached the sender (Linux's TCPPureAcks +
	 * TCPHPAcks), and each segment was delivered once, the lost one's retransmission too
	 * (TCPDelivered) */
	assert_int_equal(sim.flows.stats.tcp.pure_acks, n);
	assert_int_equal(sim.flows.stats.tcp.delivered, segs);
	/* each segment held above the hole was acknowledged at once with its SACK (TCPOFOQueue) */
	assert_int_equal(sim.flows.stats.tcp.ofo_segments, *with_sack);
	tl_check_and_free(&sim, &sc);
	return n;
}

static uint32_t acks_for(uint32_t segs, int count, int lose, uint32_t *with_sack)
{
	return acks_for_quick(segs, count, lose, with_sack, 0);
}

static void test_delack_count(void **state)
{
	(void)state;
	uint32_t sacks;
	/* 21 segments: an ACK per segment; every 2nd (10) + the last at once (the sender's
	 * FIN); every 3rd: 7 */
	assert_int_equal(acks_for(21, 1, -1, &sacks), 21);
	assert_int_equal(acks_for(21, 2, -1, &sacks), 11);
	assert_int_equal(acks_for(21, 3, -1, &sacks), 7);
	assert_int_equal(sacks, 0);
	/* segment 5 lost: ACKs of 0-1 and 2-3; 4 waits; 6..20 are out of order, each ACKed at
	 * once with its SACK (15, the first also covering 4); the retransmitted 5 fills the
	 * hole, ACKed at once */
	assert_int_equal(acks_for(21, 2, 5, &sacks), 2 + 15 + 1);
	assert_int_equal(sacks, 15);
}

/* Linux's quick-ACK mode (tcp.quickack_segs): the first N data segments are acknowledged
 * one by one, then every delack_count-th. */
static void test_quickack(void **state)
{
	(void)state;
	uint32_t sacks;
	/* 21 segments, N = 5: 5 ACKs, then 16 segments in pairs (8; the last is a pair's end) */
	assert_int_equal(acks_for_quick(21, 2, -1, &sacks, 5), 5 + 8);
	/* N = 6: 6 ACKs, then 15 segments: 7 pairs + the last at once */
	assert_int_equal(acks_for_quick(21, 2, -1, &sacks, 6), 6 + 8);
	/* N beyond the flow: an ACK per segment, as delack_count = 1 */
	assert_int_equal(acks_for_quick(21, 3, -1, &sacks, 100), 21);
	/* delack_count = 1 is unchanged by it */
	assert_int_equal(acks_for_quick(21, 1, -1, &sacks, 5), 21);
	assert_int_equal(sacks, 0);
}

static void test_delack_timer(void **state)
{
	(void)state;
	static struct th_tap tap;
	struct sb_scenario sc;
	th_scenario(&sc, 2, 10, 2);
	sc.tcp.delack_count = 2;
	sc.tcp.delack_timeout_us = 500;
	struct sb_sim sim;
	build(&sim, &sc);
	/* a window of one segment: the receiver has a lone segment to acknowledge */
	struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 3 * SEG, 10 * SB_US, sb_transport_find("newreno"));
	f->init_window = SEG;
	th_tap_attach(&tap, &sim, f->id);
	sb_sim_run(&sim);
	assert_true(f->completed);
	sb_time arrival = th_sent_at(&tap, 0, 1) + th_one_way(&sim, 0, 1, SEG + 48);
	sb_time first_ack = 0;
	for (uint32_t i = 0; i < tap.nev && !first_ack; i++)
		if (tap.ev[i].type == SB_PKT_ACK)
			first_ack = tap.ev[i].t;
	print_message("delack: first ACK %.3f us after its segment arrived; %u ACKs; FCT %.1f us\n",
		      sb_time_to_us(first_ack - arrival), th_count(&tap, SB_PKT_ACK), sb_time_to_us(f->finish - f->start));
	assert_int_equal(first_ack - arrival, 500 * SB_US);
	/* then two segments (slow start) and one ACK for both */
	assert_int_equal(th_count(&tap, SB_PKT_ACK), 2);
	tl_check_and_free(&sim, &sc);
}

/* Linux's SACK compression (tcp.sack_compress_nr): 21 segments in the first window, segment 5
 * lost, a 200 us one-way delay so that the retransmission comes long after the compression
 * timer. ACKs: 0-1 and 2-3; 4 waits; 6, 7 and 8 out of order, each acknowledged at once (the
 * duplicate ACKs that start fast retransmit); the ACKs of 9..20 are withheld, up to `nr` of
 * them, then replaced by ACKs whose SACK blocks report runs of up to 8 segments; the
 * retransmitted 5 fills the hole and completes the flow. */
struct comp_run {
	uint32_t acks, sack_acks;
	uint64_t withheld, pure_acks, retx;
	sb_time after_arrival; /* first compressed ACK, after the first withheld segment arrived */
	sb_time min_rtt;
};

static struct comp_run compress_run(int nr, double delay_us, double slack_us, int lose_too)
{
	static struct th_tap tap;
	struct sb_scenario sc;
	th_scenario(&sc, 2, 10, 200);
	sc.tcp.delack_count = 2;
	sc.tcp.sack_compress_nr = nr;
	sc.tcp.sack_compress_delay_us = delay_us;
	sc.tcp.sack_compress_slack_us = slack_us;
	sc.tcp.handshake = true;          /* the handshake's RTT is the connection's min RTT ... */
	sc.tcp.rack_retx_min_rtt = true;  /* ... which counts it, as Linux */
	struct sb_sim sim;
	build(&sim, &sc);
	struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 21 * SEG, 10 * SB_US, sb_transport_find("cubic"));
	f->init_window = 21 * SEG;
	th_tap_attach(&tap, &sim, f->id);
	th_lose(&tap, 5 * SEG, 1);
	if (lose_too)
		th_lose(&tap, (uint64_t)lose_too * SEG, 1);
	sb_sim_run(&sim);
	assert_true(f->completed);
	assert_int_equal(f->timeouts, 0);
	struct comp_run r = { .acks = th_count(&tap, SB_PKT_ACK), .withheld = sim.flows.stats.tcp.acks_compressed,
			      .pure_acks = sim.flows.stats.tcp.pure_acks, .retx = f->pkts_retx,
			      .min_rtt = sb_tcp_of(f)->min_rtt };
	sb_time second = 0, third = 0, fourth = 0;
	for (uint32_t i = 0; i < tap.nev; i++) {
		if (tap.ev[i].type != SB_PKT_ACK || !tap.ev[i].sack)
			continue;
		if (++r.sack_acks == 2)
			second = tap.ev[i].t; /* when segment 7 arrived */
		else if (r.sack_acks == 3)
			third = tap.ev[i].t;  /* 8 */
		else if (r.sack_acks == 4)
			fourth = tap.ev[i].t;
	}
	/* segments arrive a serialisation apart: 9 as long after 8 as 8 after 7 */
	r.after_arrival = fourth - (third + (third - second));
	tl_check_and_free(&sim, &sc);
	return r;
}

static void test_sack_compression(void **state)
{
	(void)state;
	/* off: each out-of-order segment has its ACK (15) */
	struct comp_run off = compress_run(0, 1000, 100, 0);
	assert_int_equal(off.acks, 2 + 15 + 1);
	assert_int_equal(off.withheld, 0);
	/* Linux's 44: 12 withheld, reported by 2 ACKs (runs 9-16 and 17-20) when the timer fires
	 * min(1 ms, RTT / 20) + 100 us after the first of them arrived */
	struct comp_run on = compress_run(44, 1000, 100, 0);
	print_message("SACK compression: %u ACKs (%u with SACK), %llu withheld; first compressed ACK %.3f us "
		      "after its first segment, min RTT %.3f us\n", on.acks, on.sack_acks,
		      (unsigned long long)on.withheld, sb_time_to_us(on.after_arrival), sb_time_to_us(on.min_rtt));
	assert_int_equal(on.acks, 2 + 3 + 2 + 1);
	assert_int_equal(on.sack_acks, 3 + 2);
	assert_int_equal(on.withheld, 12 - 2);
	assert_int_equal(on.pure_acks, on.acks); /* every ACK the sender took in, one per packet */
	assert_int_equal(on.retx, 1);             /* the runs were SACKed whole: nothing else resent */
	assert_true(on.min_rtt > 800 * SB_US);
	assert_int_equal(on.after_arrival, on.min_rtt / 20 + 100 * SB_US);
	/* the 1 ms bound: a 1 us one caps RTT / 20 */
	struct comp_run capped = compress_run(44, 1, 100, 0);
	assert_int_equal(capped.after_arrival, 101 * SB_US);
	/* at most nr withheld: with 4, the 5th is due and goes with them (9-13, 14-18), then the
	 * timer reports 19-20 */
	struct comp_run few = compress_run(4, 1000, 100, 0);
	assert_int_equal(few.acks, 2 + 3 + 3 + 1);
	assert_int_equal(few.withheld, 4 + 4 + 1);
	assert_int_equal(few.retx, 1);
	/* segment 10 lost too, and a timer (2 ms) longer than the RTT: the retransmitted 5 fills
	 * the first hole while 9 and 11..20 are withheld; the ACKs that report 11-18 and 19-20
	 * carry the new cumulative ACK, and 5 needs no other (11 withheld, 2 sent, 5's own
	 * saved); then 10 is resent and fills the second hole */
	struct comp_run two = compress_run(44, 1000, 2000, 10);
	assert_int_equal(two.acks, 2 + 3 + 2 + 1);
	assert_int_equal(two.withheld, 11 - 2 + 1);
	assert_int_equal(two.retx, 2);
}

/* DCTCP with every 4th segment CE-marked: α converges to the marked fraction 1/4, with an
 * ACK per segment and with delayed ACKs alike. An ACK of two segments echoing the CE of the
 * second only would count the unmarked one as marked and settle at 1/2. */
static void test_dctcp_alpha_with_delayed_acks(void **state)
{
	(void)state;
	static struct th_tap tap;
	for (int count = 1; count <= 2; count++) {
		struct sb_scenario sc;
		th_scenario(&sc, 2, 10, 2);
		sc.tcp.delack_count = count;
		sc.tcp.delack_timeout_us = 200;
		sc.sw.ecn_mode = SB_ECN_OFF; /* the tap marks, not the switch */
		struct sb_sim sim;
		build(&sim, &sc);
		struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 5000 * SEG, 10 * SB_US, sb_transport_find("dctcp"));
		th_tap_attach(&tap, &sim, f->id);
		tap.ce_every = 4;
		sb_sim_run(&sim);
		assert_true(f->completed);
		double alpha = sb_dctcp_alpha(sb_tcp_of(f));
		uint32_t acks = th_count(&tap, SB_PKT_ACK);
		print_message("dctcp, delack_count %d: alpha %.4f (marked fraction 0.25), %u ACKs for 5000 segments, "
			      "FCT %.1f us\n", count, alpha, acks, sb_time_to_us(f->finish - f->start));
		assert_true(fabs(alpha - 0.25) < 0.02);
		if (count == 1) {
			assert_int_equal(acks, 5000);
		} else {
			/* of each 4 segments: one ACK for two, the third at once when the CE state
			 * changes, the marked one at once when it changes back */
			assert_true(acks >= 3740 && acks <= 3760);
		}
		tl_check_and_free(&sim, &sc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delack_count),
		cmocka_unit_test(test_quickack),
		cmocka_unit_test(test_delack_timer),
		cmocka_unit_test(test_sack_compression),
		cmocka_unit_test(test_dctcp_alpha_with_delayed_acks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
