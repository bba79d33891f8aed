/*
 * test_topo.c — topologies through the library: shapes and port counts, reachability,
 * ECMP spreading and per-flow path stickiness, ideal FCT and base RTT, oversubscription.
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
#include "scenario/scenario.h"
#include "sim/sim.h"
#include "testlib.h"
#include "transport/transport.h"

/* --- helpers --- */

static void build(struct sb_sim *sim, const struct sb_scenario *sc)
{
	struct sb_error err = { "" };
	if (sb_sim_build(sim, sc, &err))
		fail_msg("build: %s", err.msg);
	sim->flows.keep_finished = true; /* the tests read sim->records after the run */
}

static void run_check_free(struct sb_sim *sim, struct sb_scenario *sc)
{
	struct sb_error err = { "" };
	sb_sim_run(sim);
	if (sb_sim_check(sim, &err))
		fail_msg("sb_sim_check: %s", err.msg);
	sb_sim_free(sim);
	sb_scenario_free(sc);
}

static const struct sb_transport_ops *transport(const char *name)
{
	const struct sb_transport_ops *ops = sb_transport_find(name);
	if (!ops)
		fail_msg("no transport %s", name);
	return ops;
}

static uint32_t count_switch_peers(const struct sb_node *n, int kind)
{
	uint32_t c = 0;
	for (uint16_t p = 0; p < n->nports; p++)
		c += n->ports[p].peer->node->kind == kind;
	return c;
}

/* Sum of the rates of a switch's ports towards other switches. */
static uint64_t uplink_bps(const struct sb_node *n)
{
	uint64_t s = 0;
	for (uint16_t p = 0; p < n->nports; p++)
		if (n->ports[p].peer->node->kind == SB_NODE_SWITCH)
			s += n->ports[p].rate_bps;
	return s;
}

/* Every port's peer points back at it, every host has one port, node ids are indices. */
static void check_wiring(const struct sb_sim *sim, uint64_t *total_ports)
{
	uint64_t ports = 0;
	for (uint32_t i = 0; i < sim->net.nnodes; i++) {
		const struct sb_node *n = sim->net.nodes[i];
		assert_int_equal(n->id, i);
		assert_int_equal(n->kind, i < sim->net.nhosts ? SB_NODE_HOST : SB_NODE_SWITCH);
		for (uint16_t p = 0; p < n->nports; p++) {
			assert_ptr_equal(n->ports[p].peer->peer, &n->ports[p]);
			assert_ptr_equal(n->ports[p].node, n);
			assert_int_equal(n->ports[p].index, p);
		}
		ports += n->nports;
	}
	for (uint32_t h = 0; h < sim->net.nhosts; h++)
		assert_int_equal(sim->net.hosts[h]->node.nports, 1);
	*total_ports = ports;
}

/* --- shapes --- */

static void test_single_switch_shape(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc, "topology: { type = \"single\"; hosts = 12; host_rate_gbps = 40.0; };", NULL, 0);
	struct sb_sim sim;
	build(&sim, &sc);
	uint64_t ports;
	check_wiring(&sim, &ports);
	assert_int_equal(sim.net.nhosts, 12);
	assert_int_equal(sim.net.nswitches, 1);
	assert_int_equal(sim.net.nnodes, 13);
	assert_int_equal(sim.net.nracks, 1);
	assert_int_equal(sim.net.switches[0]->node.nports, 12);
	assert_int_equal(count_switch_peers(&sim.net.switches[0]->node, SB_NODE_HOST), 12);
	assert_int_equal(ports, 24);
	assert_int_equal(sim.net.switches[0]->node.ports[5].rate_bps, 40000000000ull);
	assert_string_equal(sim.net.switches[0]->node.name, "leaf0");
	for (uint32_t h = 0; h < 12; h++)
		assert_int_equal(sim.net.hosts[h]->rack, 0);
	assert_int_equal(sim.net.rack_first[0], 0);
	assert_int_equal(sim.net.rack_count[0], 12);
	run_check_free(&sim, &sc);
}

