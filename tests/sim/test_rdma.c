/*
 * test_rdma.c — the RDMA engine (line rate, pacing, go-back-N, PFC, first-RTT tags, INT) and
 * its congestion controls (DCQCN, HPCC, PowerTCP, θ-PowerTCP, TIMELY) on small networks built
 * from scenario structs. Each test states the theory its assertion comes from.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmu/mmu.h"
#include "engine/telemetry.h"
#include "sim/sim.h"
#include "testlib.h"
#include "transport/rdma.h"
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

/* One switch with `hosts` hosts at `gbps`, 2 µs links (Reverie's), complete sharing with a
 * buffer large enough that nothing is dropped unless a test says otherwise, no ECN. */
static void single_switch(struct sb_scenario *sc, int hosts, double gbps, double duration_ms)
{
	tl_single_switch(sc, hosts, gbps, 64u << 20);
	sc->topo.host_delay_us = 2;
	sc->run.duration_ms = duration_ms;
	sc->run.arrivals_ms = duration_ms;
	free(sc->sw.scheme);
	sc->sw.scheme = strdup("cs");
}

/* DCQCN's ECN at 25 Gb/s (the Reverie artifact's examples/Reverie/config-workload.txt in
 * inet-tub/ns3-datacenter): RED 100 KB / 400 KB / 0.2. */
static void red_25g(struct sb_scenario *sc)
{
	set_key(sb_switch_param_table, &sc->sw, "ecn_mode", "red");
	set_key(sb_switch_param_table, &sc->sw, "ecn_kmin_bytes", "100000");
	set_key(sb_switch_param_table, &sc->sw, "ecn_kmax_bytes", "400000");
	set_key(sb_switch_param_table, &sc->sw, "ecn_pmax", "0.2");
}




static uint64_t queued(const struct sb_port *p)
{
	uint64_t q = 0;
	for (int i = 0; i < SB_NPRIO; i++)
		q += p->q[i].bytes;
	return q;
}

/* A periodic probe of one egress port and up to 16 flows between `from` and `to`: mean and
 * max queue, bytes the port sent and bytes each flow delivered in that window. */
#define MAXF 16
struct probe {
	struct sb_sim *sim;
	struct sb_port *port;
	struct sb_flow *flows[MAXF];
	int nflows;
	sb_time from, to, period;
	double q_sum, q_max;
	uint64_t n;
	uint64_t tx0, tx1, rcv0[MAXF], rcv1[MAXF];
};

static void probe_tick(void *obj, uint64_t arg)
{
	(void)arg;
	struct probe *pr = obj;
	sb_time now = sb_now(&pr->sim->net.engine);
	if (now == pr->from) {
		pr->tx0 = pr->port->tx_bytes;
		for (int i = 0; i < pr->nflows; i++)
			pr->rcv0[i] = pr->flows[i]->bytes_received;
	}
	double q = (double)queued(pr->port);
	pr->q_sum += q;
	if (q > pr->q_max)
		pr->q_max = q;
	pr->n++;
	if (now + pr->period <= pr->to) {
		sb_at(&pr->sim->net.engine, now + pr->period, probe_tick, pr, 0);
	} else {
		pr->tx1 = pr->port->tx_bytes;
		for (int i = 0; i < pr->nflows; i++)
			pr->rcv1[i] = pr->flows[i]->bytes_received;
	}
}

static void probe_start(struct probe *pr) { sb_at(&pr->sim->net.engine, pr->from, probe_tick, pr, 0); }

static double probe_util(const struct probe *pr)
{
	return (double)(pr->tx1 - pr->tx0) * 8 / ((double)pr->port->rate_bps * sb_time_to_sec(pr->to - pr->from));
}

static double probe_goodput(const struct probe *pr, int i)
{
	return (double)(pr->rcv1[i] - pr->rcv0[i]) * 8 / sb_time_to_sec(pr->to - pr->from);
}

