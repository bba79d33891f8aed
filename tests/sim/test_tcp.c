/*
 * test_tcp.c — the TCP engine, its congestion controls and CBR, on small simulated networks
 * built directly from scenario structs (no scenario file, no workloads).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mmu/mmu.h"
#include "sim/sim.h"
#include "testlib.h"
#include "transport/cbr.h"
#include "transport/tcp.h"
#include "transport/transport.h"

#define GBPS 1000000000ull

/* --- helpers --- */

static void set_key(const struct sb_param *table, void *obj, const char *key, const char *value)
{
	struct sb_error err = { { 0 } };
	const struct sb_param *p = sb_param_find(table, key);
	assert_non_null(p);
	if (sb_param_set_text(p, obj, value, &err) != 0)
		fail_msg("%s = %s: %s", key, value, err.msg);
}

static void set_scheme_key(struct sb_scenario *sc, const char *scheme, const char *key, const char *value)
{
	size_t i = 0;
	for (const struct sb_bm_ops *const *s = sb_bm_all(); *s; s++, i++) {
		if (strcmp((*s)->name, scheme) == 0) {
			set_key((*s)->params, sc->scheme_params[i], key, value);
			return;
		}
	}
	fail_msg("no scheme %s", scheme);
}

/* One switch, `hosts` hosts at 10 Gb/s. */
static void single_switch(struct sb_scenario *sc, int hosts, double delay_us, double duration_ms)
{
	sb_scenario_defaults(sc);
	sc->topo.type = SB_TOPO_SINGLE;
	sc->topo.hosts = hosts;
	sc->topo.host_rate_gbps = 10;
	sc->topo.fabric_rate_gbps = 10;
	sc->topo.host_delay_us = delay_us;
	sc->run.duration_ms = duration_ms;
	sc->run.arrivals_ms = duration_ms;
	sc->run.sample_interval_us = 0;
}

static void build(struct sb_sim *sim, const struct sb_scenario *sc)
{
	struct sb_error err = { { 0 } };
	if (sb_sim_build(sim, sc, &err) != 0)
		fail_msg("build: %s", err.msg);
	sim->flows.keep_finished = true; /* the tests read their flows after the run */
}



/* --- (a) DCTCP: queue near K, full utilisation, fairness --- */

struct dctcp_probe {
	struct sb_sim *sim;
	struct sb_port *port;
	struct sb_flow *flows[2];
	sb_time warmup, end, period;
	double q_sum, q_max;
	uint64_t n;
	uint64_t tx_at_warmup, rcv_at_warmup[2];
};

static void dctcp_sample(void *obj, uint64_t arg)
{
	(void)arg;
	struct dctcp_probe *pr = obj;
	sb_time now = sb_now(&pr->sim->net.engine);
	if (now == pr->warmup) {
		pr->tx_at_warmup = pr->port->tx_bytes;
		for (int i = 0; i < 2; i++)
			pr->rcv_at_warmup[i] = pr->flows[i]->rcv_nxt;
	}
	double q = 0;
	for (int p = 0; p < SB_NPRIO; p++)
		q += (double)pr->port->q[p].bytes;
	pr->q_sum += q;
	if (q > pr->q_max)
		pr->q_max = q;
	pr->n++;
	if (now + pr->period < pr->end)
		sb_at(&pr->sim->net.engine, now + pr->period, dctcp_sample, pr, 0);
}

