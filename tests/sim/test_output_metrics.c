/*
 * test_output_metrics.c — every metric of docs/outputs.md recomputed here, from its definition
 * there, out of the run's raw rows (flows.csv, occupancy.csv, drops.csv) and out of the
 * network's own theory, and compared exactly with what the run wrote:
 *
 *   occupancy    a standing queue of known length behind two line-rate senders, sampled: each
 *                occupancy.csv row is that queue in bytes, or in cells × switch.cell_bytes
 *                (§3 "Buffer occupancy", §4); p99 (nearest rank), max and the exact peak of
 *                summary.json from those rows;
 *   memory bw    mem_bw_util = bytes the switch's ports started in the interval × 8 / (Σ port
 *                rates × interval), from the packets' own start times (§4; Occamy Fig. 6(b));
 *                its mean and the at-drop mean and percentiles, each drop weighted (§3);
 *   drops        per interval (one a packet time once the buffer is full), by cause, by class;
 *   flows        ideal FCT from the formula of §2, slowdown = fct/ideal, the four groups'
 *                count/mean/p50/p95/p99 by nearest rank (§3), and the QCT of flow-list queries
 *                (start = earliest response, ideal of all their bytes; ids renumbered in start
 *                order).
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
#include "sim/report.h"
#include "sim/sim.h"
#include "testlib.h"
#include "transport/cbr.h"
#include "transport/transport.h"

/* ser(n, C) of docs/outputs.md §2, in ps: rounded up. */
static sb_time ser(uint64_t bytes, uint64_t bps)
{
	unsigned __int128 bits = (unsigned __int128)bytes * 8u * 1000000000000ULL;
	return (sb_time)((bits + bps - 1) / bps);
}

/* Nearest rank (docs/outputs.md §3): the value at index ceil(p/100 · n) − 1 of the sorted values. */
static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}
static double rank_of(double *v, size_t n, double p)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_dbl);
	size_t r = (size_t)ceil(p / 100 * (double)n);
	return v[(r ? r : 1) - 1];
}

static void expect_close(double got, double want, double tol, const char *what)
{
	print_message("  %-40s %.9g, recomputed %.9g\n", what, got, want);
	if (fabs(got - want) > tol)
		fail_msg("%s: the run wrote %.9g, its definition gives %.9g", what, got, want);
}

/* --- occupancy.csv ------------------------------------------------------------------------ */

struct occ_row { double t_ns; char sw[16]; unsigned long long lossy, lossless, drops; double util; };

static size_t read_occupancy(const char *dir, struct occ_row *v, size_t cap)
{
	char *text = tl_slurp_in(dir, "occupancy.csv"), *save = NULL;
	size_t n = 0;
	char *l = strtok_r(text, "\n", &save);
	assert_string_equal(l, "time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops");
	while ((l = strtok_r(NULL, "\n", &save)) && n < cap) {
		struct occ_row *r = &v[n++];
		if (sscanf(l, "%lf,%15[^,],%llu,%llu,%lf,%llu", &r->t_ns, r->sw, &r->lossy, &r->lossless, &r->util,
			   &r->drops) != 6)
			fail_msg("occupancy.csv: unreadable row %s", l);
	}
	free(text);
	return n;
}

/* #{k ≥ 0 : first + k·step ≤ x}: packets of a periodic stream started by time x. */
static uint64_t started_by(sb_time x, sb_time first, sb_time step)
{
	return x < first ? 0 : (uint64_t)((x - first) / step) + 1;
}

/*
 * One switch, 4 hosts at 25 Gb/s, 1 µs links, samples every 10 µs for 200 µs. Hosts 1 and 2 send
 * CBR at line rate (1048-B packets, T = 335.36 ns apart) to host 0 from t = 0, P packets each
 * (P = 150, then they stop and the queue drains; or without end); host 3 sends
 * 1250-B packets at 10 Gb/s to host 1. Both of the first arrive at the switch at a0 = T + 1 µs
 * and every T after: two packets in, one out (the port starts one, releasing it, each T), so at
 * a sampling instant t, with k + 1 = the packet times since a0, 2 min(k + 1, P) packets have
 * arrived and min(k + 1, 2P) have started, until the buffer is full; then one of the two
 * arriving packets is refused each T (buffer_full). The stream to host 1 never queues. The interval's memory bandwidth: 1048 B per start of port 0 (a0 + jT)
 * plus 1250 B per start of port 1 (1.4 µs + m µs) in (t − 10 µs, t], × 8 / (4 × 25 Gb/s × 10 µs).
 * No start falls on a sampling instant. Run in bytes and with switch.cell_bytes = 200 (a packet
 * takes 6 cells: 1200 B), with a buffer that holds them all and with one of 100 KB.
 */
