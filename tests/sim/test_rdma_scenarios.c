/*
 * test_rdma_scenarios.c — RDMA transports as users meet them through scenarios: default
 * classes (RDMA lossless on priority 3, TCP lossy on 1), a mixed leaf-spine run that must be
 * deterministic, bad input, and the `sharebuf` program on an RDMA scenario.
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
#include "sim/sim.h"
#include "testlib.h"
#include "transport/transport.h"


/* Workloads that leave prio and class alone get their transport's: RDMA lossless on 3, TCP
 * lossy on 1 (the Reverie evaluation's classes); explicit keys win. */
static void test_workload_default_class(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc,
		    "run = { duration_ms = 2; arrivals_ms = 2; sample_interval_us = 0; };\n"
		    "topology = { type = \"single\"; hosts = 4; };\n"
		    "switch = { scheme = \"sonic\"; buffer_bytes = 10000000; };\n"
		    "workloads = (\n"
		    "  { type = \"longlived\"; transport = \"dcqcn\"; srcs = [1]; dst = 0; size_bytes = 100000; },\n"
		    "  { type = \"longlived\"; transport = \"dctcp\"; srcs = [2]; dst = 0; size_bytes = 100000; },\n"
		    "  { type = \"longlived\"; transport = \"hpcc\"; srcs = [3]; dst = 0; size_bytes = 100000;\n"
		    "    prio = 5; class = \"lossy\"; } );\n", NULL, 0);
	struct sb_sim sim;
	tl_run_kept(&sim, &sc);
	assert_int_equal(sim.flows.table.next_id, 3);
	struct sb_flow *f0 = sb_flow_get(&sim.flows, 0), *f1 = sb_flow_get(&sim.flows, 1), *f2 = sb_flow_get(&sim.flows, 2);
	assert_int_equal(f0->prio, 3);
	assert_true(f0->lossless);
	assert_int_equal(f1->prio, 1);
	assert_false(f1->lossless);
	assert_int_equal(f2->prio, 5);
	assert_false(f2->lossless);
	assert_int_equal(sim.net.lossless_prio_mask, 1u << 3);
	assert_int_equal(sim.flows.stats.flows_completed, 3);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Same scenario and seed, same results: a leaf-spine with RDMA background (DCQCN), RDMA
 * incasts (HPCC, INT) and TCP background, all at once. */
static const char mixed_text[] =
	"run = { duration_ms = 6; arrivals_ms = 3; sample_interval_us = 0; };\n"
	"switch = { scheme = \"sonic\"; buffer_bytes = 200000000; ecn_mode = \"red\"; ecn_kmin_bytes = 100000;\n"
	"           ecn_kmax_bytes = 400000; ecn_pmax = 0.2; };\n"
	"workloads = (\n"
	"  { type = \"poisson\"; transport = \"dcqcn\"; load = 0.3; prio = 3; class = \"lossless\"; },\n"
	"  { type = \"incast\"; transport = \"hpcc\"; query_rate = 500; fanin = 8; size_bytes = 400000;\n"
	"    prio = 3; class = \"lossless\"; },\n"
	"  { type = \"poisson\"; transport = \"powertcp\"; load = 0.1; prio = 3; class = \"lossless\"; },\n"
	"  { type = \"poisson\"; transport = \"dctcp\"; load = 0.2; prio = 1; class = \"lossy\"; } );\n";

static void run_mixed(struct sb_sim *sim, struct sb_scenario *sc)
{
	tl_scenario(sc, mixed_text, NULL, 0);
	tl_run_kept(sim, sc);
}