static double jain(const double *x, int n)
{
	double s = 0, s2 = 0;
	for (int i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	return s2 > 0 ? s * s / (n * s2) : 0;
}

/* --- registry, framing, parameters --- */

static void test_registry(void **state)
{
	(void)state;
	static const char *const names[] = { "rdma", "dcqcn", "hpcc", "powertcp", "thetapowertcp", "timely" };
	for (size_t i = 0; i < SB_ARRAY_LEN(names); i++) {
		const struct sb_transport_ops *ops = sb_transport_find(names[i]);
		assert_non_null(ops);
		assert_true(ops->state_size <= sizeof(((struct sb_flow *)0)->tx));
		assert_true(ops->lossless_by_default);
		assert_int_equal(sb_transport_default_prio(ops), 3);
		assert_non_null(ops->framing);
	}
	assert_false(sb_transport_find("dctcp")->lossless_by_default);
	assert_int_equal(sb_transport_default_prio(sb_transport_find("cubic")), 1);
	assert_true(sizeof(struct sb_packet) <= 64);
}

/* --- line rate: a lone flow, pacing, events --- */

/* A flow alone at line rate on an idle path finishes exactly at the ideal FCT: the first packet
 * takes the base RTT (data and ACK serialised at every hop, propagation both ways), every
 * further packet follows back-to-back at the bottleneck rate. The NIC pulls the next packet
 * as the previous one ends, so there is no gap. */
static void test_line_rate_alone(void **state)
{
	(void)state;
	static const char *const names[] = { "rdma", "dcqcn", "hpcc", "powertcp", "thetapowertcp", "timely" };
	for (size_t i = 0; i < SB_ARRAY_LEN(names); i++) {
		struct sb_scenario sc;
		single_switch(&sc, 2, 25, 5);
		struct sb_sim sim;
		tl_build(&sim, &sc);
		const uint64_t size = 1000000;
		struct sb_flow *f = tl_rdma_flow(&sim, names[i], 0, 1, size, 10 * SB_US);
		tl_run_and_check(&sim);
		assert_true(f->completed);
		sb_time fct = f->finish - f->start;
		sb_time ideal = sb_transport_ideal_fct(&sim.flows, f->ops, 0, 1, size);
		uint64_t pkts = (size + 999) / 1000;
		double per_pkt = (double)sim.net.engine.eq.executed / (double)pkts;
		print_message("%-13s alone, 1 MB at 25 Gb/s: FCT %.3f us, ideal %.3f us (%+lld ps); %llu events, "
			      "%.2f per data packet; rate at the end %.2f Gb/s\n",
			      names[i], sb_time_to_us(fct), sb_time_to_us(ideal), (long long)fct - (long long)ideal,
			      (unsigned long long)sim.net.engine.eq.executed, per_pkt,
			      (double)sb_rdma_qp_of(f)->rate_bps / 1e9);
		assert_int_equal(f->pkts_sent, pkts);
		assert_int_equal(f->pkts_retx, 0);
		assert_int_equal(sim.net.stats.pkts_dropped, 0);
		/* HPCC and PowerTCP keep ~5% below line rate when alone (target utilisation η),
		 * the others run at line rate until told otherwise. */
		if (!strcmp(names[i], "rdma") || !strcmp(names[i], "dcqcn") || !strcmp(names[i], "timely"))
			assert_true(fct <= ideal + 2);
		else
			assert_true(sb_time_to_sec(fct) <= sb_time_to_sec(ideal) / 0.94);
		assert_true(fct >= ideal - 2);
		/* The receiver had every byte one ACK's way back before the FCT (flows.csv rx_fct_ns):
		 * propagation plus the ACK's serialisation at every hop, nothing queued on an idle path. */
		uint32_t ack = (uint32_t)sc.rdma.ack_bytes;
		sb_time prop = sb_path_rtt(&sim.net, 0, 1, 0, 0) / 2, back = sb_path_rtt(&sim.net, 0, 1, 0, ack) - prop;
		assert_int_equal(sim.nrecords, 1);
		assert_int_equal(sim.records[0].rx_fct, f->received - f->start);
		assert_int_equal(sim.records[0].fct - sim.records[0].rx_fct, back);
		tl_check_and_free(&sim, &sc);
	}
}


/* --- DCQCN --- */

/* Two long flows into one 25 Gb/s port, the second starting 1 ms late. DCQCN's cut is
 * proportional to the rate (R (1 − α/2)) while its increase is the same for both (fast
 * recovery halves the gap to the target, additive and hyper steps are fixed), so the rates
 * converge (Zhu et al. §5: AIMD-like fairness): Jain's index over the second half → 1. The
 * port is the only bottleneck and lossless: utilisation close to 1. */
static void test_dcqcn_fairness(void **state)
{
	(void)state;
	struct sb_scenario sc;
	single_switch(&sc, 3, 25, 40);
	red_25g(&sc);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	struct probe pr = { .sim = &sim, .port = tl_port_to_host(&sim, 0), .nflows = 2,
			    .from = 20 * SB_MS, .to = 40 * SB_MS, .period = 10 * SB_US };
	pr.flows[0] = tl_rdma_flow(&sim, "dcqcn", 1, 0, 0, 0);
	pr.flows[1] = tl_rdma_flow(&sim, "dcqcn", 2, 0, 0, 1 * SB_MS);
	probe_start(&pr);
	tl_run_and_check(&sim);
	double g[2] = { probe_goodput(&pr, 0), probe_goodput(&pr, 1) };
	double util = probe_util(&pr), J = jain(g, 2);
	print_message("dcqcn 2 flows, 25G, RED 100K/400K/0.2, 20-40 ms: goodput %.2f + %.2f Gb/s, Jain %.4f, "
		      "utilisation %.4f, queue mean %.0f B max %.0f B, CNPs %llu, drops %llu\n",
		      g[0] / 1e9, g[1] / 1e9, J, util, pr.q_sum / (double)pr.n, pr.q_max,
		      (unsigned long long)sim.flows.stats.rdma_cnps, (unsigned long long)sim.net.stats.pkts_dropped);
	assert_true(J > 0.95);
	assert_true(util > 0.95);
	assert_true(sim.flows.stats.rdma_cnps > 0);
	assert_int_equal(sim.net.stats.pkts_dropped, 0);
	tl_check_and_free(&sim, &sc);
}

/* Rate-increase events DCQCN needs from rate = target = r0 to reach `want` (worst case: after
 * a cut the target is at least the rate). The stage sequence of cc_dcqcn.c: F fast-recovery
 * events, one additive, then hyper increases; each averages the rate with the target. */
static int dcqcn_events_to(double r0, double want, double line, const struct sb_rdma_params *p)
{
	double rate = r0, target = r0;
	for (int k = 0; k < 100000; k++) {
		if (rate >= want)
			return k;
		if (k >= p->dcqcn_fast_recovery)
			target += (k > p->dcqcn_fast_recovery ? p->dcqcn_hai_mbps : p->dcqcn_ai_mbps) * 1e6;
		if (target > line)
			target = line;
		rate = (rate + target) / 2;
	}
	return -1;
}

/* Flow A runs alone, flow B joins and then ends. Once the queue B left has drained no more
 * marks, hence no CNPs, come, and A's rate climbs by DCQCN's increase events, one per RP timer
 * period after its last cut. From A's rate r0 at that point, the number k of events to reach
 * 90% of line rate follows from the stage sequence (dcqcn_events_to, worst case target = r0),
 * so within k + 1 periods A must deliver ≥ 90% of line rate. */
static void test_dcqcn_recovery(void **state)
{
	(void)state;
	struct sb_scenario sc;
	single_switch(&sc, 3, 25, 150);
	red_25g(&sc);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	struct sb_flow *a = tl_rdma_flow(&sim, "dcqcn", 1, 0, 0, 0);
	const uint64_t b_size = 20000000; /* ~13 ms at half of 25 Gb/s */
	struct sb_flow *b = tl_rdma_flow(&sim, "dcqcn", 2, 0, b_size, 1 * SB_MS);
	/* 10 ms after B's end the queue is long gone (A alone cannot exceed line rate) */
	sb_eventq_run_until(&sim.net.engine.eq, 20 * SB_MS);
	assert_true(b->completed);
	sb_time b_end = b->finish, t0 = b_end + 10 * SB_MS;
	sb_eventq_run_until(&sim.net.engine.eq, t0);
	uint64_t r0 = sb_rdma_qp_of(a)->rate_bps, cnps = sim.flows.stats.rdma_cnps;
	const struct sb_rdma_params *p = &sc.rdma;
	double line = 25e9;
	int k = dcqcn_events_to((double)r0, 0.9 * line, line, p);
	assert_true(k >= 0);
	sb_time bound = t0 + (sb_time)(k + 1) * sb_time_from_us(p->dcqcn_rp_timer_us);
	struct probe pr = { .sim = &sim, .port = tl_port_to_host(&sim, 0), .nflows = 1,
			    .from = bound, .to = bound + 2 * SB_MS, .period = 10 * SB_US };
	pr.flows[0] = a;
	assert_true(pr.to <= 150 * SB_MS);
	probe_start(&pr);
	tl_run_and_check(&sim);
	double g = probe_goodput(&pr, 0);
	print_message("dcqcn recovery: B ended at %.3f ms; 10 ms later A at %.2f Gb/s; %d increase events to 90%% => "
		      "bound %.3f ms; A delivers %.2f Gb/s (%.1f%% of line) in the 2 ms after the bound; CNPs after "
		      "B: %llu\n", sb_time_to_sec(b_end) * 1e3, (double)r0 / 1e9, k, sb_time_to_sec(bound) * 1e3,
		      g / 1e9, 100 * g * 1048 / 1000 / line, (unsigned long long)(sim.flows.stats.rdma_cnps - cnps));
	assert_int_equal(sim.flows.stats.rdma_cnps, cnps);
	/* goodput counts payload: 1000 of every 1048 bytes on the wire */
	assert_true(g * 1048.0 / 1000.0 >= 0.9 * line);
	tl_check_and_free(&sim, &sc);
}

/* --- INT controls: long-lived 8:1 incast --- */

struct incast_out {
	double util, q_mean, q_max, bdp, jain;
	uint64_t drops;
};

/* 8 long flows into one 25 Gb/s port, measured 5–10 ms after start. */
static struct incast_out long_incast(const char *transport, bool cc, double hpcc_ai_mbps)
{
	struct sb_scenario sc;
	single_switch(&sc, 9, 25, 10);
	sc.rdma.cc = cc;
	sc.rdma.hpcc_ai_mbps = hpcc_ai_mbps;
	red_25g(&sc);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	struct probe pr = { .sim = &sim, .port = tl_port_to_host(&sim, 0), .nflows = 8,
			    .from = 5 * SB_MS, .to = 10 * SB_MS, .period = 1 * SB_US };
	for (int i = 0; i < 8; i++)
		pr.flows[i] = tl_rdma_flow(&sim, transport, (uint32_t)(i + 1), 0, 0, 0);
	probe_start(&pr);
	tl_run_and_check(&sim);
	struct incast_out o = { .util = probe_util(&pr), .q_mean = pr.q_sum / (double)pr.n, .q_max = pr.q_max,
				.drops = sim.net.stats.pkts_dropped };
	double g[8];
	for (int i = 0; i < 8; i++)
		g[i] = probe_goodput(&pr, i);
	o.jain = jain(g, 8);
	print_message("  per flow Gb/s:");
	for (int i = 0; i < 8; i++)
		print_message(" %.2f", g[i] / 1e9);
	print_message("\n");
	o.bdp = sb_time_to_sec(sb_rdma_qp_of(pr.flows[0])->base_rtt) * 25e9 / 8;
	print_message("%-13s 8:1 at 25G, 5-10 ms%s: utilisation %.4f, queue mean %.0f B (%.3f BDP) max %.0f B, "
		      "BDP %.0f B, Jain %.4f, drops %llu\n", cc ? transport : "cc off",
		      hpcc_ai_mbps > 0 ? ", hpcc_ai_mbps 150" : "", o.util, o.q_mean,
		      o.q_mean / o.bdp, o.q_max, o.bdp, o.jain, (unsigned long long)o.drops);
	tl_check_and_free(&sim, &sc);
	return o;
}

/* HPCC keeps the bottleneck's inflight at η of its BDP (Li et al. §3.3): utilisation ≈ η, no
 * standing queue. PowerTCP's equilibrium (Addanki et al. §3): N flows each adding β settle
 * where the power is η-normalised, arrival ≈ ηB + Nβ = 24.95 Gb/s < 25 Gb/s for N = 8, so the
 * queue drains to ~0. Both: mean queue ≪ 1 BDP, utilisation ≥ 90%; PowerTCP's β is large
 * enough to equalise the flows within milliseconds.
 *
 * HPCC's fairness comes only from its additive step: per RTT the gap between two windows
 * shrinks by N·W_AI / ΣW while noise in each flow's U multiplies windows. With the artifact's
 * 10 Mb/s × T (11 bytes here, 0.3% per RTT) the flows stay uneven for tens of ms; with the
 * paper's W_AI = W_init (1 − η) / N (≈ 150 Mb/s × T for N = 8) they converge: Jain ≥ 0.95. */
static void test_int_controls_incast(void **state)
{
	(void)state;
	struct incast_out o = long_incast("powertcp", true, 0);
	assert_true(o.util >= 0.90);
	assert_true(o.q_mean <= 0.25 * o.bdp);
	assert_true(o.jain >= 0.95);
	assert_int_equal(o.drops, 0);
	o = long_incast("hpcc", true, 0);
	assert_true(o.util >= 0.90);
	assert_true(o.q_mean <= 0.25 * o.bdp);
	assert_int_equal(o.drops, 0);
	o = long_incast("hpcc", true, 150);
	assert_true(o.util >= 0.90);
	assert_true(o.q_mean <= 0.25 * o.bdp);
	assert_true(o.jain >= 0.95);
	assert_int_equal(o.drops, 0);
}

/* The delay-based controls, same incast. θ-PowerTCP settles where its power Γ = R / (R − β)
 * (cc_powertcp.c): with R = C/8 that is an RTT of 1.05 τ / η ≈ 1.11 τ, a queue of ~0.1 BDP;
 * we ask for under 1 BDP, and a busy link. TIMELY's queue on this incast, bounded by its
 * thresholds, is in tests/sim/test_timely.c. */
static void test_delay_controls_incast(void **state)
{
	(void)state;
	struct incast_out o = long_incast("thetapowertcp", true, 0);
	assert_true(o.util >= 0.90);
	assert_true(o.q_mean <= 1.0 * o.bdp);
	assert_int_equal(o.drops, 0);
}

/* rdma.cc = false: 8 senders at line rate into one port. Without congestion control the
 * port's queue grows at (8 − 1) × 25 Gb/s: after 10 ms it holds 7 × 25e9 × 0.01 / 8 bytes,
 * minus what is still on the wire. */
static void test_cc_off_is_line_rate(void **state)
{
	(void)state;
	struct sb_scenario sc;
	single_switch(&sc, 9, 25, 2);
	sc.rdma.cc = false;
	sc.sw.buffer_bytes = 1ll << 30;
	red_25g(&sc);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	struct sb_flow *f[8];
	for (int i = 0; i < 8; i++)
		f[i] = tl_rdma_flow(&sim, i % 2 ? "dcqcn" : "hpcc", (uint32_t)(i + 1), 0, 0, 0);
	tl_run_and_check(&sim);
	double q = (double)queued(tl_port_to_host(&sim, 0));
	double want = 7 * 25e9 * 0.002 / 8;
	print_message("cc off, 8:1 for 2 ms: queue %.0f B, (8 - 1) x C x t = %.0f B (%.4f); CNPs %llu\n", q, want,
		      q / want, (unsigned long long)sim.flows.stats.rdma_cnps);
	assert_true(fabs(q / want - 1) < 0.01);
	for (int i = 0; i < 8; i++)
		assert_int_equal(sb_rdma_qp_of(f[i])->rate_bps, 25 * GBPS);
	assert_int_equal(sim.flows.stats.rdma_cnps, 0);
	assert_int_equal(sim.net.engine.telemetry.live, 0);
	tl_check_and_free(&sim, &sc);
}

/* --- loss recovery --- */

/* `n` flows (hosts 1..n → 0) of `size` bytes at t = 0 through an egress queue of `queue_pkts`
 * packets (static partitioning), lossy class, with a 1 ms timeout (the 10 ms default is sized
 * for lossless networks, where it must never fire). */
static void lossy_incast(struct sb_scenario *sc, struct sb_sim *sim, struct sb_flow **f, int n, uint64_t size,
			 int queue_pkts, const char *transport)
{
	single_switch(sc, n + 1, 25, 20);
	sc->rdma.rto_us = 1000;
	char q[32];
	snprintf(q, sizeof q, "%d", queue_pkts * 1048);
	tl_set_scheme(sc, "static", "queue_bytes", q);
	sc->sw.buffer_bytes = 1 << 20;
	set_key(sb_switch_param_table, &sc->sw, "ecn_mode", "red");
	set_key(sb_switch_param_table, &sc->sw, "ecn_kmin_bytes", "2096");
	set_key(sb_switch_param_table, &sc->sw, "ecn_kmax_bytes", "8384");
	tl_build(sim, sc);
	for (int i = 0; i < n; i++) {
		f[i] = sb_flow_create(&sim->flows, (uint32_t)(i + 1), 0, size, 0, sb_transport_find(transport));
		f[i]->prio = 3;
	}
}

/* Go-back-N: every drop leaves a hole that the next packet of the flow reveals; the receiver
 * NACKs it and the sender resends from there. Every flow completes with every byte delivered
 * exactly once in order (bytes_received = size), and the resends make up for the drops.
 * DCQCN (marking from 2 packets) varies the rates: line-rate senders started together would
 * lock into a pattern where one flow takes every free slot and the others lose everything,
 * leaving no hole to NACK, only timeouts. */
static void test_go_back_n(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	struct sb_flow *f[4];
	const uint64_t size = 300000;
	lossy_incast(&sc, &sim, f, 4, size, 8, "dcqcn");
	tl_run_and_check(&sim);
	uint64_t retx = 0, timeouts = 0;
	for (int i = 0; i < 4; i++) {
		assert_true(f[i]->completed);
		assert_int_equal(f[i]->bytes_received, size);
		assert_int_equal(f[i]->rcv_nxt, size);
		retx += f[i]->pkts_retx;
		timeouts += f[i]->timeouts;
		assert_int_equal(f[i]->timer_at, SB_TIME_NEVER);
	}
	print_message("go-back-N, 4 x 300 KB dcqcn into 8 packets of queue: drops %llu, NACKs %llu, "
		      "resent %llu, timeouts %llu\n", (unsigned long long)sim.net.stats.pkts_dropped,
		      (unsigned long long)sim.flows.stats.rdma_nacks, (unsigned long long)retx, (unsigned long long)timeouts);
	assert_true(sim.net.stats.pkts_dropped > 0);
	assert_true(sim.flows.stats.rdma_nacks > 0);
	assert_true(retx >= sim.net.stats.pkts_dropped);
	tl_check_and_free(&sim, &sc);
}

/* A lost packet with nothing behind it reveals no hole, so only the timeout recovers it. Three
 * one-packet flows meet a queue of one packet: one packet is on the wire, one waits, one is
 * dropped. Its flow resends when the timer (armed when the packet left) expires and then
 * finishes one ideal FCT later: FCT = rdma.rto_us + ideal, exactly. */
static void test_tail_loss_timeout(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	struct sb_flow *f[3];
	lossy_incast(&sc, &sim, f, 3, 1000, 1, "rdma");
	tl_run_and_check(&sim);
	assert_int_equal(sim.net.stats.pkts_dropped, 1);
	int lost = -1;
	for (int i = 0; i < 3; i++) {
		assert_true(f[i]->completed);
		if (f[i]->timeouts) {
			assert_int_equal(lost, -1);
			lost = i;
		}
	}
	assert_true(lost >= 0);
	sb_time fct = f[lost]->finish - f[lost]->start;
	sb_time want = sb_time_from_us(sc.rdma.rto_us) + sb_transport_ideal_fct(&sim.flows, f[lost]->ops, 1, 0, 1000);
	print_message("tail loss: flow %d timed out once, FCT %.3f us = RTO + ideal %.3f us\n", lost,
		      sb_time_to_us(fct), sb_time_to_us(want));
	assert_int_equal(f[lost]->timeouts, 1);
	assert_int_equal(fct, want);
	tl_check_and_free(&sim, &sc);
}

/* --- lossless incast --- */

/* 16 DCQCN flows of 250 KB into one port, lossless class, a buffer far above the 4 MB they
 * send at once: nothing is lost, and the bottleneck never idles while data is queued, so the
 * last flow ends about when the port has sent every byte: total wire bytes / C after the
 * first packet's base RTT (within a few %: DCQCN may leave the port briefly idle). */
static void test_lossless_incast(void **state)
{
	(void)state;
	struct sb_scenario sc;
	single_switch(&sc, 17, 25, 20);
	red_25g(&sc);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	struct sb_flow *f[16];
	const uint64_t size = 250000;
	for (int i = 0; i < 16; i++)
		f[i] = tl_rdma_flow(&sim, "dcqcn", (uint32_t)(i + 1), 0, size, 0);
	tl_run_and_check(&sim);
	sb_time last = 0;
	for (int i = 0; i < 16; i++) {
		assert_true(f[i]->completed);
		if (f[i]->finish > last)
			last = f[i]->finish;
	}
	/* the ideal FCT of one flow carrying all 16 (base RTT + the rest of the bytes at C) */
	double want = sb_time_to_sec(sb_transport_ideal_fct(&sim.flows, f[0]->ops, 1, 0, 16 * size));
	print_message("lossless 16 x 250 KB dcqcn: last FCT %.1f us, ideal of all bytes as one flow %.1f us (%.4f), "
		      "drops %llu, CNPs %llu\n", sb_time_to_sec(last) * 1e6, want * 1e6, sb_time_to_sec(last) / want,
		      (unsigned long long)sim.net.stats.pkts_dropped, (unsigned long long)sim.flows.stats.rdma_cnps);
	assert_int_equal(sim.net.stats.pkts_dropped, 0);
	assert_int_equal(sim.net.stats.pkts_dropped_lossless, 0);
	assert_true(sb_time_to_sec(last) >= want * (1 - 1e-9));
	assert_true(sb_time_to_sec(last) <= want * 1.05);
	tl_check_and_free(&sim, &sc);
}

/* --- the NIC obeys PFC --- */

struct pfc_step {
	struct sb_sim *sim;
	struct sb_port *nic;
	bool pause;
	uint64_t tx_at, staged;
};

static void pfc_step(void *obj, uint64_t arg)
{
	(void)arg;
	struct pfc_step *s = obj;
	sb_port_pfc(&s->sim->net, s->nic, 1u << 3, s->pause, false);
	s->tx_at = s->nic->tx_bytes;
	s->staged = s->nic->q[3].pkts;
}

/* A PAUSE of priority 3 at the sender's NIC stops the flow after the packet on the wire; the
 * NIC pulls nothing while paused (its priority-3 queue stays empty: packets wait as QP state,
 * not in the NIC), and the RESUME restarts it. The pause shifts the FCT by exactly its length
 * up to the one packet that was being serialised. */
static void test_nic_obeys_pfc(void **state)
{
	(void)state;
	struct sb_scenario sc;
	single_switch(&sc, 2, 25, 5);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	const uint64_t size = 1000000;
	struct sb_flow *f = tl_rdma_flow(&sim, "rdma", 0, 1, size, 0);
	struct sb_port *nic = &sim.net.hosts[0]->node.ports[0];
	struct pfc_step pause = { &sim, nic, true, 0, 0 }, resume = { &sim, nic, false, 0, 0 };
	const sb_time t1 = 100 * SB_US, t2 = 300 * SB_US;
	sb_at(&sim.net.engine, t1, pfc_step, &pause, 0);
	sb_at(&sim.net.engine, t2, pfc_step, &resume, 0);
	tl_run_and_check(&sim);
	assert_true(f->completed);
	sb_time ideal = sb_transport_ideal_fct(&sim.flows, f->ops, 0, 1, size);
	sb_time fct = f->finish - f->start, pkt = sb_tx_time(1048, 25 * GBPS);
	print_message("PFC at the NIC for %.0f us: sent %llu B while paused, %llu packets staged at pause and "
		      "%llu at resume; FCT %.3f us = ideal %.3f + pause %.0f (+%.3f us)\n", sb_time_to_us(t2 - t1),
		      (unsigned long long)(resume.tx_at - pause.tx_at), (unsigned long long)pause.staged,
		      (unsigned long long)resume.staged, sb_time_to_us(fct), sb_time_to_us(ideal),
		      sb_time_to_us(t2 - t1),
		      sb_time_to_us(fct) - sb_time_to_us(ideal + t2 - t1));
	assert_true(resume.tx_at - pause.tx_at <= 1048); /* at most the packet being serialised */
	assert_int_equal(resume.staged, 0);
	assert_true(fct >= ideal + (t2 - t1) - pkt && fct <= ideal + (t2 - t1) + pkt);
	tl_check_and_free(&sim, &sc);
}

/* A control that only paces: rate line/div, window win bytes (0 = none), per flow id (set
 * before the flow starts). Its ACK hook checks that the clock never runs backwards. */
static struct { unsigned div; uint64_t win; } paced_cfg[8];
static sb_time paced_last;
static uint64_t paced_backwards;

static void paced_init(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	assert_true(f->id < SB_ARRAY_LEN(paced_cfg));
	sb_rdma_set_rate(fl, f, qp, (double)qp->line_bps / paced_cfg[f->id].div);
	sb_rdma_set_window(fl, f, qp, paced_cfg[f->id].win);
}

static void paced_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp,
			 const struct sb_rdma_feedback *fb)
{
	(void)f, (void)qp, (void)fb;
	if (sb_now(&fl->net->engine) < paced_last)
		paced_backwards++;
	paced_last = sb_now(&fl->net->engine);
}