static void occupancy_run(int64_t cell_bytes, uint64_t buffer, uint64_t packets, bool check_drops)
{
	struct sb_scenario sc;
	tl_single_switch(&sc, 4, 25, buffer);
	sc.sw.cell_bytes = cell_bytes;
	free(sc.sw.scheme);
	sc.sw.scheme = strdup("cs");
	sc.run.duration_ms = 0.2;
	sc.run.arrivals_ms = 0.2;
	sc.run.sample_interval_us = 10;
	struct sb_sim sim;
	tl_build(&sim, &sc);
	const uint64_t C = 25000000000ULL;
	for (uint32_t src = 1; src <= 2; src++) {
		struct sb_flow *f = sb_flow_create(&sim.flows, src, 0, packets * 1000, 0, sb_transport_find("cbr"));
		sb_cbr_configure(f, C, 1048);
	}
	tl_cbr(&sim, 3, 1, 10000000000ULL, 1250, 0);
	char *dir = tl_tmpdir();
	struct sb_error err = { "" };
	if (sb_report_stream(&sim, dir, &err))
		fail_msg("stream: %s", err.msg);
	tl_run_and_check(&sim);
	if (sb_report_write(&sim, dir, 0, &err))
		fail_msg("write: %s", err.msg);

	const sb_time T = ser(1048, C), a0 = T + SB_US, b0 = ser(1250, C) + SB_US, I = 10 * SB_US;
	const uint64_t unit = cell_bytes ? (1048 + (uint64_t)cell_bytes - 1) / (uint64_t)cell_bytes * (uint64_t)cell_bytes : 1048;
	const uint64_t fits = buffer / unit; /* packets the buffer holds (cells: whole packets of 6) */
	static struct occ_row rows[64];
	size_t n = read_occupancy(dir, rows, 64);
	assert_int_equal(n, 20);
	double occ[64], util_sum = 0, at_drop[4096], at_drop_sum = 0;
	size_t nd = 0;
	unsigned long long drops_sum = 0, max_occ = 0;
	for (size_t i = 0; i < n; i++) {
		sb_time t = (sb_time)(i + 1) * I;
		assert_true(fabs(rows[i].t_ns - sb_time_to_ns(t)) < 1e-3);
		assert_string_equal(rows[i].sw, "leaf0");
		/* the queue, in packets, while nothing is refused: 2 min(k + 1, P) arrived, min(k + 1, 2P)
		 * started (the port is busy while the queue is not empty) */
		uint64_t k = started_by(t, a0, T), in = 2 * (packets && k > packets ? packets : k);
		uint64_t out = packets && k > 2 * packets ? 2 * packets : k, k1 = in - out;
		uint64_t port0 = out - (packets && started_by(t - I, a0, T) > 2 * packets ? 2 * packets
										       : started_by(t - I, a0, T));
		uint64_t port1 = started_by(t, b0, SB_US) - started_by(t - I, b0, SB_US);
		double util = 8.0 * (double)(port0 * 1048 + port1 * 1250) / (4.0 * (double)C * sb_time_to_sec(I));
		char what[64];
		snprintf(what, sizeof what, "t %.0f us: occupancy (B)", sb_time_to_us(t));
		if (k1 + 1 < fits) {
			expect_close((double)rows[i].lossy, (double)(k1 * unit), 0, what);
		} else if (t >= 60 * SB_US) {
			/* full: between two packet times it holds `fits` packets less the one that
			 * started, or `fits` (whether the arrivals or the start came first at the
			 * instant), and refuses one packet per packet time */
			print_message("  %-40s %llu, full: %llu or %llu\n", what, rows[i].lossy,
				      (unsigned long long)((fits - 1) * unit), (unsigned long long)(fits * unit));
			assert_true(rows[i].lossy == (fits - 1) * unit || rows[i].lossy == fits * unit);
			if (check_drops)
				assert_int_equal(rows[i].drops, port0);
		}
		assert_int_equal(rows[i].lossless, 0);
		snprintf(what, sizeof what, "t %.0f us: mem_bw_util", sb_time_to_us(t));
		expect_close(rows[i].util, util, 5e-7, what);
		occ[i] = (double)(rows[i].lossy + rows[i].lossless);
		max_occ = rows[i].lossy > max_occ ? rows[i].lossy : max_occ;
		util_sum += rows[i].util;
		drops_sum += rows[i].drops;
		for (unsigned long long d = 0; d < rows[i].drops && nd < 4096; d++)
			at_drop[nd++] = rows[i].util;
		at_drop_sum += rows[i].util * (double)rows[i].drops;
	}
	if (!check_drops)
		assert_int_equal(drops_sum, 0);
	json_t *j = tl_json_load(dir, "summary.json");
	expect_close((double)tl_json_int(j, "buffer.p99_occupancy_bytes"), rank_of(occ, n, 99), 0, "p99_occupancy_bytes");
	expect_close((double)tl_json_int(j, "buffer.max_occupancy_bytes"), (double)max_occ, 0, "max_occupancy_bytes");
	/* the peak is exact, the MMU's high-water mark: at least every sample, at most the queue at
	 * the last arrival (k + 2 packets before that instant's start) with a packet of the other
	 * stream admitted at the same time (1250 B; 7 cells) */
	long long peak = tl_json_int(j, "buffer.peak_mmu_occupancy_bytes");
	uint64_t k_end = started_by(sc.run.duration_ms * SB_MS, a0, T);
	uint64_t other = cell_bytes ? (1250 + (uint64_t)cell_bytes - 1) / (uint64_t)cell_bytes * (uint64_t)cell_bytes : 1250;
	uint64_t q_end = packets && k_end > packets ? packets : k_end; /* the longest the queue grew */
	uint64_t bound = (q_end + 1 < fits ? q_end + 1 : fits) * unit + other;
	print_message("  peak_mmu_occupancy_bytes %lld in [%llu, %llu]\n", peak, max_occ, (unsigned long long)bound);
	assert_true((uint64_t)peak >= max_occ && (uint64_t)peak <= bound);
	if (cell_bytes)
		assert_int_equal((uint64_t)peak % (uint64_t)cell_bytes, 0);
	expect_close(tl_json_num(j, "memory_bandwidth.mean_util"), util_sum / (double)n, 1e-6, "memory_bandwidth.mean_util");
	assert_int_equal(tl_json_int(j, "memory_bandwidth.drops_sampled"), drops_sum);
	assert_int_equal(tl_json_int(j, "drops.total"), drops_sum);
	assert_int_equal(tl_json_int(j, "drops.by_cause.buffer_full"), drops_sum);
	assert_int_equal(tl_json_int(j, "drops.lossy"), drops_sum);
	expect_close(tl_json_num(j, "memory_bandwidth.at_drop_mean"), nd ? at_drop_sum / (double)drops_sum : 0, 1e-6,
		     "memory_bandwidth.at_drop_mean");
	assert_int_equal(nd, drops_sum);
	double p99 = rank_of(at_drop, nd, 99), p50 = rank_of(at_drop, nd, 50);
	expect_close(tl_json_num(j, "memory_bandwidth.at_drop_p50"), p50, 1e-6, "memory_bandwidth.at_drop_p50");
	expect_close(tl_json_num(j, "memory_bandwidth.at_drop_p99"), p99, 1e-6, "memory_bandwidth.at_drop_p99");
	json_decref(j);
	/* drops.csv: one row for the switch's cause, its count the column's sum */
	char *drops = tl_slurp_in(dir, "drops.csv"), want[128];
	if (check_drops)
		snprintf(want, sizeof want, "node,cause,packets\nleaf0,buffer_full,%llu\n", drops_sum);
	else
		snprintf(want, sizeof want, "node,cause,packets\n");
	assert_string_equal(drops, want);
	free(drops);
	tl_rmtree(dir);
	free(dir);
	tl_check_and_free(&sim, &sc);
}

