/*
 * test_limits.c — inputs too large for the machine (sim/estimate.h): each is refused before
 * anything is built, at the key to change, with the estimate in the message; and every
 * scenario of the repository (experiments, fidelity, bench, profiles) still fits.
 *
 * Each case once allocated until the kernel killed the process: a topology of 10^6 or 4·10^6
 * hosts, a fat-tree of k = 64, a run of 10^7 ms with sampling or traffic, 10^7 incast queries
 * per second, a flow list far larger than memory, a burst of 10^12 bytes in one window. Since
 * finished flows are released and their statistics kept on disk (core/spill.h), what grows
 * with a run's length is an incast query's record; the flows in flight take the rest.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "scenario/cfgfile.h"
#include "sim/estimate.h"
#include "sim/sim.h"
#include "testlib.h"

extern const char sb_default_scenario[]; /* scenarios/default.cfg, as `run` without a file */
#define DEF sb_default_scenario

/* Load text + overrides and validate (must succeed). */
static void load(struct sb_scenario *sc, const char *path, const char *text, const char *const *sets, size_t n)
{
	struct sb_error err;
	sb_scenario_defaults(sc);
	if (sb_cfg_load(sc, path, text, sets, n, &err) || sb_scenario_validate(sc, &err))
		fail_msg("%s", err.msg);
}

/* CPU time, not wall time: the bound below says the refusal did no building, and must hold on
 * a loaded machine, where wall time also counts the other jobs' turns. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Expect sb_sim_build to refuse at once, its message starting with `place` and naming `what`. */
static void expect_refused(const char *text, const char *const *sets, size_t n, const char *place, const char *what)
{
	struct sb_scenario sc;
	load(&sc, NULL, text, sets, n);
	struct sb_sim sim;
	struct sb_error err;
	double t0 = now_s();
	int rc = sb_sim_build(&sim, &sc, &err);
	double took = now_s() - t0;
	sb_sim_free(&sim);
	print_message("refused in %.3f s of CPU: %s\n", took, err.msg);
	if (rc != -1)
		fail_msg("%s: built, expected a refusal", place);
	if (strncmp(err.msg, place, strlen(place)) != 0 || !strstr(err.msg, what) ||
	    !strstr(err.msg, "make it smaller or raise run.max_memory_mb"))
		fail_msg("want %s ... %s ..., got %s", place, what, err.msg);
	assert_true(took < 2.0); /* refused from the estimate, not after building */
	sb_scenario_free(&sc);
}

