/*
 * test_tcp_sack.c — TCP loss recovery against its RFCs: SACK (RFC 2018) with RFC 6675's
 * DupThresh, pipe and NextSeg, PRR (RFC 6937), holes-only retransmission after a timeout
 * (RFC 6675 §5.1), RACK and the Tail Loss Probe (RFC 8985).
 *
 * Losses are injected at the sender's host (tcp_harness.h). Some tests play the receiver
 * themselves: every data packet is lost, and the test feeds the sender hand-made ACKs, so
 * that each RFC rule can be checked ACK by ACK.
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
#include "transport/tcp_engine.h"

#define SEG 1000u

static void build(struct sb_sim *sim, const struct sb_scenario *sc)
{
	struct sb_error err = { { 0 } };
	if (sb_sim_build(sim, sc, &err) != 0)
		fail_msg("build: %s", err.msg);
	sim->flows.keep_finished = true; /* the tests read their flows after the run */
}

struct run {
	sb_time fct;
	uint64_t retx, timeouts, sent;
	struct sb_tcp_stats stats;
	struct sb_tcp_counters counters; /* the run's summary.json "tcp" */
	bool completed;
};

/* One flow 0 -> 1 of `segs` segments with an initial window of `win` segments, on 10 Gb/s
 * links of 10 us (base RTT about 41 us, BDP about 50 segments); `lose` lists segment indices
 * whose original transmission is lost. */
static struct run one_flow(const char *transport, const char *const *sets, size_t nsets, uint32_t segs,
			   uint32_t win, const uint32_t *lose, size_t nlose, const uint32_t *lose_retx,
			   size_t nlose_retx, struct th_tap *tap)
{
	struct sb_scenario sc;
	th_scenario(&sc, 2, 10, 10);
	for (size_t i = 0; i < nsets; i += 2) {
		struct sb_error err = { { 0 } };
		const struct sb_param *p = sb_param_find(sb_tcp_param_table, sets[i]);
		assert_non_null(p);
		if (sb_param_set_text(p, &sc.tcp, sets[i + 1], &err) != 0)
			fail_msg("%s: %s", sets[i], err.msg);
	}
	struct sb_sim sim;
	build(&sim, &sc);
	struct sb_flow *f =
		sb_flow_create(&sim.flows, 0, 1, (uint64_t)segs * SEG, 10 * SB_US, sb_transport_find(transport));
	f->init_window = (uint64_t)win * SEG;
	th_tap_attach(tap, &sim, f->id);
	for (size_t i = 0; i < nlose; i++)
		th_lose(tap, (uint64_t)lose[i] * SEG, 1);
	for (size_t i = 0; i < nlose_retx; i++)
		th_lose(tap, (uint64_t)lose_retx[i] * SEG, 2);
	sb_sim_run(&sim);
	struct run r = { .completed = f->completed, .retx = f->pkts_retx, .timeouts = f->timeouts,
			 .sent = f->pkts_sent, .stats = sb_tcp_of(f)->stats, .counters = sim.flows.stats.tcp };
	r.fct = f->completed ? f->finish - f->start : 0;
	tl_check_and_free(&sim, &sc);
	return r;
}

static sb_time base_rtt_10g_10us(void)
{
	struct sb_scenario sc;
	th_scenario(&sc, 2, 10, 10);
	struct sb_sim sim;
	build(&sim, &sc);
	sb_time rtt = sb_base_rtt(&sim.flows, 0, 1, SEG + 48);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return rtt;
}

/* --- SACK: four holes in one window are repaired in about one RTT --- */

