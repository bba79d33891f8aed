/*
 * test_tcp_start.c — how a TCP connection starts: HyStart++ (RFC 9406) and ns-3's classic
 * HyStart driven ACK by ACK and on a network, the optional SYN handshake (FCT and ideal FCT
 * grow by exactly the handshake, a lost SYN is retried with backoff), and the ns-3 profile.
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

/* --- HyStart++, ACK by ACK --- */

struct bare {
	struct sb_scenario sc;
	struct sb_sim sim;
	struct sb_flow f;
	struct sb_tcp *tcp;
	uint64_t ack;
	bool live; /* sc holds allocations */
};

static void bare_free(struct bare *b)
{
	if (b->live)
		sb_scenario_free(&b->sc);
	b->live = false;
}

/* A CUBIC sender outside any network (as test_tcp.c's CUBIC test), HyStart per `mode`. */
static void bare_init(struct bare *b, const char *mode)
{
	bare_free(b);
	sb_scenario_defaults(&b->sc);
	b->live = true;
	struct sb_error err = { { 0 } };
	assert_int_equal(sb_param_set_text(sb_param_find(sb_tcp_param_table, "hystart"), &b->sc.tcp, mode, &err), 0);
	memset(&b->sim, 0, sizeof b->sim);
	b->sim.sc = &b->sc;
	b->sim.flows = (struct sb_flows){ .net = &b->sim.net, .tcp = &b->sc.tcp, .rdma = &b->sc.rdma };
	memset(&b->f, 0, sizeof b->f);
	b->sim.net.engine.eq.now = SB_SEC;
	sb_tcp_init(&b->sim.flows, &b->f, &sb_cc_cubic);
	b->tcp = sb_tcp_of(&b->f);
	b->tcp->cwnd = 10 * SEG;
	b->tcp->snd_nxt = b->tcp->snd_max = 10 * SEG;
	b->ack = 0;
}

/* One ACK of a segment with RTT sample rtt. */
static void bare_ack(struct bare *b, sb_time rtt)
{
	b->ack += SEG;
	tcp_hystart_on_ack(b->tcp, b->ack, rtt, b->sim.net.engine.eq.now);
}

/* Start the next round: snd_nxt moves on, the next ACK passes the round's end. */
static void bare_round(struct bare *b, sb_time rtt, int samples)
{
	b->ack = b->tcp->snd_nxt - SEG;
	b->tcp->snd_nxt = b->tcp->snd_max = b->tcp->snd_nxt + 40 * SEG;
	for (int i = 0; i < samples; i++)
		bare_ack(b, rtt);
}

/* Does a round of minimum `cur` after a round of minimum `last` end slow start? */
static bool exits(sb_time last, sb_time cur)
{
	static struct bare b;
	bare_init(&b, "hystartpp");
	bare_round(&b, last, 8);
	bare_round(&b, cur, 8);
	bool css = tcp_hystart_divisor(b.tcp) == 4;
	bare_free(&b);
	return css;
}

