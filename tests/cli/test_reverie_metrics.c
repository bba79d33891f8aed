/*
 * test_reverie_metrics.c — experiments/reverie/metrics.sh, the `extract` script of the Reverie
 * sweeps (docs/sweep.md §2): the figures' short-flow p99 and the leaves' p99 occupancy come from
 * it, so a wrong percentile or filter would move every number of that REPORT.md.
 *
 * A hand-made run directory whose answers are known by construction:
 *   - 150 web-search ("background") flows of 50 KB with slowdowns 1 … 150: the nearest-rank p99
 *     is the ceil(0.99 · 150) = 149th smallest, 149 (rounding the rank down would give 148);
 *   - flows the metric must leave out: a background flow of exactly 100,000 B (the bound is
 *     "< 100 KB"), incast responses of 31,250 B (Fig. 8's 0.5 MB burst / 16: short, but not
 *     web-search), long background flows; each has a slowdown far above 150, so taking any of
 *     them in moves the p99 or the count;
 *   - 100 occupancy samples inside the arrival window (run.arrivals_ms = 1 ms) with lossless
 *     bytes 1,000 … 100,000 and lossy bytes twice that, and samples at and after 1 ms with
 *     2 MB: p99 = the 99th value, 99,000 B = 9.9 % of the 1 MB buffer (RDMA) and 19.8 % (TCP);
 *     a sample at exactly 1 ms taken in would make it 10.0 %;
 *   - a group before `switch` with its own buffer_bytes, which the script must not read.
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

#define SCRIPT "experiments/reverie/metrics.sh"

static const char *scenario_cfg =
	"run = {\n  seed = 1;\n  duration_ms = 2.0;\n  arrivals_ms = 1.0;\n};\n"
	"host = {\n  buffer_bytes = 7;\n};\n"
	"switch = {\n  scheme = \"reverie\";\n  buffer_bytes = 1000000;\n  nic_buffer_bytes = 3;\n};\n";

static char *make_rundir(void)
{
	char *dir = tl_tmpdir();
	size_t cap = 1 << 16, len = 0;
	char *flows = malloc(cap);
	assert_non_null(flows);
	len += (size_t)snprintf(flows + len, cap - len, "flow_id,src,dst,size_bytes,priority,class,kind,query_id,"
				"start_ns,fct_ns,ideal_fct_ns,slowdown,rx_fct_ns\n");
	int id = 0;
	/* the short web-search flows, in an order that is not sorted */
	for (int i = 150; i >= 1; i--)
		len += (size_t)snprintf(flows + len, cap - len, "%d,1,2,50000,1,lossy,background,-1,0,1,1,%d.000000,1\n",
					id++, (i * 7) % 150 + 1);
	len += (size_t)snprintf(flows + len, cap - len, "%d,1,2,100000,1,lossy,background,-1,0,1,1,1000.000000,1\n", id++);
	for (int i = 0; i < 5; i++)
		len += (size_t)snprintf(flows + len, cap - len, "%d,3,2,31250,3,lossless,incast,%d,0,1,1,500.000000,1\n", id++, i);
	len += (size_t)snprintf(flows + len, cap - len, "%d,1,2,2000000,1,lossy,background,-1,0,1,1,700.000000,1\n", id++);
	assert_true(len < cap);
	free(tl_write_file(dir, "flows.csv", flows));

	len = 0;
	len += (size_t)snprintf(flows + len, cap - len, "time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops\n");
	for (int i = 1; i <= 100; i++)
		len += (size_t)snprintf(flows + len, cap - len, "%d.000,leaf%d,%d,%d,0.000000,0\n", i * 9000, i % 4,
					2000 * ((i * 37) % 100 + 1), 1000 * ((i * 37) % 100 + 1));
	for (int i = 0; i < 10; i++)
		len += (size_t)snprintf(flows + len, cap - len, "%d.000,leaf0,2000000,2000000,0.000000,0\n", 1000000 + i * 9000);
	assert_true(len < cap);
	free(tl_write_file(dir, "occupancy.csv", flows));
	free(flows);
	free(tl_write_file(dir, "scenario.cfg", scenario_cfg));
	return dir;
}

/* runs the script on dir; returns its exit status, stdout in *out, stderr in *err */
static int run_script(const char *dir, char **out, char **err)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "sh " SCRIPT " '%s' > '%s/out.txt' 2> '%s/err.txt'", dir, dir, dir);
	int rc = system(cmd);
	*out = tl_slurp_in(dir, "out.txt");
	*err = tl_slurp_in(dir, "err.txt");
	return rc;
}

static void test_metrics(void **state)
{
	(void)state;
	char *dir = make_rundir();
	char *out, *err;
	int rc = run_script(dir, &out, &err);
	assert_int_equal(rc, 0);
	assert_string_equal(err, "");
	assert_string_equal(out, "short_p99,149.000000\n"
				 "short_n,150\n"
				 "rdma_occ_p99_pct,9.9000\n"
				 "tcp_occ_p99_pct,19.8000\n");
	free(out);
	free(err);
	tl_rmtree(dir);
	free(dir);
}

/* A run without the files it reads, or with columns elsewhere, is an error naming the file,
 * not a column of zeros. */
static void test_errors(void **state)
{
	(void)state;
	char *dir = make_rundir();
	char *out, *err;
	free(tl_write_file(dir, "flows.csv", "flow_id,src,dst,size_bytes,priority,kind,class\n1,1,2,5,1,background,lossy\n"));
	assert_int_not_equal(run_script(dir, &out, &err), 0);
	assert_non_null(strstr(err, "flows.csv: unexpected header"));
	free(out);
	free(err);

	char path[1024];
	snprintf(path, sizeof(path), "%s/flows.csv", dir);
	assert_int_equal(remove(path), 0);
	assert_int_not_equal(run_script(dir, &out, &err), 0);
	assert_non_null(strstr(err, "cannot read"));
	assert_non_null(strstr(err, "flows.csv"));
	free(out);
	free(err);
	tl_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
