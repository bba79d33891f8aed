/*
 * test_routes.c — the forwarding tables by destination rack (src/topo/routes.c) against the
 * per-host computation they replace: for every switch and every destination host of small
 * leaf-spines and fat-trees, with and without failed links, the ECMP group (same ports, same
 * order) and the port the flow hash picks are those of a breadth-first search from the host
 * itself; every host reaches every other on a shortest path; equal rows are shared (2 for a
 * leaf-spine, k + 2 for a fat-tree); and a plan whose racks do not match its wiring is refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario/scenario.h"
#include "sim/sim.h"
#include "testlib.h"
#include "topo/topo.h"

/* --- the oracle: the per-host tables sharebuf had before routes.c, computed independently --- */

/* Hop distances from host h to every node, through switches only (hosts are never transit). */
static void distances_from_host(const struct sb_sim *sim, uint32_t h, uint32_t *dist, uint32_t *queue)
{
	for (uint32_t i = 0; i < sim->net.nnodes; i++)
		dist[i] = UINT32_MAX;
	size_t qh = 0, qt = 0;
	dist[h] = 0;
	queue[qt++] = h;
	while (qh < qt) {
		const struct sb_node *n = sim->net.nodes[queue[qh++]];
		if (n->kind == SB_NODE_HOST && n->id != h)
			continue;
		for (uint16_t p = 0; p < n->nports; p++) {
			const struct sb_node *m = n->ports[p].peer->node;
			if (dist[m->id] == UINT32_MAX) {
				dist[m->id] = dist[n->id] + 1;
				queue[qt++] = m->id;
			}
		}
	}
}

/* The ports of `sw` whose peer is one hop closer to host h, in port order. */
static uint32_t oracle_group(const struct sb_switch *sw, uint32_t h, const uint32_t *dist, uint16_t *ports)
{
	uint32_t n = 0, d = dist[sw->node.id];
	for (uint16_t p = 0; p < sw->node.nports; p++) {
		const struct sb_node *m = sw->node.ports[p].peer->node;
		if (dist[m->id] + 1 == d && !(m->kind == SB_NODE_HOST && m->id != h))
			ports[n++] = p;
	}
	return n;
}

/* The choice of the per-host table: the hash salted with the switch's index, multiply-shift. */
static uint16_t oracle_pick(const struct sb_switch *sw, const uint16_t *ports, uint32_t n, uint32_t hash)
{
	uint32_t x = (uint32_t)(sb_mix64((uint64_t)hash ^ ((uint64_t)sw->index << 32)) >> 32);
	return ports[(uint32_t)(((uint64_t)x * n) >> 32)];
}

#define MAX_GROUP 512

/* Every switch towards every host: the same group in the same order, and the same pick for a
 * spread of flow hashes. Returns the number of (switch, host) pairs with a group of 2 or more. */
static uint32_t expect_oracle(const struct sb_sim *sim)
{
	uint32_t *dist = malloc(sim->net.nnodes * sizeof(*dist)), *queue = malloc(sim->net.nnodes * sizeof(*queue));
	uint16_t want[MAX_GROUP], got[MAX_GROUP];
	uint32_t multi = 0;
	for (uint32_t h = 0; h < sim->net.nhosts; h++) {
		distances_from_host(sim, h, dist, queue);
		for (uint32_t s = 0; s < sim->net.nswitches; s++) {
			const struct sb_switch *sw = sim->net.switches[s];
			uint32_t n = oracle_group(sw, h, dist, want);
			uint32_t m = sb_route_group(&sim->net.routes, &sw->route, h, got, MAX_GROUP);
			if (m != n || memcmp(want, got, n * sizeof(uint16_t)) != 0)
				fail_msg("%s towards h%u: a group of %u ports (first %u), want %u (first %u)", sw->node.name, h,
					 m, m ? got[0] : 0, n, n ? want[0] : 0);
			multi += n > 1;
			for (uint32_t k = 0; k < 64; k++) {
				uint32_t hash = (uint32_t)sb_mix64(((uint64_t)h << 40) ^ ((uint64_t)s << 20) ^ k);
				uint16_t pick = sb_route(&sim->net.routes, &sw->route, h, hash);
				if (pick != oracle_pick(sw, want, n, hash))
					fail_msg("%s towards h%u, hash %08x: port %u, want %u", sw->node.name, h, hash, pick,
						 oracle_pick(sw, want, n, hash));
			}
		}
	}
	free(dist);
	free(queue);
	return multi;
}

/* Every host reaches every other host, for several flow hashes, in as many hops as the
 * shortest path has. */