static void test_hystart_pp_rules(void **state)
{
	(void)state;
	/* RttThresh = clamp(lastRoundMinRTT / 8, 4 us, 16 us) with the scaled defaults */
	assert_false(exits(40 * SB_US, 45 * SB_US - 1));
	assert_true(exits(40 * SB_US, 45 * SB_US));        /* 40/8 = 5 us */
	assert_false(exits(16 * SB_US, 20 * SB_US - 1));
	assert_true(exits(16 * SB_US, 20 * SB_US));        /* 16/8 = 2 us < MIN_RTT_THRESH = 4 us */
	assert_false(exits(200 * SB_US, 216 * SB_US - 1));
	assert_true(exits(200 * SB_US, 216 * SB_US));      /* 200/8 = 25 us > MAX_RTT_THRESH = 16 us */

	static struct bare b;
	bare_init(&b, "hystartpp");
	bare_round(&b, 40 * SB_US, 8);
	/* N_RTT_SAMPLE: the 8th sample of a round decides, not the 7th */
	bare_round(&b, 45 * SB_US, 7);
	assert_int_equal(tcp_hystart_divisor(b.tcp), 1);
	bare_ack(&b, 45 * SB_US);
	assert_int_equal(tcp_hystart_divisor(b.tcp), 4);
	assert_int_equal(b.tcp->stats.hystart_exits, 1);
	/* a lower sample later in the exit's own round is not a spurious exit */
	bare_ack(&b, 42 * SB_US);
	assert_int_equal(tcp_hystart_divisor(b.tcp), 4);
	assert_int_equal(b.tcp->ssthresh, UINT64_MAX);
	/* CSS: a quarter of slow start's growth per ACK */
	uint64_t w = b.tcp->cwnd;
	assert_int_equal(sb_tcp_slow_start(b.tcp, SEG), 0);
	assert_int_equal(b.tcp->cwnd, w + SEG / 4);
	/* CSS_ROUNDS = 5, the partial round of the exit counting: four more rounds in CSS, and
	 * the first ACK of the one after sets ssthresh = cwnd (congestion avoidance) */
	for (int r = 0; r < 4; r++) {
		bare_round(&b, 45 * SB_US, 8);
		assert_int_equal(b.tcp->ssthresh, UINT64_MAX);
		assert_int_equal(tcp_hystart_divisor(b.tcp), 4);
	}
	bare_round(&b, 45 * SB_US, 1);
	assert_int_equal(b.tcp->ssthresh, b.tcp->cwnd);
	assert_int_equal(tcp_hystart_divisor(b.tcp), 1);

	/* a round in CSS whose minimum falls below the baseline: the exit was spurious */
	bare_init(&b, "hystartpp");
	bare_round(&b, 40 * SB_US, 8);
	bare_round(&b, 45 * SB_US, 8);
	assert_int_equal(tcp_hystart_divisor(b.tcp), 4);
	bare_round(&b, 45 * SB_US - 1, 7);
	assert_int_equal(tcp_hystart_divisor(b.tcp), 4);
	bare_ack(&b, 45 * SB_US - 1);
	assert_int_equal(tcp_hystart_divisor(b.tcp), 1);
	assert_int_equal(b.tcp->ssthresh, UINT64_MAX);

	/* HyStart++ is for CUBIC by default, not for NewReno or DCTCP */
	assert_int_equal(b.tcp->hystart_mode, SB_HYSTART_PP);
	bare_init(&b, "auto");
	assert_int_equal(b.tcp->hystart_mode, SB_HYSTART_PP);
	sb_tcp_init(&b.sim.flows, &b.f, &sb_cc_dctcp);
	assert_int_equal(sb_tcp_of(&b.f)->hystart_mode, SB_HYSTART_OFF);
	bare_free(&b);
}

/* ns-3.39 TcpCubic's HyStart: the ACK train ends slow start once a round's ACKs span more
 * than the smallest RTT; the delay rule needs 4 ms more than the smallest RTT. */