static void test_dctcp_queue_and_fairness(void **state)
{
	(void)state;
	/* DCTCP paper (SIGCOMM 2010) at 10 Gb/s: K = 65 packets, RTT ~100 µs (K > C·RTT/7).
	 * The second flow starts 1 ms late; DCTCP's small (α/2) cuts make two flows converge
	 * slowly (gap halves in ~10 ms here), hence the 40 ms warm-up before measuring. */
	const double K = 65.0 * 1048;
	char kbuf[32];
	snprintf(kbuf, sizeof kbuf, "%.0f", K);
	struct sb_scenario sc;
	single_switch(&sc, 3, 25, 100);
	set_key(sb_switch_param_table, &sc.sw, "ecn_mode", "step");
	set_key(sb_switch_param_table, &sc.sw, "ecn_kmin_bytes", kbuf);
	set_key(sb_switch_param_table, &sc.sw, "ecn_kmax_bytes", kbuf);
	sc.sw.buffer_bytes = 4 << 20;

	struct sb_sim sim;
	build(&sim, &sc);
	const struct sb_transport_ops *dctcp = sb_transport_find("dctcp");
	assert_non_null(dctcp);
	struct dctcp_probe pr = {
		.sim = &sim, .port = tl_port_to_host(&sim, 0),
		.warmup = 40 * SB_MS, .end = 100 * SB_MS, .period = 10 * SB_US,
	};
	pr.flows[0] = sb_flow_create(&sim.flows, 1, 0, 0, 0, dctcp);
	pr.flows[1] = sb_flow_create(&sim.flows, 2, 0, 0, 1 * SB_MS, dctcp);
	sb_at(&sim.net.engine, pr.warmup, dctcp_sample, &pr, 0);
	sb_sim_run(&sim);

	double secs = sb_time_to_sec(pr.end - pr.warmup);
	double mean = pr.q_sum / (double)pr.n;
	double util = (double)(pr.port->tx_bytes - pr.tx_at_warmup) * 8 / (10.0 * GBPS * secs);
	double goodput[2];
	for (int i = 0; i < 2; i++)
		goodput[i] = (double)(pr.flows[i]->rcv_nxt - pr.rcv_at_warmup[i]) * 8 / secs;
	double fair = goodput[0] < goodput[1] ? goodput[0] / goodput[1] : goodput[1] / goodput[0];
	print_message("dctcp: queue mean %.0f B = %.2f K, max %.0f B = %.2f K, %llu samples; "
		      "utilisation %.4f; goodput %.3f + %.3f Gb/s, ratio %.3f; drops %llu\n",
		      mean, mean / K, pr.q_max, pr.q_max / K, (unsigned long long)pr.n, util,
		      goodput[0] / 1e9, goodput[1] / 1e9, fair, (unsigned long long)sim.net.stats.pkts_dropped);
	assert_true(mean >= 0.5 * K && mean <= 1.5 * K);
	assert_true(pr.q_max <= 2.5 * K);
	assert_true(util >= 0.95);
	assert_true((goodput[0] + goodput[1]) * 1048.0 / 1000.0 >= 0.95 * 10.0 * GBPS);
	assert_true(fair >= 0.9);
	assert_int_equal(sim.net.stats.pkts_dropped, 0);
	tl_check_and_free(&sim, &sc);
}

/* --- (b) recovery from loss, (d) whole-window loss and RTO --- */

struct incast_result {
	uint64_t drops, retx, timeouts, completed;
	double max_fct_ms;
};

/* `n` senders (hosts 1..n) each send `size` bytes to host 0 at t = 0 through an egress queue
 * limited to `queue_pkts` packets (static partitioning). */
static struct incast_result run_incast(const char *transport, int n, uint64_t size, int queue_pkts,
				       uint64_t init_window)
{
	struct sb_scenario sc;
	single_switch(&sc, n + 1, 2, 500);
	set_key(sb_switch_param_table, &sc.sw, "scheme", "static");
	char qbuf[32];
	snprintf(qbuf, sizeof qbuf, "%d", queue_pkts * 1048);
	set_scheme_key(&sc, "static", "queue_bytes", qbuf);
	sc.sw.buffer_bytes = 1 << 20;
	/* marking below the queue limit, so DCTCP meets ECN and losses together */
	set_key(sb_switch_param_table, &sc.sw, "ecn_mode", "step");
	set_key(sb_switch_param_table, &sc.sw, "ecn_kmin_bytes", "3144");
	set_key(sb_switch_param_table, &sc.sw, "ecn_kmax_bytes", "3144");

	struct sb_sim sim;
	build(&sim, &sc);
	const struct sb_transport_ops *ops = sb_transport_find(transport);
	assert_non_null(ops);
	struct sb_flow *flows[64];
	for (int i = 0; i < n; i++) {
		flows[i] = sb_flow_create(&sim.flows, (uint32_t)(i + 1), 0, size, 0, ops);
		flows[i]->init_window = init_window;
	}
	sb_sim_run(&sim);

	struct incast_result r = { .drops = sim.net.stats.pkts_dropped };
	for (int i = 0; i < n; i++) {
		struct sb_flow *f = flows[i];
		r.retx += f->pkts_retx;
		r.timeouts += f->timeouts;
		if (f->done && f->completed && f->rcv_nxt == size && f->bytes_received == size) {
			r.completed++;
			double fct = sb_time_to_sec(f->finish - f->start) * 1e3;
			if (fct > r.max_fct_ms)
				r.max_fct_ms = fct;
		}
		/* everything acknowledged: no timer left behind */
		assert_int_equal(f->timer_at, SB_TIME_NEVER);
	}
	print_message("%s incast %d x %llu B, queue %d pkts, init window %llu: drops %llu, retx %llu, "
		      "timeouts %llu, completed %llu/%d, last FCT %.3f ms\n",
		      transport, n, (unsigned long long)size, queue_pkts, (unsigned long long)init_window,
		      (unsigned long long)r.drops, (unsigned long long)r.retx, (unsigned long long)r.timeouts,
		      (unsigned long long)r.completed, n, r.max_fct_ms);
	tl_check_and_free(&sim, &sc);
	return r;
}

