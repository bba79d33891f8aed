/*
 * test_config.c — the scenario reader: defaults, a full file into the structs, `--set`
 * overrides, and the exact message of every kind of bad input (a message is the user's only
 * guide to fixing a scenario, so its text is part of the contract).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "scenario/cfgfile.h"
#include "mmu/mmu.h"
#include "scenario/scenario.h"
#include "testlib.h"
#include "transport/transport.h"
#include "workload/types.h"

static int load(struct sb_scenario *sc, const char *text, const char *const *sets, size_t nsets,
		struct sb_error *err)
{
	sb_scenario_defaults(sc);
	err->msg[0] = 0;
	return sb_cfg_load(sc, NULL, text, sets, nsets, err);
}

/* Load `text` + overrides; expect failure with exactly `want`. */
static void expect_load_error(const char *text, const char *const *sets, size_t nsets, const char *want)
{
	struct sb_scenario sc;
	struct sb_error err;
	int rc = load(&sc, text, sets, nsets, &err);
	if (rc != -1 || strcmp(err.msg, want) != 0)
		fail_msg("input:\n%s\nwant: %s\ngot (rc %d): %s", text ? text : "(none)", want, rc, err.msg);
	sb_scenario_free(&sc);
}

static void expect_set_error(const char *set, const char *want)
{
	const char *sets[] = { set };
	expect_load_error("", sets, 1, want);
}

/* Load (must succeed), then validate: must fail with exactly `want`. */
static void expect_invalid(const char *text, const char *want)
{
	struct sb_scenario sc;
	struct sb_error err;
	if (load(&sc, text, NULL, 0, &err))
		fail_msg("load failed: %s", err.msg);
	int rc = sb_scenario_validate(&sc, &err);
	if (rc != -1 || strcmp(err.msg, want) != 0)
		fail_msg("input:\n%s\nwant: %s\ngot (rc %d): %s", text, want, rc, err.msg);
	sb_scenario_free(&sc);
}

static void *scheme_block(const struct sb_scenario *sc, const char *scheme)
{
	const struct sb_bm_ops *const *all = sb_bm_all();
	for (size_t i = 0; all[i]; i++)
		if (!strcmp(all[i]->name, scheme))
			return sc->scheme_params[i];
	fail_msg("no scheme %s", scheme);
	return NULL;
}

static const double *dt_alpha(const struct sb_scenario *sc)
{
	const struct sb_param *p = sb_param_find(sb_bm_find("dt")->params, "alpha");
	assert_non_null(p);
	return (const double *)(const void *)((const char *)scheme_block(sc, "dt") + p->offset);
}

/* ---------- good input ---------- */

static void test_defaults_from_empty_text(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_error err;
	assert_int_equal(load(&sc, "", NULL, 0, &err), 0);
	assert_int_equal(sc.run.seed, 1);
	assert_true(sc.run.duration_ms == 20 && sc.run.arrivals_ms == 10);
	assert_true(sc.run.sample_interval_us == 10);
	assert_int_equal(sc.run.sample_switches, SB_SAMPLE_LEAVES);
	assert_false(sc.run.check_invariants);
	assert_int_equal(sc.topo.type, SB_TOPO_LEAFSPINE);
	assert_int_equal(sc.topo.hosts, 8);
	assert_int_equal(sc.topo.hosts_per_leaf, 8);
	assert_int_equal(sc.topo.leaves, 4);
	assert_int_equal(sc.topo.spines, 2);
	assert_int_equal(sc.topo.links_per_spine, 1);
	assert_int_equal(sc.topo.k, 4);
	assert_true(sc.topo.host_rate_gbps == 25 && sc.topo.fabric_delay_us == 2);
	assert_string_equal(sc.sw.scheme, "dt");
	assert_int_equal(sc.sw.buffer_bytes, 0);
	assert_true(sc.sw.buffer_per_port_per_gbps == 5120);
	assert_int_equal(sc.sw.sched, SB_SCHED_DRR);
	assert_int_equal(sc.sw.drr_quantum_bytes, 1500);
	assert_int_equal(sc.sw.ecn_mode, SB_ECN_STEP);
	assert_int_equal(sc.sw.ecn_at, SB_ECN_AT_ENQUEUE);
	for (int p = 0; p < 8; p++) {
		assert_true(sc.sw.drr_weight[p] == 1);
		assert_true(sc.sw.ecn_kmin_bytes[p] == 65000 && sc.sw.ecn_kmax_bytes[p] == 65000);
		assert_true(sc.sw.ecn_pmax[p] == 1);
		assert_true(dt_alpha(&sc)[p] == 1);
	}
	assert_int_equal(sc.tcp.mss, 1000);
	assert_int_equal(sc.tcp.header_bytes, 48);
	assert_int_equal(sc.tcp.ack_bytes, 64);
	assert_int_equal(sc.tcp.init_cwnd_pkts, 10);
	assert_true(sc.tcp.dctcp_g == 0.0625 && sc.tcp.cubic_beta == 0.7 && sc.tcp.cubic_c == 0.4);
	assert_true(sc.tcp.min_rto_us == 1000 && sc.tcp.init_rto_us == 1000);
	assert_int_equal(sc.tcp.first_rtt_bytes, 0);
	assert_int_equal(sc.tcp.max_cwnd_bytes, 0);
	assert_int_equal(sc.nworkloads, 0);
	assert_string_equal(sc.source, "(default)");
	assert_int_equal(sb_scenario_validate(&sc, &err), 0);
	sb_scenario_free(&sc);
}