static const struct sb_rdma_cc_ops paced_cc = { .name = "paced", .init = paced_init, .on_ack = paced_on_ack };
static void paced_start(struct sb_flows *fl, struct sb_flow *f) { sb_rdma_start(fl, f, &paced_cc); }
static const struct sb_transport_ops paced_transport = {
	.name = "paced", .state_size = sizeof(struct sb_rdma_qp), .start = paced_start,
	.on_data = sb_rdma_on_data, .on_ack = sb_rdma_on_ack, .on_timer = sb_rdma_on_timer,
	.framing = sb_rdma_framing, .lossless_by_default = true,
};

static struct sb_flow *paced_flow(struct sb_sim *sim, unsigned div, uint64_t window, uint64_t size)
{
	struct sb_flow *f = sb_flow_create(&sim->flows, 0, 1, size, 0, &paced_transport);
	assert_true(f->id < SB_ARRAY_LEN(paced_cfg));
	paced_cfg[f->id].div = div;
	paced_cfg[f->id].win = window;
	f->prio = SB_DEFAULT_PRIO_LOSSLESS;
	f->lossless = 1;
	return f;
}

/* Regression (d27ecf6): paced QPs sit in the NIC scheduler's heap; while their priority is
 * PFC-paused nothing pulls, so a deadline can pass unserved. A window-limited slow QP whose
 * ACK then re-activates it re-arms the pacing timer at that past deadline; the old arm()
 * scheduled it there, the event fired "now" with a stale deadline, and the timer was never
 * armed again: the paced QPs stayed in the heap for good (the clock had been asked to run
 * backwards). Now every flow ends, time seen by the ACKs never decreases, and conservation
 * holds. The pause shifts the paced flows by at most its length. */
