/*
 * test_remove_links.c — `topology.remove_links` (src/topo/remove.c): the DSH Fig. 12 leaf-spine
 * with S0–L3 and S1–L0 removed routes around the missing links on shortest paths with ECMP and
 * carries traffic between every pair of racks; links go from a fat tree too; and every kind of
 * bad entry stops the build with a message naming the file, line and list element.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario/cfgfile.h"
#include "scenario/scenario.h"
#include "sim/sim.h"
#include "testlib.h"
#include "transport/transport.h"

/* DSH's Fig. 12 topology, shrunk to 4 hosts per leaf: 2 spines, 4 leaves, 400G uplinks. */
#define FIG12 "topology: { type = \"leafspine\"; leaves = 4; hosts_per_leaf = 4; spines = 2;\n" \
	      "  host_rate_gbps = 100.0; fabric_rate_gbps = 400.0;\n"                           \
	      "  remove_links = (\"spine0-leaf3\",\n"                                            \
	      "                  \"spine1-leaf0\"); };\n"

static struct sb_node *node_named(struct sb_sim *sim, const char *name)
{
	for (uint32_t i = 0; i < sim->net.nnodes; i++)
		if (!strcmp(sim->net.nodes[i]->name, name))
			return sim->net.nodes[i];
	fail_msg("no node %s", name);
	return NULL;
}

/* Names of the peers of `sw`'s ECMP group towards host h, sorted as the ports are. */
static void ecmp_peers(const struct sb_switch *sw, uint32_t h, char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	uint16_t ports[16];
	uint32_t count = sb_route_group(&sw->node.net->routes, &sw->route, h, ports, 16);
	assert_true(count <= 16);
	for (uint32_t k = 0; k < count; k++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? " " : "",
					 sw->node.ports[ports[k]].peer->node->name);
}

static void expect_group(struct sb_sim *sim, const char *sw, uint32_t h, const char *want)
{
	char got[128];
	ecmp_peers((const struct sb_switch *)node_named(sim, sw), h, got, sizeof(got));
	if (strcmp(got, want) != 0)
		fail_msg("%s towards h%u: ECMP group \"%s\", want \"%s\"", sw, h, got, want);
}

static bool linked(const struct sb_node *a, const char *b)
{
	for (uint16_t p = 0; p < a->nports; p++)
		if (!strcmp(a->ports[p].peer->node->name, b))
			return true;
	return false;
}

/* The removed links are gone, and every switch's ECMP group towards a host is the set of its
 * neighbours one hop closer over what remains: L0 reaches L3 through S0, then L1 or L2, then S1. */
static void test_fig12_routes(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc, FIG12, NULL, 0);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	assert_int_equal(sim.net.nhosts, 16);
	assert_int_equal(sim.net.nswitches, 6);
	assert_false(linked(node_named(&sim, "spine0"), "leaf3"));
	assert_false(linked(node_named(&sim, "spine1"), "leaf0"));
	assert_int_equal(node_named(&sim, "leaf0")->nports, 5);  /* 4 hosts + spine0 */
	assert_int_equal(node_named(&sim, "leaf1")->nports, 6);  /* 4 hosts + both spines */
	assert_int_equal(node_named(&sim, "spine0")->nports, 3); /* leaf0, leaf1, leaf2 */
	assert_int_equal(node_named(&sim, "spine1")->nports, 3); /* leaf1, leaf2, leaf3 */

	/* h0 (leaf0) -> h12 (leaf3): 4 switch-to-switch hops, two ways through the middle leaves */
	expect_group(&sim, "leaf0", 12, "spine0");
	expect_group(&sim, "spine0", 12, "leaf1 leaf2");
	expect_group(&sim, "leaf1", 12, "spine1");
	expect_group(&sim, "leaf2", 12, "spine1");
	expect_group(&sim, "spine1", 12, "leaf3");
	/* and back */
	expect_group(&sim, "leaf3", 0, "spine1");
	expect_group(&sim, "spine1", 0, "leaf1 leaf2");
	expect_group(&sim, "leaf2", 0, "spine0");
	/* leaf1 <-> leaf2 keep both spines */
	expect_group(&sim, "leaf1", 8, "spine0 spine1");
	expect_group(&sim, "leaf2", 4, "spine0 spine1");
	/* leaf0 -> leaf1: one spine left */
	expect_group(&sim, "leaf0", 4, "spine0");
	expect_group(&sim, "spine0", 4, "leaf1");

	/* base RTT h0 <-> h12: 6 links of 2 us each way */
	sb_time rtt = sb_base_rtt(&sim.flows, 0, 12, 64);
	assert_true(rtt > 24 * SB_US && rtt < 25 * SB_US);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Traffic between every pair of hosts arrives, and L0 -> L3 flows spread over both transit
 * leaves: spine0's ports to leaf1 and leaf2 both carry data. */