static void test_hystart_classic_rules(void **state)
{
	(void)state;
	static struct bare b;
	bare_init(&b, "classic");
	b.tcp->cwnd = 20 * SEG; /* at least HyStartLowWindow = 16 */
	b.tcp->snd_nxt = b.tcp->snd_max = 200 * SEG;
	bare_ack(&b, 40 * SB_US); /* the first ACK opens a round */
	sb_time start = b.sim.net.engine.eq.now;
	for (int k = 1; k <= 40; k++) {
		b.sim.net.engine.eq.now = start + (sb_time)k * SB_US;
		bare_ack(&b, 40 * SB_US);
		assert_int_equal(b.tcp->ssthresh, UINT64_MAX);
	}
	b.sim.net.engine.eq.now = start + 41 * SB_US; /* the train now spans 41 us > 40 us */
	bare_ack(&b, 40 * SB_US);
	assert_int_equal(b.tcp->ssthresh, b.tcp->cwnd);
	assert_int_equal(b.tcp->stats.hystart_exits, 1);

	/* the delay rule, ACKs too far apart for a train */
	for (int over = 0; over < 2; over++) {
		bare_init(&b, "classic");
		b.tcp->cwnd = 20 * SEG;
		b.tcp->snd_nxt = b.tcp->snd_max = 200 * SEG;
		bare_ack(&b, 40 * SB_US);
		sb_time rtt = 40 * SB_US + 4 * SB_MS + (over ? 1 : 0);
		for (int k = 1; k <= 9; k++) {
			b.sim.net.engine.eq.now += 3 * SB_MS;
			bare_ack(&b, rtt);
		}
		assert_int_equal(b.tcp->ssthresh == UINT64_MAX, !over);
	}
	/* HyStartMinSamples = 8: the delay rule waits for the round's 8th sample, then decides on
	 * the next ACK */
	bare_init(&b, "classic");
	b.tcp->cwnd = 20 * SEG;
	b.tcp->snd_nxt = b.tcp->snd_max = 200 * SEG;
	bare_ack(&b, 40 * SB_US);
	for (int k = 1; k <= 9; k++) {
		b.sim.net.engine.eq.now += 3 * SB_MS;
		bare_ack(&b, 40 * SB_US + 5 * SB_MS);
		assert_int_equal(b.tcp->ssthresh == UINT64_MAX, k < 9);
	}
	/* HyStartLowWindow = 16 segments: below it neither rule runs */
	bare_init(&b, "classic");
	b.tcp->cwnd = 15 * SEG;
	b.tcp->snd_nxt = b.tcp->snd_max = 200 * SEG;
	bare_ack(&b, 40 * SB_US);
	for (int k = 1; k <= 100; k++) {
		b.sim.net.engine.eq.now += SB_US;
		bare_ack(&b, k < 50 ? 40 * SB_US : 40 * SB_US + 5 * SB_MS);
	}
	assert_int_equal(b.tcp->ssthresh, UINT64_MAX);
	/* HyStartAckDelta = 2 ms: ACKs 1.5 ms apart still make a train (which then spans more than
	 * delay_min = 40 us), 2.5 ms apart they do not */
	for (int wide = 0; wide < 2; wide++) {
		bare_init(&b, "classic");
		b.tcp->cwnd = 20 * SEG;
		b.tcp->snd_nxt = b.tcp->snd_max = 200 * SEG;
		bare_ack(&b, 40 * SB_US);
		for (int k = 1; k <= 3; k++) {
			b.sim.net.engine.eq.now += wide ? 2500 * SB_US : 1500 * SB_US;
			bare_ack(&b, 40 * SB_US);
		}
		assert_int_equal(b.tcp->ssthresh == UINT64_MAX, wide);
	}
	bare_free(&b);
}

/* RFC 9406 §4.3: HyStart++ runs in the initial slow start only; once a loss has made ssthresh
 * finite, slow start below it is RFC 5681's, whatever the RTT does. */
static void test_hystart_pp_initial_only(void **state)
{
	(void)state;
	static struct bare b;
	bare_init(&b, "hystartpp");
	b.tcp->ssthresh = 1000 * SEG; /* as after a loss */
	bare_round(&b, 40 * SB_US, 8);
	bare_round(&b, 60 * SB_US, 8);
	assert_int_equal(tcp_hystart_divisor(b.tcp), 1);
	assert_int_equal(b.tcp->stats.hystart_exits, 0);
	bare_init(&b, "hystartpp"); /* the same rounds in the initial slow start: CSS */
	bare_round(&b, 40 * SB_US, 8);
	bare_round(&b, 60 * SB_US, 8);
	assert_int_equal(tcp_hystart_divisor(b.tcp), 4);
	bare_free(&b);
}

/* Linux's tcp_cubic HyStart: the ACK train must outlast (delay_min + ack_delay) / 2, with
 * ack_delay = min(1 ms, 4 x 64 KB at the pacing rate 2 cwnd / SRTT) = 131072 B x SRTT / cwnd:
 * at cwnd 20 segments of 1000 B and SRTT 100 us, 655.36 us, so (40 + 655.36) / 2 = 347.68 us.
 * At cwnd 200 the allowance is 65.536 us and the threshold 52.768 us. */