static void test_leafspine_shape(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc,
		    "topology: { type = \"leafspine\"; leaves = 3; hosts_per_leaf = 5; spines = 2;\n"
		    "  links_per_spine = 2; host_rate_gbps = 25.0; fabric_rate_gbps = 100.0; };",
		    NULL, 0);
	struct sb_sim sim;
	build(&sim, &sc);
	uint64_t ports;
	check_wiring(&sim, &ports);
	assert_int_equal(sim.net.nhosts, 15);
	assert_int_equal(sim.net.nswitches, 5);
	assert_int_equal(sim.net.nracks, 3);
	/* links: 15 host links + 3 leaves × 2 spines × 2 parallel links */
	assert_int_equal(ports, 2 * (15 + 12));
	for (uint32_t s = 0; s < 3; s++) {
		const struct sb_node *leaf = &sim.net.switches[s]->node;
		assert_int_equal(leaf->tier, 1);
		assert_int_equal(leaf->nports, 5 + 4);
		assert_int_equal(count_switch_peers(leaf, SB_NODE_HOST), 5);
		/* host-facing ports come first, then the uplinks */
		for (uint16_t p = 0; p < 5; p++)
			assert_int_equal(leaf->ports[p].peer->node->kind, SB_NODE_HOST);
		assert_int_equal(uplink_bps(leaf), 4 * 100000000000ull);
		assert_int_equal(sim.net.rack_first[s], 5 * s);
		assert_int_equal(sim.net.rack_count[s], 5);
	}
	for (uint32_t s = 3; s < 5; s++) {
		const struct sb_node *spine = &sim.net.switches[s]->node;
		assert_int_equal(spine->tier, 2);
		assert_int_equal(spine->nports, 3 * 2);
		assert_int_equal(count_switch_peers(spine, SB_NODE_SWITCH), 6);
	}
	assert_string_equal(sim.net.switches[2]->node.name, "leaf2");
	assert_string_equal(sim.net.switches[4]->node.name, "spine1");
	for (uint32_t h = 0; h < 15; h++) {
		assert_int_equal(sim.net.hosts[h]->rack, h / 5);
		assert_ptr_equal(sim.net.hosts[h]->node.ports[0].peer->node, &sim.net.switches[h / 5]->node);
	}
	/* leaf0 reaches a host of leaf2 over all 4 uplinks (2 spines × 2 links) */
	const struct sb_switch *leaf0 = sim.net.switches[0];
	assert_int_equal(sb_route_group(&sim.net.routes, &leaf0->route, 10, NULL, 0), 4);
	assert_int_equal(sb_route_group(&sim.net.routes, &leaf0->route, 1, NULL, 0), 1);
	run_check_free(&sim, &sc);
}

static void test_fattree_shape(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc, "topology: { type = \"fattree\"; k = 4; };", NULL, 0);
	struct sb_sim sim;
	build(&sim, &sc);
	uint64_t ports;
	check_wiring(&sim, &ports);
	assert_int_equal(sim.net.nhosts, 16);       /* k^3/4 */
	assert_int_equal(sim.net.nswitches, 20);    /* 8 edge + 8 aggregation + 4 core */
	assert_int_equal(sim.net.nracks, 8);
	assert_int_equal(ports, 2 * (16 + 16 + 16));
	uint32_t tiers[4] = { 0 };
	for (uint32_t s = 0; s < sim.net.nswitches; s++) {
		const struct sb_node *n = &sim.net.switches[s]->node;
		assert_int_equal(n->nports, 4);  /* every switch has radix k */
		assert_true(n->tier >= 1 && n->tier <= 3);
		tiers[n->tier]++;
		assert_int_equal(count_switch_peers(n, SB_NODE_HOST), n->tier == 1 ? 2 : 0);
	}
	assert_int_equal(tiers[1], 8);
	assert_int_equal(tiers[2], 8);
	assert_int_equal(tiers[3], 4);
	for (uint32_t h = 0; h < 16; h++)
		assert_int_equal(sim.net.hosts[h]->rack, h / 2);
	/* an edge switch has 2 uplinks towards another pod; an aggregation switch 2 core links */
	const struct sb_switch *edge0 = sim.net.switches[0], *agg0 = sim.net.switches[8];
	assert_int_equal(sb_route_group(&sim.net.routes, &edge0->route, 15, NULL, 0), 2);
	assert_int_equal(sb_route_group(&sim.net.routes, &agg0->route, 15, NULL, 0), 2);
	/* ... and one way down to its own hosts */
	assert_int_equal(sb_route_group(&sim.net.routes, &agg0->route, 0, NULL, 0), 1);
	/* inter-pod path: 6 links */
	sb_time rtt = sb_base_rtt(&sim.flows, 0, 15, 1048);
	sb_time link = 2 * SB_US, ser = sb_tx_time(1048, 25000000000ull), ack = sb_tx_time(64, 25000000000ull);
	assert_int_equal(rtt, 2 * 6 * link + 6 * ser + 6 * ack);
	run_check_free(&sim, &sc);
}