static void test_workload_type_defaults(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_error err;
	const char *text = "workloads = ( { type = \"poisson\"; }, { type = \"incast\"; },\n"
			   "  { type = \"longlived\"; }, { type = \"burst\"; }, { type = \"cbr\"; },\n"
			   "  { type = \"file\"; } );\n";
	assert_int_equal(load(&sc, text, NULL, 0, &err), 0);
	assert_int_equal(sc.nworkloads, 6);
	const struct sb_workload *w = sc.workloads;
	const struct sb_wl_poisson *w0 = w[0].params;
	const struct sb_wl_incast *w1 = w[1].params;
	const struct sb_wl_longlived *w2 = w[2].params;
	const struct sb_wl_burst *w3 = w[3].params;
	const struct sb_wl_cbr *w4 = w[4].params;
	const struct sb_wl_file *w5 = w[5].params;
	assert_ptr_equal(w[0].ops, &sb_workload_poisson);
	assert_string_equal(w0->c.transport, "dctcp");
	/* left to the transport: priority 1 lossy for TCP, 3 lossless for RDMA (test_workload) */
	assert_int_equal(w0->c.prio, -1);
	assert_int_equal(w0->c.klass, SB_CLASS_AUTO);
	assert_string_equal(w0->cdf, "websearch");
	assert_true(w0->load == 0.5);
	assert_int_equal(w0->load_ref, SB_LOAD_HOST);
	assert_int_equal(w0->dest, SB_DEST_OTHER_RACK);
	assert_true(w1->query_rate == 2);
	assert_int_equal(w1->fanin, 16);
	assert_int_equal(w1->size_bytes, 2000000);
	assert_int_equal(w1->responders, SB_RESP_NEXT_RACK);
	assert_true(w1->full_window);
	assert_int_equal(w2->ep.size_bytes, 0);
	assert_int_equal(w2->ep.srcs.n, 0);
	assert_int_equal(w2->ep.dst, 0);
	assert_int_equal(w3->ep.size_bytes, 100000);
	assert_int_equal(w4->ep.size_bytes, 0);
	assert_true(w4->rate_gbps == 10);
	assert_int_equal(w4->packet_bytes, 1048);
	assert_string_equal(w4->c.transport, "cbr");
	assert_ptr_equal(w[5].ops, &sb_workload_file);
	assert_string_equal(w5->path, "");
	assert_int_equal(w[0].line, 1);
	assert_int_equal(w[3].line, 2);
	assert_int_equal(w[5].line, 3);
	sb_scenario_free(&sc);
}

static const char full_text[] =
	"# a complete scenario\n"
	"run: { seed = 42; duration_ms = 50; arrivals_ms = 40.0; sample_interval_us = 0.0;\n"
	"       sample_switches = \"all\"; check_invariants = true; };\n"
	"topology: { type = \"leafspine\"; hosts_per_leaf = 16; leaves = 2; spines = 4;\n"
	"            links_per_spine = 2; host_rate_gbps = 100; fabric_rate_gbps = 400.0; };\n"
	"switch: {\n"
	"  scheme = \"dt\";\n"
	"  buffer_bytes = 5000000000L;\n"
	"  cell_bytes = 254;\n"
	"  sched = \"sp\";\n"
	"  ecn_mode = \"red\";\n"
	"  ecn_kmin_bytes = [10000, 20000, 30000, 40000, 50000, 60000, 70000, 80000];\n"
	"  ecn_kmax_bytes = 90000;\n"
	"  ecn_pmax = 0.2;\n"
	"  dt: { alpha = (0.5, 1, 2, 4, 8, 16, 0.25, 0.125); };\n"
	"};\n"
	"tcp: { mss = 1460; min_rto_us = 200; dctcp_g = 0.125; };\n"
	"workloads = (\n"
	"  { type = \"poisson\"; load = 0.7; load_ref = \"uplink\"; dest = \"any\"; cdf = \"datamining\"; },\n"
	"  { type = \"incast\"; fanin = 8; size_bytes = 400000; responders = \"random_rack\";\n"
	"    class = \"lossless\"; prio = 3; full_window = false; transport = \"cubic\"; },\n"
	"  { type = \"longlived\"; srcs = [1, 2, 3]; dst = 20; start_ms = 1.5; }\n"
	");\n";

static void check_full(const struct sb_scenario *sc)
{
	assert_int_equal(sc->run.seed, 42);
	assert_true(sc->run.duration_ms == 50 && sc->run.arrivals_ms == 40);
	assert_int_equal(sc->run.sample_switches, SB_SAMPLE_ALL);
	assert_true(sc->run.check_invariants);
	assert_int_equal(sc->topo.hosts_per_leaf, 16);
	assert_int_equal(sc->topo.links_per_spine, 2);
	assert_true(sc->topo.host_rate_gbps == 100 && sc->topo.fabric_rate_gbps == 400);
	assert_int_equal(sc->sw.buffer_bytes, 5000000000LL);
	assert_int_equal(sc->sw.cell_bytes, 254);
	assert_int_equal(sc->sw.sched, SB_SCHED_SP);
	assert_int_equal(sc->sw.ecn_mode, SB_ECN_RED);
	assert_true(sc->sw.ecn_kmin_bytes[0] == 10000 && sc->sw.ecn_kmin_bytes[7] == 80000);
	assert_true(sc->sw.ecn_kmax_bytes[3] == 90000 && sc->sw.ecn_pmax[5] == 0.2);
	const double *alpha = dt_alpha(sc);
	assert_true(alpha[0] == 0.5 && alpha[1] == 1 && alpha[5] == 16 && alpha[7] == 0.125);
	assert_int_equal(sc->tcp.mss, 1460);
	assert_true(sc->tcp.min_rto_us == 200 && sc->tcp.dctcp_g == 0.125);
	assert_int_equal(sc->nworkloads, 3);
	const struct sb_workload *w = sc->workloads;
	const struct sb_wl_poisson *w0 = w[0].params;
	const struct sb_wl_incast *w1 = w[1].params;
	const struct sb_wl_longlived *w2 = w[2].params;
	assert_ptr_equal(w[0].ops, &sb_workload_poisson);
	assert_true(w0->load == 0.7);
	assert_int_equal(w0->load_ref, SB_LOAD_UPLINK);
	assert_int_equal(w0->dest, SB_DEST_ANY);
	assert_string_equal(w0->cdf, "datamining");
	assert_int_equal(w[0].line, 19);
	assert_ptr_equal(w[1].ops, &sb_workload_incast);
	assert_int_equal(w1->fanin, 8);
	assert_int_equal(w1->responders, SB_RESP_RANDOM_RACK);
	assert_int_equal(w1->c.klass, SB_CLASS_LOSSLESS);
	assert_int_equal(w1->c.prio, 3);
	assert_false(w1->full_window);
	assert_string_equal(w1->c.transport, "cubic");
	assert_ptr_equal(w[2].ops, &sb_workload_longlived);
	assert_int_equal(w2->ep.srcs.n, 3);
	assert_int_equal(w2->ep.srcs.v[0], 1);
	assert_int_equal(w2->ep.srcs.v[2], 3);
	assert_int_equal(w2->ep.dst, 20);
	assert_true(w2->c.start_ms == 1.5);
	assert_int_equal(w[2].line, 22);
}

