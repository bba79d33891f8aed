/*
 * test_load.c — the testbed's load generator (src/load/, docs/testbed.md): its plan is the
 * simulator's own flows, its outputs are the simulator's writers fed with measured times,
 * its wire format and transport mapping, the switch's counts in the summary, the report's
 * refusal of bad values, and testbed/run.sh's refusals (bad arguments, not root). Real sockets
 * (a run over loopback, and the sockets when things go wrong) are in real time:
 * tests/realtime/test_load_net.c (make test-realtime).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "load/plan.h"
#include "load/proto.h"
#include "load/nstat.h"
#include "load/switch_counts.h"
#include "sim/report.h"
#include "load_harness.h"
#include "testlib.h"

/* Every flow a run starts is in the plan with the same hosts, size, start, query and
 * priority, and nothing else is: the plan is the simulator's workloads, not a copy of them. */
static void test_plan_is_the_simulators_flows(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *path = write_file(dir, "s.cfg", small);
	struct sb_load_plan p;
	open_plan(&p, path, NULL, 0);
	struct sb_scenario sc;
	tl_scenario(&sc, small, NULL, 0);
	struct sb_sim sim;
	tl_run_kept(&sim, &sc);
	assert_true(p.n > 20);
	assert_int_equal(p.n, sim.flows.stats.flows_started);
	size_t queries = 0, cubic = 0;
	for (size_t i = 0; i < sim.nrecords; i++) {
		const struct sb_flow_result *r = &sim.records[i];
		const struct sb_load_flow *f = NULL;
		for (size_t k = 0; k < p.n && !f; k++)
			if (p.flows[k].id == r->id)
				f = &p.flows[k];
		assert_non_null(f);
		assert_int_equal(f->src, r->src);
		assert_int_equal(f->dst, r->dst);
		assert_int_equal(f->size, r->size);
		assert_int_equal(f->start, r->start);
		assert_int_equal(f->query, r->query_id);
		assert_int_equal(f->prio, r->prio);
		queries += f->query >= 0;
		cubic += !strcmp(f->cc, "cubic");
		assert_string_equal(f->cc, f->query >= 0 ? "cubic" : "reno");
	}
	assert_true(queries > 0 && queries < sim.nrecords);
	assert_int_equal(cubic, queries);
	/* in start order: a client issues them in this order */
	for (size_t k = 1; k < p.n; k++)
		assert_true(p.flows[k - 1].start <= p.flows[k].start);
	tl_check_and_free(&sim, &sc);
	sb_load_plan_free(&p);
	tl_rmtree(dir);
	free(path);
	free(dir);
}

/* Measured FCTs become the simulator's rows: the slowdown is the measured time over the
 * simulator's ideal FCT, a query whose responses are all measured has its QCT. */