static void test_mixed_deterministic(void **state)
{
	(void)state;
	struct sb_scenario sc1, sc2;
	struct sb_sim a, b;
	run_mixed(&a, &sc1);
	run_mixed(&b, &sc2);
	print_message("mixed leaf-spine: %llu flows started, %llu completed, %llu events, %llu packet-hops, drops %llu "
		      "(lossless %llu), CNPs %llu, NACKs %llu\n", (unsigned long long)a.flows.stats.flows_started,
		      (unsigned long long)a.flows.stats.flows_completed, (unsigned long long)a.net.engine.eq.executed,
		      (unsigned long long)a.net.stats.packet_hops, (unsigned long long)a.net.stats.pkts_dropped,
		      (unsigned long long)a.net.stats.pkts_dropped_lossless, (unsigned long long)a.flows.stats.rdma_cnps,
		      (unsigned long long)a.flows.stats.rdma_nacks);
	assert_true(a.flows.stats.flows_completed > 100);
	assert_int_equal(a.net.stats.pkts_dropped_lossless, 0);
	assert_int_equal(a.nrecords, b.nrecords);
	assert_int_equal(a.net.engine.eq.executed, b.net.engine.eq.executed);
	assert_memory_equal(&a.flows.stats, &b.flows.stats, sizeof a.flows.stats);
	assert_memory_equal(&a.net.stats, &b.net.stats, sizeof a.net.stats);
	for (size_t i = 0; i < a.nrecords; i++) {
		assert_int_equal(a.records[i].id, b.records[i].id);
		assert_int_equal(a.records[i].fct, b.records[i].fct);
		assert_int_equal(a.records[i].ideal, b.records[i].ideal);
		assert_true(a.records[i].fct >= a.records[i].ideal);
	}
	sb_sim_free(&a);
	sb_sim_free(&b);
	sb_scenario_free(&sc1);
	sb_scenario_free(&sc2);
}

static void expect_error(const char *const *sets, size_t n, const char *want)
{
	struct sb_scenario sc;
	struct sb_error err = { { 0 } };
	sb_scenario_defaults(&sc);
	int rc = sb_cfg_load(&sc, NULL, "", sets, n, &err);
	if (rc == 0)
		rc = sb_scenario_validate(&sc, &err);
	print_message("%s -> %s\n", sets[0], err.msg);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err.msg, want));
	sb_scenario_free(&sc);
}

static void test_bad_input(void **state)
{
	(void)state;
	const char *a[] = { "rdma.mtu=65500" };
	expect_error(a, 1, "rdma.mtu: mtu + header_bytes = 65548 bytes, a packet can be at most 65535 bytes");
	const char *b[] = { "rdma.timely_thigh_us=10" };
	expect_error(b, 1, "rdma.timely_thigh_us: 10 is below timely_tlow_us (50)");
	const char *c[] = { "rdma.dcqcn_g=2" };
	expect_error(c, 1, "rdma.dcqcn_g");
	const char *d[] = { "rdma.dcqnc_g=0.1" };
	expect_error(d, 1, "did you mean rdma.dcqcn_g");
}

/* The command line: a scenario file with an RDMA workload that leaves prio and class alone
 * runs, its flows are lossless on priority 3 in flows.csv, and summary.json counts the CNPs
 * DCQCN's receivers sent (a 4:1 incast above RED's Kmin must mark). */
static void test_cli_run(void **state)
{
	(void)state;
	char *dir = tl_tmpdir();
	char *cfg = tl_write_file(dir, "rdma.cfg",
				  "run = { duration_ms = 20; arrivals_ms = 20; sample_interval_us = 0; };\n"
				  "topology = { type = \"single\"; hosts = 5; };\n"
				  "switch = { scheme = \"sonic\"; buffer_bytes = 20000000; ecn_mode = \"red\";\n"
				  "           ecn_kmin_bytes = 100000; ecn_kmax_bytes = 400000; ecn_pmax = 0.2; };\n"
				  "workloads = ( { type = \"burst\"; transport = \"dcqcn\"; srcs = [1, 2, 3, 4];\n"
				  "                dst = 0; size_bytes = 1000000; } );\n");
	char *out = tl_path_in(dir, "out");
	char args[512];
	snprintf(args, sizeof args, "run %s --out %s --quiet", cfg, out);
	struct tl_cmd r = tl_sharebuf(args);
	if (r.status != 0)
		fail_msg("sharebuf %s: status %d: %s", args, r.status, r.err);
	char *summary = tl_slurp_in(out, "summary.json"), *flows = tl_slurp_in(out, "flows.csv");
	const char *rdma = strstr(summary, "\"rdma\"");
	assert_non_null(rdma);
	const char *c = strstr(rdma, "\"cnps\":");
	assert_non_null(c);
	long cnps = strtol(c + 7, NULL, 10);
	print_message("sharebuf run: 4 x 1 MB dcqcn burst, %ld CNPs; flows.csv:\n%s", cnps, flows);
	assert_true(cnps > 0);
	assert_non_null(strstr(flows, ",3,lossless,burst,"));
	assert_null(strstr(flows, "lossy"));
	tl_cmd_free(&r);
	free(summary);
	free(flows);
	free(out);
	free(cfg);
	tl_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_workload_default_class),
		cmocka_unit_test(test_mixed_deterministic),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_cli_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