static void test_full_scenario_text(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_error err;
	assert_int_equal(load(&sc, full_text, NULL, 0, &err), 0);
	check_full(&sc);
	assert_int_equal(sb_scenario_validate(&sc, &err), 0);
	sb_scenario_free(&sc);
}

static void test_full_scenario_file(void **state)
{
	(void)state;
	char *dir = tl_tmpdir();
	char *path = tl_write_file(dir, "full.cfg", full_text);
	struct sb_scenario sc;
	struct sb_error err;
	sb_scenario_defaults(&sc);
	assert_int_equal(sb_cfg_load(&sc, path, "run: { seed = 7; };", NULL, 0, &err), 0);
	check_full(&sc); /* the path wins over the text */
	assert_string_equal(sc.source, path);
	sb_scenario_free(&sc);
	free(path);
	tl_rmtree(dir);
	free(dir);
}

static void test_overrides(void **state)
{
	(void)state;
	const char *sets[] = {
		"run.seed=3",
		" switch.scheme = cs",
		"switch.ecn_mode=\"red\"",
		"switch.dt.alpha=[0.5,0.5,0.5,0.5,0.5,0.5,0.5,2]",
		"switch.ecn_kmin_bytes=30000",
		"run.check_invariants=true",
		"workloads.0.load=0.3",
		"workloads.1.srcs=[4,5]",
		"workloads.2.type=incast",
		"workloads.2.fanin=4",
		"tcp.mss=1.5e3",
	};
	struct sb_scenario sc;
	struct sb_error err;
	const char *text = "run: { seed = 9; };\n"
			   "workloads = ( { type = \"poisson\"; load = 0.9; },\n"
			   "              { type = \"burst\"; srcs = [1]; dst = 0; } );\n";
	assert_int_equal(load(&sc, text, sets, SB_ARRAY_LEN(sets), &err), 0);
	assert_int_equal(sc.run.seed, 3); /* the override wins over the file */
	assert_string_equal(sc.sw.scheme, "cs");
	assert_int_equal(sc.sw.ecn_mode, SB_ECN_RED);
	assert_true(dt_alpha(&sc)[0] == 0.5 && dt_alpha(&sc)[7] == 2);
	for (int p = 0; p < 8; p++)
		assert_true(sc.sw.ecn_kmin_bytes[p] == 30000);
	assert_true(sc.run.check_invariants);
	assert_int_equal(sc.nworkloads, 3);
	assert_true(((const struct sb_wl_poisson *)sc.workloads[0].params)->load == 0.3);
	const struct sb_wl_endpoints *ep = &((const struct sb_wl_burst *)sc.workloads[1].params)->ep;
	assert_int_equal(ep->srcs.n, 2);
	assert_int_equal(ep->srcs.v[1], 5);
	assert_ptr_equal(sc.workloads[2].ops, &sb_workload_incast);
	assert_int_equal(((const struct sb_wl_incast *)sc.workloads[2].params)->fanin, 4);
	assert_int_equal(((const struct sb_wl_incast *)sc.workloads[2].params)->size_bytes, 2000000);
	assert_int_equal(sc.tcp.mss, 1500);
	assert_int_equal(sb_scenario_validate(&sc, &err), 0);
	sb_scenario_free(&sc);
}

static void test_reload_replaces_workloads(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_error err;
	assert_int_equal(load(&sc, "workloads = ({ type = \"poisson\"; }, { type = \"incast\"; });", NULL, 0, &err), 0);
	assert_int_equal(sb_cfg_load(&sc, NULL, "run: { seed = 2; }; workloads = ();", NULL, 0, &err), 0);
	assert_int_equal(sc.nworkloads, 0);
	assert_int_equal(sc.run.seed, 2);
	sb_scenario_free(&sc);
}

static void test_reference(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	sb_cfg_write_reference(f);
	fclose(f);
	assert_non_null(strstr(buf, "`run.seed`"));
	assert_non_null(strstr(buf, "`switch.ecn_mode`"));
	assert_non_null(strstr(buf, "`switch.dt.alpha`"));
	assert_non_null(strstr(buf, "### type = \"incast\""));
	assert_non_null(strstr(buf, "`workloads.N.fanin`"));
	free(buf);
}

/* ---------- bad input: the reader ---------- */

static void test_missing_file(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_error err;
	sb_scenario_defaults(&sc);
	assert_int_equal(sb_cfg_load(&sc, "/nonexistent/sc.cfg", NULL, NULL, 0, &err), -1);
	assert_string_equal(err.msg, "cannot open /nonexistent/sc.cfg: No such file or directory");
	char *dir = tl_tmpdir();
	assert_int_equal(sb_cfg_load(&sc, dir, NULL, NULL, 0, &err), -1);
	char want[512];
	snprintf(want, sizeof(want), "cannot open %s: it is a directory", dir);
	assert_string_equal(err.msg, want);
	sb_scenario_free(&sc);
	tl_rmtree(dir);
	free(dir);
}