static void test_sack_burst_loss_one_rtt(void **state)
{
	(void)state;
	static struct th_tap tap;
	const uint32_t lose[] = { 5, 15, 25, 35 };
	const sb_time rtt = base_rtt_10g_10us();
	/* 400 segments, 60 in the first window: recovery always has new data to send, so
	 * RFC 6675's rescue retransmission (rule 4, DupThresh mode) never applies */
	struct run clean = one_flow("newreno", NULL, 0, 400, 60, NULL, 0, NULL, 0, &tap);
	assert_true(clean.completed);
	/* the measure: when the receiver has the whole first window */
	const sb_time window_done = th_acked_at(&tap, 60 * SEG);
	/* RACK + PRR (default), DupThresh + PRR, DupThresh + RFC 6675's cwnd = ssthresh */
	const char *const modes[][4] = {
		{ "rack", "true", "recovery", "prr" },
		{ "rack", "false", "recovery", "prr" },
		{ "rack", "false", "recovery", "rfc6675" },
	};
	for (size_t m = 0; m < 3; m++) {
		struct run r = one_flow("newreno", modes[m], 4, 400, 60, lose, 4, NULL, 0, &tap);
		sb_time first = th_sent_at(&tap, 5 * SEG, 2), last = th_sent_at(&tap, 35 * SEG, 2);
		sb_time done = th_acked_at(&tap, 60 * SEG);
		print_message("sack %s=%s %s=%s: first window delivered %.2f us later than without loss (RTT %.2f), "
			      "retx %llu, timeouts %llu, retransmissions %.2f us apart\n", modes[m][0], modes[m][1],
			      modes[m][2], modes[m][3], sb_time_to_us(done - window_done), sb_time_to_us(rtt),
			      (unsigned long long)r.retx, (unsigned long long)r.timeouts, sb_time_to_us(last - first));
		assert_true(r.completed);
		assert_int_equal(r.retx, 4);            /* only the holes */
		assert_int_equal(r.timeouts, 0);
		assert_int_equal(r.stats.recoveries, 1);
		assert_int_equal(r.stats.tlp_probes, 0);
		for (size_t i = 0; i < 4; i++)
			assert_int_equal(th_transmissions(&tap, (uint64_t)lose[i] * SEG), 2);
		assert_true(first && last && last - first < rtt); /* all four in the same RTT */
		assert_true(done > window_done && done < window_done + rtt);
	}
	/* NewReno repairs one hole per RTT: the same losses cost at least three more RTTs */
	const char *const nosack[] = { "sack", "false" };
	struct run nr = one_flow("newreno", nosack, 2, 400, 60, lose, 4, NULL, 0, &tap);
	sb_time nr_done = th_acked_at(&tap, 60 * SEG);
	print_message("no sack: first window delivered %.2f us later, retx %llu, timeouts %llu\n",
		      sb_time_to_us(nr_done - window_done), (unsigned long long)nr.retx, (unsigned long long)nr.timeouts);
	assert_true(nr.completed);
	assert_true(nr_done > window_done + 3 * rtt);
}

/* --- The sender's side, ACK by ACK --- */

struct scripted {
	struct sb_scenario sc;
	struct sb_sim sim;
	struct sb_flow *f;
	struct sb_tcp *tcp;
	struct th_tap tap;
};

/* A flow of 100 segments with a 20-segment initial window whose data is all lost: the test
 * is the receiver. The window leaves at 10 us. */
static void scripted_start(struct scripted *s, const char *recovery, const char *rack)
{
	th_scenario(&s->sc, 2, 10, 10);
	struct sb_error err = { { 0 } };
	const struct sb_param *p = sb_param_find(sb_tcp_param_table, "recovery");
	assert_int_equal(sb_param_set_text(p, &s->sc.tcp, recovery, &err), 0);
	assert_int_equal(sb_param_set_text(sb_param_find(sb_tcp_param_table, "rack"), &s->sc.tcp, rack, &err), 0);
	s->sc.tcp.tlp = false;
	build(&s->sim, &s->sc);
	s->f = sb_flow_create(&s->sim.flows, 0, 1, 100 * SEG, 10 * SB_US, sb_transport_find("newreno"));
	s->f->init_window = 20 * SEG;
	th_tap_attach(&s->tap, &s->sim, s->f->id);
	s->tap.drop_all_data = true;
	sb_eventq_run_until(&s->sim.net.engine.eq, 10 * SB_US);
	s->tcp = sb_tcp_of(s->f);
	assert_int_equal(s->f->pkts_sent, 20);
}