static void test_loss_recovery(void **state)
{
	(void)state;
	static const char *const names[] = { "newreno", "cubic", "dctcp" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct incast_result r = run_incast(names[i], 8, 500000, 8, 0);
		assert_true(r.drops > 0);
		assert_true(r.retx > 0);
		assert_int_equal(r.completed, 8);
	}
}

static void test_whole_window_loss_rto(void **state)
{
	(void)state;
	static const char *const names[] = { "newreno", "cubic", "dctcp" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct incast_result r = run_incast(names[i], 4, 200000, 2, 200000);
		assert_true(r.drops > 0);
		assert_true(r.timeouts > 0);
		assert_int_equal(r.completed, 4);
	}
}

/* --- (c) a lone flow is close to the ideal FCT --- */

static void test_single_flow_ideal_fct(void **state)
{
	(void)state;
	static const char *const names[] = { "newreno", "cubic", "dctcp" };
	static const uint64_t sizes[] = { 10000000, 1000000 };
	for (size_t s = 0; s < 2; s++) {
		for (size_t i = 0; i < 3; i++) {
			struct sb_scenario sc;
			single_switch(&sc, 2, 2, 50);
			struct sb_sim sim;
			build(&sim, &sc);
			struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, sizes[s], 10 * SB_US, sb_transport_find(names[i]));
			sb_sim_run(&sim);
			assert_true(f->completed);
			double fct = sb_time_to_sec(f->finish - f->start);
			double ideal = sb_time_to_sec(sb_ideal_fct(&sim.flows, 0, 1, sizes[s]));
			print_message("%s alone, %llu B: FCT %.2f us, ideal %.2f us, slowdown %.4f, retx %llu\n",
				      names[i], (unsigned long long)sizes[s], fct * 1e6, ideal * 1e6, fct / ideal,
				      (unsigned long long)f->pkts_retx);
			assert_true(fct >= ideal * 0.999);
			/* slow start costs a few RTTs: a few % of 1 MB, well under 1% of 10 MB */
			assert_true(fct <= ideal * (sizes[s] >= 10000000 ? 1.01 : 1.10));
			assert_int_equal(f->pkts_retx, 0);
			assert_int_equal(sim.net.stats.pkts_dropped, 0);
			tl_check_and_free(&sim, &sc);
		}
	}
}

/* max_cwnd_bytes: a window-limited flow sends one capped window per base RTT. */
static void test_max_cwnd_cap(void **state)
{
	(void)state;
	struct sb_scenario sc;
	single_switch(&sc, 2, 2, 50);
	sc.tcp.max_cwnd_bytes = 10000;
	struct sb_sim sim;
	build(&sim, &sc);
	const uint64_t size = 1000000;
	struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, size, 0, sb_transport_find("cubic"));
	sb_sim_run(&sim);
	assert_true(f->completed);
	double fct = sb_time_to_sec(f->finish - f->start);
	double rtt = sb_time_to_sec(sb_base_rtt(&sim.flows, 0, 1, 1048));
	double expect = (double)size / 10000.0 * rtt;
	print_message("max_cwnd 10000 B: FCT %.1f us, size / cap x base RTT = %.1f us (%.4f)\n", fct * 1e6,
		      expect * 1e6, fct / expect);
	assert_true(fabs(fct / expect - 1) < 0.05);
	assert_true(sb_tcp_of(f)->cwnd <= 10000);
	tl_check_and_free(&sim, &sc);
}

/* --- (e) CUBIC window growth, driving the control without a network --- */