/* --- reachability: all-to-all small flows complete --- */

static void all_to_all(const char *topo_text, uint32_t want_hosts)
{
	struct sb_scenario sc;
	tl_scenario(&sc, topo_text, NULL, 0);
	struct sb_sim sim;
	build(&sim, &sc);
	assert_int_equal(sim.net.nhosts, want_hosts);
	const struct sb_transport_ops *ops = transport("dctcp");
	uint32_t n = sim.net.nhosts;
	for (uint32_t s = 0; s < n; s++)
		for (uint32_t d = 0; d < n; d++)
			if (s != d)
				sb_flow_create(&sim.flows, s, d, 3000, (sb_time)(s * n + d) * 50 * SB_NS, ops);
	sb_sim_run(&sim);
	struct sb_error err = { "" };
	if (sb_sim_check(&sim, &err))
		fail_msg("sb_sim_check: %s", err.msg);
	assert_int_equal(sim.flows.stats.flows_started, (uint64_t)n * (n - 1));
	assert_int_equal(sim.flows.stats.flows_completed, (uint64_t)n * (n - 1));
	assert_int_equal(sim.nrecords, (size_t)n * (n - 1));
	/* every ordered pair exactly once */
	uint8_t *seen = calloc((size_t)n * n, 1);
	for (size_t i = 0; i < sim.nrecords; i++) {
		const struct sb_flow_result *r = &sim.records[i];
		assert_int_not_equal(r->src, r->dst);
		assert_int_equal(r->size, 3000);
		assert_int_equal(seen[r->src * n + r->dst], 0);
		seen[r->src * n + r->dst] = 1;
		assert_true(r->fct >= r->ideal);
	}
	free(seen);
	assert_int_equal(sim.net.stats.pkts_dropped, 0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_all_to_all_single(void **state)
{
	(void)state;
	all_to_all("run: { duration_ms = 5.0; arrivals_ms = 5.0; };\ntopology: { type = \"single\"; hosts = 10; };", 10);
}

static void test_all_to_all_leafspine(void **state)
{
	(void)state;
	all_to_all("run: { duration_ms = 5.0; arrivals_ms = 5.0; };\n"
		   "topology: { type = \"leafspine\"; leaves = 3; hosts_per_leaf = 4; spines = 3; };", 12);
}

static void test_all_to_all_fattree(void **state)
{
	(void)state;
	all_to_all("run: { duration_ms = 5.0; arrivals_ms = 5.0; };\ntopology: { type = \"fattree\"; k = 4; };", 16);
}

/* --- ECMP --- */

/* Many equal flows from leaf0's hosts to leaf1's: the data bytes each uplink of leaf0 carries
 * are within ±25 % of their mean, and every uplink is used. */
static void test_ecmp_spreads_over_spines(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc,
		    "run: { duration_ms = 20.0; arrivals_ms = 20.0; };\n"
		    "topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 8; spines = 4; };", NULL, 0);
	struct sb_sim sim;
	build(&sim, &sc);
	const struct sb_transport_ops *ops = transport("dctcp");
	const uint32_t nflows = 1200, size = 20000;
	for (uint32_t i = 0; i < nflows; i++)
		sb_flow_create(&sim.flows, i % 8, 8 + (i / 8) % 8, size, (sb_time)i * 5 * SB_US, ops);
	sb_sim_run(&sim);
	struct sb_error err = { "" };
	if (sb_sim_check(&sim, &err))
		fail_msg("sb_sim_check: %s", err.msg);
	assert_int_equal(sim.flows.stats.flows_completed, nflows);
	const struct sb_node *leaf0 = &sim.net.switches[0]->node;
	assert_int_equal(leaf0->nports, 12);
	double tx[4], mean = 0;
	for (int u = 0; u < 4; u++) {
		const struct sb_port *p = &leaf0->ports[8 + u];
		assert_int_equal(p->peer->node->kind, SB_NODE_SWITCH);
		tx[u] = (double)p->tx_bytes;
		mean += tx[u] / 4;
	}
	print_message("ecmp: leaf0 uplink tx bytes %.0f %.0f %.0f %.0f (mean %.0f)\n", tx[0], tx[1], tx[2], tx[3], mean);
	/* at least the payload of every flow crossed leaf0's uplinks */
	assert_true(mean * 4 >= (double)nflows * size);
	for (int u = 0; u < 4; u++)
		assert_true(fabs(tx[u] - mean) <= 0.25 * mean);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Fat-tree k = 4: flows from pod 0 to pod 3 spread over both uplinks of each edge switch and
 * over both core links of each aggregation switch of pod 0. */
static void test_ecmp_fattree(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc, "run: { duration_ms = 20.0; arrivals_ms = 20.0; };\ntopology: { type = \"fattree\"; k = 4; };",
		    NULL, 0);
	struct sb_sim sim;
	build(&sim, &sc);
	const uint32_t nflows = 1600;
	for (uint32_t i = 0; i < nflows; i++) /* pod 0 = hosts 0..3, pod 3 = hosts 12..15 */
		sb_flow_create(&sim.flows, i % 4, 12 + (i / 4) % 4, 10000, (sb_time)i * 5 * SB_US, transport("dctcp"));
	sb_sim_run(&sim);
	struct sb_error err = { "" };
	if (sb_sim_check(&sim, &err))
		fail_msg("sb_sim_check: %s", err.msg);
	assert_int_equal(sim.flows.stats.flows_completed, nflows);
	/* switches 0, 1 = edges of pod 0; 8, 9 = its aggregation switches */
	const uint32_t sws[] = { 0, 1, 8, 9 };
	for (size_t i = 0; i < 4; i++) {
		const struct sb_node *n = &sim.net.switches[sws[i]]->node;
		double tx[2];
		int k = 0;
		for (uint16_t p = 0; p < n->nports; p++)
			if (n->ports[p].peer->node->kind == SB_NODE_SWITCH && n->ports[p].peer->node->tier > n->tier)
				tx[k++] = (double)n->ports[p].tx_bytes;
		assert_int_equal(k, 2);
		double mean = (tx[0] + tx[1]) / 2;
		print_message("ecmp fat-tree: %s up-ports tx %.0f %.0f\n", n->name, tx[0], tx[1]);
		assert_true(mean * 2 >= (double)nflows * 10000 / 2); /* each edge/agg pair carries half */
		assert_true(fabs(tx[0] - mean) <= 0.25 * mean);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Per-flow ECMP: one long flow stays on one spine (all its bytes on one uplink of leaf0) and,
 * never being reordered, needs no retransmission. */
static void test_ecmp_per_flow_no_reordering(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc,
		    "run: { duration_ms = 10.0; arrivals_ms = 10.0; };\n"
		    "topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 4; spines = 4; links_per_spine = 2; };",
		    NULL, 0);
	const char *names[] = { "newreno", "dctcp", "cubic" };
	for (size_t t = 0; t < 3; t++) {
		struct sb_sim sim;
		build(&sim, &sc);
		const uint64_t size = 5000000;
		struct sb_flow *f = sb_flow_create(&sim.flows, 1, 6, size, 0, transport(names[t]));
		sb_sim_run(&sim);
		struct sb_error err = { "" };
		if (sb_sim_check(&sim, &err))
			fail_msg("sb_sim_check: %s", err.msg);
		assert_true(f->completed);
		assert_int_equal(f->pkts_retx, 0);
		assert_int_equal(f->timeouts, 0);
		assert_int_equal(sim.net.stats.pkts_dropped, 0);
		const struct sb_node *leaf0 = &sim.net.switches[0]->node;
		int used = 0;
		for (uint16_t p = 4; p < leaf0->nports; p++) {
			if (leaf0->ports[p].tx_bytes == 0)
				continue;
			used++;
			assert_true(leaf0->ports[p].tx_bytes >= size);
		}
		assert_int_equal(used, 1);
		sb_sim_free(&sim);
	}
	sb_scenario_free(&sc);
}

/* --- ideal FCT and base RTT --- */

/* A flow alone on an idle network, sent at once (initial window = size): its FCT is the ideal
 * FCT. Returns measured / ideal. */
static double fct_over_ideal(const char *topo_text, uint32_t src, uint32_t dst, uint64_t size)
{
	struct sb_scenario sc;
	tl_scenario(&sc, topo_text, NULL, 0);
	struct sb_sim sim;
	build(&sim, &sc);
	struct sb_flow *f = sb_flow_create(&sim.flows, src, dst, size, 1 * SB_US, transport("dctcp"));
	f->init_window = size;
	sb_sim_run(&sim);
	struct sb_error err = { "" };
	if (sb_sim_check(&sim, &err))
		fail_msg("sb_sim_check: %s", err.msg);
	assert_int_equal(sim.nrecords, 1);
	const struct sb_flow_result *r = &sim.records[0];
	assert_int_equal(r->ideal, sb_ideal_fct(&sim.flows, src, dst, size));
	double ratio = (double)r->fct / (double)r->ideal;
	print_message("fct %llu B %u->%u: measured %.3f us, ideal %.3f us, ratio %.5f\n", (unsigned long long)size,
		      src, dst, sb_time_to_us(r->fct), sb_time_to_us(r->ideal), ratio);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return ratio;
}

static void test_ideal_fct_matches_idle_network(void **state)
{
	(void)state;
	const char *ls = "run: { duration_ms = 5.0; arrivals_ms = 5.0; };\n"
			 "topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 4; spines = 2; };";
	const char *single = "run: { duration_ms = 5.0; arrivals_ms = 5.0; };\n"
			     "topology: { type = \"single\"; hosts = 4; host_rate_gbps = 10.0; };";
	const char *ft = "run: { duration_ms = 5.0; arrivals_ms = 5.0; };\ntopology: { type = \"fattree\"; k = 4; };";
	double r;
	r = fct_over_ideal(ls, 0, 5, 1000000);
	assert_true(r >= 0.99 && r <= 1.01);
	r = fct_over_ideal(ls, 0, 5, 1000); /* one packet */
	assert_true(r >= 0.97 && r <= 1.03);
	r = fct_over_ideal(ls, 1, 2, 1000000); /* same leaf */
	assert_true(r >= 0.99 && r <= 1.01);
	r = fct_over_ideal(single, 3, 0, 1000000);
	assert_true(r >= 0.99 && r <= 1.01);
	r = fct_over_ideal(single, 3, 0, 500);
	assert_true(r >= 0.97 && r <= 1.03);
	r = fct_over_ideal(ft, 0, 15, 1000000);
	assert_true(r >= 0.99 && r <= 1.01);
	/* unequal rates: a faster fabric, then a slower one (bottleneck inside the network) */
	const char *fast = "run: { duration_ms = 5.0; arrivals_ms = 5.0; };\n"
			   "topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 4; spines = 2;\n"
			   "  host_rate_gbps = 10.0; fabric_rate_gbps = 40.0; };";
	const char *slow = "run: { duration_ms = 5.0; arrivals_ms = 5.0; };\n"
			   "topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 4; spines = 2;\n"
			   "  host_rate_gbps = 40.0; fabric_rate_gbps = 10.0; };\n"
			   "switch: { buffer_bytes = 20000000; };";
	r = fct_over_ideal(fast, 0, 5, 1000000);
	assert_true(r >= 0.99 && r <= 1.01);
	r = fct_over_ideal(fast, 0, 5, 1000);
	assert_true(r >= 0.97 && r <= 1.03);
	r = fct_over_ideal(slow, 0, 5, 1000000);
	assert_true(r >= 0.99 && r <= 1.01);
	r = fct_over_ideal(slow, 0, 5, 1000);
	assert_true(r >= 0.97 && r <= 1.03);
	r = fct_over_ideal(slow, 0, 5, 1500); /* two packets, the second a short one */
	assert_true(r >= 0.97 && r <= 1.03);
}

static void test_base_rtt_exact(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc,
		    "topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 4; spines = 2;\n"
		    "  host_rate_gbps = 25.0; fabric_rate_gbps = 25.0; host_delay_us = 2.0; fabric_delay_us = 2.0; };\n"
		    "tcp: { mss = 1000; header_bytes = 48; ack_bytes = 64; };",
		    NULL, 0);
	struct sb_sim sim;
	build(&sim, &sc);
	/* 2·4·2 µs + 4·(1048·8/25e9 s) + 4·(64·8/25e9 s) = 16 µs + 4·335.36 ns + 4·20.48 ns */
	const sb_time want4 = 16000000 + 4 * 335360 + 4 * 20480;
	assert_int_equal(want4, 17423360);
	assert_int_equal(sb_base_rtt(&sim.flows, 0, 4, 1048), want4);
	assert_int_equal(sb_base_rtt(&sim.flows, 7, 2, 1048), want4);
	/* same leaf: 2 links */
	assert_int_equal(sb_base_rtt(&sim.flows, 0, 3, 1048), 8000000 + 2 * 335360 + 2 * 20480);
	assert_int_equal(sb_bottleneck_bps(&sim.net, 0, 4), 25000000000ull);
	/* ideal FCT of a 1-packet flow is its base RTT; of 2 packets one more packet time */
	assert_int_equal(sb_ideal_fct(&sim.flows, 0, 4, 1000), want4);
	assert_int_equal(sb_ideal_fct(&sim.flows, 0, 4, 2000), want4 + 335360);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* --- oversubscription --- */

static void test_oversubscription(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc,
		    "topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 16; spines = 4;\n"
		    "  host_rate_gbps = 25.0; fabric_rate_gbps = 25.0; };",
		    NULL, 0);
	struct sb_sim sim;
	build(&sim, &sc);
	for (uint32_t l = 0; l < 2; l++) {
		const struct sb_node *leaf = &sim.net.switches[l]->node;
		uint64_t down = 0;
		for (uint16_t p = 0; p < leaf->nports; p++)
			if (leaf->ports[p].peer->node->kind == SB_NODE_HOST)
				down += leaf->ports[p].rate_bps;
		assert_int_equal(uplink_bps(leaf), 4 * 25000000000ull);
		assert_int_equal(down, 16 * 25000000000ull);
		assert_int_equal(down / uplink_bps(leaf), 4); /* 4:1 */
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);

	/* links_per_spine = 2 doubles the uplink capacity: 2:1 */
	const char *sets[] = { "topology.links_per_spine=2" };
	tl_scenario(&sc,
		    "topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 16; spines = 4; };", sets, 1);
	build(&sim, &sc);
	assert_int_equal(uplink_bps(&sim.net.switches[0]->node), 8 * 25000000000ull);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Through an oversubscribed leaf, 16 long flows to another rack share the 4 uplinks: the
 * aggregate goodput is bounded by 4 × rate, not 16 × rate. */
static void test_oversubscribed_throughput(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc,
		    "run: { duration_ms = 3.0; arrivals_ms = 3.0; };\n"
		    "topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 16; spines = 4;\n"
		    "  host_rate_gbps = 10.0; fabric_rate_gbps = 10.0; };",
		    NULL, 0);
	struct sb_sim sim;
	build(&sim, &sc);
	for (uint32_t h = 0; h < 16; h++)
		sb_flow_create(&sim.flows, h, 16 + h, 0, 0, transport("dctcp"));
	sb_sim_run(&sim);
	struct sb_error err = { "" };
	if (sb_sim_check(&sim, &err))
		fail_msg("sb_sim_check: %s", err.msg);
	uint64_t up = 0;
	const struct sb_node *leaf0 = &sim.net.switches[0]->node;
	for (uint16_t p = 16; p < leaf0->nports; p++)
		up += leaf0->ports[p].tx_bytes;
	double gbps = (double)up * 8 / 3e-3 / 1e9;
	print_message("oversubscribed leaf: uplinks carried %.2f Gb/s (capacity 40)\n", gbps);
	assert_true(gbps <= 40.0 * 1.001);
	assert_true(gbps >= 40.0 * 0.6); /* ECMP collisions may idle an uplink, but not most */
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_switch_shape),
		cmocka_unit_test(test_leafspine_shape),
		cmocka_unit_test(test_fattree_shape),
		cmocka_unit_test(test_all_to_all_single),
		cmocka_unit_test(test_all_to_all_leafspine),
		cmocka_unit_test(test_all_to_all_fattree),
		cmocka_unit_test(test_ecmp_spreads_over_spines),
		cmocka_unit_test(test_ecmp_fattree),
		cmocka_unit_test(test_ecmp_per_flow_no_reordering),
		cmocka_unit_test(test_ideal_fct_matches_idle_network),
		cmocka_unit_test(test_base_rtt_exact),
		cmocka_unit_test(test_oversubscription),
		cmocka_unit_test(test_oversubscribed_throughput),
	};
	return cmocka_run_group_tests_name("topo", tests, NULL, NULL);
}