/* Deliver an ACK: cumulative `ack`, reporting segment `sacked` (0 = none). */
static void ack(struct scripted *s, uint64_t cum, uint32_t sacked)
{
	struct sb_packet a;
	memset(&a, 0, sizeof a);
	a.type = SB_PKT_ACK;
	a.seq = cum;
	a.sack = (uint16_t)(sacked ? sacked - cum / SEG : 0);
	a.flow = s->f->id;
	a.src = 1;
	a.dst = 0;
	a.t_sent = 10 * SB_US;
	s->f->ops->on_ack(&s->sim.flows, s->f, &a);
}

static void scripted_end(struct scripted *s)
{
	s->sim.net.inject = NULL;
	sb_sim_free(&s->sim);
	sb_scenario_free(&s->sc);
}

/* RFC 6675 §4 IsLost / §5 entering recovery / SetPipe, and RFC 3042 limited transmit. */
static void test_rfc6675_dupthresh_and_pipe(void **state)
{
	(void)state;
	static struct scripted s;
	scripted_start(&s, "rfc6675", "false");
	/* Two segments SACKed above the hole: 2 MSS is not more than (DupThresh - 1) MSS. Each
	 * SACK lowers pipe by a segment, and limited transmit sends a new one. */
	ack(&s, 0, 1);
	assert_false(s.tcp->in_recovery);
	assert_int_equal(s.tcp->board.sacked, 1 * SEG);
	assert_int_equal(tcp_pipe(s.tcp), 20 * SEG);
	assert_int_equal(s.f->pkts_sent, 21);
	ack(&s, 0, 2);
	assert_false(s.tcp->in_recovery);
	assert_int_equal(s.tcp->board.lost, 0);
	assert_int_equal(s.f->pkts_sent, 22);
	/* The third: segment 0 is lost, recovery starts, RecoveryPoint = snd_max, ssthresh =
	 * FlightSize / 2, cwnd = ssthresh, and segment 0 goes again at once. */
	ack(&s, 0, 3);
	assert_true(s.tcp->in_recovery);
	assert_int_equal(s.tcp->recover, 22 * SEG);
	assert_int_equal(s.tcp->ssthresh, 11 * SEG);
	assert_int_equal(s.tcp->cwnd, 11 * SEG);
	assert_int_equal(s.f->pkts_retx, 1);
	assert_int_equal(th_transmissions(&s.tap, 0), 2);
	/* pipe: 22 sent - 3 SACKed; segment 0 counts once (lost, retransmitted) */
	assert_int_equal(tcp_pipe(s.tcp), 19 * SEG);
	assert_int_equal(s.f->pkts_sent, 23);
	/* No more until pipe drops below cwnd: 8 more SACKs bring it to 11 segments = cwnd... */
	for (uint32_t k = 4; k <= 11; k++)
		ack(&s, 0, k);
	assert_int_equal(tcp_pipe(s.tcp), 11 * SEG);
	assert_int_equal(s.f->pkts_sent, 23);
	/* ...the next to 10: NextSeg finds no lost segment (12..21 have fewer than 3 SACKed
	 * above) and sends new data (rule 2). */
	ack(&s, 0, 12);
	assert_int_equal(s.f->pkts_sent, 24);
	assert_int_equal(s.f->pkts_retx, 1);
	assert_int_equal(tcp_pipe(s.tcp), 11 * SEG);
	scripted_end(&s);

	/* Three discontiguous blocks above segments 0 and 1 make both lost; segment 3 has two
	 * blocks (2 MSS) above it and is not. */
	scripted_start(&s, "rfc6675", "false");
	ack(&s, 0, 2);
	ack(&s, 0, 4);
	assert_false(s.tcp->in_recovery);
	ack(&s, 0, 6);
	assert_true(s.tcp->in_recovery);
	assert_int_equal(s.f->pkts_retx, 1);              /* segment 0 */
	assert_int_equal(s.tcp->board.lost, 1 * SEG);     /* segment 1 waits */
	assert_int_equal(tcp_pipe(s.tcp), (22 - 3 - 1) * SEG);
	/* segment 0's retransmission arrives: segment 1 is now the first hole, still lost */
	ack(&s, 1 * SEG, 0);
	assert_int_equal(s.tcp->snd_una, 1 * SEG);
	assert_int_equal(s.tcp->board.lost, 1 * SEG);
	assert_true(s.tcp->in_recovery);
	scripted_end(&s);
}