static void test_report_uses_the_measured_times(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *path = write_file(dir, "s.cfg", small);
	struct sb_load_plan p;
	open_plan(&p, path, NULL, 0);
	/* the first query: both responses, each at twice its ideal FCT */
	const struct sb_load_flow *a = NULL, *b = NULL;
	for (size_t k = 0; k < p.n && !b; k++)
		if (p.flows[k].query >= 0 && (!a || p.flows[k].query == a->query))
			*(a ? &b : &a) = &p.flows[k];
	assert_non_null(b);
	/* the ideal FCT of the flow's transport (no handshake here), as a run computes it */
	sb_time ia = sb_transport_ideal_fct(&p.sim.flows, sb_transport_find("cubic"), a->src, a->dst, a->size);
	sb_time ib = sb_transport_ideal_fct(&p.sim.flows, sb_transport_find("cubic"), b->src, b->dst, b->size);
	char text[512];
	snprintf(text, sizeof(text), "flow_id,src,dst,size_bytes,fct_ps\n%u,%u,%u,%llu,%llu\n%u,%u,%u,%llu,%llu\n", b->id,
		 b->src, b->dst, (unsigned long long)b->size, (unsigned long long)(3 * ib), a->id, a->src, a->dst,
		 (unsigned long long)a->size, (unsigned long long)(2 * ia));
	char *m = write_file(dir, "measured.csv", text), *out = tl_path_in(dir, "out");
	struct sb_error err = { "" };
	const char *files[] = { m };
	assert_int_equal(sb_load_plan_report(&p, files, 1, out, &err), 0);
	json_t *s = load_json(out, "summary.json");
	json_t *inc = json_object_get(json_object_get(s, "fct_slowdown"), "incast");
	assert_int_equal(json_integer_value(json_object_get(inc, "count")), 2);
	assert_true(tl_rel(json_number_value(json_object_get(inc, "mean")), 2.5) < 1e-9);
	assert_true(tl_rel(json_number_value(json_object_get(inc, "p99")), 3.0) < 1e-9);
	json_t *qct = json_object_get(s, "qct_slowdown");
	assert_int_equal(json_integer_value(json_object_get(qct, "count")), 1);
	assert_int_equal(json_integer_value(json_object_get(s, "flows_completed")), 2);
	char *csv = tl_path_in(out, "flows.csv"), *rows = tl_slurp(csv);
	/* in completion order (a finished first, though measured.csv lists b first), with the
	 * measured FCT and its slowdown */
	char wa[160], wb[160];
	snprintf(wa, sizeof(wa), "\n%u,%u,%u,%llu,2,lossy,incast,%d,", a->id, a->src, a->dst, (unsigned long long)a->size,
		 a->query);
	snprintf(wb, sizeof(wb), "\n%u,%u,%u,%llu,2,lossy,incast,%d,", b->id, b->src, b->dst, (unsigned long long)b->size,
		 b->query);
	assert_non_null(strstr(rows, wa));
	assert_non_null(strstr(rows, wb));
	assert_true(strstr(rows, wa) < strstr(rows, wb));
	assert_non_null(strstr(strstr(rows, wa), ",2.000000,"));
	json_decref(s);
	free(rows);
	free(csv);
	free(m);
	free(out);
	sb_load_plan_free(&p);
	tl_rmtree(dir);
	free(path);
	free(dir);
}

/* Flows that finished at the same time are in flow order, whatever the files' order: the
 * report does not depend on how the hosts' files were listed. */
static void test_report_ties_in_flow_order(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *path = write_file(dir, "s.cfg", small);
	struct sb_load_plan p;
	open_plan(&p, path, NULL, 0);
	const struct sb_load_flow *a = NULL, *b = NULL; /* two responses of one query: one start */
	for (size_t k = 0; k < p.n && !b; k++)
		if (p.flows[k].query >= 0 && (!a || p.flows[k].query == a->query))
			*(a ? &b : &a) = &p.flows[k];
	assert_true(a->id < b->id);
	char text[512];
	snprintf(text, sizeof(text), "flow_id,src,dst,size_bytes,fct_ps\n%u,%u,%u,%llu,9000000\n", b->id, b->src, b->dst,
		 (unsigned long long)b->size);
	char *mb = write_file(dir, "b.csv", text);
	snprintf(text, sizeof(text), "flow_id,src,dst,size_bytes,fct_ps\n%u,%u,%u,%llu,9000000\n", a->id, a->src, a->dst,
		 (unsigned long long)a->size);
	char *ma = write_file(dir, "a.csv", text), *out = tl_path_in(dir, "out");
	const char *files[] = { mb, ma };
	struct sb_error err = { "" };
	assert_int_equal(sb_load_plan_report(&p, files, 2, out, &err), 0);
	char *csv = tl_path_in(out, "flows.csv"), *rows = tl_slurp(csv), wa[32], wb[32];
	snprintf(wa, sizeof(wa), "\n%u,", a->id);
	snprintf(wb, sizeof(wb), "\n%u,", b->id);
	assert_non_null(strstr(rows, wa));
	assert_true(strstr(rows, wa) < strstr(rows, wb));
	free(rows);
	free(csv);
	free(ma);
	free(mb);
	free(out);
	sb_load_plan_free(&p);
	tl_rmtree(dir);
	free(path);
	free(dir);
}

/* A row that is not a flow of the plan, a flow measured twice, a bad header: each names the
 * file and line, and nothing is written. */