static void test_occupancy_and_memory_bandwidth(void **state)
{
	(void)state;
	print_message("bytes, no drops\n");
	occupancy_run(0, 64u << 20, 150, false);
	print_message("cells of 200 B, no drops\n");
	occupancy_run(200, 64u << 20, 150, false);
	print_message("bytes, a 100 KB buffer\n");
	occupancy_run(0, 100000, 0, true);
	print_message("cells of 200 B, a 100 KB buffer\n");
	occupancy_run(200, 100000, 0, true);
}

/* --- flows.csv and the slowdown groups -------------------------------------------------- */

/* The ideal FCT of docs/outputs.md §2 for TCP on the single switch (two hops of C and d each):
 * one way 2d + 2 ser(first) + ser(wire − first), then 2d + 2 ser(ack) back. */
static sb_time ideal_tcp(uint64_t size, uint64_t mss, uint64_t h, uint64_t a, uint64_t C, sb_time d)
{
	uint64_t packets = size ? (size + mss - 1) / mss : 1;
	uint64_t wire = size + packets * h, first = (size < mss ? size : mss) + h;
	return 2 * d + 2 * ser(first, C) + ser(wire - first, C) + 2 * d + 2 * ser(a, C);
}

struct flow_row {
	unsigned long long size;
	char kind[16];
	int query;
	sb_time start, fct, ideal, rx_fct;
	double slowdown;
};