/* RFC 6937: while pipe > ssthresh, sends = ceil(prr_delivered * ssthresh / RecoverFS). */
static void test_prr_proportional(void **state)
{
	(void)state;
	static struct scripted s;
	scripted_start(&s, "prr", "false");
	ack(&s, 0, 1);
	ack(&s, 0, 2); /* limited transmit: 22 segments out */
	assert_int_equal(s.f->pkts_sent, 22);
	/* recovery: RecoverFS = 22 segments, ssthresh = 11, so one segment per two delivered,
	 * the fast retransmit counting as the first */
	for (uint32_t k = 1; k <= 12; k++) {
		ack(&s, 0, 2 + k);
		uint64_t expect = 22 + (k + 1) / 2;
		if (s.f->pkts_sent != expect)
			fail_msg("after %u segments delivered in recovery: %llu sent, PRR allows %llu", k,
				 (unsigned long long)s.f->pkts_sent, (unsigned long long)expect);
	}
	assert_int_equal(s.tcp->recover_fs, 22 * SEG);
	assert_int_equal(s.tcp->ssthresh, 11 * SEG);
	scripted_end(&s);
}

/* --- After a timeout, only the holes are retransmitted (RFC 6675 §5.1) --- */

static void test_rto_resends_only_holes(void **state)
{
	(void)state;
	static struct th_tap tap;
	uint32_t lose[20];
	for (uint32_t i = 0; i < 10; i++)
		lose[i] = i, lose[10 + i] = 20 + i;
	/* segments 10..19 arrive; 0..9, 20..29 and the fast retransmissions of 0..9 are lost,
	 * so only a timeout can repair them (DupThresh never marks 20..29 lost: nothing above
	 * them is SACKed but the rescue retransmission of 29) */
	const char *const sets[] = { "rack", "false", "tlp", "false" };
	struct run r = one_flow("cubic", sets, 4, 30, 30, lose, 20, lose, 10, &tap);
	print_message("rto: FCT %.2f us, retx %llu, timeouts %llu\n", sb_time_to_us(r.fct),
		      (unsigned long long)r.retx, (unsigned long long)r.timeouts);
	assert_true(r.completed);
	assert_int_equal(r.timeouts, 1);
	for (uint32_t i = 10; i < 20; i++)
		if (th_transmissions(&tap, (uint64_t)i * SEG) != 1)
			fail_msg("segment %u, SACKed before the timeout, was sent %u times", i,
				 th_transmissions(&tap, (uint64_t)i * SEG));
	for (uint32_t i = 0; i < 10; i++)
		assert_true(th_transmissions(&tap, (uint64_t)i * SEG) >= 3);
	/* summary.json's counters: the timeout came in fast recovery (Linux's SackRecoveryFail),
	 * one recovery, every retransmission counted */
	assert_int_equal(r.counters.timeouts, 1);
	assert_int_equal(r.counters.timeouts_in_recovery, 1);
	assert_int_equal(r.counters.timeouts_sacked + r.counters.timeouts_repeated, 0);
	assert_int_equal(r.counters.recoveries, 1);
	assert_int_equal(r.counters.retransmitted_segments, r.retx);
	assert_int_equal(r.counters.loss_probes + r.counters.lost_retransmits + r.counters.syn_retransmits, 0);
	/* go-back-N (no SACK) resends data the receiver already holds */
	const char *const nosack[] = { "sack", "false" };
	struct run nr = one_flow("cubic", nosack, 2, 30, 30, lose, 20, lose, 10, &tap);
	uint32_t again = 0;
	for (uint32_t i = 10; i < 20; i++)
		again += th_transmissions(&tap, (uint64_t)i * SEG) - 1;
	print_message("no sack: timeouts %llu, %u resends of received segments\n",
		      (unsigned long long)nr.timeouts, again);
	assert_true(again > 0);
}

/* --- RACK finds a lost retransmission --- */