static sb_time linux_train_exit(uint64_t cwnd_segs, sb_time srtt)
{
	static struct bare b;
	bare_init(&b, "linux");
	assert_int_equal(b.tcp->hystart_mode, SB_HYSTART_LINUX);
	b.tcp->cwnd = cwnd_segs * SEG;
	b.tcp->srtt = srtt;
	b.tcp->snd_nxt = b.tcp->snd_max = 100000 * SEG; /* a round longer than the test */
	bare_ack(&b, 40 * SB_US); /* the first ACK opens a round */
	sb_time start = b.sim.net.engine.eq.now;
	sb_time step = 100 * SB_NS;
	for (sb_time t = step; t < 2 * SB_MS; t += step) {
		b.sim.net.engine.eq.now = start + t;
		bare_ack(&b, 40 * SB_US);
		if (b.tcp->ssthresh != UINT64_MAX) {
			assert_int_equal(b.tcp->ssthresh, b.tcp->cwnd);
			bare_free(&b);
			return t;
		}
		b.tcp->cwnd = cwnd_segs * SEG; /* hold cwnd: the threshold depends on it */
	}
	bare_free(&b);
	return 0;
}

static void test_hystart_linux_rules(void **state)
{
	(void)state;
	/* the first ACK past the threshold ends slow start (ACKs every 100 ns) */
	sb_time t = linux_train_exit(20, 100 * SB_US);
	print_message("linux HyStart: cwnd 20, SRTT 100 us: slow start ends %.2f us into the round\n", sb_time_to_us(t));
	assert_true(t > 347680 * SB_NS && t <= 347680 * SB_NS + 100 * SB_NS);
	t = linux_train_exit(200, 100 * SB_US);
	assert_true(t > 52768 * SB_NS && t <= 52768 * SB_NS + 100 * SB_NS);
	/* the allowance is capped at 1 ms: (40 + 1000) / 2 = 520 us */
	t = linux_train_exit(20, SB_MS);
	assert_true(t > 520 * SB_US && t <= 520 * SB_US + 100 * SB_NS);
	/* ns-3's rule for the same round: the train need only outlast delay_min (40 us) */
	static struct bare b;
	bare_init(&b, "classic");
	b.tcp->cwnd = 20 * SEG;
	b.tcp->srtt = 100 * SB_US;
	b.tcp->snd_nxt = b.tcp->snd_max = 100000 * SEG;
	bare_ack(&b, 40 * SB_US);
	b.sim.net.engine.eq.now += 41 * SB_US;
	bare_ack(&b, 40 * SB_US);
	assert_int_equal(b.tcp->ssthresh, b.tcp->cwnd);
	bare_free(&b);
}

/* --- HyStart++ on a network: the queue at the sender's NIC raises the RTT --- */

struct ss_probe {
	struct sb_flow *f;
	const struct sb_port *nic;
	uint32_t peak_queue;      /* packets queued at the sender's NIC */
	uint32_t queue_at_exit;   /* ... when slow start ended */
	uint64_t cwnd_at_exit;
	uint64_t round_end;       /* HyStart's current round */
	uint64_t css_cwnd[8];     /* cwnd at the start of each round in CSS */
	int css_n;
	bool exited;
};

static void ss_poll(struct tl_every *e)
{
	struct ss_probe *p = e->ctx;
	struct sb_tcp *tcp = sb_tcp_of(p->f);
	uint32_t q = p->nic->q[p->f->prio].pkts;
	if (q > p->peak_queue)
		p->peak_queue = q;
	bool css = tcp_hystart_divisor(tcp) == 4;
	if (css && !p->exited) {
		p->exited = true;
		p->queue_at_exit = q;
		p->cwnd_at_exit = tcp->cwnd;
	}
	if (css && tcp->hs.window_end != p->round_end && p->css_n < 8)
		p->css_cwnd[p->css_n++] = tcp->cwnd;
	p->round_end = tcp->hs.window_end;
}