static void test_oversized_refused(void **state)
{
	(void)state;
	/* 10^6 and 4·10^6 hosts: the network itself is what does not fit (the forwarding tables,
	 * by rack, are small; a k = 64 fat-tree now fits: test_estimate_scale) */
	const char *hosts1m[] = { "topology.leaves=1000", "topology.hosts_per_leaf=1000", "run.max_memory_mb=1024" };
	expect_refused("workloads = ();", hosts1m, 3,
		       "--set topology.hosts_per_leaf: expected a run of at most 1024 MB (run.max_memory_mb)",
		       "for 1000000 hosts, 1002 switches and their ports");
	const char *hosts4m[] = { "topology.hosts_per_leaf=4096", "topology.leaves=1024", "run.max_memory_mb=8192" };
	expect_refused("workloads = ();", hosts4m, 3, "--set topology.leaves: expected a run of at most",
		       "for 4194304 hosts, 1026 switches and their ports");
	/* 10^7 ms of traffic: the flows in flight and the occupancy samples cost the same at any
	 * length (finished flows and samples live in flows.csv, occupancy.csv and core/spill.h's
	 * files); what still grows is an incast query's record (48 B), 6.4·10^7 of them here */
	const char *long_traffic[] = { "run.duration_ms=1e7", "run.arrivals_ms=1e7", "run.max_memory_mb=1024" };
	expect_refused(DEF, long_traffic, 3, "(default):38: workloads.1.query_rate: expected a run", "B per query");
	struct sb_scenario sc;
	struct sb_mem_estimate shortrun, longrun;
	const char *short_sets[] = { "run.duration_ms=100" }, *long_sets[] = { "run.duration_ms=1e7" };
	load(&sc, NULL, DEF, short_sets, 1);
	sb_estimate_memory(&sc, &shortrun);
	sb_scenario_free(&sc);
	load(&sc, NULL, DEF, long_sets, 1); /* arrivals stop at the default's time: a long drain */
	sb_estimate_memory(&sc, &longrun);
	sb_scenario_free(&sc);
	assert_true(longrun.part[SB_MEM_SAMPLES].bytes == shortrun.part[SB_MEM_SAMPLES].bytes);
	assert_true(longrun.total == shortrun.total);
	/* 10^7 queries per second per host */
	const char *queries[] = { "workloads.1.query_rate=1e7", "run.max_memory_mb=8192" };
	expect_refused(DEF, queries, 2, "--set workloads.1.query_rate: expected a run", "flows of workload 1 (32 receivers × 1e+07 queries/s");
	/* a burst of 10^12 bytes per source in one window: 10^9 packets in each NIC */
	const char *burst[] = { "workloads.2.type=burst", "workloads.2.srcs=[1,2]", "workloads.2.dst=9",
				"workloads.2.size_bytes=1e12", "run.max_memory_mb=8192" };
	expect_refused(DEF, burst, 5, "--set workloads.2.size_bytes: expected a run", "the packets workload 2 puts in host NICs faster");
	/* 10^7 queries/s for 0.2 ms: 1.3·10^5 flows fit, but their 1 MB responses (full window)
	 * wait in the NICs: 8.0 GB measured */
	const char *responses[] = { "run.duration_ms=0.3", "run.arrivals_ms=0.2", "workloads.2.type=incast", "workloads.2.fanin=2",
				    "workloads.2.query_rate=1e7", "run.max_memory_mb=4096" };
	expect_refused(DEF, responses, 6, "--set workloads.2.size_bytes: expected a run", "the packets workload 2 puts in host NICs faster");
	/* an unresponsive source 400 times faster than its link, for 100 s */
	const char *cbr[] = { "run.duration_ms=100000", "run.arrivals_ms=1", "run.sample_interval_us=0", "workloads.2.type=cbr",
			      "workloads.2.srcs=[1]", "workloads.2.dst=9", "workloads.2.rate_gbps=10000", "run.max_memory_mb=8192" };
	expect_refused(DEF, cbr, 8, "--set workloads.2.rate_gbps: expected a run", "the packets workload 2 leaves in host NICs");
	/* a switch buffer of 1 TB can hold a billion packets */
	const char *buf[] = { "switch.buffer_bytes=1e12", "run.max_memory_mb=8192" };
	expect_refused(DEF, buf, 2, "--set switch.buffer_bytes: expected a run", "the packets a full switch buffer holds");
	/* ib's flow table, in each of 64 MMUs of each of 6 switches */
	const char *ib[] = { "switch.scheme=ib", "switch.ib.table_slots=8388608", "switch.mmu_ports=1", "run.max_memory_mb=8192" };
	expect_refused(DEF, ib, 4, "--set switch.ib.table_slots: expected a run", "flow tables of 8388608 slots");
}