/* Load `path` (must fail) and compare the message with `fmt` % dir. */
static void expect_file_error(const char *path, const char *fmt, const char *dir)
{
	struct sb_scenario sc;
	struct sb_error err;
	char want[600];
	sb_scenario_defaults(&sc);
	assert_int_equal(sb_cfg_load(&sc, path, NULL, NULL, 0, &err), -1);
	snprintf(want, sizeof(want), fmt, dir, dir);
	assert_string_equal(err.msg, want);
	sb_scenario_free(&sc);
}

/* Files that are no scenario: `run /dev/zero` read until the machine ran out of memory, a FIFO
 * named by @include waited for ever, a NUL byte silently ended the file, a huge file was read
 * whole. All are refused before libconfig sees them, @include'd files included. */
static void test_not_a_scenario(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), path[600];
	expect_file_error("/dev/zero", "cannot open /dev/zero: not a regular file (a device, pipe or socket might never end)", "");

	snprintf(path, sizeof(path), "%s/nul.cfg", dir);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	static const char nul_text[] = "run: { seed = 1; };\nx\0 = 5;\n";
	fwrite(nul_text, 1, sizeof(nul_text) - 1, f);
	fclose(f);
	expect_file_error(path, "%s/nul.cfg:2: unexpected NUL byte (is this a text file?)", dir);

	snprintf(path, sizeof(path), "%s/huge.cfg", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), (off_t)SB_CFG_MAX_BYTES + 1), 0); /* sparse: no disk used */
	fclose(f);
	expect_file_error(path, "cannot open %s/huge.cfg: it has 16777217 bytes, a scenario file may have at most 16 MiB (is it a scenario?)", dir);

	/* @include: a FIFO, a huge file, an integer libconfig would truncate (not scanned before) */
	char *fifo = tl_path_in(dir, "fifo.cfg");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	free(tl_write_file(dir, "a.cfg", "run: { seed = 1; };\n  @include \"fifo.cfg\"\n"));
	snprintf(path, sizeof(path), "%s/a.cfg", dir);
	expect_file_error(path, "cannot open %s/a.cfg:2: @include \"fifo.cfg\": not a regular file (a device, pipe or socket might never end)", dir);
	free(tl_write_file(dir, "b.cfg", "# big\n@include \"huge.cfg\"\n"));
	snprintf(path, sizeof(path), "%s/b.cfg", dir);
	expect_file_error(path, "cannot open %s/b.cfg:2: @include \"huge.cfg\": it has 16777217 bytes, a scenario file may have at most 16 MiB (is it a scenario?)", dir);
	free(tl_write_file(dir, "int.cfg", "switch: {\n  buffer_bytes = 5000000000;\n};\n"));
	free(tl_write_file(dir, "c.cfg", "run: { seed = 1; };\n@include \"int.cfg\"\n"));
	snprintf(path, sizeof(path), "%s/c.cfg", dir);
	expect_file_error(path, "%s/int.cfg:2: integer 5000000000 does not fit in 32 bits; write it as 5000000000L (libconfig would silently truncate it)", dir);
	/* an @include in a comment or a string is no directive: nothing is opened */
	free(tl_write_file(dir, "d.cfg", "/*\n@include \"fifo.cfg\"\n*/\nrun: { seed = 1; };\n"));
	snprintf(path, sizeof(path), "%s/d.cfg", dir);
	struct sb_scenario sc;
	struct sb_error err;
	sb_scenario_defaults(&sc);
	if (sb_cfg_load(&sc, path, NULL, NULL, 0, &err))
		fail_msg("%s", err.msg);
	sb_scenario_free(&sc);
	free(fifo);
	tl_rmtree(dir);
	free(dir);
}

static void test_syntax_errors(void **state)
{
	(void)state;
	expect_load_error("run: {\n  seed = ;\n};\n", NULL, 0,
			  "(default):2: syntax error (expected key = value; or name: { ... }; strings need double quotes)");
	expect_load_error("switch: { scheme = dt; };", NULL, 0,
			  "(default):1: syntax error (expected key = value; or name: { ... }; strings need double quotes)");
	expect_load_error("run: { seed = 1; seed = 2; };", NULL, 0, "(default):1: duplicate setting name");
	expect_load_error("switch: { dt: { alpha = [0.5, 1, 1, 1, 1, 1, 1, 1]; }; };", NULL, 0,
			  "(default):1: mismatched element type in array (the numbers of a [ ... ] array must "
			  "all be written alike, e.g. 1.0 and 0.5, or use a ( ... ) list)");

	char *dir = tl_tmpdir();
	char *path = tl_write_file(dir, "bad.cfg", "run: {\n  seed = 1;\n  duration_ms = = 10;\n};\n");
	struct sb_scenario sc;
	struct sb_error err;
	sb_scenario_defaults(&sc);
	assert_int_equal(sb_cfg_load(&sc, path, NULL, NULL, 0, &err), -1);
	char want[512];
	snprintf(want, sizeof(want), "%s:3: syntax error (expected key = value; or name: { ... }; strings need double quotes)", path);
	assert_string_equal(err.msg, want);
	sb_scenario_free(&sc);
	free(path);
	tl_rmtree(dir);
	free(dir);
}