static void test_report_refuses_foreign_measurements(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *path = write_file(dir, "s.cfg", small);
	struct sb_load_plan p;
	open_plan(&p, path, NULL, 0);
	const struct sb_load_flow *f = &p.flows[0];
	char text[512];
	struct {
		const char *what;
		char body[256];
		const char *msg;
	} cases[3];
	snprintf(cases[0].body, sizeof(cases[0].body), "flow_id,src,dst,size_bytes,fct_ps\n%u,%u,%u,%llu,5\n", f->id,
		 f->src, f->dst, (unsigned long long)f->size + 1);
	cases[0].msg = "m.csv:2: flow";
	snprintf(cases[1].body, sizeof(cases[1].body), "flow_id,src,dst,size_bytes,fct_ps\n%u,%u,%u,%llu,5\n%u,%u,%u,%llu,6\n",
		 f->id, f->src, f->dst, (unsigned long long)f->size, f->id, f->src, f->dst, (unsigned long long)f->size);
	cases[1].msg = "measured twice";
	snprintf(cases[2].body, sizeof(cases[2].body), "flow,src\n");
	cases[2].msg = "m.csv:1: expected the header";
	for (int c = 0; c < 3; c++) {
		struct sb_load_plan q;
		open_plan(&q, path, NULL, 0);
		snprintf(text, sizeof(text), "%s", cases[c].body);
		char *m = write_file(dir, "m.csv", text), *out = tl_path_in(dir, "out");
		struct sb_error err = { "" };
		const char *files[] = { m };
		assert_int_equal(sb_load_plan_report(&q, files, 1, out, &err), -1);
		if (!strstr(err.msg, cases[c].msg))
			fail_msg("case %d: %s", c, err.msg);
		assert_false(tl_exists(out));
		sb_load_plan_free(&q);
		free(m);
		free(out);
	}
	sb_load_plan_free(&p);
	tl_rmtree(dir);
	free(path);
	free(dir);
}

/* Every field report reads is checked for its type, range and finiteness, with FILE:LINE (or
 * FILE: KEY for the switch's JSON) and what was expected, and nothing is written (its
 * contract, docs/testbed.md): an FCT of 0 gave a slowdown of 0 and one of -1 (wrapped to
 * 2^64 - 1) a slowdown of 2·10^10; a switch summary's negative count wrapped to 2^64 - 7 and a
 * utilisation of nan vanished from the summary's mean. */