/* "123.456" (ns, three decimals) as exact picoseconds. */
static sb_time ps_of(const char *ns) { return (sb_time)llround(strtod(ns, NULL) * 1000.0); }

static void group_check(json_t *j, const char *name, double *v, size_t n)
{
	char key[64];
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i]; /* in completion order, as the rows */
	snprintf(key, sizeof key, "%s.count", name);
	assert_int_equal(tl_json_int(j, key), n);
	snprintf(key, sizeof key, "%s.mean", name);
	expect_close(tl_json_num(j, key), n ? sum / (double)n : 0, 1e-9 * (n ? sum / (double)n : 1), key);
	static const double ps[] = { 50, 95, 99 };
	for (int k = 0; k < 3; k++) {
		double want = rank_of(v, n, ps[k]);
		snprintf(key, sizeof key, "%s.p%.0f", name, ps[k]);
		expect_close(tl_json_num(j, key), want, 1e-9 * (want ? want : 1), key);
	}
}

/*
 * A flow list on one switch (8 hosts, 25 Gb/s, 1 µs links), DCTCP: sizes on both sides of the
 * group boundaries (99,999 and 100,000 B; 1,000,000 and 1,000,001 B), flows that share links,
 * and two queries: id 5 (three 40 KB responses at 300 µs) and id 17 (30 KB at 100 µs from
 * host 2, 20 KB at 120 µs from host 3, listed in that reverse order), renumbered in start order:
 * 0 (id 17, the first to start) and 1 (id 5) in flows.csv. From the rows alone: each ideal FCT from §2's formula,
 * each slowdown = fct/ideal (six decimals), the four groups' count, mean and nearest-rank
 * percentiles, and each query's QCT = last completion − earliest start over the ideal FCT of
 * all its bytes; all must be summary.json's.
 */