static void test_rack_lost_retransmission(void **state)
{
	(void)state;
	static struct th_tap tap;
	const uint32_t lose[] = { 5 };
	const sb_time rtt = base_rtt_10g_10us();
	struct run r = one_flow("newreno", NULL, 0, 100, 40, lose, 1, lose, 1, &tap);
	sb_time second = th_sent_at(&tap, 5 * SEG, 2), third = th_sent_at(&tap, 5 * SEG, 3);
	print_message("rack: timeouts %llu, segment 5 sent %u times, retransmitted again %.2f us after "
		      "(RTT %.2f us), FCT %.2f us\n", (unsigned long long)r.timeouts, th_transmissions(&tap, 5 * SEG),
		      sb_time_to_us(third - second), sb_time_to_us(rtt), sb_time_to_us(r.fct));
	assert_true(r.completed);
	assert_int_equal(r.timeouts, 0);
	assert_int_equal(th_transmissions(&tap, 5 * SEG), 3);
	assert_int_equal(r.retx, 2);
	/* found when data sent after the lost retransmission is SACKed: about an RTT later */
	assert_true(third > second && third - second < 2 * rtt);
	assert_int_equal(r.counters.lost_retransmits, 1);
	assert_int_equal(r.counters.retransmitted_segments, 2);
	assert_int_equal(r.counters.recoveries, 1);
	assert_int_equal(r.counters.timeouts, 0);
	/* RFC 6675 alone never retransmits below HighRxt again: a timeout */
	const char *const dupthresh[] = { "rack", "false" };
	struct run d = one_flow("newreno", dupthresh, 2, 100, 40, lose, 1, lose, 1, &tap);
	print_message("dupthresh: timeouts %llu\n", (unsigned long long)d.timeouts);
	assert_int_equal(d.timeouts, 1);
}

/* --- RACK's reordering window: one segment behind a loss is enough --- */

static void test_rack_reo_wnd_timer(void **state)
{
	(void)state;
	static struct th_tap tap;
	struct sb_scenario sc;
	th_scenario(&sc, 2, 10, 10);
	struct sb_sim sim;
	build(&sim, &sc);
	struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 20 * SEG, 10 * SB_US, sb_transport_find("cubic"));
	f->init_window = 20 * SEG;
	th_tap_attach(&tap, &sim, f->id);
	th_lose(&tap, 18 * SEG, 1);
	sb_sim_run(&sim);
	struct sb_tcp *tcp = sb_tcp_of(f);
	assert_true(f->completed);
	assert_int_equal(f->timeouts, 0);
	assert_int_equal(tcp->stats.tlp_probes, 0);
	assert_int_equal(f->pkts_retx, 1);
	/* Segment 19, sent in the same burst, is SACKed: fewer than DupThresh segments, not in
	 * recovery, so RACK waits reo_wnd = min_RTT / 4 (RFC 8985 §6.2) and then marks 18 lost. */
	sb_time sack_sent = 0;
	for (uint32_t i = 0; i < tap.nev && !sack_sent; i++)
		if (tap.ev[i].type == SB_PKT_ACK && tap.ev[i].sack)
			sack_sent = tap.ev[i].t;
	sb_time sack_arrival = sack_sent + th_one_way(&sim, 1, 0, (uint32_t)sc.tcp.ack_bytes);
	sb_time rexmit = th_sent_at(&tap, 18 * SEG, 2);
	print_message("rack: segment 18 retransmitted %.3f us after the SACK of 19, min RTT / 4 = %.3f us\n",
		      sb_time_to_us(rexmit - sack_arrival), sb_time_to_us(tcp->min_rtt / 4));
	assert_int_equal(rexmit - sack_arrival, tcp->min_rtt / 4);
	tl_check_and_free(&sim, &sc);

	/* DupThresh alone never marks it (one SACK), and TLP stays off with SACKed data */
	const uint32_t lose[] = { 18 };
	const char *const dupthresh[] = { "rack", "false" };
	struct run r = one_flow("cubic", dupthresh, 2, 20, 20, lose, 1, NULL, 0, &tap);
	assert_int_equal(r.timeouts, 1);
	/* a timeout outside recovery with data SACKed: Linux's TCPSackFailures */
	assert_int_equal(r.counters.timeouts_sacked, 1);
	assert_int_equal(r.counters.timeouts_in_recovery + r.counters.recoveries, 0);
}

/* --- a recovery that RACK's timer starts is paced by PRR from its first segment --- */