/* Write a flow list of n lines to dir/name, flow i starting at i × step_us. */
static char *write_list(const char *dir, const char *name, int n, int step_us)
{
	char *path = tl_path_in(dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "start_us,src,dst,size_bytes,priority,transport\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "%d,%d,%d,1000,1,dctcp\n", i * step_us, i % 8, 8 + i % 8);
	fclose(f);
	return path;
}

/* A flow list's memory follows the flows that start close together, not its length: 10^5
 * flows starting at once are refused at 64 MB (the rule a 10^7-line list meets at the
 * default limit, without writing 200 MB in a test), the same 10^5 flows one per microsecond
 * run in it. */
static void test_flow_list_refused(void **state)
{
	(void)state;
	char *dir = tl_tmpdir();
	char *burst = write_list(dir, "burst.csv", 100000, 0), *spread = write_list(dir, "spread.csv", 100000, 1);
	char text[600];
	snprintf(text, sizeof(text), "run: { max_memory_mb = 64; };\nworkloads = (\n  { type = \"file\";\n    path = \"%s\"; }\n);\n",
		 burst);
	expect_refused(text, NULL, 0, "(default):4: workloads.0.path: expected a run of at most 64 MB (run.max_memory_mb)",
		       "the 100001 lines of workload 0's flow list, a flow each (1e+05 within 1 ms");
	/* spread out over the 100 ms of the run: about 2000 at once; it builds within the limit,
	 * every id reserved */
	snprintf(text, sizeof(text), "run: { max_memory_mb = 64; duration_ms = 100; };\nworkloads = (\n  { type = \"file\";\n"
		 "    path = \"%s\"; }\n);\n", spread);
	struct sb_scenario sc;
	load(&sc, NULL, text, NULL, 0);
	struct sb_mem_estimate e;
	sb_estimate_memory(&sc, &e);
	print_message("spread list: %.0f flows, %.0f at once, %.1f MB\n", e.flows, e.in_flight, e.total / 1048576);
	assert_true(e.in_flight >= 1000 && e.in_flight <= 2002);
	struct sb_sim sim;
	struct sb_error err;
	if (sb_sim_build(&sim, &sc, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(sim.flows.table.next_id, 100000);
	assert_true(sim.flows.table.live < 100); /* only the first records were read */
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	free(burst);
	free(spread);
	tl_rmtree(dir);
	free(dir);
}

/* The estimate against what building takes: a k = 16 fat-tree and the default scenario's
 * flows (1300 started) are within a factor of two of the model, never under it by much. */
static void test_estimate_scale(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_mem_estimate e;
	load(&sc, NULL, DEF, NULL, 0);
	sb_estimate_memory(&sc, &e);
	print_message("default scenario: %.0f flows, %.1f MB\n", e.flows, e.total / 1048576);
	assert_true(e.flows > 1300 && e.flows < 1500); /* 1300 start in the default run */
	assert_true(e.total < 64 * 1048576.0);
	sb_scenario_free(&sc);
	/* a fat-tree k: hosts k^3/4, switches 5k^2/4, racks k^2/2; tables by rack (net/routes.h) */
	const char *k16[] = { "topology.type=fattree", "topology.k=16" };
	load(&sc, NULL, "workloads = ();", k16, 2);
	sb_estimate_memory(&sc, &e);
	double fwd = e.part[SB_MEM_FORWARDING].bytes;
	print_message("k = 16: forwarding %.3f MB\n", fwd / 1048576);
	/* the build's 320 switches × 128 racks of distances, plus k + 2 = 18 shared rows, port
	 * lists and per host entries: more than the distances, less than a row per switch (4
	 * bytes per rack) would be, and far less than the 320 × 1024 × 8 bytes of per-host tables */
	assert_true(fwd > 320.0 * 128 && fwd < 320.0 * 128 * 4);
	assert_int_equal(sb_check_memory(&sc, NULL), 0);
	sb_scenario_free(&sc);
	/* failed links may make every switch's row different: then a row per switch is counted */
	const char *k16_failed[] = { "topology.type=fattree", "topology.k=16", "topology.remove_links=[\"core0-spine0\"]" };
	load(&sc, NULL, "workloads = ();", k16_failed, 3);
	sb_estimate_memory(&sc, &e);
	assert_true(e.part[SB_MEM_FORWARDING].bytes - fwd == (320.0 - 18) * 128 * 4);
	sb_scenario_free(&sc);
	/* k = 64 (65,536 hosts) fits the automatic limit's cap of 8 GB (per-host tables made it
	 * 36 GB; built without workloads it peaks at 0.44 GB); the network is most of it */
	const char *k64[] = { "topology.type=fattree", "topology.k=64", "run.max_memory_mb=8192" };
	load(&sc, NULL, "workloads = ();", k64, 3);
	sb_estimate_memory(&sc, &e);
	print_message("k = 64: %.0f MB, forwarding %.1f MB\n", e.total / 1048576, e.part[SB_MEM_FORWARDING].bytes / 1048576);
	assert_true(e.part[SB_MEM_FORWARDING].bytes < e.part[SB_MEM_NETWORK].bytes / 10);
	assert_int_equal(sb_check_memory(&sc, NULL), 0);
	sb_scenario_free(&sc);
}

/* Every scenario of the repository fits in 1 GB: the estimate refuses no real experiment. */
static void test_repository_scenarios_fit(void **state)
{
	(void)state;
	static const char *files[] = {
		"scenarios/default.cfg", "scenarios/profiles/tcp-ns3.cfg", "experiments/abm/abm.cfg",
		"experiments/dsh/fig11.cfg", "experiments/dsh/fig12.cfg", "experiments/dsh/fig13.cfg",
		"experiments/dsh/fig14.cfg", "experiments/dsh/fig14-harness.cfg", "experiments/edt/fig14.cfg",
		"experiments/edt/onoff.cfg", "experiments/occamy/burst.cfg", "experiments/occamy/choking.cfg",
		"experiments/reverie/reverie.cfg", "bench/reference.cfg", "bench/reverie-rdma.cfg",
		"fidelity/ns3-reverie/dt-dcqcn-l0.8-w50ms-d50ms.cfg",
	};
	const char *sets[] = { "run.max_memory_mb=1024" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct sb_scenario sc;
		struct sb_error err;
		load(&sc, files[i], NULL, sets, 1);
		if (sb_check_memory(&sc, &err))
			fail_msg("%s: %s", files[i], err.msg);
		sb_scenario_free(&sc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oversized_refused),
		cmocka_unit_test(test_flow_list_refused),
		cmocka_unit_test(test_estimate_scale),
		cmocka_unit_test(test_repository_scenarios_fit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