static void test_error_in_included_file(void **state)
{
	(void)state;
	char *dir = tl_tmpdir();
	char *inc = tl_write_file(dir, "part.cfg", "tcp: {\n  mss = 1000;\n  msss = 9;\n};\n");
	char *path = tl_write_file(dir, "main.cfg", "run: { seed = 1; };\n@include \"part.cfg\"\n");
	struct sb_scenario sc;
	struct sb_error err;
	sb_scenario_defaults(&sc);
	assert_int_equal(sb_cfg_load(&sc, path, NULL, NULL, 0, &err), -1);
	char want[512];
	snprintf(want, sizeof(want), "%s:3: tcp.msss: unknown key (did you mean tcp.mss?)", inc);
	assert_string_equal(err.msg, want);
	sb_scenario_free(&sc);
	free(inc);
	free(path);
	tl_rmtree(dir);
	free(dir);
}

static void test_unknown_keys(void **state)
{
	(void)state;
	expect_load_error("rnu: { seed = 1; };", NULL, 0, "(default):1: rnu: unknown key (did you mean run?)");
	expect_load_error("network: { };", NULL, 0,
			  "(default):1: network: unknown key, expected one of run, topology, switch, host, tcp, rdma, workloads");
	expect_load_error("run: { seed = 1; };\nswitch: {\n  ecn_mod = \"red\";\n};", NULL, 0,
			  "(default):3: switch.ecn_mod: unknown key (did you mean switch.ecn_mode?)");
	expect_load_error("run: { foo_bar_baz = 1; };", NULL, 0,
			  "(default):1: run.foo_bar_baz: unknown key (`sharebuf params` lists the keys of run)");
	expect_load_error("switch: { dt: { alpa = 1.0; }; };", NULL, 0,
			  "(default):1: switch.dt.alpa: unknown key (did you mean switch.dt.alpha?)");
	expect_load_error("switch: { cs: { alpha = 1.0; }; };", NULL, 0,
			  "(default):1: switch.cs.alpha: unknown key (scheme cs has no parameters)");
	expect_load_error("workloads = ({ type = \"poisson\"; fanin = 3; });", NULL, 0,
			  "(default):1: workloads.0.fanin: unknown key for a workload of type poisson (fanin is a key of type incast)");
	expect_load_error("workloads = ({ type = \"poisson\"; lod = 0.3; });", NULL, 0,
			  "(default):1: workloads.0.lod: unknown key (did you mean workloads.0.load?)");
}

static void test_wrong_types(void **state)
{
	(void)state;
	expect_load_error("switch: { scheme = 5; };", NULL, 0, "(default):1: switch.scheme: expected a string, got 5");
	expect_load_error("run: { seed = \"x\"; };", NULL, 0, "(default):1: run.seed: expected an integer, got \"x\"");
	expect_load_error("tcp: { mss = [1, 2]; };", NULL, 0, "(default):1: tcp.mss: expected an integer, got a list of 2");
	expect_load_error("tcp: { mss = 1.5; };", NULL, 0, "(default):1: tcp.mss: expected an integer, got 1.5");
	expect_load_error("run: { check_invariants = 1; };", NULL, 0,
			  "(default):1: run.check_invariants: expected true or false, got 1");
	expect_load_error("topology: { host_rate_gbps = { x = 1; }; };", NULL, 0,
			  "(default):1: topology.host_rate_gbps: expected a number, got a group");
	expect_load_error("run = 3;", NULL, 0, "(default):1: run: expected a group { key = value; ... }, got 3");
	expect_load_error("switch: { dt = 0.5; };", NULL, 0,
			  "(default):1: switch.dt: expected a group of scheme parameters { name = value; ... }, got 0.5");
	expect_load_error("workloads = { type = \"poisson\"; };", NULL, 0,
			  "(default):1: workloads: expected a list of groups ( { type = \"poisson\"; ... }, ... ), got a group");
	expect_load_error("workloads = (3);", NULL, 0,
			  "(default):1: workloads.0: expected a group { type = \"poisson\"; ... }, got 3");
	expect_load_error("switch: { ecn_mode = \"foo\"; };", NULL, 0,
			  "(default):1: switch.ecn_mode: expected one of off|red|step, got \"foo\"");
	expect_load_error("topology: { type = \"leaf_spine\"; };", NULL, 0,
			  "(default):1: topology.type: expected one of single|leafspine|fattree, got \"leaf_spine\" "
			  "(did you mean \"leafspine\"?)");
	expect_load_error("switch: { dt: { alpha = [0.5, 0.5, 0.5]; }; };", NULL, 0,
			  "(default):1: switch.dt.alpha: expected a number or a list of 8 numbers (one per priority), got a list of 3");
	expect_load_error("workloads = (\n  { type = \"burst\";\n    srcs = (1, \"two\"); }\n);", NULL, 0,
			  "(default):3: workloads.0.srcs[1]: expected an integer, got \"two\"");
	expect_load_error("workloads = ({ type = \"burst\"; srcs = [1.0, 2.5]; });", NULL, 0,
			  "(default):1: workloads.0.srcs[1]: expected an integer, got 2.5");
}