static void test_cubic_growth(void **state)
{
	(void)state;
	struct sb_scenario sc;
	sb_scenario_defaults(&sc);
	struct sb_sim sim;
	memset(&sim, 0, sizeof sim);
	sim.sc = &sc;
	sim.flows = (struct sb_flows){ .net = &sim.net, .tcp = &sc.tcp, .rdma = &sc.rdma };
	struct sb_flow f;
	memset(&f, 0, sizeof f);
	f.size = 0;
	sim.net.engine.eq.now = 1 * SB_SEC;
	sb_tcp_init(&sim.flows, &f, &sb_cc_cubic);
	struct sb_tcp *tcp = sb_tcp_of(&f);

	/* A long-RTT flow at 1000 segments: the cubic curve dominates the TCP-friendly line. */
	const double mss = (double)tcp->mss, C = sc.tcp.cubic_c, beta = sc.tcp.cubic_beta;
	const double w_max = 1000;
	const sb_time rtt = 100 * SB_MS;
	tcp->cwnd = (uint64_t)(w_max * mss);
	tcp->srtt = rtt;
	tcp->snd_una = 0;
	tcp->snd_nxt = tcp->snd_max = tcp->cwnd;
	tcp->ssthresh = tcp->cc->ssthresh(&sim.flows, &f, tcp, false);
	tcp->cwnd = tcp->ssthresh;
	assert_true(fabs((double)tcp->cwnd / mss - beta * w_max) < 1);

	const double K = cbrt(w_max * (1 - beta) / C);
	sb_time epoch = sim.net.engine.eq.now;
	const double checks[] = { 1.0, 3.0, 6.0, K, 12.0 };
	size_t next_check = 0;
	/* ACK-clocked: one ACK per segment, a window of ACKs per RTT. */
	while (next_check < sizeof checks / sizeof checks[0]) {
		double cwnd_seg = (double)tcp->cwnd / mss;
		sim.net.engine.eq.now += (sb_time)((double)rtt / cwnd_seg);
		tcp->snd_una += tcp->mss;
		tcp->snd_nxt += tcp->mss;
		tcp->cc->on_ack(&sim.flows, &f, tcp, tcp->mss);
		double t = sb_time_to_sec(sim.net.engine.eq.now - epoch);
		if (t >= checks[next_check]) {
			double expect = C * pow(t - K, 3) + w_max;
			double got = (double)tcp->cwnd / mss;
			/* cwnd chases W(t + RTT) one RTT ahead of time; allow that and rounding */
			double ahead = C * pow(t + sb_time_to_sec(rtt) - K, 3) + w_max;
			double lo = fmin(expect, ahead) * 0.99, hi = fmax(expect, ahead) * 1.01;
			print_message("cubic: t = %.2f s (K = %.2f s): cwnd %.1f segments, W(t) = %.1f, W(t+RTT) = %.1f\n",
				      t, K, got, expect, ahead);
			assert_true(got >= lo && got <= hi);
			next_check++;
		}
	}
	sb_scenario_free(&sc);
}

/* --- (f) CBR --- */

static void test_cbr_rate(void **state)
{
	(void)state;
	struct sb_scenario sc;
	single_switch(&sc, 3, 2, 10);
	struct sb_sim sim;
	build(&sim, &sc);
	const struct sb_transport_ops *cbr = sb_transport_find("cbr");
	assert_non_null(cbr);
	/* unbounded at 3 Gb/s; finite at 2.5 Gb/s with 500-byte packets */
	struct sb_flow *a = sb_flow_create(&sim.flows, 1, 0, 0, 0, cbr);
	sb_cbr_configure(a, 3 * GBPS, 1048);
	const uint64_t bsize = 1000000;
	struct sb_flow *b = sb_flow_create(&sim.flows, 2, 0, bsize, 1 * SB_MS, cbr);
	sb_cbr_configure(b, 5 * GBPS / 2, 500);
	sb_sim_run(&sim);

	double secs = 10e-3;
	double expect_a = 3e9 * secs / 8 * 1000.0 / 1048.0; /* payload bytes */
	double got_a = (double)a->bytes_received;
	double fct_b = sb_time_to_sec(b->finish - b->start);
	double payload_b = 500 - 48;
	double ideal_b = (double)bsize / payload_b * 500 * 8 / 2.5e9;
	print_message("cbr: %.0f of %.0f expected payload bytes (%.4f); finite flow FCT %.1f us vs %.1f us paced\n",
		      got_a, expect_a, got_a / expect_a, fct_b * 1e6, ideal_b * 1e6);
	assert_true(fabs(got_a / expect_a - 1) < 0.01);
	assert_true(b->completed);
	assert_true(fabs(fct_b / ideal_b - 1) < 0.01);
	assert_int_equal(a->pkts_retx + b->pkts_retx, 0);
	tl_check_and_free(&sim, &sc);
}