static void test_paced_qp_overdue_in_pause(void **state)
{
	(void)state;
	struct sb_scenario sc;
	single_switch(&sc, 2, 25, 5);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	struct sb_flow *f[4];
	f[0] = tl_rdma_flow(&sim, "rdma", 0, 1, 2000000, 0);    /* line rate: always in the ring */
	f[1] = paced_flow(&sim, 8, 0, 300000);                /* paced at C/8, no window */
	f[2] = paced_flow(&sim, 40, 1000, 60000);             /* C/40, one packet in flight */
	f[3] = paced_flow(&sim, 3, 0, 300000);                /* paced at C/3 */
	paced_last = 0;
	paced_backwards = 0;
	struct sb_port *nic = &sim.net.hosts[0]->node.ports[0];
	struct pfc_step pause = { &sim, nic, true, 0, 0 }, resume = { &sim, nic, false, 0, 0 };
	const sb_time t1 = 100 * SB_US, t2 = 400 * SB_US;
	sb_at(&sim.net.engine, t1, pfc_step, &pause, 0);
	sb_at(&sim.net.engine, t2, pfc_step, &resume, 0);
	tl_run_and_check(&sim);
	for (int i = 0; i < 4; i++) {
		print_message("flow %d: %s, FCT %.1f us\n", i, f[i]->completed ? "done" : "NOT done",
			      f[i]->completed ? sb_time_to_us(f[i]->finish - f[i]->start) : 0.0);
		assert_true(f[i]->completed);
	}
	assert_int_equal(paced_backwards, 0);
	assert_true(sb_now(&sim.net.engine) >= f[0]->finish);
	/* f[2] alone is bounded by its window (one packet per RTT) and its rate: the pause can
	 * delay it by no more than its length plus one pacing gap and one RTT */
	sb_time gap = sb_tx_time(1048, 25 * GBPS / 40), rtt = sb_path_rtt(&sim.net, 0, 1, 1048, 64);
	sb_time per = gap > rtt ? gap : rtt;
	assert_true(f[2]->finish - f[2]->start <= 60 * per + (t2 - t1) + per + rtt);
	tl_check_and_free(&sim, &sc);
}