static void test_hystart_pp_exits_on_rtt_rise(void **state)
{
	(void)state;
	/* One CUBIC flow on 10 Gb/s links of 10 us (base RTT 41.8 us, BDP 52 KB): once cwnd
	 * passes the BDP the excess waits at the sender's NIC and every RTT sample grows by it. */
	const char *modes[] = { "off", "hystartpp" };
	uint32_t peak[2] = { 0, 0 };
	for (int m = 0; m < 2; m++) {
		struct sb_scenario sc;
		th_scenario(&sc, 2, 10, 10);
		struct sb_error err = { { 0 } };
		const struct sb_param *key = sb_param_find(sb_tcp_param_table, "hystart");
		assert_int_equal(sb_param_set_text(key, &sc.tcp, modes[m], &err), 0);
		struct sb_sim sim;
		build(&sim, &sc);
		struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 2000 * SEG, 10 * SB_US, sb_transport_find("cubic"));
		static struct ss_probe p;
		memset(&p, 0, sizeof p);
		p.f = f;
		p.nic = &sim.net.hosts[0]->node.ports[0];
		static struct tl_every every;
		tl_every_start(&every, &sim, 10 * SB_US, 3 * SB_MS, 100 * SB_NS, ss_poll, &p);
		sb_sim_run(&sim);
		struct sb_tcp *tcp = sb_tcp_of(f);
		assert_true(f->completed);
		assert_int_equal(sim.net.stats.pkts_dropped, 0);
		peak[m] = p.peak_queue;
		print_message("hystart %s: peak NIC queue %u packets; slow start ended at cwnd %.1f segments with "
			      "%u queued; cwnd per CSS round:", modes[m], p.peak_queue, (double)p.cwnd_at_exit / SEG,
			      p.queue_at_exit);
		for (int i = 0; i < p.css_n; i++)
			print_message(" %.1f", (double)p.css_cwnd[i] / SEG);
		print_message("\n");
		if (m == 0) {
			assert_false(p.exited);
			tl_check_and_free(&sim, &sc);
			continue;
		}
		/* Slow start ends before loss (none here) and long before plain slow start's peak.
		 * Unpaced, the round minimum only rises once cwnd is about 2 BDP (tcp_hystart.c), so
		 * the exit is at 2-3 BDP, not at the RttThresh of queue a paced sender would see. */
		assert_int_equal(tcp->stats.hystart_exits, 1);
		assert_true(p.exited && p.queue_at_exit < peak[0] / 4);
		assert_true(p.cwnd_at_exit > 50 * SEG && p.cwnd_at_exit < 200 * SEG);
		/* CSS: growth of a quarter of slow start's, 1.25x per round, for CSS_ROUNDS rounds
		 * (the exit's partial round, then 4 whole ones: 5 round starts seen in CSS at most) */
		assert_true(p.css_n >= 4 && p.css_n <= 5);
		for (int i = 1; i + 1 < p.css_n; i++) {
			double g = (double)p.css_cwnd[i + 1] / (double)p.css_cwnd[i];
			if (g < 1.15 || g > 1.35)
				fail_msg("CSS round %d grew cwnd by %.3f, not about 1.25", i, g);
		}
		assert_true(tcp->ssthresh != UINT64_MAX);
		tl_check_and_free(&sim, &sc);
	}
	assert_true(peak[1] < peak[0] / 2);
}

/* --- slow start's growth per ACK: RFC 3465's L (tcp.abc_limit_segs) --- */

/* An ACK of 5 segments grows cwnd by min(5, L) segments, by all 5 with L = 0 (Linux's
 * tcp_slow_start), never beyond ssthresh; the rest is left to congestion avoidance. */
static void test_slow_start_abc_limit(void **state)
{
	(void)state;
	static struct bare b;
	const int limits[] = { 2, 3, 0 };
	const uint64_t grown[] = { 2, 3, 5 };
	for (int i = 0; i < 3; i++) {
		bare_init(&b, "off");
		b.sc.tcp.abc_limit_segs = limits[i];
		sb_tcp_init(&b.sim.flows, &b.f, &sb_cc_cubic);
		struct sb_tcp *tcp = b.tcp;
		assert_int_equal(tcp->ss_limit, (uint64_t)limits[i] * tcp->mss);
		tcp->cwnd = 10u * tcp->mss;
		assert_int_equal(sb_tcp_slow_start(tcp, 5u * tcp->mss), 0);
		assert_int_equal(tcp->cwnd, (10u + grown[i]) * tcp->mss);
		/* at most to ssthresh, returning what is left over */
		tcp->ssthresh = tcp->cwnd + tcp->mss;
		uint64_t left = sb_tcp_slow_start(tcp, 5u * tcp->mss);
		assert_int_equal(tcp->cwnd, tcp->ssthresh);
		assert_int_equal(left, 4u * tcp->mss);
	}
	/* the default is ns-3's L = 2 */
	bare_init(&b, "off");
	assert_int_equal(b.sc.tcp.abc_limit_segs, 2);
	bare_free(&b);
}