static void test_out_of_range(void **state)
{
	(void)state;
	expect_load_error("workloads = ({ type = \"poisson\"; prio = 9; });", NULL, 0,
			  "(default):1: workloads.0.prio: 9 is out of range, expected a value in [-1, 7]");
	expect_load_error("run: {\n duration_ms = -1.0;\n};", NULL, 0,
			  "(default):2: run.duration_ms: -1 is out of range, expected a value in [0, 10000000] ms");
	expect_load_error("switch: { ecn_pmax = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5]; };", NULL, 0,
			  "(default):1: switch.ecn_pmax[7]: 1.5 is out of range, expected a value in [0, 1]");
	expect_load_error("tcp: { mss = 1e30; };", NULL, 0,
			  "(default):1: tcp.mss: 1e+30 is out of range, expected a value in [1, 65535] bytes");
	/* a value and its bound never look equal: %g printed "1e+15 is out of range, expected a
	 * value in [0, 1e+15]" and "1 is out of range ... [0, 1]"; whole numbers print with all
	 * their digits, others in the fewest digits that read back exactly */
	expect_load_error("run: { seed = 1000000000000001L; };", NULL, 0,
			  "(default):1: run.seed: 1000000000000001 is out of range, expected a value in [0, 1000000000000000]");
	expect_set_error("run.seed=1000000000000001",
			 "--set run.seed: 1000000000000001 is out of range, expected a value in [0, 1000000000000000]");
	expect_set_error("run.duration_ms=10000000.5",
			 "--set run.duration_ms: 10000000.5 is out of range, expected a value in [0, 10000000] ms");
	expect_load_error("switch: { ecn_pmax = 1.0000000000000002; };", NULL, 0,
			  "(default):1: switch.ecn_pmax: 1.0000000000000002 is out of range, expected a value in [0, 1]");
	expect_load_error("tcp: { dctcp_g = 1.000001; };", NULL, 0,
			  "(default):1: tcp.dctcp_g: 1.000001 is out of range, expected a value in [0, 1]");
	expect_load_error("tcp: { dctcp_g = -0.1; };", NULL, 0,
			  "(default):1: tcp.dctcp_g: -0.1 is out of range, expected a value in [0, 1]");
	/* libconfig 1.5 would silently wrap this to 705032704 */
	expect_load_error("switch: {\n  buffer_bytes = 5000000000; # 5 GB\n};", NULL, 0,
			  "(default):2: integer 5000000000 does not fit in 32 bits; write it as 5000000000L "
			  "(libconfig would silently truncate it)");
}

static void test_bad_workload_type(void **state)
{
	(void)state;
	expect_load_error("workloads = (\n  { load = 0.5; }\n);", NULL, 0,
			  "(default):2: workloads.0.type: missing; every workload needs a type, one of "
			  "poisson|incast|longlived|burst|cbr|file");
	expect_load_error("workloads = ({ type = \"incats\"; });", NULL, 0,
			  "(default):1: workloads.0.type: expected one of poisson|incast|longlived|burst|cbr|file, "
			  "got \"incats\" (did you mean \"incast\"?)");
	expect_load_error("workloads = ({ type = \"poisson\"; }, { type = 2; });", NULL, 0,
			  "(default):1: workloads.1.type: expected one of poisson|incast|longlived|burst|cbr|file, got 2");
}

/* ---------- bad input: --set ---------- */

static void test_bad_overrides(void **state)
{
	(void)state;
	expect_set_error("run.sed=3", "--set run.sed: unknown key (did you mean run.seed?)");
	expect_set_error("switch.ecn_mode=foo", "--set switch.ecn_mode: expected one of off|red|step, got \"foo\"");
	expect_set_error("switch.ecn_mode=\"stpe\"",
			 "--set switch.ecn_mode: expected one of off|red|step, got \"stpe\" (did you mean \"step\"?)");
	expect_set_error("run.seed", "--set run.seed: expected KEY=VALUE");
	expect_set_error("run=3", "--set run: is a group; set one of its keys, e.g. run.seed=VALUE");
	expect_set_error("switch.dt=3", "--set switch.dt: is a group; set one of its keys, e.g. switch.dt.alpha=VALUE");
	expect_set_error("switch.dtt.alpha=3", "--set switch.dtt.alpha: unknown key (did you mean switch.dt?)");
	expect_set_error("swich.scheme=cs", "--set swich.scheme: unknown key (did you mean switch?)");
	expect_set_error("run.seed.x=1", "--set run.seed.x: unknown key (run.seed is not a group)");
	expect_set_error("tcp.mss=abc", "--set tcp.mss: expected an integer, got abc");
	expect_set_error("run.seed=1e300", "--set run.seed: 1e+300 is out of range, expected a value in [0, 1000000000000000]");
	expect_set_error("switch.dt.alpha=[1,2]",
			 "--set switch.dt.alpha: expected one number or a list of 8 (one per priority), got a list of 2");
	expect_set_error("workloads.0.load=0.3",
			 "--set workloads.0.load: the scenario has 0 workloads; add one with workloads.0.type=TYPE");
	expect_set_error("workloads.x.load=0.3", "--set workloads.x.load: expected workloads.N.KEY, N counted from 0");
	expect_set_error("workloads.0.type=bogus",
			 "--set workloads.0.type: expected one of poisson|incast|longlived|burst|cbr|file, got \"bogus\"");
	expect_set_error("..=1", "--set ..: expected KEY=VALUE with a dotted KEY such as switch.scheme or workloads.0.load");

	const char *sets[] = { "workloads.0.prio=8" };
	expect_load_error("workloads = ({ type = \"poisson\"; });", sets, 1,
			  "--set workloads.0.prio: 8 is out of range, expected a value in [-1, 7]");
	const char *sets2[] = { "workloads.0.fanin=2" };
	expect_load_error("workloads = ({ type = \"poisson\"; });", sets2, 1,
			  "--set workloads.0.fanin: unknown key for a workload of type poisson (fanin is a key of type incast)");
	const char *sets3[] = { "workloads.0.type=incast" };
	expect_load_error("workloads = ({ type = \"poisson\"; });", sets3, 1,
			  "--set workloads.0.type: cannot change the type of a workload (it is poisson); add a new one instead");
}

/* ---------- sb_scenario_validate ---------- */

static void names_of_schemes(char *buf, size_t n)
{
	size_t used = 0;
	const struct sb_bm_ops *const *all = sb_bm_all();
	for (size_t i = 0; all[i]; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? "|" : "", all[i]->name);
}