/* Segments 5..18 of a 20-segment window are lost and 19 arrives: one SACK, so RACK waits
 * reo_wnd and its timer, not an ACK, marks 5..18 lost and starts the recovery. PRR (RFC 6937)
 * holds that first step to the fast retransmit plus one segment, Linux's
 * tcp_rack_reo_timeout (tcp_cwnd_reduction with one segment delivered); the cwnd of before
 * the loss would release all 14 retransmissions at once, into the queue that just dropped
 * their originals. */
static void test_rack_timer_recovery_prr(void **state)
{
	(void)state;
	static struct th_tap tap;
	uint32_t lose[14];
	for (uint32_t i = 0; i < 14; i++)
		lose[i] = 5 + i;
	for (int prr = 1; prr >= 0; prr--) {
		const char *const sets[] = { "recovery", prr ? "prr" : "rfc6675" };
		struct run r = one_flow("cubic", sets, 2, 20, 20, lose, 14, NULL, 0, &tap);
		assert_true(r.completed);
		assert_int_equal(r.timeouts, 0);
		assert_int_equal(r.counters.recoveries, 1);
		sb_time first = th_sent_at(&tap, 5 * SEG, 2);
		uint32_t burst = 0;
		for (uint32_t i = 5; i < 19; i++)
			burst += th_sent_at(&tap, (uint64_t)i * SEG, 2) == first;
		print_message("recovery started by RACK's timer (%s): %u retransmissions at once\n",
			      prr ? "prr" : "rfc6675", burst);
		/* PRR: 2; RFC 6675's cwnd = ssthresh (0.7 × 25 segments) with nothing in flight: 14 */
		assert_int_equal(burst, prr ? 2 : 14);
	}
}

/* --- TLP turns a tail loss into a fast recovery --- */

static void test_tlp_tail_loss(void **state)
{
	(void)state;
	static struct th_tap tap;
	struct sb_scenario sc;
	th_scenario(&sc, 2, 10, 10);
	struct sb_sim sim;
	build(&sim, &sc);
	struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 20 * SEG, 10 * SB_US, sb_transport_find("cubic"));
	f->init_window = 20 * SEG;
	th_tap_attach(&tap, &sim, f->id);
	th_lose(&tap, 19 * SEG, 1);
	sb_sim_run(&sim);
	struct sb_tcp *tcp = sb_tcp_of(f);
	assert_true(f->completed);
	assert_int_equal(f->timeouts, 0);
	assert_int_equal(tcp->stats.tlp_probes, 1);
	assert_int_equal(f->pkts_retx, 1);
	/* The probe is the last segment again, 2 SRTT after the last ACK arrived (the probe's
	 * own ACK is a retransmission's: Karn keeps SRTT as it was). */
	sb_time probe = th_sent_at(&tap, 19 * SEG, 2), last_ack = 0;
	for (uint32_t i = 0; i < tap.nev; i++)
		if (tap.ev[i].type == SB_PKT_ACK && tap.ev[i].t < probe)
			last_ack = tap.ev[i].t;
	sb_time arrival = last_ack + th_one_way(&sim, 1, 0, (uint32_t)sc.tcp.ack_bytes);
	print_message("tlp: probe %.3f us after the last ACK, 2 SRTT = %.3f us, RTO %.1f us, FCT %.2f us\n",
		      sb_time_to_us(probe - arrival), sb_time_to_us(2 * tcp->srtt), sb_time_to_us(tcp->rto),
		      sb_time_to_us(f->finish - f->start));
	assert_int_equal(probe - arrival, 2 * tcp->srtt);
	assert_true(2 * tcp->srtt < tcp->rto / 4);
	tl_check_and_free(&sim, &sc);

	/* without TLP the same loss waits for the RTO */
	const uint32_t lose[] = { 19 };
	const char *const notlp[] = { "tlp", "false" };
	struct run r = one_flow("cubic", notlp, 2, 20, 20, lose, 1, NULL, 0, &tap);
	assert_int_equal(r.timeouts, 1);
	/* nothing SACKed, not in recovery: a plain timeout, in none of the three classes */
	assert_int_equal(r.counters.timeouts, 1);
	assert_int_equal(r.counters.timeouts_sacked + r.counters.timeouts_in_recovery + r.counters.timeouts_repeated, 0);
	/* its retransmission lost too: a second timeout, during the first one's recovery, which
	 * Linux does not classify (only the first of a series, icsk_retransmits = 0) */
	struct run twice = one_flow("cubic", notlp, 2, 20, 20, lose, 1, lose, 1, &tap);
	assert_int_equal(twice.counters.timeouts, 2);
	assert_int_equal(twice.counters.timeouts_repeated + twice.counters.timeouts_sacked +
				 twice.counters.timeouts_in_recovery, 0);
	/* with the probe: one probe, and no repair counted: the ACK that answers it does not go
	 * beyond the probe (it was the flow's last segment), which RFC 8985 §7.4.2 (and Linux's
	 * TCPLossProbeRecovery) needs before taking the probe for a repaired loss */
	const char *const tlp[] = { "tlp", "true" };
	struct run p = one_flow("cubic", tlp, 2, 20, 20, lose, 1, NULL, 0, &tap);
	assert_int_equal(p.counters.loss_probes, 1);
	assert_int_equal(p.counters.loss_probe_repairs, 0);
	assert_int_equal(p.counters.timeouts, 0);
	assert_true(r.fct > 1 * SB_MS);
}