/* --- packets as the receiver and the sender see them: first-RTT tags, INT --- */

struct probe_counts {
	uint64_t first_rtt, data, acks_with_int, bad_hops;
	uint8_t hops;
	sb_time last_ts;
};
static struct probe_counts counts;

static void probe_on_data(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt)
{
	counts.data++;
	if (pkt->flags & SB_PF_FIRST_RTT)
		counts.first_rtt++;
	sb_rdma_on_data(fl, f, pkt);
}

/* A control that only checks the INT its ACKs echo: one hop per switch, in path order, each
 * with the link rate, time stamps rising hop by hop. */
static void probe_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp,
			 const struct sb_rdma_feedback *fb)
{
	const struct sb_int_rec *r = fb->hops;
	if (!r)
		return;
	counts.acks_with_int++;
	counts.hops = r->nhops;
	for (uint8_t i = 0; i < r->nhops; i++) {
		if (r->hop[i].rate_bps != 25 * GBPS || r->hop[i].tx_bytes == 0 ||
		    (i && r->hop[i].ts <= r->hop[i - 1].ts))
			counts.bad_hops++;
	}
	if (r->hop[0].ts <= counts.last_ts)
		counts.bad_hops++;
	counts.last_ts = r->hop[0].ts;
}

static const struct sb_rdma_cc_ops probe_cc = { .name = "probe", .telemetry = true, .on_ack = probe_on_ack };