static void test_validate(void **state)
{
	(void)state;
	char schemes[256], want[512];
	names_of_schemes(schemes, sizeof(schemes));
	snprintf(want, sizeof(want), "(default):1: switch.scheme: unknown scheme \"abc\", expected one of %s", schemes);
	expect_invalid("switch: { scheme = \"abc\"; };", want);

	expect_invalid("run: { duration_ms = 0.0; };", "(default):1: run.duration_ms: must be greater than 0, got 0");
	expect_invalid("topology: { type = \"fattree\"; k = 5; };", "(default):1: topology.k: a fattree needs an even k, got 5");
	expect_invalid("tcp: { mss = 65500; };", "(default):1: tcp.mss: mss + header_bytes = 65548 bytes, a packet can be at most 65535 bytes");
	expect_invalid("workloads = (\n  { type = \"longlived\"; srcs = [1]; dst = 32; }\n);",
		       "(default):2: workloads.0.dst: host 32 does not exist, the topology has 32 hosts (0..31)");
	expect_invalid("topology: { type = \"fattree\"; k = 4; };\n"
		       "workloads = ({ type = \"burst\"; srcs = [1, 16]; dst = 0; });",
		       "(default):2: workloads.0.srcs[1]: host 16 does not exist, the topology has 16 hosts (0..15)");
	expect_invalid("run: { sample_hosts = [3, 32]; };",
		       "(default):1: run.sample_hosts[1]: host 32 does not exist, the topology has 32 hosts (0..31)");
	expect_invalid("run: { sample_hosts = [3]; sample_interval_us = 0.0; };",
		       "(default):1: run.sample_hosts: sampling host throughput needs run.sample_interval_us > 0, got 0");
	expect_invalid("workloads = ({ type = \"burst\"; srcs = [3, 0]; dst = 0; });",
		       "(default):1: workloads.0.srcs[1]: host 0 is also the destination (dst)");
	expect_invalid("workloads = ({ type = \"cbr\"; dst = 0; });",
		       "(default):1: workloads.0.srcs: a cbr workload needs at least one source host, e.g. srcs = [1];");
	expect_invalid("topology: { type = \"single\"; };\nworkloads = ({ type = \"poisson\"; });",
		       "(default):2: workloads.0.dest: other_rack needs another rack, but topology single has one rack");
	expect_invalid("topology: { type = \"single\"; };\nworkloads = ({ type = \"poisson\"; dest = \"any\"; load_ref = \"uplink\"; });",
		       "(default):2: workloads.0.load_ref: uplink needs a topology with uplinks (leafspine or fattree), topology single has none");
	expect_invalid("topology: { leaves = 1; };\nworkloads = ({ type = \"incast\"; });",
		       "(default):2: workloads.0.responders: next_rack needs another rack, but topology leafspine has 1 leaf (topology.leaves = 1)");
	expect_invalid("workloads = ({ type = \"incast\"; fanin = 16; });",
		       "(default):1: workloads.0.fanin: 16 responders per query, but responders = next_rack offers only 8 hosts");
	/* random_rack draws one other rack: its size bounds the fan-in too (fat tree: k/2) */
	expect_invalid("topology: { type = \"fattree\"; k = 8; };\n"
		       "workloads = ({ type = \"incast\"; fanin = 16; responders = \"random_rack\"; });",
		       "(default):2: workloads.0.fanin: 16 responders per query, but responders = random_rack offers only 4 hosts");
	expect_invalid("workloads = ({ type = \"incast\"; fanin = 32; responders = \"any\"; });",
		       "(default):1: workloads.0.fanin: 32 responders per query, but responders = any offers only 31 hosts");
	expect_invalid("workloads = ({ type = \"file\"; });",
		       "(default):1: workloads.0.path: required for a workload of type file (the flow list to replay)");
	expect_invalid("workloads = ({ type = \"cbr\"; srcs = [1]; transport = \"dctcp\"; });",
		       "(default):1: workloads.0.transport: a cbr workload sends with transport \"cbr\", got \"dctcp\"");
	expect_invalid("workloads = ({ type = \"poisson\"; start_ms = 5; stop_ms = 2; });",
		       "(default):1: workloads.0.stop_ms: 2 is not after start_ms (5); use 0 for run.arrivals_ms");
	/* %g printed both as 1 */
	expect_invalid("workloads = ({ type = \"poisson\"; start_ms = 1.0000001; stop_ms = 1.00000005; });",
		       "(default):1: workloads.0.stop_ms: 1.00000005 is not after start_ms (1.0000001); use 0 for run.arrivals_ms");

	/* a quantum beyond 32 bits wrapped to 0 (a host NIC looped for ever) or overflowed the deficit */
	expect_invalid("host: {\n  sched = \"drr\";\n  drr_weight = 1000000.0;\n  drr_quantum_bytes = 10000000;\n};",
		       "(default):4: host.drr_quantum_bytes: expected drr_weight × drr_quantum_bytes of at most 2^30 = 1073741824 "
		       "bytes per turn, got 1000000 × 10000000 = 10000000000000 at priority 0");
	expect_invalid("topology: { leaves = 1024; hosts_per_leaf = 1; links_per_spine = 64; };",
		       "(default):1: topology.links_per_spine: expected at most 65535 ports per switch, got 65536 on each spine "
		       "(leaves × links_per_spine)");
	expect_invalid("switch: { drr_quantum_bytes = 100000000; drr_weight = (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 20.0); };",
		       "(default):1: switch.drr_weight: expected drr_weight × drr_quantum_bytes of at most 2^30 = 1073741824 "
		       "bytes per turn, got 20 × 100000000 = 2000000000 at priority 7");
	/* a positive time that rounds to 0 ps: sampling silently off, a SYN retransmitted for ever
	 * at one instant; scheme and workload keys alike */
	expect_invalid("run: { sample_interval_us = 1e-7; };",
		       "(default):1: run.sample_interval_us: expected 0 or at least 1e-06 us (1 ps, the clock's resolution), "
		       "got 1e-07 us, which would be 0");
	expect_invalid("tcp: { handshake = true; syn_timeout_us = 4e-7; };",
		       "(default):1: tcp.syn_timeout_us: expected 0 or at least 1e-06 us (1 ps, the clock's resolution), "
		       "got 4e-07 us, which would be 0");
	expect_invalid("switch: { scheme = \"fab\"; fab: { window_us = 1e-9; }; };",
		       "(default):1: switch.fab.window_us: expected 0 or at least 1e-06 us (1 ps, the clock's resolution), "
		       "got 1e-09 us, which would be 0");
	expect_invalid("pfc: { processing_delay_ns = 1e-4; };",
		       "(default):1: pfc.processing_delay_ns: expected 0 or at least 0.001 ns (1 ps, the clock's resolution), "
		       "got 0.0001 ns, which would be 0");
	expect_invalid("workloads = ({ type = \"poisson\";\n  stop_ms = 1e-12; });",
		       "(default):2: workloads.0.stop_ms: expected 0 or at least 1e-09 ms (1 ps, the clock's resolution), "
		       "got 1e-12 ms, which would be 0");

	/* an unknown transport lists the registered ones */
	struct sb_scenario sc;
	struct sb_error err;
	assert_int_equal(load(&sc, "workloads = ({ type = \"poisson\"; transport = \"tcpx\"; });", NULL, 0, &err), 0);
	assert_int_equal(sb_scenario_validate(&sc, &err), -1);
	assert_non_null(strstr(err.msg, "(default):1: workloads.0.transport: unknown transport \"tcpx\", expected one of dctcp|"));
	sb_scenario_free(&sc);
}