static void test_report_refuses_bad_values(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *path = write_file(dir, "s.cfg", small), *sw = tl_path_in(dir, "sw");
	assert_int_equal(mkdir(sw, 0755), 0);
	struct sb_load_plan p;
	open_plan(&p, path, NULL, 0);
	const struct sb_load_flow *f = NULL;
	for (size_t k = 0; k < p.n && !f; k++)
		if (p.flows[k].size)
			f = &p.flows[k];
	assert_non_null(f);
	/* the longest FCT a client can report: the run's end plus the largest grace, from the start */
	unsigned long long hi = (unsigned long long)(p.sim.stop_at - f->start) + 3600ull * 1000000000000ull;
	char over[32];
	snprintf(over, sizeof(over), "%llu", hi + 1);
	const struct {
		const char *fct, *msg;
	} fcts[] = {
		{ "0", "m.csv:2: fct_ps: expected a whole number of picoseconds in [1, " },
		{ "-1", "m.csv:2: fct_ps: " },
		{ "18446744073709551615", "m.csv:2: fct_ps: " },
		{ over, "m.csv:2: fct_ps: " },
		{ "5e6", "m.csv:2: fct_ps: " },
		{ " 5", "m.csv:2: fct_ps: " },
		{ "", "m.csv:2: fct_ps: " },
	};
	for (size_t c = 0; c < sizeof(fcts) / sizeof(fcts[0]); c++) {
		struct sb_load_plan q;
		open_plan(&q, path, NULL, 0);
		char text[256];
		snprintf(text, sizeof(text), "flow_id,src,dst,size_bytes,fct_ps\n%u,%u,%u,%llu,%s\n", f->id, f->src, f->dst,
			 (unsigned long long)f->size, fcts[c].fct);
		char *m = write_file(dir, "m.csv", text), *out = tl_path_in(dir, "out");
		struct sb_error err = { "" };
		const char *files[] = { m };
		assert_int_equal(sb_load_plan_report(&q, files, 1, out, &err), -1);
		if (!strstr(err.msg, fcts[c].msg))
			fail_msg("fct_ps \"%s\": %s", fcts[c].fct, err.msg);
		assert_false(tl_exists(out));
		sb_load_plan_free(&q);
		free(m);
		free(out);
	}
	/* the largest FCT the client can measure is taken; so is 1 ps */
	for (int c = 0; c < 2; c++) {
		struct sb_load_plan q;
		open_plan(&q, path, NULL, 0);
		char text[256];
		snprintf(text, sizeof(text), "flow_id,src,dst,size_bytes,fct_ps\n%u,%u,%u,%llu,%llu\n", f->id, f->src, f->dst,
			 (unsigned long long)f->size, c ? hi : 1ull);
		char *m = write_file(dir, "m.csv", text), *out = tl_path_in(dir, c ? "out1" : "out0");
		struct sb_error err = { "" };
		const char *files[] = { m };
		if (sb_load_plan_report(&q, files, 1, out, &err))
			fail_msg("fct %llu: %s", c ? hi : 1ull, err.msg);
		sb_load_plan_free(&q);
		free(m);
		free(out);
	}
	/* a negative host index no longer wraps to 2^32 - 1 */
	{
		char text[256];
		snprintf(text, sizeof(text), "flow_id,src,dst,size_bytes,fct_ps\n%u,-1,%u,%llu,5\n", f->id, f->dst,
			 (unsigned long long)f->size);
		char *m = write_file(dir, "m.csv", text), *out = tl_path_in(dir, "out");
		struct sb_error err = { "" };
		const char *files[] = { m };
		assert_int_equal(sb_load_plan_report(&p, files, 1, out, &err), -1);
		assert_non_null(strstr(err.msg, "m.csv:2: src: expected a whole number in [0, 4294967295], got `-1`"));
		free(m);
		free(out);
	}
	/* the switch's summary: every count a whole number >= 0, the total their sum */
	static const struct {
		const char *json, *msg;
	} sums[] = {
		{ "{\"peak_occupancy_bytes\": 100, \"dropped\": {\"pkts\": -7, \"by_cause\": {}}}",
		  "summary.json: dropped.pkts: expected a whole number >= 0, got -7" },
		{ "{\"peak_occupancy_bytes\": 100, \"dropped\": {\"pkts\": 0, \"by_cause\": {\"threshold\": -3, \"rx_ring\": 3}}}",
		  "summary.json: dropped.by_cause.threshold: expected a whole number >= 0, got -3" },
		{ "{\"peak_occupancy_bytes\": 100, \"dropped\": {\"pkts\": 1, \"by_cause\": {\"rx_ring\": \"1\"}}}",
		  "summary.json: dropped.by_cause.rx_ring: expected a whole number >= 0, got a JSON string" },
		{ "{\"peak_occupancy_bytes\": -1, \"dropped\": {\"pkts\": 0, \"by_cause\": {}}}",
		  "summary.json: peak_occupancy_bytes: expected a whole number >= 0, got -1" },
		{ "{\"peak_occupancy_bytes\": 1.5, \"dropped\": {\"pkts\": 0, \"by_cause\": {}}}",
		  "summary.json: peak_occupancy_bytes: expected a whole number >= 0, got a JSON real" },
		{ "{\"peak_occupancy_bytes\": 1, \"dropped\": {\"pkts\": 5, \"by_cause\": {\"threshold\": 2}}}",
		  "summary.json: dropped.pkts: expected the sum of dropped.by_cause, 2, got 5" },
	};
	free(write_file(sw, "occupancy.csv", "time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops\n"));
	for (size_t c = 0; c < sizeof(sums) / sizeof(sums[0]); c++) {
		free(write_file(sw, "summary.json", sums[c].json));
		struct sb_load_plan q;
		open_plan(&q, path, NULL, 0);
		struct sb_error err = { "" };
		assert_int_equal(sb_load_switch_counts(&q, sw, &err), -1);
		if (!strstr(err.msg, sums[c].msg))
			fail_msg("summary %zu: %s", c, err.msg);
		assert_int_equal(q.sim.net.stats.pkts_dropped, 0); /* nothing taken from a refused file */
		sb_load_plan_free(&q);
	}
	/* occupancy.csv: each column checked, the line and the column named */
	static const struct {
		const char *row, *msg;
	} rows[] = {
		{ "1000.000,tor0,500,0,nan,0", "occupancy.csv:3: mem_bw_util: expected a finite number >= 0, got `nan`" },
		{ "1000.000,tor0,500,0,inf,0", "occupancy.csv:3: mem_bw_util: " },
		{ "1000.000,tor0,500,0,-0.1,0", "occupancy.csv:3: mem_bw_util: " },
		{ "1000.000,tor0,500,0,0x1p-1,0", "occupancy.csv:3: mem_bw_util: " },
		{ "1000.000,tor0,-7,0,0.5,0", "occupancy.csv:3: lossy_bytes: expected a whole number of bytes, got `-7`" },
		{ "1000.000,tor0,7,+1,0.5,0", "occupancy.csv:3: lossless_bytes: " },
		{ "1000.000,tor0,7,1,0.5,-7", "occupancy.csv:3: drops: " },
		{ "nan,tor0,7,1,0.5,0", "occupancy.csv:3: time_ns: " },
		{ "1000.000,tor0,7,1,0.5", "occupancy.csv:3: expected 6 fields" },
		{ "1000.000,tor0,7,1,0.5,0,9", "occupancy.csv:3: expected 6 fields" },
	};
	free(write_file(sw, "summary.json", "{\"peak_occupancy_bytes\": 0, \"dropped\": {\"pkts\": 0, \"by_cause\": {}}}"));
	for (size_t c = 0; c < sizeof(rows) / sizeof(rows[0]); c++) {
		char text[256];
		snprintf(text, sizeof(text), "time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops\n500.0,tor0,1,0,1.2,0\n%s\n",
			 rows[c].row);
		free(write_file(sw, "occupancy.csv", text));
		struct sb_load_plan q;
		open_plan(&q, path, NULL, 0);
		struct sb_error err = { "" };
		assert_int_equal(sb_load_switch_counts(&q, sw, &err), -1);
		if (!strstr(err.msg, rows[c].msg))
			fail_msg("row `%s`: %s", rows[c].row, err.msg);
		sb_load_plan_free(&q);
	}
	/* the program: exit 2, the message, no output directory */
	char text[256];
	snprintf(text, sizeof(text), "flow_id,src,dst,size_bytes,fct_ps\n%u,%u,%u,%llu,0\n", f->id, f->src, f->dst,
		 (unsigned long long)f->size);
	char *m = write_file(dir, "m.csv", text), *out = tl_path_in(dir, "prog"), *errf = tl_path_in(dir, "err");
	assert_int_equal(sh("'%s' report '%s' --out '%s' '%s' 2>'%s'", load_prog, path, out, m, errf), 2);
	char *t = tl_slurp(errf);
	assert_non_null(strstr(t, "m.csv:2: fct_ps: expected a whole number of picoseconds in [1, "));
	assert_false(tl_exists(out));
	free(t);
	free(errf);
	free(out);
	free(m);
	sb_load_plan_free(&p);
	free(sw);
	tl_rmtree(dir);
	free(path);
	free(dir);
}