static void expect_reach(const struct sb_sim *sim)
{
	uint32_t *dist = malloc(sim->net.nnodes * sizeof(*dist)), *queue = malloc(sim->net.nnodes * sizeof(*queue));
	for (uint32_t dst = 0; dst < sim->net.nhosts; dst++) {
		distances_from_host(sim, dst, dist, queue);
		for (uint32_t src = 0; src < sim->net.nhosts; src++) {
			if (src == dst)
				continue;
			for (uint32_t hash = 1; hash < 1u << 31; hash = hash * 7 + 12345) {
				const struct sb_port *p = &sim->net.hosts[src]->node.ports[0];
				uint32_t hops = 1;
				while (p->peer->node->kind == SB_NODE_SWITCH && hops <= sim->net.nnodes) {
					const struct sb_switch *sw = (const struct sb_switch *)p->peer->node;
					p = &sw->node.ports[sb_route(&sim->net.routes, &sw->route, dst, hash)];
					hops++;
				}
				if (p->peer->node->id != dst || hops != dist[src])
					fail_msg("h%u to h%u (hash %08x): ends at %s after %u hops, want h%u after %u", src, dst,
						 hash, p->peer->node->name, hops, dst, dist[src]);
			}
		}
	}
	free(dist);
	free(queue);
}

static void build(struct sb_sim *sim, struct sb_scenario *sc, const char *text)
{
	tl_scenario(sc, text, NULL, 0);
	tl_build(sim, sc);
}

static void done(struct sb_sim *sim, struct sb_scenario *sc)
{
	sb_sim_free(sim);
	sb_scenario_free(sc);
}

/* --- leaf-spine --- */

static void test_leafspine(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	build(&sim, &sc, "topology: { type = \"leafspine\"; leaves = 5; hosts_per_leaf = 3; spines = 3; };");
	/* every leaf to the 12 hosts of other racks, over 3 spines */
	assert_int_equal(expect_oracle(&sim), 5 * 12);
	expect_reach(&sim);
	/* one row for the leaves (each delivers its own rack directly), one for the spines */
	assert_int_equal(sim.net.routes.nrows, 2);
	assert_int_equal(sim.net.routes.nracks, 5);
	for (uint32_t h = 0; h < 15; h++) {
		assert_int_equal(sim.net.routes.dst[h].rack, h / 3);
		assert_int_equal(sim.net.routes.dst[h].port, h % 3); /* host ports come first */
	}
	assert_false(sim.net.routes.regular); /* 3 hosts per rack: the table, not a shift */
	done(&sim, &sc);
}

/* A power-of-two number of hosts per rack: lookups are arithmetic (routes.h, `regular`), and
 * still every group and pick is the oracle's. */
static void test_leafspine_regular(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	build(&sim, &sc, "topology: { type = \"leafspine\"; leaves = 6; hosts_per_leaf = 4; spines = 3; };");
	assert_true(sim.net.routes.regular);
	assert_int_equal(sim.net.routes.rack_shift, 2);
	assert_int_equal(expect_oracle(&sim), 6 * 20);
	expect_reach(&sim);
	done(&sim, &sc);
}