/* PTO = 2 SRTT, plus the delayed-ACK timer for a lone segment when the receiver delays ACKs,
 * or tcp.tlp_extra_us (Linux's two jiffies) with more than one segment out, never beyond the
 * RTO (RFC 8985 §7.2). */
static void test_tlp_pto_rules(void **state)
{
	(void)state;
	for (int run = 0; run < 3; run++) {
		int delack = run == 1;
		sb_time extra = run == 2 ? 8 * SB_US : 0;
		struct sb_scenario sc;
		th_scenario(&sc, 2, 10, 10);
		sc.tcp.delack_count = delack ? 2 : 1;
		sc.tcp.delack_timeout_us = 500;
		sc.tcp.tlp_extra_us = sb_time_to_us(extra);
		struct sb_sim sim;
		build(&sim, &sc);
		struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 100 * SEG, SB_SEC, sb_transport_find("cubic"));
		sb_tcp_init(&sim.flows, f, &sb_cc_cubic);
		struct sb_tcp *tcp = sb_tcp_of(f);
		tcp->srtt = 20 * SB_US;
		tcp->rto_at = sb_now(&sim.net.engine) + SB_MS;
		tcp->snd_max = tcp->snd_nxt = 1 * SEG; /* one segment in flight */
		tcp_tlp_arm(&sim.flows, f, tcp);
		assert_int_equal(tcp->tlp_at, sb_now(&sim.net.engine) + 40 * SB_US + (delack ? 500 * SB_US : 0));
		tcp->snd_max = tcp->snd_nxt = 2 * SEG;
		tcp_tlp_arm(&sim.flows, f, tcp);
		assert_int_equal(tcp->tlp_at, sb_now(&sim.net.engine) + 40 * SB_US + extra);
		tcp->rto_at = sb_now(&sim.net.engine) + 30 * SB_US;
		tcp_tlp_arm(&sim.flows, f, tcp);
		assert_int_equal(tcp->tlp_at, tcp->rto_at);
		/* not with SACKed data, nor in recovery, nor with a probe outstanding */
		tcp->board.sacked = SEG;
		tcp_tlp_arm(&sim.flows, f, tcp);
		assert_int_equal(tcp->tlp_at, SB_TIME_NEVER);
		tcp->board.sacked = 0;
		tcp->tlp_end = 2 * SEG;
		tcp_tlp_arm(&sim.flows, f, tcp);
		assert_int_equal(tcp->tlp_at, SB_TIME_NEVER);
		sb_sim_free(&sim);
		sb_scenario_free(&sc);
	}
}

/* RFC 8985 §6.2 step 2, second test, as Linux's tcp_rack_advance applies it
 * (tcp.rack_retx_min_rtt): the delivery of a retransmission sent less than min RTT ago may be
 * the original's, so RACK does not move on it, and min RTT takes no sample from it. This is
 * what leaves a Linux sender waiting for its RTO when a tail-loss probe returns through an
 * emptied queue faster than any RTT the flow measured. */
