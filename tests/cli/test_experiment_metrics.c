/*
 * test_experiment_metrics.c — the `extract` scripts of the ABM and Occamy experiments' sweeps
 * (experiments/abm/metrics.sh, experiments/occamy/metrics-fig14.sh and metrics-fig12.sh;
 * docs/sweep.md §2) on a run directory written here, whose every number is known: each metric
 * of the REPORT.md tables must come out exactly, so a wrong column, filter, threshold or
 * percentile rank in a script fails here rather than moving a report's number unnoticed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testlib.h"

/* Run `sh SCRIPT DIR` from the repository root; its standard output (malloc'd). */
static char *extract(const char *script, const char *dir)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "sh %s %s", script, dir);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t cap = 4096, len = 0;
	char *out = malloc(cap);
	assert_non_null(out);
	size_t n;
	while ((n = fread(out + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (len + 1 == cap) {
			out = realloc(out, cap *= 2);
			assert_non_null(out);
		}
	}
	out[len] = '\0';
	int st = pclose(p);
	if (st != 0)
		fail_msg("%s: exit status %d, printed:\n%s", cmd, st, out);
	return out;
}

static void expect_lines(const char *script, const char *got, const char *want)
{
	if (strcmp(got, want) != 0)
		fail_msg("sh %s printed\n%s\nexpected\n%s", script, got, want);
}

/* The resolved scenario's keys the scripts read, as `sharebuf run` writes scenario.cfg. */
static const char scenario_cfg[] = "run:\n{\n  arrivals_ms = 10.0;\n};\ntopology:\n{\n"
				   "  hosts_per_leaf = 4;\n};\ntcp:\n{\n  min_rto_us = 1000.0;\n};\n";

static const char flows_header[] =
	"flow_id,src,dst,size_bytes,priority,class,kind,query_id,start_ns,fct_ns,ideal_fct_ns,slowdown,rx_fct_ns\n";

/* ABM (metrics.sh). Short web-search flows: 150 of < 100 KB with slowdowns 1 … 150 (p99 by
 * nearest rank: the 149th, as 0.99 × 150 = 148.5 is rounded up), one of 100 KB and incast
 * responses that must not count. Incast:
 * queries 0 and 1 into leaf 0 (hosts 0 and 1 with 4 hosts per leaf), 2 ms apart, so both
 * overlap; query 2 into leaf 1, alone. One response takes exactly the minimum RTO (1 ms),
 * one 1 ns less; query 1 has a response slower than 20× its ideal, query 2 one of exactly 20×.
 * Leaf 0's occupancy: 150 samples of 10 … 1,500 B during the arrivals (p99: 1,490), one after
 * them and one of leaf 1, both huge. Drops: 5 + 7 at spines, 100 at a leaf. */
static void test_abm_metrics(void **state)
{
	(void)state;
	char *dir = tl_tmpdir();
	free(tl_write_file(dir, "scenario.cfg", scenario_cfg));

	size_t cap = 64 * 1024, len = 0;
	char *flows = malloc(cap);
	assert_non_null(flows);
	len += (size_t)snprintf(flows + len, cap - len, "%s", flows_header);
	for (int i = 1; i <= 150; i++) /* listed in a shuffled order: the script must sort */
		len += (size_t)snprintf(flows + len, cap - len, "%d,1,5,50000,1,lossy,background,-1,0,1,1,%d.000000,1\n", i,
					(i * 37) % 150 + 1);
	len += (size_t)snprintf(flows + len, cap - len,
				"300,1,5,100000,1,lossy,background,-1,0,1,1,9999.000000,1\n"
				"301,4,0,20000,1,lossy,incast,0,1000000,1000000,40000,19.999999,1\n"
				"302,5,0,20000,1,lossy,incast,0,1000000,999999,40000,2.000000,1\n"
				"303,6,1,20000,1,lossy,incast,1,3000000,50000,40000,25.000000,1\n"
				"304,1,5,20000,1,lossy,incast,2,1000000,50000,40000,20.000000,1\n");
	free(tl_write_file(dir, "flows.csv", flows));
	free(flows);

	char *occ = malloc(cap);
	assert_non_null(occ);
	len = (size_t)snprintf(occ, cap, "time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops\n");
	for (int i = 1; i <= 150; i++)
		len += (size_t)snprintf(occ + len, cap - len, "%d.000,leaf0,%d,%d,0.000000,0\n", i * 10000,
					(i * 53) % 150 * 10 + 5, 5);
	len += (size_t)snprintf(occ + len, cap - len,
				"10000000.000,leaf0,9000000,0,0.000000,0\n5000.000,leaf1,9000000,0,0.000000,0\n");
	free(tl_write_file(dir, "occupancy.csv", occ));
	free(occ);
	free(tl_write_file(dir, "drops.csv", "node,cause,packets\nspine0,threshold,5\nspine1,buffer_full,7\nleaf0,threshold,100\n"));

	char *got = extract("experiments/abm/metrics.sh", dir);
	expect_lines("experiments/abm/metrics.sh", got,
		     "short_flows,150\nshort_p99,149.000000\nbuffer_p99_bytes,1490\nincast_rto,1\nslow_queries,1\n"
		     "overlap_queries,2\nspine_drops,12\n");
	free(got);
	tl_rmtree(dir);
	free(dir);
}

/* Occamy. Queries with all 7 responses: 0, 1, 2, 3 into host 0 with QCTs of 700 µs, 300 ms,
 * 100 µs and exactly 200 ms (the minimum RTO of the run: it counts as a timeout); 4 into host 1,
 * 1 ms; 5 into host 0 with only 6 responses (not complete: not a query of the statistics).
 * Fig. 14 takes host 0's four: mean 125,200 µs, p50 (2nd) 700, p99 (4th) 300,000, 50 % with
 * an RTO. Fig. 12 takes all five: mean 100,360, p50 (3rd) 1,000, 40 % with an RTO. Background:
 * 50 KB in 1 ms, 60 KB in 3 ms, 200 KB in 8 ms: mean 4,000 µs; p99 of the two < 100 KB 3,000. */
static void test_occamy_metrics(void **state)
{
	(void)state;
	char *dir = tl_tmpdir();
	char cfg[256];
	snprintf(cfg, sizeof cfg, "tcp:\n{\n  min_rto_us = 200000.0;\n};\n");
	free(tl_write_file(dir, "scenario.cfg", cfg));
	static const struct {
		int q, dst, responses;
		double start_ns, qct_us;
	} queries[] = { { 0, 0, 7, 5e6, 700 },	{ 1, 0, 7, 6e6, 300000 }, { 2, 0, 7, 7e6, 100 },
			{ 3, 0, 7, 8e6, 200000 }, { 4, 1, 7, 9e6, 1000 },  { 5, 0, 6, 1e7, 999999 } };
	size_t cap = 16 * 1024, len = 0;
	char *flows = malloc(cap);
	assert_non_null(flows);
	len += (size_t)snprintf(flows + len, cap - len, "%s", flows_header);
	int id = 0;
	for (size_t i = 0; i < sizeof queries / sizeof *queries; i++)
		for (int r = 1; r <= queries[i].responses; r++) /* the last response ends the query */
			len += (size_t)snprintf(flows + len, cap - len, "%d,%d,%d,30000,7,lossy,incast,%d,%.3f,%.3f,1000,1.0,1\n",
						id++, (queries[i].dst + r) % 8, queries[i].dst, queries[i].q, queries[i].start_ns,
						queries[i].qct_us * 1000.0 * r / queries[i].responses);
	len += (size_t)snprintf(flows + len, cap - len,
				"90,1,2,50000,1,lossy,background,-1,0,1000000,1,1.0,1\n"
				"91,2,3,60000,1,lossy,background,-1,0,3000000,1,1.0,1\n"
				"92,3,4,200000,1,lossy,background,-1,0,8000000,1,1.0,1\n"
				"93,1,0,1000000000,0,lossy,longlived,-1,0,9000000000,1,1.0,1\n");
	free(tl_write_file(dir, "flows.csv", flows));
	free(flows);

	char *got = extract("experiments/occamy/metrics-fig14.sh", dir);
	expect_lines("experiments/occamy/metrics-fig14.sh", got,
		     "queries,4\nqct_mean_us,125200.0\nqct_p50_us,700.0\nqct_p99_us,300000.0\nqct_max_us,300000.0\n"
		     "rto_pct,50.00\n");
	free(got);
	got = extract("experiments/occamy/metrics-fig12.sh", dir);
	expect_lines("experiments/occamy/metrics-fig12.sh", got,
		     "queries,5\nqct_mean_us,100360.0\nqct_p50_us,1000.0\nqct_p99_us,300000.0\nqct_max_us,300000.0\n"
		     "rto_pct,40.00\nbg_fct_mean_us,4000.0\nbg_short_fct_p99_us,3000.0\n");
	free(got);
	tl_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abm_metrics),
		cmocka_unit_test(test_occamy_metrics),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
