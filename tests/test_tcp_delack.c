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
	sim->keep_finished = true; /* the tests read their flows after the run */
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
		sb_flow_create(&sim, 0, 1, (uint64_t)segs * SEG, 10 * SB_US, sb_transport_find("newreno"));
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
	assert_int_equal(sim.stats.tcp.pure_acks, n);
	assert_int_equal(sim.stats.tcp.delivered, segs);
	/* each segment held above the hole was acknowledged at once with its SACK (TCPOFOQueue) */
	assert_int_equal(sim.stats.tcp.ofo_segments, *with_sack);
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
	struct sb_flow *f = sb_flow_create(&sim, 0, 1, 3 * SEG, 10 * SB_US, sb_transport_find("newreno"));
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
		struct sb_flow *f = sb_flow_create(&sim, 0, 1, 5000 * SEG, 10 * SB_US, sb_transport_find("dctcp"));
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
		cmocka_unit_test(test_dctcp_alpha_with_delayed_acks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