static void test_flows_and_groups(void **state)
{
	(void)state;
	char *dir = tl_tmpdir();
	char *list = tl_write_file(dir, "list.csv",
		"start_us,src,dst,size_bytes,priority,transport,class,query\n"
		"0,0,7,99999,1,dctcp,,\n"
		"5,6,7,100000,1,dctcp,,\n"
		"10,5,0,1000000,1,dctcp,,\n"
		"12,4,0,1000001,1,dctcp,,\n"
		"20,1,2,3000,1,dctcp,,\n"
		"21,3,2,64000,1,dctcp,,\n"
		"22,7,2,5000,1,dctcp,,\n"
		"40,2,6,250000,1,dctcp,,\n"
		"41,0,6,1500,1,dctcp,,\n"
		"60,5,4,7000,1,dctcp,,\n"
		"61,6,4,7000,1,dctcp,,\n"
		"62,7,4,7000,1,dctcp,,\n"
		"120,3,1,20000,1,dctcp,,17\n"
		"100,2,1,30000,1,dctcp,,17\n"
		"300,4,1,40000,1,dctcp,,5\n"
		"300,5,1,40000,1,dctcp,,5\n"
		"300,6,1,40000,1,dctcp,,5\n"
		"310,0,3,12345,1,dctcp,,\n"
		"500,1,5,999,1,dctcp,,\n"
		"501,2,5,1,1,dctcp,,\n");
	char *cfg = tl_write_file(dir, "run.cfg",
		"run: { duration_ms = 5.0; arrivals_ms = 5.0; sample_interval_us = 0.0; };\n"
		"topology: { type = \"single\"; hosts = 8; host_rate_gbps = 25.0; host_delay_us = 1.0; };\n"
		"switch: { scheme = \"dt\"; };\n"
		"workloads = ({ type = \"file\"; path = \"list.csv\"; });\n");
	char *out = tl_path_in(dir, "out"), args[4096];
	snprintf(args, sizeof args, "run --quiet '%s' --out '%s'", cfg, out);
	struct tl_cmd r = tl_sharebuf(args);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	tl_cmd_free(&r);

	const uint64_t C = 25000000000ULL, mss = 1000, h = 48, a = 64;
	const sb_time d = SB_US;
	char *text = tl_slurp_in(out, "flows.csv"), *save = NULL;
	char *l = strtok_r(text, "\n", &save);
	assert_string_equal(l, "flow_id,src,dst,size_bytes,priority,class,kind,query_id,start_ns,fct_ns,ideal_fct_ns,"
			       "slowdown,rx_fct_ns");
	static struct flow_row v[32];
	size_t n = 0;
	while ((l = strtok_r(NULL, "\n", &save)) && n < 32) {
		char *f[13], *fs = NULL;
		int nf = 0;
		for (char *x = strtok_r(l, ",", &fs); x && nf < 13; x = strtok_r(NULL, ",", &fs))
			f[nf++] = x;
		assert_int_equal(nf, 13);
		struct flow_row *w = &v[n++];
		w->size = strtoull(f[3], NULL, 10);
		snprintf(w->kind, sizeof w->kind, "%s", f[6]);
		w->query = atoi(f[7]);
		w->start = ps_of(f[8]);
		w->fct = ps_of(f[9]);
		w->ideal = ps_of(f[10]);
		w->rx_fct = ps_of(f[12]);
		sb_time ideal = ideal_tcp(w->size, mss, h, a, C, d);
		char want[64];
		snprintf(want, sizeof want, "%.3f", sb_time_to_ns(ideal));
		if (strcmp(f[10], want))
			fail_msg("flow %s of %llu B: ideal_fct_ns %s, the formula gives %s", f[0], w->size, f[10], want);
		w->slowdown = (double)w->fct / (double)w->ideal;
		snprintf(want, sizeof want, "%.6f", w->slowdown);
		if (strcmp(f[11], want))
			fail_msg("flow %s: slowdown %s, fct/ideal = %s", f[0], f[11], want);
		assert_true(w->rx_fct > 0 && w->rx_fct < w->fct); /* the last ACK's way back is in fct only */
		assert_true(w->slowdown >= 1.0);
		assert_string_equal(f[5], "lossy");
		assert_string_equal(w->kind, w->query >= 0 ? "incast" : "file");
	}
	assert_int_equal(n, 20);
	json_t *j = tl_json_load(out, "summary.json");
	assert_int_equal(tl_json_int(j, "flows_completed"), n);
	assert_int_equal(tl_json_int(j, "flows_started"), n);
	double all[32], small[32], large[32], inc[32];
	size_t na = 0, ns = 0, nl = 0, ni = 0;
	for (size_t i = 0; i < n; i++) {
		all[na++] = v[i].slowdown;
		if (v[i].size < 100000)
			small[ns++] = v[i].slowdown;
		if (v[i].size > 1000000)
			large[nl++] = v[i].slowdown;
		if (!strcmp(v[i].kind, "incast"))
			inc[ni++] = v[i].slowdown;
	}
	assert_int_equal(nl, 1);
	group_check(j, "fct_slowdown.all", all, na);
	group_check(j, "fct_slowdown.short", small, ns);
	group_check(j, "fct_slowdown.long", large, nl);
	group_check(j, "fct_slowdown.incast", inc, ni);

	/* the queries, by the rows' query_id: 0 is id 17 (2 responses, 50 KB), 1 is id 5 (120 KB) */
	double qct[2];
	static const struct { unsigned responses; uint64_t bytes; sb_time start; } want_q[2] = {
		{ 2, 50000, 100 * SB_US }, { 3, 120000, 300 * SB_US },
	};
	for (int q = 0; q < 2; q++) {
		sb_time start = SB_TIME_NEVER, end = 0;
		uint64_t bytes = 0;
		unsigned m = 0;
		for (size_t i = 0; i < n; i++) {
			if (v[i].query != q)
				continue;
			m++;
			bytes += v[i].size;
			start = v[i].start < start ? v[i].start : start;
			end = v[i].start + v[i].fct > end ? v[i].start + v[i].fct : end;
		}
		assert_int_equal(m, want_q[q].responses);
		assert_int_equal(bytes, want_q[q].bytes);
		assert_int_equal(start, want_q[q].start);
		qct[q] = (double)(end - start) / (double)ideal_tcp(bytes, mss, h, a, C, d);
		print_message("  query %d: %u responses, %llu B, QCT %.3f ns, slowdown %.6f\n", q, m,
			      (unsigned long long)bytes, sb_time_to_ns(end - start), qct[q]);
	}
	assert_int_equal(tl_json_int(j, "queries_started"), 2);
	assert_int_equal(tl_json_int(j, "queries_completed"), 2);
	group_check(j, "qct_slowdown", qct, 2);
	json_decref(j);
	free(text);
	free(list);
	free(cfg);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_occupancy_and_memory_bandwidth),
		cmocka_unit_test(test_flows_and_groups),
	};
	return cmocka_run_group_tests_name("output_metrics", tests, NULL, NULL);
}