/* --- the handshake --- */

struct hs_run {
	sb_time fct, ideal, setup;
	uint64_t timeouts;
	uint32_t syn_retries;
	struct sb_tcp_counters counters;
	double slowdown;
};

static struct hs_run handshake_run(const char *transport, bool handshake, uint32_t lost_syns)
{
	static struct th_tap tap;
	struct sb_scenario sc;
	th_scenario(&sc, 2, 25, 2);
	sc.tcp.handshake = handshake;
	sc.tcp.syn_timeout_us = 10000; /* the Reverie artifact's ns-3 ConnTimeout */
	struct sb_sim sim;
	build(&sim, &sc);
	struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 1000000, 10 * SB_US, sb_transport_find(transport));
	th_tap_attach(&tap, &sim, f->id);
	tap.drop_syns = lost_syns;
	sb_sim_run(&sim);
	assert_true(f->completed);
	assert_int_equal(sim.nrecords, 1);
	struct hs_run r = {
		.fct = sim.records[0].fct, .ideal = sim.records[0].ideal, .setup = sb_tcp_setup_time(&sim.flows, 0, 1),
		.timeouts = f->timeouts, .syn_retries = sb_tcp_of(f)->stats.syn_retries, .counters = sim.flows.stats.tcp,
	};
	r.slowdown = (double)r.fct / (double)r.ideal;
	assert_int_equal(f->pkts_retx, 0);
	tl_check_and_free(&sim, &sc);
	return r;
}

static void test_handshake_adds_one_rtt(void **state)
{
	(void)state;
	static const char *const names[] = { "newreno", "cubic", "dctcp" };
	for (size_t i = 0; i < 3; i++) {
		struct hs_run off = handshake_run(names[i], false, 0);
		struct hs_run on = handshake_run(names[i], true, 0);
		print_message("%s: FCT %.3f -> %.3f us (+%.3f), ideal %.3f -> %.3f us, handshake %.3f us, "
			      "slowdown %.4f -> %.4f\n", names[i], sb_time_to_us(off.fct), sb_time_to_us(on.fct),
			      sb_time_to_us(on.fct - off.fct), sb_time_to_us(off.ideal), sb_time_to_us(on.ideal),
			      sb_time_to_us(on.setup), off.slowdown, on.slowdown);
		assert_int_equal(off.setup, 0);
		assert_true(on.setup > 0);
		/* exactly the handshake: SYN and SYN-ACK, and the handshake's ACK ahead of the data */
		assert_int_equal(on.fct - off.fct, on.setup);
		assert_int_equal(on.ideal - off.ideal, on.setup);
		/* a lone flow keeps its slowdown (slow start costs the same few %) */
		assert_true(on.slowdown >= 0.999 && on.slowdown <= 1.10);
		assert_true(on.slowdown <= off.slowdown + 1e-9);
		assert_int_equal(on.timeouts, 0);
	}
	/* a lost SYN is sent again after syn_timeout_us, a second loss doubles the wait */
	struct hs_run on = handshake_run("cubic", true, 0);
	struct hs_run one = handshake_run("cubic", true, 1);
	struct hs_run two = handshake_run("cubic", true, 2);
	assert_int_equal(one.fct - on.fct, 10 * SB_MS);
	assert_int_equal(two.fct - on.fct, 30 * SB_MS);
	assert_int_equal(one.syn_retries, 1);
	assert_int_equal(two.syn_retries, 2);
	assert_int_equal(two.timeouts, 2);
	/* summary.json's counters: both SYN timeouts, counted as timeouts too (as Linux's
	 * TCPTimeouts and TCPSynRetrans), and nothing else */
	assert_int_equal(two.counters.syn_retransmits, 2);
	assert_int_equal(two.counters.timeouts, 2);
	assert_int_equal(two.counters.retransmitted_segments + two.counters.recoveries + two.counters.timeouts_sacked, 0);
}