static void test_rack_retx_min_rtt(void **state)
{
	(void)state;
	for (int on = 0; on < 2; on++) {
		struct sb_scenario sc;
		th_scenario(&sc, 2, 10, 10);
		sc.tcp.rack_retx_min_rtt = on;
		struct sb_sim sim;
		build(&sim, &sc);
		struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 100 * SEG, SB_SEC, sb_transport_find("cubic"));
		sb_tcp_init(&sim.flows, f, &sb_cc_cubic);
		struct sb_tcp *tcp = sb_tcp_of(f);
		sb_time now = 10 * SB_MS, min_rtt = 100 * SB_US;
		tcp->min_rtt = min_rtt;
		/* an original is always RACK's news */
		sb_time first = now - 50 * SB_US;
		tcp_rack_delivered(tcp, first, 5 * SEG, false, now);
		assert_int_equal(tcp->rack.xmit, first);
		/* a retransmission delivered one picosecond sooner than min RTT: ignored when on */
		now += SB_MS;
		tcp_rack_delivered(tcp, now - (min_rtt - 1), 9 * SEG, true, now);
		assert_int_equal(tcp->rack.xmit, on ? first : now - (min_rtt - 1));
		assert_int_equal(tcp->rack.end, on ? 5 * SEG : 9 * SEG);
		/* ... nor its RTT RACK's */
		assert_int_equal(tcp->rack.rtt, on ? 50 * SB_US : min_rtt - 1);
		/* exactly min RTT ago: used either way (the test is strict) */
		now += SB_MS;
		tcp_rack_delivered(tcp, now - min_rtt, 12 * SEG, true, now);
		assert_int_equal(tcp->rack.xmit, now - min_rtt);
		assert_int_equal(tcp->rack.rtt, min_rtt);
		/* min RTT: a retransmission's sample counts only when off, an original's always */
		tcp_min_rtt_sample(tcp, 30 * SB_US, true);
		assert_int_equal(tcp->min_rtt, on ? min_rtt : 30 * SB_US);
		tcp_min_rtt_sample(tcp, 80 * SB_US, false);
		assert_int_equal(tcp->min_rtt, on ? 80 * SB_US : 30 * SB_US);
		tl_check_and_free(&sim, &sc);
	}
	/* and with the handshake, min RTT starts from its RTT (SYN and SYN-ACK, smaller than any
	 * data segment's), as Linux's min-RTT filter does; without the option it never sees it */
	for (int on = 0; on < 2; on++) {
		struct sb_scenario sc;
		th_scenario(&sc, 2, 10, 10);
		sc.tcp.rack_retx_min_rtt = on;
		sc.tcp.handshake = true;
		struct sb_sim sim;
		build(&sim, &sc);
		struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 20 * SEG, 10 * SB_US, sb_transport_find("cubic"));
		sb_sim_run(&sim);
		assert_true(f->completed);
		sb_time syn_rtt = sb_path_rtt(&sim.net, 0, 1, (uint32_t)sc.tcp.ack_bytes, (uint32_t)sc.tcp.ack_bytes);
		print_message("handshake RTT %.3f us, min RTT %.3f us (rack_retx_min_rtt %d)\n", sb_time_to_us(syn_rtt),
			      sb_time_to_us(sb_tcp_of(f)->min_rtt), on);
		if (on)
			assert_int_equal(sb_tcp_of(f)->min_rtt, syn_rtt);
		else
			assert_true(sb_tcp_of(f)->min_rtt > syn_rtt);
		tl_check_and_free(&sim, &sc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sack_burst_loss_one_rtt),
		cmocka_unit_test(test_rfc6675_dupthresh_and_pipe),
		cmocka_unit_test(test_prr_proportional),
		cmocka_unit_test(test_rto_resends_only_holes),
		cmocka_unit_test(test_rack_lost_retransmission),
		cmocka_unit_test(test_rack_reo_wnd_timer),
		cmocka_unit_test(test_rack_timer_recovery_prr),
		cmocka_unit_test(test_tlp_tail_loss),
		cmocka_unit_test(test_tlp_pto_rules),
		cmocka_unit_test(test_rack_retx_min_rtt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