/* What a kernel TCP cannot play is refused with the scenario's key. */
static void test_plan_refuses_what_the_testbed_cannot_play(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *path = write_file(dir, "s.cfg", small);
	const char *leafspine[] = { "topology.type=leafspine" }, *rdma[] = { "workloads.1.transport=dcqcn" };
	struct sb_load_plan p;
	struct sb_error err = { "" };
	assert_int_equal(sb_load_plan_open(&p, path, leafspine, 1, &err), -1);
	assert_non_null(strstr(err.msg, "topology.type"));
	sb_load_plan_free(&p);
	assert_int_equal(sb_load_plan_open(&p, path, rdma, 1, &err), -1);
	assert_non_null(strstr(err.msg, "workloads.1.transport"));
	assert_non_null(strstr(err.msg, "dcqcn"));
	sb_load_plan_free(&p);
	tl_rmtree(dir);
	free(path);
	free(dir);
}

static void test_request_format(void **state)
{
	(void)state;
	struct sb_load_req r = { .prio = 5, .size = 0x0102030405060708ull }, back;
	snprintf(r.cc, sizeof(r.cc), "cubic");
	uint8_t buf[SB_LOAD_REQ_BYTES];
	sb_load_req_encode(&r, buf);
	assert_memory_equal(buf, "SBL1\x05\0\0\0\x01\x02\x03\x04\x05\x06\x07\x08", 16);
	assert_int_equal(sb_load_req_decode(buf, &back), 0);
	assert_int_equal(back.prio, 5);
	assert_true(back.size == r.size);
	assert_string_equal(back.cc, "cubic");
	uint8_t bad[SB_LOAD_REQ_BYTES];
	memcpy(bad, buf, sizeof(bad));
	bad[0] = 'X';
	assert_int_equal(sb_load_req_decode(bad, &back), -1);
	memcpy(bad, buf, sizeof(bad));
	bad[4] = 8;
	assert_int_equal(sb_load_req_decode(bad, &back), -1);
	memcpy(bad, buf, sizeof(bad));
	memset(bad + 16, 'a', SB_LOAD_CC_LEN);
	assert_int_equal(sb_load_req_decode(bad, &back), -1);
	/* the priority travels as DSCP = prio << 3, which the switch reads back as DSCP >> 3 */
	assert_int_equal(sb_load_tos(5) >> 2 >> 3, 5);
	assert_int_equal(sb_load_tos(5) & 3, 0);
	assert_string_equal(sb_load_linux_cc("newreno"), "reno");
	assert_string_equal(sb_load_linux_cc("cubic"), "cubic");
	assert_string_equal(sb_load_linux_cc("dctcp"), "dctcp");
	assert_null(sb_load_linux_cc("cbr"));
}