static void probe_start_flow(struct sb_flows *fl, struct sb_flow *f) { sb_rdma_start(fl, f, &probe_cc); }

static const struct sb_transport_ops probe_transport = {
	.name = "probe", .state_size = sizeof(struct sb_rdma_qp), .start = probe_start_flow,
	.on_data = probe_on_data, .on_ack = sb_rdma_on_ack, .on_timer = sb_rdma_on_timer,
	.framing = sb_rdma_framing, .lossless_by_default = true,
};

/* In a leaf-spine a cross-rack packet crosses leaf, spine, leaf: three INT hops. The first
 * ceil(BDP / MTU) packets of a flow carry FIRST_RTT, BDP = bottleneck rate × base RTT of the
 * path (one MTU packet and its ACK); all INT records are returned once the flow is done. */
static void test_first_rtt_and_int(void **state)
{
	(void)state;
	struct sb_scenario sc;
	sb_scenario_defaults(&sc);
	sc.run.duration_ms = 2;
	sc.run.sample_interval_us = 0;
	sc.run.check_invariants = true;
	struct sb_sim sim;
	tl_build(&sim, &sc);
	uint32_t dst = (uint32_t)sc.topo.hosts_per_leaf; /* first host of the second rack */
	struct sb_flow *f = sb_flow_create(&sim.flows, 0, dst, 300000, 0, &probe_transport);
	memset(&counts, 0, sizeof counts);
	tl_run_and_check(&sim);
	assert_true(f->completed);
	sb_time rtt = sb_path_rtt(&sim.net, 0, dst, 1048, 64);
	uint64_t bdp = (uint64_t)((unsigned __int128)rtt * sb_bottleneck_bps(&sim.net, 0, dst) / (8u * SB_SEC));
	uint64_t want = (bdp + 999) / 1000;
	print_message("first RTT: base RTT %.3f us, BDP %llu B -> %llu tagged packets, counted %llu of %llu; "
		      "INT: %llu ACKs with %u hops, %llu bad hops, %llu records live\n", sb_time_to_us(rtt),
		      (unsigned long long)bdp, (unsigned long long)want, (unsigned long long)counts.first_rtt,
		      (unsigned long long)counts.data, (unsigned long long)counts.acks_with_int, counts.hops,
		      (unsigned long long)counts.bad_hops, (unsigned long long)sim.net.engine.telemetry.live);
	assert_int_equal(sb_rdma_qp_of(f)->first_rtt_end, bdp);
	assert_int_equal(counts.first_rtt, want);
	assert_int_equal(counts.acks_with_int, 300);
	assert_int_equal(counts.hops, 3);
	assert_int_equal(counts.bad_hops, 0);
	assert_int_equal(sim.net.engine.telemetry.live, 0);
	tl_check_and_free(&sim, &sc);
}

