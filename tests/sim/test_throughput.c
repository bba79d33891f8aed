/*
 * test_throughput.c — throughput.csv (run.sample_hosts): real values, not just the format.
 *
 * One 100 Gb/s switch. h0 sends line-rate CBR to h1 in 1048-byte frames (1000 payload bytes),
 * one frame every 83.84 ns, so a 10.48 us interval holds exactly 125 frames: every full
 * interval must report 125,000 bytes, i.e. 100 x 1000/1048 Gb/s of goodput. h2 receives two
 * finite flows (CBR and DCTCP); summed over time its rows must give exactly their sizes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/report.h"
#include "testlib.h"

#define INTERVAL_NS 10480.0

static const char *const scenario_text =
	"run: { duration_ms = 0.3; sample_interval_us = 10.48; sample_switches = \"none\"; };\n"
	"topology: { type = \"single\"; hosts = 4; host_rate_gbps = 100.0; host_delay_us = 1.0; };\n"
	"switch: { scheme = \"dt\"; buffer_bytes = 4000000; };\n"
	"workloads = (\n"
	"  { type = \"cbr\"; srcs = [0]; dst = 1; rate_gbps = 100.0; packet_bytes = 1048; size_bytes = 0; },\n"
	"  { type = \"cbr\"; srcs = [3]; dst = 2; rate_gbps = 50.0; packet_bytes = 1048; size_bytes = 300000;\n"
	"    start_ms = 0.02; },\n"
	"  { type = \"burst\"; transport = \"dctcp\"; srcs = [3]; dst = 2; size_bytes = 200000; start_ms = 0.05; }\n"
	");\n";

struct run_out {
	char *dir;
	uint64_t h1_received; /* bytes_received of the unbounded flow at the end */
	uint64_t flows_completed;
};

static struct run_out run_to_dir(const char *sample_hosts)
{
	const char *sets[1] = { sample_hosts };
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_scenario(&sc, scenario_text, sets, sample_hosts ? 1 : 0);
	char *dir = tl_run_streamed(&sim, &sc);
	struct run_out r = { dir, sb_flow_get(&sim.flows, 0)->bytes_received, sim.flows.stats.flows_completed };
	struct sb_error err;
	if (sb_report_write(&sim, r.dir, 0.0, &err))
		fail_msg("write: %s", err.msg);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return r;
}

static void test_line_rate_and_sums(void **state)
{
	(void)state;
	/* unsorted and repeated on purpose: rows come once per host, in host order */
	struct run_out r = run_to_dir("run.sample_hosts=[2, 1, 2]");
	assert_int_equal(r.flows_completed, 2);
	char *csv = tl_slurp_in(r.dir, "throughput.csv");
	char *line = strtok(csv, "\n");
	assert_string_equal(line, "time_ns,host,rx_bytes,rx_gbps");
	uint64_t sum[3] = { 0 };
	int rows = 0, full = 0;
	double last_t = 0, steady_gbps = 0;
	while ((line = strtok(NULL, "\n"))) {
		double t, gbps;
		unsigned h;
		unsigned long long bytes;
		if (sscanf(line, "%lf,h%u,%llu,%lf", &t, &h, &bytes, &gbps) != 4)
			fail_msg("bad row %s", line);
		assert_true(h == 1 || h == 2);
		assert_int_equal(h, rows % 2 ? 2 : 1);
		if (h == 1) {
			/* the k-th sample closes the interval ending at k x 10.48 us */
			double want_t = (rows / 2 + 1) * INTERVAL_NS;
			if (t < want_t - 1e-3 || t > want_t + 1e-3)
				fail_msg("row time %.3f, expected %.3f", t, want_t);
			last_t = t;
		}
		if (gbps < 8.0 * (double)bytes / INTERVAL_NS - 1e-6 || gbps > 8.0 * (double)bytes / INTERVAL_NS + 1e-6)
			fail_msg("rx_gbps %.6f does not match rx_bytes %llu over the interval", gbps, bytes);
		/* from the 2nd interval on the CBR stream is in steady state (the first frame
		 * needs 2 x (1 us + 83.84 ns) to arrive): exactly 125 frames per interval */
		if (h == 1 && rows >= 2) {
			assert_int_equal(bytes, 125000);
			steady_gbps = gbps;
			full++;
		}
		sum[h] += bytes;
		rows++;
	}
	assert_true(full >= 25);
	TL_EXPECT_NEAR(steady_gbps, 100.0 * 1000 / 1048, 1e-7, "h1 goodput in every full interval (Gb/s)");
	assert_true(last_t > 290000 && last_t <= 300000);
	/* the two finite flows to h2, exactly; the unbounded one to h1, up to the last sample
	 * (the run ends 6.56 us after it, and the frames of those 6.56 us are not in any row) */
	assert_int_equal(sum[2], 300000 + 200000);
	assert_true(sum[1] <= r.h1_received && r.h1_received - sum[1] <= 79 * 1000);
	assert_true(sum[1] > 0);
	free(csv);
	tl_rmtree(r.dir);
	free(r.dir);
}

/* Off by default: no file, and switching it on does not change what the network does. */
static void test_off_and_passive(void **state)
{
	(void)state;
	struct run_out off = run_to_dir(NULL), on = run_to_dir("run.sample_hosts=[1]");
	char *p_off = tl_path_in(off.dir, "throughput.csv"), *p_on = tl_path_in(on.dir, "throughput.csv");
	assert_false(tl_exists(p_off));
	assert_true(tl_exists(p_on));
	free(p_off);
	free(p_on);
	assert_int_equal(off.h1_received, on.h1_received);
	const char *same[] = { "flows.csv", "drops.csv" };
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		char *a = tl_slurp_in(off.dir, same[i]), *b = tl_slurp_in(on.dir, same[i]);
		assert_string_equal(a, b);
		free(a);
		free(b);
	}
	tl_rmtree(off.dir);
	tl_rmtree(on.dir);
	free(off.dir);
	free(on.dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_rate_and_sums),
		cmocka_unit_test(test_off_and_passive),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