/* The switch's drops and samples are the summary's drops and buffer statistics. */
static void test_switch_counts_in_the_summary(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *path = write_file(dir, "s.cfg", small), *sw = tl_path_in(dir, "sw");
	assert_int_equal(mkdir(sw, 0755), 0);
	free(write_file(sw, "summary.json",
			"{\"scheme\": \"dt\", \"peak_occupancy_bytes\": 150000,"
			" \"dropped\": {\"pkts\": 12, \"by_cause\": {\"threshold\": 9, \"buffer_full\": 2, \"rx_ring\": 1}}}"));
	char occ[4096] = "time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops\n";
	for (int i = 1; i <= 100; i++) /* occupancy i × 1000 bytes (500 lossless): p99 = 99000, max 100000 */
		snprintf(occ + strlen(occ), sizeof(occ) - strlen(occ), "%d.000,tor0,%d,500,0.5,0\n", i * 1000, i * 1000 - 500);
	free(write_file(sw, "occupancy.csv", occ));
	struct sb_load_plan p;
	open_plan(&p, path, NULL, 0);
	struct sb_error err = { "" };
	if (sb_load_switch_counts(&p, sw, &err))
		fail_msg("%s", err.msg);
	char *out = tl_path_in(dir, "out");
	assert_int_equal(sb_load_plan_report(&p, NULL, 0, out, &err), 0);
	json_t *s = load_json(out, "summary.json");
	json_t *drops = json_object_get(s, "drops"), *buf = json_object_get(s, "buffer");
	assert_int_equal(json_integer_value(json_object_get(drops, "total")), 12);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(drops, "by_cause"), "threshold")), 9);
	assert_int_equal(json_integer_value(json_object_get(buf, "p99_occupancy_bytes")), 99000);
	assert_int_equal(json_integer_value(json_object_get(buf, "max_occupancy_bytes")), 100000);
	assert_int_equal(json_integer_value(json_object_get(buf, "peak_mmu_occupancy_bytes")), 150000);
	json_decref(s);
	sb_load_plan_free(&p);
	/* not the switch's files: the file is named */
	free(write_file(sw, "occupancy.csv", "time,x\n"));
	open_plan(&p, path, NULL, 0);
	assert_int_equal(sb_load_switch_counts(&p, sw, &err), -1);
	assert_non_null(strstr(err.msg, "occupancy.csv:1"));
	sb_load_plan_free(&p);
	free(out);
	free(sw);
	tl_rmtree(dir);
	free(path);
	free(dir);
}