/* Parallel links: a spine's group towards a leaf is its links to it, in port order. */
static void test_leafspine_parallel_links(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	build(&sim, &sc, "topology: { type = \"leafspine\"; leaves = 4; hosts_per_leaf = 2; spines = 2; links_per_spine = 3; };");
	expect_oracle(&sim);
	expect_reach(&sim);
	uint16_t ports[8];
	const struct sb_switch *spine1 = sim.net.switches[5];
	assert_int_equal(sb_route_group(&sim.net.routes, &spine1->route, 7, ports, 8), 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(ports[i], 9 + i); /* leaf3's links are spine1's ports 9..11 */
	done(&sim, &sc);
}

/* Groups of 256 ports or more do not fit a packed entry and are looked up on the side: the
 * leaves' 256 uplinks (4 spines × 64 links), then 300 (5 × 60). */
static void test_big_groups(void **state)
{
	(void)state;
	static const char *const shapes[] = {
		"topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 2; spines = 4; links_per_spine = 64; };",
		"topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 2; spines = 5; links_per_spine = 60; };",
	};
	for (uint32_t i = 0; i < 2; i++) {
		struct sb_scenario sc;
		struct sb_sim sim;
		build(&sim, &sc, shapes[i]);
		assert_int_equal(expect_oracle(&sim), 2 * 2 + (4 + i) * 4);
		expect_reach(&sim);
		assert_int_equal(sim.net.routes.nbig, 1); /* the leaves' uplinks: one list, shared */
		done(&sim, &sc);
	}
}

static void test_single_switch(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	build(&sim, &sc, "topology: { type = \"single\"; hosts = 6; };");
	expect_oracle(&sim);
	expect_reach(&sim);
	assert_int_equal(sim.net.routes.nrows, 1);
	done(&sim, &sc);
}

/* --- fat-tree --- */

static void test_fattree(void **state)
{
	(void)state;
	static const char *const shapes[] = {
		"topology: { type = \"fattree\"; k = 4; };",
		"topology: { type = \"fattree\"; k = 6; };",
	};
	for (int i = 0; i < 2; i++) {
		uint32_t k = 4 + 2 * (uint32_t)i, half = k / 2, hosts = k * k * k / 4;
		struct sb_scenario sc;
		struct sb_sim sim;
		build(&sim, &sc, shapes[i]);
		/* an edge switch has k/2 ways to every host outside its rack; an aggregation switch
		 * k/2 ways to every host outside its pod */
		uint32_t multi = expect_oracle(&sim);
		assert_int_equal(multi, k * half * (hosts - half) + k * half * (hosts - half * half));
		expect_reach(&sim);
		/* the edges share a row, the aggregation switches of a pod one, the cores one */
		assert_int_equal(sim.net.routes.nrows, k + 2);
		assert_int_equal(sim.net.routes.nracks, k * half);
		for (uint32_t h = 0; h < hosts; h++)
			assert_int_equal(sim.net.routes.dst[h].rack, h / half);
		assert_true(sim.net.routes.regular == (half == 2)); /* 2 hosts per edge: a shift; 3: the table */
		done(&sim, &sc);
	}
}

/* --- failed links (topo/remove.c) --- */

/* DSH's Fig. 12 shape: L0 reaches L3 through S0, a middle leaf, then S1; every group is the
 * per-host one, and rows are no longer all shared. */
static void test_removed_links(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	build(&sim, &sc,
	      "topology: { type = \"leafspine\"; leaves = 4; hosts_per_leaf = 3; spines = 2;\n"
	      "  remove_links = (\"spine0-leaf3\", \"spine1-leaf0\"); };");
	expect_oracle(&sim);
	expect_reach(&sim);
	assert_true(sim.net.routes.nrows > 2);
	done(&sim, &sc);
	build(&sim, &sc,
	      "topology: { type = \"fattree\"; k = 4;\n"
	      "  remove_links = (\"core0-spine0\", \"leaf3-spine2\", \"spine5-leaf5\"); };");
	expect_oracle(&sim);
	expect_reach(&sim);
	assert_true(sim.net.routes.nrows > 6);
	done(&sim, &sc);
}

/* --- plans whose racks do not match their wiring --- */

/* 4 hosts on 2 switches joined by `joined` links; rack of each host as given. */
static int build_plan(const uint32_t rack[4], uint32_t nracks, int joined, struct sb_error *err)
{
	struct sb_topo_plan plan = { .nhosts = 4, .nswitches = 2, .nracks = nracks };
	plan.host_rack = malloc(4 * sizeof(uint32_t));
	memcpy(plan.host_rack, rack, 4 * sizeof(uint32_t));
	plan.switch_tier = calloc(2, 1);
	plan.switch_tier[0] = plan.switch_tier[1] = 1;
	for (uint32_t h = 0; h < 4; h++)
		sb_topo_plan_link(&plan, h, 4 + h / 2, 25000000000ull, SB_US);
	for (int i = 0; i < joined; i++)
		sb_topo_plan_link(&plan, 4, 5, 25000000000ull, SB_US);
	struct sb_sim sim;
	memset(&sim, 0, sizeof(sim));
	int rc = sb_topo_build(&sim.net, &plan, err);
	sb_topo_plan_free(&plan);
	sb_sim_free(&sim);
	return rc;
}

static void test_inconsistent_plans(void **state)
{
	(void)state;
	struct sb_error err = { "" };
	static const uint32_t fine[4] = { 0, 0, 1, 1 }, split[4] = { 0, 1, 1, 1 }, shared[4] = { 0, 0, 0, 1 };
	assert_int_equal(build_plan(fine, 2, 1, &err), 0);
	assert_int_equal(build_plan(split, 2, 1, &err), -1);
	assert_string_equal(err.msg, "topology: switch leaf0 serves racks 0 and 1");
	assert_int_equal(build_plan(shared, 2, 1, &err), -1);
	assert_string_equal(err.msg, "topology: the hosts of rack 0 hang off leaf0 and leaf1");
	assert_int_equal(build_plan(fine, 2, 0, &err), -1);
	assert_string_equal(err.msg, "topology: host 2 is unreachable from switch leaf0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leafspine),
		cmocka_unit_test(test_leafspine_regular),
		cmocka_unit_test(test_leafspine_parallel_links),
		cmocka_unit_test(test_big_groups),
		cmocka_unit_test(test_single_switch),
		cmocka_unit_test(test_fattree),
		cmocka_unit_test(test_removed_links),
		cmocka_unit_test(test_inconsistent_plans),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