/* A check made after reading names the line the key was written on, in the file that wrote
 * it (an @include'd one too), or "--set KEY" for an override; a key left at its default is
 * placed at its group (run: { ... }, workloads.N). These checks once printed the bare key. */
static void test_validate_places(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), want[512];
	char *part = tl_write_file(dir, "part.cfg", "topology: {\n  type = \"fattree\";\n  k = 5;\n};\n");
	char *path = tl_write_file(dir, "main.cfg",
				   "run: { seed = 1; };\nswitch: {\n  ecn_mode = \"off\";\n  scheme = \"abm2\";\n};\n"
				   "@include \"part.cfg\"\n"
				   "workloads = (\n  { type = \"burst\";\n    dst = 3; }\n);\n");
	struct { const char *set[2]; const char *place; } cases[] = {
		{ { "topology.k=4", NULL }, "%s/main.cfg:4: switch.scheme: unknown scheme \"abm2\"" },
		{ { "switch.scheme=dt", NULL }, "%s/part.cfg:3: topology.k: a fattree needs an even k, got 5" },
		{ { "switch.scheme=dt", "topology.k=7" }, "--set topology.k: a fattree needs an even k, got 7" },
		{ { "topology.k=4", "switch.scheme=abm3" }, "--set switch.scheme: unknown scheme \"abm3\"" },
		/* srcs is left empty: the workload's own line */
		{ { "switch.scheme=dt", "topology.k=4" }, "%s/main.cfg:8: workloads.0.srcs: a burst workload needs at least one source host" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sb_scenario sc;
		struct sb_error err;
		size_t nsets = cases[i].set[1] ? 2 : cases[i].set[0] ? 1 : 0;
		sb_scenario_defaults(&sc);
		if (sb_cfg_load(&sc, path, NULL, cases[i].set, nsets, &err))
			fail_msg("case %zu: %s", i, err.msg);
		assert_int_equal(sb_scenario_validate(&sc, &err), -1);
		snprintf(want, sizeof(want), cases[i].place, dir);
		if (strncmp(err.msg, want, strlen(want)) != 0)
			fail_msg("case %zu: want %s..., got %s", i, want, err.msg);
		sb_scenario_free(&sc);
	}
	free(part);
	free(path);
	tl_rmtree(dir);
	free(dir);
}

/* Paths a workload names: relative to the scenario file's directory when written in one,
 * relative to the working directory when given with --set or in the built-in scenario. */
static void test_scenario_paths(void **state)
{
	(void)state;
	struct sb_scenario sc;
	sb_scenario_defaults(&sc);
	char *p = sb_scenario_path(&sc, "workloads.0.path", "f.csv");
	assert_string_equal(p, "f.csv"); /* no origin: as given */
	free(p);
	sb_scenario_note_origin(&sc, "workloads.0.path", "exp/dir/s.cfg", 4);
	p = sb_scenario_path(&sc, "workloads.0.path", "f.csv");
	assert_string_equal(p, "exp/dir/f.csv");
	free(p);
	p = sb_scenario_path(&sc, "workloads.0.path", "/abs/f.csv");
	assert_string_equal(p, "/abs/f.csv");
	free(p);
	sb_scenario_note_origin(&sc, "workloads.0.path", NULL, 0); /* a later --set wins */
	p = sb_scenario_path(&sc, "workloads.0.path", "f.csv");
	assert_string_equal(p, "f.csv");
	free(p);
	sb_scenario_note_origin(&sc, "workloads.1.cdf", "(default)", 2);
	p = sb_scenario_path(&sc, "workloads.1.cdf", "x.cdf");
	assert_string_equal(p, "x.cdf");
	free(p);
	char place[128];
	sb_scenario_place(&sc, "workloads.0.path", place, sizeof(place));
	assert_string_equal(place, "--set workloads.0.path");
	sb_scenario_place(&sc, "workloads.1.cdf", place, sizeof(place));
	assert_string_equal(place, "(default):2: workloads.1.cdf");
	sb_scenario_place(&sc, "tcp.mss", place, sizeof(place));
	assert_string_equal(place, "tcp.mss");
	sb_scenario_free(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_from_empty_text),
		cmocka_unit_test(test_workload_type_defaults),
		cmocka_unit_test(test_full_scenario_text),
		cmocka_unit_test(test_full_scenario_file),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_reload_replaces_workloads),
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_not_a_scenario),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_error_in_included_file),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_bad_workload_type),
		cmocka_unit_test(test_bad_overrides),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_validate_places),
		cmocka_unit_test(test_scenario_paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