/* The hosts' kernel counters (nstat -az) are summed into summary.json's "tcp" keys, each from
 * its own counter (docs/outputs.md), the SACK and Reno recoveries both into recoveries. */
static void test_nstat_in_the_summary(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *path = write_file(dir, "s.cfg", small);
	char *h0 = write_file(dir, "nstat0.txt",
			      "#kernel\n"
			      "TcpRetransSegs                  100                0.0\n"
			      "TcpExtTCPTimeouts               7                  0.0\n"
			      "TcpExtTCPSackFailures           5                  0.0\n"
			      "TcpExtTCPSackRecoveryFail       1                  0.0\n"
			      "TcpExtTCPLossFailures           0                  0.0\n"
			      "TcpExtTCPSynRetrans             2                  0.0\n"
			      "TcpExtTCPSackRecovery           30                 0.0\n"
			      "TcpExtTCPRenoRecovery           3                  0.0\n"
			      "TcpExtTCPLossProbes             11                 0.0\n"
			      "TcpExtTCPLossProbeRecovery      4                  0.0\n"
			      "TcpExtTCPLostRetransmit         9                  0.0\n"
			      "TcpExtTCPHystartTrainDetect     8                  0.0\n");
	char *h1 = write_file(dir, "nstat1.txt", "#kernel\nTcpExtTCPTimeouts 3 0.0\nTcpRetransSegs 20 0.0\n");
	struct sb_load_plan p;
	open_plan(&p, path, NULL, 0);
	struct sb_error err = { "" };
	if (sb_load_nstat(&p, h0, &err) || sb_load_nstat(&p, h1, &err))
		fail_msg("%s", err.msg);
	char *out = tl_path_in(dir, "out");
	assert_int_equal(sb_load_plan_report(&p, NULL, 0, out, &err), 0);
	json_t *s = load_json(out, "summary.json"), *t = json_object_get(s, "tcp");
	static const struct { const char *key; long long v; } want[] = {
		{ "timeouts", 10 }, { "timeouts_sacked", 5 }, { "timeouts_in_recovery", 1 }, { "timeouts_repeated", 0 },
		{ "syn_retransmits", 2 }, { "recoveries", 33 }, { "loss_probes", 11 }, { "loss_probe_repairs", 4 },
		{ "retransmitted_segments", 120 }, { "lost_retransmits", 9 },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (json_integer_value(json_object_get(t, want[i].key)) != want[i].v)
			fail_msg("tcp.%s = %lld, expected %lld", want[i].key,
				 (long long)json_integer_value(json_object_get(t, want[i].key)), want[i].v);
	json_decref(s);
	sb_load_plan_free(&p);
	/* a line without a number: FILE:LINE and the counter */
	char *bad = write_file(dir, "bad.txt", "#kernel\nTcpRetransSegs 1 0.0\nTcpExtTCPTimeouts many 0.0\n");
	open_plan(&p, path, NULL, 0);
	assert_int_equal(sb_load_nstat(&p, bad, &err), -1);
	assert_non_null(strstr(err.msg, "bad.txt:3: TcpExtTCPTimeouts"));
	sb_load_plan_free(&p);
	open_plan(&p, path, NULL, 0);
	assert_int_equal(sb_load_nstat(&p, out, &err), -1); /* a directory */
	sb_load_plan_free(&p);
	free(bad);
	free(out);
	free(h0);
	free(h1);
	tl_rmtree(dir);
	free(path);
	free(dir);
}

/* `info` tells run.sh how to set the hosts up, from the scenario as the simulator reads it;
 * a cbr workload is iperf3's, listed there and left out of the plan. */
static void test_info_and_cbr(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *path = write_file(dir, "s.cfg", small);
	struct sb_load_plan p;
	open_plan(&p, path, NULL, 0);
	const char *cbr[] = { "workloads.2.type=cbr", "workloads.2.transport=cbr", "workloads.2.srcs=[1, 2]",
			      "workloads.2.dst=3", "workloads.2.rate_gbps=0.2", "workloads.2.packet_bytes=1000" };
	struct sb_load_plan q;
	open_plan(&q, path, cbr, 6);
	assert_int_equal(q.n, p.n); /* the same TCP flows, none of the cbr's */
	for (size_t k = 0; k < q.n; k++)
		assert_int_equal(q.flows[k].size, p.flows[k].size);
	char *out = tl_path_in(dir, "info");
	int rc = sh("'%s' info '%s' --set workloads.2.type=cbr --set workloads.2.transport=cbr --set 'workloads.2.srcs=[1,2]' "
		    "--set workloads.2.dst=3 --set workloads.2.rate_gbps=0.2 --set workloads.2.packet_bytes=1000 >'%s'",
		    load_prog, path, out);
	assert_int_equal(rc, 0);
	char *t = tl_slurp(out), want[64];
	assert_non_null(strstr(t, "hosts=4\n"));
	assert_non_null(strstr(t, "rate_gbps=1\n"));
	assert_non_null(strstr(t, "min_rto_ms=200\n"));
	assert_non_null(strstr(t, "cc=cubic\n"));
	assert_non_null(strstr(t, "ecn=0\n"));
	snprintf(want, sizeof(want), "tcp_flows=%zu\n", p.n);
	assert_non_null(strstr(t, want));
	assert_non_null(strstr(t, "cbr=\"1:3:200000000:1000:1:0 2:3:200000000:1000:1:0\"\n"));
	free(t);
	free(out);
	sb_load_plan_free(&q);
	sb_load_plan_free(&p);
	tl_rmtree(dir);
	free(path);
	free(dir);
}

/* testbed/run.sh refuses bad arguments with exit 2 and a message, and says it needs root
 * (exit 1) before it touches anything; run as an unprivileged user when the tests are root. */
static void test_run_sh_refusals(void **state)
{
	(void)state;
	static const struct {
		const char *args, *msg;
	} bad[] = {
		{ "--bogus", "unknown option --bogus" },
		{ "--set run.seed", "--set run.seed: expected KEY=VALUE" },
		{ "--set switch.scheme=cs", "--set switch.scheme" },
		{ "--switch ovs", "--switch: expected sharebuf or bridge" },
		{ "--schemes", "--schemes needs a value" },
		{ "no/such.cfg", "no/such.cfg: no such scenario file" },
		{ "a.cfg b.cfg", "more than one scenario" },
	};
	char *dir = tl_tmpdir(), *err = tl_path_in(dir, "err");
	assert_int_equal(chmod(dir, 0755), 0); /* the unprivileged user below reads a scenario there */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = sh("sh testbed/run.sh %s 2>'%s' </dev/null", bad[i].args, err);
		char *t = tl_slurp(err);
		if (rc != 2 || !strstr(t, bad[i].msg))
			fail_msg("run.sh %s: exit %d, %s", bad[i].args, rc, t);
		free(t);
	}
	const char *as_user = getuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
	/* the script on stdin and a scenario in the open temporary directory: the unprivileged
	 * user may not read the checkout */
	free(write_file(dir, "s.cfg", small));
	int rc = sh("%ssh -s -- '%s/s.cfg' --out '%s/o' 2>'%s' <testbed/run.sh", as_user, dir, dir, err);
	char *t = tl_slurp(err);
	if (rc != 1 || !strstr(t, "needs root"))
		fail_msg("run.sh as a user: exit %d, %s", rc, t);
	free(t);
	free(err);
	tl_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	load_harness_init(argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_is_the_simulators_flows),
		cmocka_unit_test(test_report_uses_the_measured_times),
		cmocka_unit_test(test_report_ties_in_flow_order),
		cmocka_unit_test(test_report_refuses_foreign_measurements),
		cmocka_unit_test(test_report_refuses_bad_values),
		cmocka_unit_test(test_plan_refuses_what_the_testbed_cannot_play),
		cmocka_unit_test(test_request_format),
		cmocka_unit_test(test_switch_counts_in_the_summary),
		cmocka_unit_test(test_nstat_in_the_summary),
		cmocka_unit_test(test_info_and_cbr),
		cmocka_unit_test(test_run_sh_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