/* tcp.ack_path: with `control` only data is charged to the switch's buffer; with `data` every
 * packet of the connection is, the SYN, SYN-ACK, handshake ACK and pure ACKs too, and a flow on
 * an idle path takes exactly as long either way. */
static void test_ack_path(void **state)
{
	(void)state;
	sb_time fct[2];
	for (int data = 0; data < 2; data++) {
		struct sb_scenario sc;
		th_scenario(&sc, 2, 25, 2);
		sc.tcp.handshake = true;
		sc.tcp.ack_path = data ? SB_ACK_PATH_DATA : SB_ACK_PATH_CONTROL;
		struct sb_sim sim;
		build(&sim, &sc);
		struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 100 * SEG, 10 * SB_US, sb_transport_find("cubic"));
		sb_sim_run(&sim);
		assert_true(f->completed);
		fct[data] = sim.records[0].fct;
		const struct sb_mmu *m = sim.net.switches[0]->only_mmu;
		uint64_t sent = sim.net.stats.pkts_sent;
		print_message("ack_path = %s: %llu packets sent, %llu charged to the switch's buffer, FCT %.3f us\n",
			      data ? "data" : "control", (unsigned long long)sent, (unsigned long long)m->admitted,
			      sb_time_to_us(fct[data]));
		assert_int_equal(f->pkts_retx, 0);
		if (data)
			assert_int_equal(m->admitted, sent);
		else
			assert_int_equal(m->admitted, f->pkts_sent); /* the 100 data segments */
		assert_int_equal(f->pkts_sent, 100);
		assert_true(sent > f->pkts_sent + 3); /* 3 handshake packets and the ACKs */
		tl_check_and_free(&sim, &sc);
	}
	assert_int_equal(fct[0], fct[1]);
}

/* --- the ns-3 profile --- */

static void test_ns3_profile(void **state)
{
	(void)state;
	struct sb_scenario sc;
	const char *text = "@include \"scenarios/profiles/tcp-ns3.cfg\"\n"
			   "topology: { type = \"single\"; hosts = 17; host_rate_gbps = 25.0; };\n"
			   "run: { duration_ms = 30.0; arrivals_ms = 30.0; sample_interval_us = 0.0; };\n"
			   "switch: { buffer_bytes = 2560000; };\n"
			   "workloads = ( { type = \"burst\"; transport = \"cubic\"; size_bytes = 200000; "
			   "srcs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]; dst = 0; start_ms = 1.0; } );\n";
	tl_scenario(&sc, text, NULL, 0);
	const struct sb_tcp_params *p = &sc.tcp;
	assert_true(p->sack);
	assert_false(p->rack);
	assert_false(p->tlp);
	assert_int_equal(p->recovery, SB_TCP_RECOVERY_PRR);
	assert_int_equal(p->hystart, SB_TCP_HYSTART_CLASSIC);
	assert_true(p->handshake);
	assert_int_equal(p->delack_count, 1);
	assert_int_equal(p->mss, 1000);
	assert_int_equal(p->header_bytes, 48);
	assert_int_equal(p->init_cwnd_pkts, 55);
	assert_true(p->min_rto_us == 1000 && p->init_rto_us == 10 && p->clock_granularity_ns == 10);
	assert_true(p->syn_timeout_us == 10000);
	struct sb_sim sim;
	tl_run_kept(&sim, &sc);
	print_message("ns-3 profile, 16 x 200 KB into one port: %llu of 16 completed, drops %llu\n",
		      (unsigned long long)sim.flows.stats.flows_completed, (unsigned long long)sim.net.stats.pkts_dropped);
	assert_int_equal(sim.flows.stats.flows_completed, 16);
	tl_check_and_free(&sim, &sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hystart_pp_rules),
		cmocka_unit_test(test_slow_start_abc_limit),
		cmocka_unit_test(test_hystart_classic_rules),
		cmocka_unit_test(test_hystart_pp_initial_only),
		cmocka_unit_test(test_hystart_linux_rules),
		cmocka_unit_test(test_hystart_pp_exits_on_rtt_rise),
		cmocka_unit_test(test_handshake_adds_one_rtt),
		cmocka_unit_test(test_ack_path),
		cmocka_unit_test(test_ns3_profile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