/* --- registry and the receiver's out-of-order bookkeeping --- */

static void test_registry(void **state)
{
	(void)state;
	const char *want[] = { "dctcp", "cubic", "newreno", "cbr" };
	for (size_t i = 0; i < 4; i++) {
		const struct sb_transport_ops *t = sb_transport_find(want[i]);
		assert_non_null(t);
		assert_string_equal(t->name, want[i]);
		assert_true(t->state_size <= sizeof(((struct sb_flow *)0)->tx));
		assert_non_null(t->start);
		assert_non_null(t->on_data);
	}
	assert_null(sb_transport_find("nope"));
	size_t n = 0;
	for (const struct sb_transport_ops *const *t = sb_transport_all(); *t; t++)
		n++;
	assert_true(n >= 4);
}

/* Deliver data segments by hand to a receiver and check the cumulative ACKs it sends. */
static void test_receiver_reassembly(void **state)
{
	(void)state;
	struct sb_scenario sc;
	single_switch(&sc, 2, 2, 1);
	struct sb_sim sim;
	build(&sim, &sc);
	/* start after the run so the sender stays silent; we play the sender */
	struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 100000000, 1 * SB_SEC, sb_transport_find("newreno"));
	struct sb_packet pkt;
	const uint64_t order[] = { 0, 2000, 4000, 3000, 1000, 6000, 5000 };
	const uint64_t expect_ack[] = { 1000, 1000, 1000, 1000, 5000, 5000, 7000 };
	for (size_t i = 0; i < 7; i++) {
		memset(&pkt, 0, sizeof pkt);
		pkt.type = SB_PKT_DATA;
		pkt.seq = order[i];
		pkt.payload = 1000;
		pkt.flow = f->id;
		f->ops->on_data(&sim.flows, f, &pkt);
		assert_int_equal(f->rcv_nxt, expect_ack[i]);
	}
	assert_int_equal(f->ooo.n, 0);
	/* 40 holes, each segment above them held (once: a duplicate changes nothing) */
	for (int i = 0; i < 40; i++) {
		for (int again = 0; again < 2; again++) {
			memset(&pkt, 0, sizeof pkt);
			pkt.type = SB_PKT_DATA;
			pkt.seq = 8000 + 2000 * (uint64_t)i;
			pkt.payload = 1000;
			pkt.flow = f->id;
			f->ops->on_data(&sim.flows, f, &pkt);
		}
	}
	assert_int_equal(f->ooo.n, 40);
	assert_int_equal(f->rcv_nxt, 7000);
	/* filling the first hole takes in the segment above it */
	memset(&pkt, 0, sizeof pkt);
	pkt.type = SB_PKT_DATA;
	pkt.seq = 7000;
	pkt.payload = 1000;
	pkt.flow = f->id;
	f->ops->on_data(&sim.flows, f, &pkt);
	assert_int_equal(f->rcv_nxt, 9000);
	assert_int_equal(f->ooo.n, 39);
	/* the receive window for out-of-order data: SB_OOO_SEGS segments above rcv_nxt */
	memset(&pkt, 0, sizeof pkt);
	pkt.type = SB_PKT_DATA;
	pkt.payload = 1000;
	pkt.flow = f->id;
	pkt.seq = 9000 + (uint64_t)SB_OOO_SEGS * 1000;
	f->ops->on_data(&sim.flows, f, &pkt);
	assert_int_equal(f->ooo.n, 39);
	pkt.seq -= 1000;
	f->ops->on_data(&sim.flows, f, &pkt);
	assert_int_equal(f->ooo.n, 40);
	assert_false(f->done);
	/* the ACKs sit in host 1's NIC queue; freeing the simulation reclaims them */
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_receiver_reassembly),
		cmocka_unit_test(test_cubic_growth),
		cmocka_unit_test(test_single_flow_ideal_fct),
		cmocka_unit_test(test_max_cwnd_cap),
		cmocka_unit_test(test_cbr_rate),
		cmocka_unit_test(test_loss_recovery),
		cmocka_unit_test(test_whole_window_loss_rto),
		cmocka_unit_test(test_dctcp_queue_and_fairness),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