/* --- framing --- */
/* RDMA has its own framing: with rdma.mtu = 4000 a lone line-rate flow still ends exactly at
 * its ideal FCT (computed with 4000 + 48 B packets), and the largest frame the headroom
 * formulas see is 4048 B. */
static void test_rdma_framing(void **state)
{
	(void)state;
	struct sb_scenario sc;
	single_switch(&sc, 2, 25, 5);
	sc.rdma.mtu = 4000;
	struct sb_sim sim;
	tl_build(&sim, &sc);
	assert_int_equal(sb_sim_max_frame_bytes(&sim), 4048);
	struct sb_flow *f = tl_rdma_flow(&sim, "rdma", 0, 1, 1000000, 0);
	tl_run_and_check(&sim);
	assert_int_equal(f->pkts_sent, 250);
	assert_int_equal(f->finish - f->start, sb_transport_ideal_fct(&sim.flows, f->ops, 0, 1, 1000000));
	assert_true(sb_transport_ideal_fct(&sim.flows, f->ops, 0, 1, 1000000) < sb_ideal_fct(&sim.flows, 0, 1, 1000000));
	tl_check_and_free(&sim, &sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_line_rate_alone),
		cmocka_unit_test(test_cc_off_is_line_rate),
		cmocka_unit_test(test_dcqcn_fairness),
		cmocka_unit_test(test_dcqcn_recovery),
		cmocka_unit_test(test_int_controls_incast),
		cmocka_unit_test(test_delay_controls_incast),
		cmocka_unit_test(test_go_back_n),
		cmocka_unit_test(test_tail_loss_timeout),
		cmocka_unit_test(test_lossless_incast),
		cmocka_unit_test(test_nic_obeys_pfc),
		cmocka_unit_test(test_paced_qp_overdue_in_pause),
		cmocka_unit_test(test_first_rtt_and_int),
		cmocka_unit_test(test_rdma_framing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