static void test_fig12_traffic(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc, "run: { duration_ms = 5.0; };\n" FIG12, NULL, 0);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	const struct sb_transport_ops *ops = sb_transport_find("dctcp");
	uint32_t n = 0;
	for (uint32_t s = 0; s < 16; s++)
		for (uint32_t d = 0; d < 16; d++)
			if (s != d)
				sb_flow_create(&sim.flows, s, d, 20000, (sb_time)(n++) * 2 * SB_US, ops);
	tl_run_and_check(&sim);
	assert_int_equal(sim.flows.stats.flows_completed, n);
	assert_int_equal(sim.net.stats.pkts_dropped, 0);
	const struct sb_node *s0 = node_named(&sim, "spine0");
	for (uint16_t p = 0; p < s0->nports; p++)
		assert_true(s0->ports[p].tx_bytes > 0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Any topology: a fat tree k = 4 without two of its core links still connects every pair. */
static void test_fattree_without_core_links(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc,
		    "run: { duration_ms = 5.0; };\n"
		    "topology: { type = \"fattree\"; k = 4; remove_links = [\"spine0-core0\", \"core3-spine7\"]; };",
		    NULL, 0);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	assert_false(linked(node_named(&sim, "core0"), "spine0"));
	assert_true(linked(node_named(&sim, "core1"), "spine0"));
	assert_int_equal(node_named(&sim, "core0")->nports, 3);
	const struct sb_transport_ops *ops = sb_transport_find("dctcp");
	uint32_t n = 0;
	for (uint32_t s = 0; s < 16; s++)
		for (uint32_t d = 0; d < 16; d++)
			if (s != d)
				sb_flow_create(&sim.flows, s, d, 5000, (sb_time)(n++) * SB_US, ops);
	tl_run_and_check(&sim);
	assert_int_equal(sim.flows.stats.flows_completed, n);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Load `text` from a file with overrides, validate and build: must fail with exactly `want`,
 * where "F" in want stands for the file's path. */
static void expect_build_error(const char *text, const char *set, const char *want)
{
	char *dir = tl_tmpdir();
	char *path = tl_write_file(dir, "s.cfg", text);
	struct sb_scenario sc;
	struct sb_error err = { "" };
	const char *sets[] = { set };
	sb_scenario_defaults(&sc);
	int rc = sb_cfg_load(&sc, path, NULL, sets, set ? 1 : 0, &err);
	if (rc == 0)
		rc = sb_scenario_validate(&sc, &err);
	struct sb_sim sim;
	if (rc == 0) {
		rc = sb_sim_build(&sim, &sc, &err);
		sb_sim_free(&sim);
	}
	char expected[600];
	const char *f = strstr(want, "F:");
	if (f == want)
		snprintf(expected, sizeof(expected), "%s%s", path, want + 1);
	else
		snprintf(expected, sizeof(expected), "%s", want);
	if (rc == 0 || strcmp(err.msg, expected) != 0)
		fail_msg("input:\n%s\nwant: %s\ngot (rc %d): %s", text, expected, rc, err.msg);
	sb_scenario_free(&sc);
	free(path);
	tl_rmtree(dir);
	free(dir);
}

static void test_bad_names(void **state)
{
	(void)state;
	const char *head = "topology: { type = \"leafspine\"; leaves = 4; hosts_per_leaf = 4; spines = 2;\n";
	char text[512];
#define WITH(list) (snprintf(text, sizeof(text), "%s  remove_links = (\"spine0-leaf3\",\n    %s); };\n", head, list), text)
	expect_build_error(WITH("\"spine2-leaf0\""),
			   NULL, "F:3: topology.remove_links[1]: no node \"spine2\" in this topology (its nodes: h0..h15, leaf0..leaf3, spine0..spine1)");
	expect_build_error(WITH("\"spine1 leaf0\""),
			   NULL, "F:3: topology.remove_links[1]: expected \"NODE-NODE\" naming the two ends of a link, e.g. \"spine0-leaf3\", got \"spine1 leaf0\"");
	expect_build_error(WITH("\"leaf0-leaf1\""),
			   NULL, "F:3: topology.remove_links[1]: no link between leaf0 and leaf1 to remove (leaf0 is linked to spine0, spine1)");
	expect_build_error(WITH("\"leaf3-spine0\""),
			   NULL, "F:3: topology.remove_links[1]: the link leaf3-spine0 is already removed by topology.remove_links[0]");
	expect_build_error(WITH("\"h5-leaf1\""),
			   NULL, "F:3: topology.remove_links[1]: h5-leaf1 is a host's link; a host has only one, so removing it would cut h5 off");
	expect_build_error(WITH("\"spine1-spine1\""),
			   NULL, "F:3: topology.remove_links[1]: \"spine1-spine1\" names spine1 at both ends; a link joins two nodes");
	expect_build_error(WITH("\"spine1-leaf3\""),
			   NULL, "F:2: topology.remove_links: without these links the network is disconnected: no path from h0 to leaf3");
	expect_build_error(WITH("3"), NULL, "F:3: topology.remove_links[1]: expected a string, got 3");
	/* a --set has no line */
	snprintf(text, sizeof(text), "%s};\n", head);
	expect_build_error(text, "topology.remove_links=spine0-leaf3,spine1-leaf7",
			   "topology.remove_links[1]: no node \"leaf7\" in this topology (its nodes: h0..h15, leaf0..leaf3, spine0..spine1)");
	/* a single string is a list of one */
	expect_build_error("topology: { remove_links = \"spine0-leaf01\"; };\n", NULL,
			   "F:1: topology.remove_links[0]: no node \"leaf01\" in this topology (its nodes: h0..h31, leaf0..leaf3, spine0..spine1)");
	/* a number where the list should be */
	expect_build_error("topology: { remove_links = 4; };\n", NULL,
			   "F:1: topology.remove_links: expected a list of strings, got 4");
#undef WITH
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fig12_routes),
		cmocka_unit_test(test_fig12_traffic),
		cmocka_unit_test(test_fattree_without_core_links),
		cmocka_unit_test(test_bad_names),
	};
	return cmocka_run_group_tests_name("remove_links", tests, NULL, NULL);
}
