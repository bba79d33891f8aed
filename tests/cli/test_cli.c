/*
 * test_cli.c — the `sharebuf` program itself, driven as a user would (tests run from the
 * repository root): determinism, the output files and their agreement with each other, error
 * messages for bad input (and no output left behind), and the informational commands.
 *
 * The program is found and run by testlib (tl_sharebuf: BUILD/sharebuf, or $SHAREBUF).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "mmu/mmu.h"
#include "scenario/scenario.h"
#include "testlib.h"

/* --- helpers --- */

static void write_file(const char *dir, const char *name, const char *text)
{
	free(tl_write_file(dir, name, text));
}


/* The first line of a text, as a new string. */
static char *first_line(const char *s)
{
	size_t n = strcspn(s, "\n");
	char *l = malloc(n + 1);
	memcpy(l, s, n);
	l[n] = 0;
	return l;
}

/* --- determinism --- */

static void test_determinism(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	char *a = tl_path_in(dir, "a"), *b = tl_path_in(dir, "b"), *c = tl_path_in(dir, "c");
	const char *outs[3] = { a, b, c }, *extra[3] = { "", "", "--seed 2" };
	for (int i = 0; i < 3; i++) {
		snprintf(args, sizeof(args), "run --quiet --out '%s' %s", outs[i], extra[i]);
		struct tl_cmd r = tl_sharebuf(args);
		if (r.status != 0)
			fail_msg("sharebuf %s: exit %d: %s", args, r.status, r.err);
		assert_string_equal(r.out, ""); /* --quiet */
		tl_cmd_free(&r);
	}
	const char *names[] = { "flows.csv", "occupancy.csv", "drops.csv", "summary.json" };
	for (size_t i = 0; i < 4; i++) {
		char *x = tl_slurp_in(a, names[i]), *y = tl_slurp_in(b, names[i]);
		if (!strcmp(names[i], "summary.json")) { /* the wall time, and the --out of the command line */
			tl_drop_line(x, "\"wall_time_s\"");
			tl_drop_line(y, "\"wall_time_s\"");
			tl_drop_line(x, "\"command_line\"");
			tl_drop_line(y, "\"command_line\"");
		}
		assert_true(strlen(x) > 40);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
	char *fa = tl_slurp_in(a, "flows.csv"), *fc = tl_slurp_in(c, "flows.csv");
	assert_string_not_equal(fa, fc);
	char *first_a = first_line(fa), *first_c = first_line(fc);
	assert_string_equal(first_a, first_c); /* same header */
	free(first_a);
	free(first_c);
	free(fa);
	free(fc);
	char *sc = tl_slurp_in(c, "summary.json");
	assert_non_null(strstr(sc, "\"seed\": 2,"));
	free(sc);
	free(a);
	free(b);
	free(c);
	tl_rmtree(dir);
	free(dir);
}

/* The embedded default scenario is scenarios/default.cfg: `default-scenario` prints it, and
 * running the file gives the same flows as running without one. */
static void test_embedded_default_is_the_file(void **state)
{
	(void)state;
	struct tl_cmd r = tl_sharebuf("default-scenario");
	assert_int_equal(r.status, 0);
	char *file = tl_slurp("scenarios/default.cfg");
	assert_non_null(file);
	assert_string_equal(r.out, file);
	free(file);
	tl_cmd_free(&r);

	char *dir = tl_tmpdir(), args[8192];
	const char *sets = "--set run.duration_ms=6 --set run.arrivals_ms=4";
	char *a = tl_path_in(dir, "embedded"), *b = tl_path_in(dir, "file");
	snprintf(args, sizeof(args), "run --quiet --out '%s' %s", a, sets);
	r = tl_sharebuf(args);
	assert_int_equal(r.status, 0);
	tl_cmd_free(&r);
	snprintf(args, sizeof(args), "run scenarios/default.cfg --quiet --out '%s' %s", b, sets);
	r = tl_sharebuf(args);
	assert_int_equal(r.status, 0);
	tl_cmd_free(&r);
	char *x = tl_slurp_in(a, "flows.csv"), *y = tl_slurp_in(b, "flows.csv");
	assert_true(strchr(x, '\n') != strrchr(x, '\n')); /* at least one flow */
	assert_string_equal(x, y);
	free(x);
	free(y);
	char *sa = tl_slurp_in(a, "summary.json"), *sb = tl_slurp_in(b, "summary.json");
	assert_non_null(strstr(sa, "\"scenario\": \"(default)\""));
	assert_non_null(strstr(sb, "\"scenario\": \"scenarios/default.cfg\""));
	free(sa);
	free(sb);
	free(a);
	free(b);
	tl_rmtree(dir);
	free(dir);
}

/* --- outputs of a run --- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double nearest_rank(const double *v, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	return v[(rank > n ? n : rank) - 1];
}

static void check_group(json_t *root, const char *group, double *v, size_t n)
{
	char key[96];
	snprintf(key, sizeof(key), "%s.count", group);
	assert_int_equal(tl_json_int(root, key), n);
	assert_true(n > 0);
	qsort(v, n, sizeof(double), cmp_double);
	double mean = 0;
	for (size_t i = 0; i < n; i++)
		mean += v[i] / (double)n;
	static const struct { const char *name; double p; } pct[] = { { "p50", 50 }, { "p95", 95 }, { "p99", 99 } };
	snprintf(key, sizeof(key), "%s.mean", group);
	assert_true(fabs(tl_json_num(root, key) - mean) <= 1e-5 * mean + 1e-6);
	for (size_t i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s.%s", group, pct[i].name);
		double want = nearest_rank(v, n, pct[i].p);
		if (fabs(tl_json_num(root, key) - want) > 1e-6 * want + 1e-6)
			fail_msg("%s = %.9g, recomputed from flows.csv %.9g", key, tl_json_num(root, key), want);
	}
}

static void test_run_outputs(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	char *out = tl_path_in(dir, "deep/out"); /* parents are created */
	snprintf(args, sizeof(args), "run --out '%s'", out);
	struct tl_cmd r = tl_sharebuf(args);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	/* the human summary names the outputs */
	char want_out[8300];
	snprintf(want_out, sizeof(want_out), "outputs: %s/{flows.csv,summary.json,occupancy.csv,drops.csv,scenario.cfg}", out);
	assert_non_null(strstr(r.out, want_out));
	assert_non_null(strstr(r.out, "scheme dt, seed 1:"));
	tl_cmd_free(&r);
	assert_int_equal(tl_count_entries(out), 5); /* the four files and scenario.cfg, no temporaries */

	char *flows = tl_slurp_in(out, "flows.csv"), *occ = tl_slurp_in(out, "occupancy.csv");
	char *drops = tl_slurp_in(out, "drops.csv");
	char *h;
	assert_string_equal(h = first_line(flows),
			    "flow_id,src,dst,size_bytes,priority,class,kind,query_id,start_ns,fct_ns,ideal_fct_ns,slowdown,"
			    "rx_fct_ns");
	free(h);
	assert_string_equal(h = first_line(occ), "time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops");
	free(h);
	assert_string_equal(h = first_line(drops), "node,cause,packets");
	free(h);

	json_error_t jerr;
	char *sp = tl_path_in(out, "summary.json");
	json_t *root = json_load_file(sp, 0, &jerr);
	if (!root)
		fail_msg("summary.json: %s (line %d)", jerr.text, jerr.line);
	free(sp);
	assert_string_equal(json_string_value(tl_json_get(root, "scheme")), "dt");
	assert_int_equal(tl_json_int(root, "seed"), 1);
	assert_true(fabs(tl_json_num(root, "sim_time_s") - 0.03) < 1e-12);
	assert_true(tl_json_num(root, "wall_time_s") > 0);
	assert_true(tl_json_int(root, "events") > 0);
	long long started = tl_json_int(root, "flows_started"), completed = tl_json_int(root, "flows_completed");
	assert_true(completed > 0 && completed <= started);
	static const char *groups[] = { "all", "short", "long", "incast" }, *stats[] = { "count", "mean", "p50", "p95", "p99" };
	char key[96];
	for (size_t g = 0; g < 4; g++)
		for (size_t s = 0; s < 5; s++) {
			snprintf(key, sizeof(key), "fct_slowdown.%s.%s", groups[g], stats[s]);
			tl_json_num(root, key);
		}
	tl_json_int(root, "qct_slowdown.count");
	tl_json_num(root, "qct_slowdown.mean");
	tl_json_num(root, "qct_slowdown.p99");
	long long dt = tl_json_int(root, "drops.total"), dl = tl_json_int(root, "drops.lossy"), dll = tl_json_int(root, "drops.lossless");
	assert_int_equal(dt, dl + dll);
	assert_int_equal(dll, 0); /* the default scenario has no lossless traffic */
	assert_int_equal(tl_json_int(root, "pfc.pause_frames"), 0);
	tl_json_int(root, "pfc.resume_frames");
	long long p99o = tl_json_int(root, "buffer.p99_occupancy_bytes"), maxo = tl_json_int(root, "buffer.max_occupancy_bytes");
	assert_true(p99o > 0 && p99o <= maxo);

	/* flows.csv agrees with the summary */
	size_t cap = 1024, n = 0, ns = 0, nl = 0, ni = 0;
	double *all = malloc(cap * sizeof(double)), *sm = malloc(cap * sizeof(double));
	double *lg = malloc(cap * sizeof(double)), *in = malloc(cap * sizeof(double));
	int *qcount = calloc(100000, sizeof(int));
	int max_q = -1;
	char *save = NULL;
	strtok_r(flows, "\n", &save); /* header */
	for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned id, src, dst, prio;
		unsigned long long size;
		char klass[16], kind[16];
		int qid;
		double start, fct, ideal, sd;
		int k = sscanf(line, "%u,%u,%u,%llu,%u,%15[^,],%15[^,],%d,%lf,%lf,%lf,%lf", &id, &src, &dst, &size, &prio,
			       klass, kind, &qid, &start, &fct, &ideal, &sd);
		if (k != 12)
			fail_msg("flows.csv: bad line %s", line);
		assert_int_not_equal(src, dst);
		assert_true(fabs(sd - fct / ideal) <= 1e-5 * sd);
		assert_true(sd >= 0.999);
		if (n == cap) {
			cap *= 2;
			all = realloc(all, cap * sizeof(double));
			sm = realloc(sm, cap * sizeof(double));
			lg = realloc(lg, cap * sizeof(double));
			in = realloc(in, cap * sizeof(double));
		}
		all[n++] = sd;
		if (size < 100000)
			sm[ns++] = sd;
		if (size > 1000000)
			lg[nl++] = sd;
		if (!strcmp(kind, "incast")) {
			in[ni++] = sd;
			assert_true(qid >= 0 && qid < 100000);
			qcount[qid]++;
			if (qid > max_q)
				max_q = qid;
		} else {
			assert_string_equal(kind, "background");
			assert_int_equal(qid, -1);
		}
	}
	print_message("default run: %zu flows completed (%zu short, %zu long, %zu incast), %lld started\n", n, ns, nl,
		      ni, started);
	assert_int_equal(n, completed);
	check_group(root, "fct_slowdown.all", all, n);
	check_group(root, "fct_slowdown.short", sm, ns);
	check_group(root, "fct_slowdown.long", lg, nl);
	check_group(root, "fct_slowdown.incast", in, ni);
	/* a query completes when all of its fanin = 8 responses did */
	long long queries_done = 0;
	for (int q = 0; q <= max_q; q++) {
		assert_true(qcount[q] <= 8);
		queries_done += qcount[q] == 8;
	}
	assert_int_equal(tl_json_int(root, "qct_slowdown.count"), queries_done);

	/* occupancy.csv: the 4 leaves (run.sample_switches = "leaves") every 10 µs for 30 ms */
	size_t occ_rows = 0, leaf_rows[4] = { 0 };
	double occ_util_sum = 0;
	unsigned long long occ_drops = 0;
	save = NULL;
	strtok_r(occ, "\n", &save);
	for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		double t;
		unsigned leaf;
		unsigned long long lossy, lossless, interval_drops;
		double util;
		if (sscanf(line, "%lf,leaf%u,%llu,%llu,%lf,%llu", &t, &leaf, &lossy, &lossless, &util, &interval_drops) != 6 ||
		    leaf >= 4)
			fail_msg("occupancy.csv: bad line %s", line);
		/* read bandwidth in use: a share of the ports' capacity (transmissions that start
		 * near the end of an interval count whole, hence the small margin) */
		assert_true(util >= 0 && util <= 1.1);
		occ_util_sum += util;
		occ_drops += interval_drops;
		assert_int_equal(lossless, 0);
		assert_true(lossy <= (unsigned long long)maxo);
		leaf_rows[leaf]++;
		occ_rows++;
	}
	assert_int_equal(occ_rows, 4 * 3000);
	/* the summary's memory-bandwidth block is computed from the same samples */
	assert_int_equal(tl_json_int(root, "memory_bandwidth.drops_sampled"), occ_drops);
	assert_true(occ_util_sum > 0);
	assert_true(fabs(tl_json_num(root, "memory_bandwidth.mean_util") - occ_util_sum / (double)occ_rows) < 1e-6);
	for (int l = 0; l < 4; l++)
		assert_int_equal(leaf_rows[l], 3000);

	/* drops.csv adds up to the summary's total */
	long long dsum = 0;
	save = NULL;
	strtok_r(drops, "\n", &save);
	for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *comma = strrchr(line, ',');
		assert_non_null(comma);
		dsum += atoll(comma + 1);
	}
	assert_int_equal(dsum, dt);

	free(qcount);
	free(all);
	free(sm);
	free(lg);
	free(in);
	json_decref(root);
	free(flows);
	free(occ);
	free(drops);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* --- bad input --- */

struct bad_case {
	const char *name;
	const char *file;      /* scenario file written as bad.cfg (NULL: none) */
	const char *args;      /* after `run`; BAD = path of bad.cfg */
	int status;            /* expected exit status */
	const char *msgs[3];   /* substrings of stderr; $D is replaced by the temporary directory */
};

/* Aux files every case may refer to (in the case's directory). */
static const char nonmonotone_cdf[] = "# sizes must not decrease\n0 0\n1000 0.5\n500 1\n";
static const char bbr_flowlist[] = "start_us,src,dst,size_bytes,priority,transport\n0,0,1,1000,1,dctcp\n5,2,3,1000,1,bbr\n";
static const char zero_cdf[] = "# every flow 0 bytes\n0 1\n100 1\n";
static const char bad_flowlist[] =
	"start_us,src,dst,size_bytes,priority,transport\n0,0,1,1000,1,dctcp\n0,0,1,x,1,dctcp\n";
static const char two_queriers[] = "start_us,src,dst,size_bytes,priority,transport,class,query\n"
				   "0,1,0,1000,1,dctcp,,7\n0,2,0,1000,1,dctcp,,7\n5,3,4,1000,1,dctcp,,7\n";
static const char bad_query[] = "start_us,src,dst,size_bytes,priority,transport,class,query\n0,1,0,1000,1,dctcp,,q1\n";

#define SHORT_RUN "run: { duration_ms = 1.0; arrivals_ms = 1.0; };\n"

static const struct bad_case bad_cases[] = {
	{ "unknown key", "run: {\n  seed = 1;\n  bogus = 3;\n};\n", "BAD", 1,
	  { "bad.cfg:3: run.bogus: unknown key" } },
	{ "wrong type", "run: {\n  seed = 1;\n  duration_ms = \"long\";\n};\n", "BAD", 1,
	  { "bad.cfg:3: run.duration_ms: expected a number, got \"long\"" } },
	{ "negative value", "topology: {\n  type = \"single\";\n  hosts = -4;\n};\n", "BAD", 1,
	  { "bad.cfg:3: topology.hosts: -4 is out of range, expected a value in [1, 4096]" } },
	{ "out of range", "tcp: {\n  mss = 1000;\n  dctcp_g = 1.5;\n};\n", "BAD", 1,
	  { "bad.cfg:3: tcp.dctcp_g: 1.5 is out of range, expected a value in [0, 1]" } },
	{ "unknown enum value", "topology: {\n  type = \"ring\";\n};\n", "BAD", 1,
	  { "bad.cfg:2: topology.type: expected one of single|leafspine|fattree, got \"ring\"" } },
	{ "syntax error", "run: { seed = ; };\n", "BAD", 1, { "bad.cfg:1: syntax error" } },
	/* checked after reading (sb_scenario_validate), still at the key's line */
	{ "unknown scheme", "switch: {\n  scheme = \"abm2\";\n};\n", "BAD", 1,
	  { "bad.cfg:2: switch.scheme: unknown scheme \"abm2\", expected one of dt|", "cs", "static" } },
	/* 4 M hosts would allocate until the kernel killed it: refused from the estimate, nothing
	 * written (a k = 64 fat-tree, once refused for its per-host tables, now fits) */
	{ "4 M hosts", "topology: {\n  leaves = 1024;\n  hosts_per_leaf = 4096;\n};\n", "BAD", 1,
	  { "bad.cfg:3: topology.hosts_per_leaf: expected a run of at most ", "MB of it for 4194304 hosts, 1026 switches and their ports",
	    "raise run.max_memory_mb" } },
	{ "odd fat-tree k", "topology: {\n  type = \"fattree\";\n  k = 5;\n};\n", "BAD", 1,
	  { "bad.cfg:3: topology.k: a fattree needs an even k, got 5" } },
	{ "unknown transport", SHORT_RUN "workloads = (\n  { type = \"poisson\"; transport = \"bbr\"; }\n);\n", "BAD", 1,
	  { "bad.cfg:3: workloads.0.transport: unknown transport \"bbr\", expected one of dctcp|" } },
	{ "CDF not monotone",
	  SHORT_RUN "workloads = (\n  { type = \"poisson\"; cdf = \"$D/nonmonotone.cdf\"; }\n);\n", "BAD", 1,
	  { "bad.cfg:3: workloads", "cdf", "nonmonotone.cdf:4: CDF is not monotone: size 500 is smaller than the previous size 1000" } },
	/* sampling it looped for ever: the incast hung */
	{ "CDF entirely at 0 bytes",
	  SHORT_RUN "workloads = (\n  { type = \"incast\"; cdf = \"$D/zero.cdf\"; query_rate = 1000.0; fanin = 2; }\n);\n",
	  "BAD", 1, { "bad.cfg:3: workloads.0.cdf: ", "zero.cdf:3: all of the probability is on sizes below 1 byte" } },
	{ "missing CDF file", SHORT_RUN "workloads = (\n  { type = \"poisson\"; cdf = \"$D/nosuch.cdf\"; }\n);\n", "BAD", 1,
	  { "bad.cfg:3: workloads", "nosuch.cdf: cannot read CDF file: No such file or directory" } },
	{ "missing scenario file", NULL, "'$D/nosuch.cfg'", 1,
	  { "cannot open $D/nosuch.cfg: No such file or directory" } },
	/* read until the machine ran out of memory */
	{ "scenario is /dev/zero", NULL, "/dev/zero", 1,
	  { "sharebuf: cannot open /dev/zero: not a regular file (a device, pipe or socket might never end)" } },
	{ "flow list with a bad line", SHORT_RUN "workloads = (\n  { type = \"file\"; path = \"$D/flows.csv\"; }\n);\n",
	  "BAD", 1, { "$D/flows.csv:3: column size_bytes: expected a whole number of bytes >= 1, got `x`" } },
	{ "a query with two queriers", SHORT_RUN "workloads = (\n  { type = \"file\"; path = \"$D/queriers.csv\"; }\n);\n",
	  "BAD", 1, { "$D/queriers.csv:4: column query: query 7's responses go to host 0 (line 2) and to host 4; expected one querier per query" } },
	{ "a query id that is not a number", SHORT_RUN "workloads = (\n  { type = \"file\"; path = \"$D/badquery.csv\"; }\n);\n",
	  "BAD", 1, { "$D/badquery.csv:2: column query: expected a query id 0..2147483647, or nothing, got `q1`" } },
	/* the flow list is found next to the scenario that names it, and a missing one is
	 * reported at the key that names it (it once said only "nosuch.csv: cannot read") */
	{ "missing flow file", SHORT_RUN "workloads = (\n  { type = \"file\"; path = \"nosuch.csv\"; }\n);\n", "BAD", 1,
	  { "bad.cfg:3: workloads.0.path: $D/nosuch.csv: cannot read flow file: No such file or directory" } },
	{ "unknown transport in a flow file", SHORT_RUN "workloads = (\n  { type = \"file\"; path = \"bbr.csv\"; }\n);\n",
	  "BAD", 1,
	  { "bad.cfg:3: workloads.0.path: $D/bbr.csv:3: column transport: unknown transport \"bbr\", expected one of dctcp|",
	    "|dcqcn|" } },
	{ "flow file not a regular file", SHORT_RUN "workloads = (\n  { type = \"file\"; path = \"/dev/zero\"; }\n);\n",
	  "BAD", 1, { "bad.cfg:3: workloads.0.path: /dev/zero: cannot read flow file: not a regular file" } },
	{ "dst beyond the hosts", SHORT_RUN "workloads = (\n  { type = \"burst\"; srcs = [1, 2]; dst = 99; }\n);\n", "BAD",
	  1, { "bad.cfg:3: workloads.0.dst: host 99 does not exist, the topology has 32 hosts (0..31)" } },
	{ "src beyond the hosts (--set)", NULL,
	  "--set workloads.2.type=burst --set 'workloads.2.srcs=[1,40]'", 1,
	  { "workloads.2.srcs[1]: host 40 does not exist, the topology has 32 hosts (0..31)" } },
	{ "--set unknown key", NULL, "--set run.bogus=1", 1, { "--set run.bogus: unknown key" } },
	{ "--set out of range", NULL, "--set topology.hosts_per_leaf=0", 1,
	  { "--set topology.hosts_per_leaf: 0 is out of range, expected a value in [1, 4096]" } },
	/* list values: a hole, a lost bracket or an empty priority list is an error, not a list */
	{ "--set list with an empty element", NULL,
	  "--set workloads.2.type=burst --set 'workloads.2.srcs=1,,2' --set workloads.2.dst=5", 1,
	  { "--set workloads.2.srcs: expected a list of integers, got an empty element in `1,,2`" } },
	{ "--set list without its ]", NULL, "--set 'run.sample_hosts=[1,2'", 1,
	  { "--set run.sample_hosts: expected a list [a, b, ...] with matching brackets, got `[1,2`" } },
	{ "--set empty priority list", NULL, "--set 'switch.dt.alpha=[]'", 1,
	  { "--set switch.dt.alpha: expected a number or a list of 8 numbers (one per priority), got an empty list" } },
	/* the option grammar's words (core/opt.h), the same in every program and command */
	{ "--seed not a number", NULL, "--seed abc", 2, { "sharebuf run: --seed expects a whole number >= 0, got 'abc'\n" } },
	{ "unknown option", NULL, "--frobnicate", 2,
	  { "sharebuf run: unknown option '--frobnicate' (see 'sharebuf run --help')\n" } },
	{ "unknown option with a value", NULL, "--frobnicate=3", 2,
	  { "sharebuf run: unknown option '--frobnicate' (see 'sharebuf run --help')\n" } },
	{ "option without its value", NULL, "--set", 2, { "sharebuf run: --set expects a value (--set KEY=VALUE)\n" } },
	{ "--out twice", NULL, "--out x", 2, { "sharebuf run: --out given twice (see 'sharebuf run --help')\n" } },
	{ "a flag with a value", NULL, "--quiet=yes", 2, { "sharebuf run: --quiet takes no value, got 'yes'\n" } },
	{ "two scenario files", "run: { seed = 1; };\n", "BAD BAD", 2,
	  { "sharebuf run: unexpected argument '$D/bad.cfg' (see 'sharebuf run --help')\n" } },
	/* "--set KEY VALUE" used to take VALUE for a second scenario file */
	{ "--set without =", "run: { seed = 1; };\n", "BAD --set run.seed 3", 2,
	  { "sharebuf run: --set expects KEY=VALUE, got 'run.seed'; write --set run.seed=3\n" } },
	{ "--set= without =", NULL, "--set=run.seed", 2, { "sharebuf run: --set expects KEY=VALUE, got 'run.seed'\n" } },
	{ "--set= empty", NULL, "--set=", 2, { "sharebuf run: --set expects KEY=VALUE, got ''\n" } },
	{ "--set without a key", NULL, "--set =3", 2, { "sharebuf run: --set expects KEY=VALUE, got '=3'\n" } },
	{ "--seed= not a number", NULL, "--seed=x", 2, { "sharebuf run: --seed expects a whole number >= 0, got 'x'\n" } },
	{ "--seed= empty", NULL, "--seed=", 2, { "sharebuf run: --seed expects a whole number >= 0, got ''\n" } },
	{ "--seed with a sign", NULL, "--seed +5", 2, { "sharebuf run: --seed expects a whole number >= 0, got '+5'\n" } },
	/* after --, a word that looks like an option is an argument (here a second scenario) */
	{ "-- ends the options", "run: { seed = 1; };\n", "BAD -- --quiet", 2,
	  { "sharebuf run: unexpected argument '--quiet' (see 'sharebuf run --help')\n" } },
};

/* Replace every $D in `s` by `dir`. */
static char *expand(const char *s, const char *dir)
{
	size_t n = strlen(s) + 1, dl = strlen(dir);
	for (const char *p = s; (p = strstr(p, "$D")); p += 2)
		n += dl;
	char *o = malloc(n), *w = o;
	for (const char *p = s; *p;) {
		if (p[0] == '$' && p[1] == 'D') {
			memcpy(w, dir, dl);
			w += dl;
			p += 2;
		} else {
			*w++ = *p++;
		}
	}
	*w = 0;
	return o;
}

static void test_bad_input(void **state)
{
	(void)state;
	size_t ncases = sizeof(bad_cases) / sizeof(bad_cases[0]);
	assert_true(ncases >= 12);
	for (size_t i = 0; i < ncases; i++) {
		const struct bad_case *c = &bad_cases[i];
		char *dir = tl_tmpdir();
		write_file(dir, "nonmonotone.cdf", nonmonotone_cdf);
		write_file(dir, "zero.cdf", zero_cdf);
		write_file(dir, "bbr.csv", bbr_flowlist);
		write_file(dir, "flows.csv", bad_flowlist);
		write_file(dir, "queriers.csv", two_queriers);
		write_file(dir, "badquery.csv", bad_query);
		char *bad = tl_path_in(dir, "bad.cfg");
		if (c->file) {
			char *text = expand(c->file, dir);
			write_file(dir, "bad.cfg", text);
			free(text);
		}
		char *args0 = expand(c->args, dir), args[16384], quoted[4300];
		snprintf(quoted, sizeof(quoted), "'%s'", bad);
		/* BAD -> the quoted path of bad.cfg */
		char *w = args;
		for (const char *p = args0; *p;) {
			if (!strncmp(p, "BAD", 3)) {
				w += sprintf(w, "%s", quoted);
				p += 3;
			} else {
				*w++ = *p++;
			}
		}
		*w = 0;
		free(args0);
		char *out = tl_path_in(dir, "out"), cmd[16500];
		snprintf(cmd, sizeof(cmd), "run --quiet --out '%s' %s", out, args);
		struct tl_cmd r = tl_sharebuf(cmd);
		print_message("bad input [%s]: exit %d: %s", c->name, r.status, r.err);
		if (r.status != c->status)
			fail_msg("[%s] exit status %d, expected %d (stderr: %s)", c->name, r.status, c->status, r.err);
		assert_true(!strncmp(r.err, "sharebuf: ", 10) || !strncmp(r.err, "sharebuf run: ", 14));
		assert_string_equal(r.out, "");
		for (size_t m = 0; m < 3 && c->msgs[m]; m++) {
			char *want = expand(c->msgs[m], dir);
			if (!strstr(r.err, want))
				fail_msg("[%s] stderr lacks \"%s\": %s", c->name, want, r.err);
			free(want);
		}
		if (tl_exists(out))
			fail_msg("[%s] the output directory %s was created", c->name, out);
		tl_cmd_free(&r);
		free(out);
		free(bad);
		tl_rmtree(dir);
		free(dir);
	}
}

/* An output directory that cannot be created: the run fails before simulating, says why, and
 * leaves nothing behind; a directory that already exists keeps only complete files. */
/* Relative paths in a scenario file (a flow list, a CDF) are relative to that file, wherever
 * sharebuf runs from (tests run from the repository root, the files are in a temporary
 * directory): the scenario and its inputs move together. */
static void test_relative_paths(void **state)
{
	(void)state;
	char *dir = tl_tmpdir();
	char *sub = tl_path_in(dir, "sub");
	assert_int_equal(mkdir(sub, 0700), 0);
	write_file(sub, "flows.csv", "start_us,src,dst,size_bytes,priority,transport\n0,0,9,3000,1,dctcp\n10,1,9,3000,1,dctcp\n");
	write_file(dir, "sizes.cdf", "1000 0\n2000 1\n");
	write_file(dir, "s.cfg", "run: { duration_ms = 2.0; arrivals_ms = 1.0; };\n"
				 "workloads = ( { type = \"file\"; path = \"sub/flows.csv\"; },\n"
				 "  { type = \"poisson\"; cdf = \"sizes.cdf\"; load = 0.01; } );\n");
	char *cfg = tl_path_in(dir, "s.cfg"), *out = tl_path_in(dir, "out"), args[4096];
	snprintf(args, sizeof(args), "run '%s' --quiet --out '%s'", cfg, out);
	struct tl_cmd r = tl_sharebuf(args);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	char *flows = tl_slurp_in(out, "flows.csv");
	assert_non_null(strstr(flows, ",file,"));
	free(flows);
	tl_cmd_free(&r);
	free(cfg);
	free(out);
	free(sub);
	tl_rmtree(dir);
	free(dir);
}

static void test_bad_output_dir(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	write_file(dir, "afile", "not a directory\n");
	const char *sets = "--set run.duration_ms=1 --set run.arrivals_ms=1";
	snprintf(args, sizeof(args), "run --quiet %s --out '%s/afile/out'", sets, dir);
	struct tl_cmd r = tl_sharebuf(args);
	assert_int_equal(r.status, 1);
	char want[8300];
	snprintf(want, sizeof(want), "sharebuf: cannot create directory %s/afile/out: Not a directory", dir);
	assert_non_null(strstr(r.err, want));
	tl_cmd_free(&r);
	assert_int_equal(tl_count_entries(dir), 1);

	/* an empty --out fails cleanly, before simulating */
	snprintf(args, sizeof(args), "run --quiet %s --out ''", sets);
	r = tl_sharebuf(args);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "sharebuf: --out: the output directory name is empty"));
	tl_cmd_free(&r);

	/* an existing directory with an old file: the five outputs are added, nothing else */
	char *out = tl_path_in(dir, "existing");
	assert_int_equal(mkdir(out, 0777), 0);
	write_file(out, "notes.txt", "keep me\n");
	snprintf(args, sizeof(args), "run --quiet %s --out '%s'", sets, out);
	r = tl_sharebuf(args);
	assert_int_equal(r.status, 0);
	tl_cmd_free(&r);
	assert_int_equal(tl_count_entries(out), 6);
	char *notes = tl_slurp_in(out, "notes.txt");
	assert_string_equal(notes, "keep me\n");
	free(notes);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* --- queries from a flow list --- */

/* A flow list whose lines carry query ids gives the same incast and QCT metrics as the
 * generated incast it was written from (docs/workloads.md §2): the incast workload's flows,
 * written to a list with their query ids (renumbered, to show ids are only labels), replay to
 * the same flows.csv byte for byte and the same fct_slowdown and qct_slowdown. full_window =
 * false, since a flow list's responses start with the transport's initial window. */
static void test_flow_list_queries(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	static const char *const common =
		"run: { duration_ms = 10.0; arrivals_ms = 4.0; sample_interval_us = 0.0; };\n"
		"topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 8; spines = 2; host_rate_gbps = 25.0;\n"
		"  fabric_rate_gbps = 25.0; };\n";
	char text[4096];
	snprintf(text, sizeof(text), "%sworkloads = ({ type = \"incast\"; query_rate = 300.0; fanin = 6; size_bytes = 300000;\n"
		 "  responders = \"next_rack\"; full_window = false; });\n", common);
	write_file(dir, "gen.cfg", text);
	char *gen = tl_path_in(dir, "gen"), *rep = tl_path_in(dir, "rep");
	snprintf(args, sizeof(args), "run --quiet '%s/gen.cfg' --out '%s'", dir, gen);
	struct tl_cmd r = tl_sharebuf(args);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	tl_cmd_free(&r);

	/* flows.csv, in flow_id order, as a flow list with a query column */
	char *flows = tl_slurp_in(gen, "flows.csv");
	size_t cap = 64, n = 0;
	struct line { unsigned id, src, dst, prio; unsigned long long size; int q; double start_ns; } *v = malloc(cap * sizeof(*v));
	char *save = NULL;
	strtok_r(flows, "\n", &save);
	for (char *l = strtok_r(NULL, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (n == cap)
			v = realloc(v, (cap *= 2) * sizeof(*v));
		char klass[16], kind[16];
		if (sscanf(l, "%u,%u,%u,%llu,%u,%15[^,],%15[^,],%d,%lf", &v[n].id, &v[n].src, &v[n].dst, &v[n].size,
			   &v[n].prio, klass, kind, &v[n].q, &v[n].start_ns) != 9 || strcmp(kind, "incast"))
			fail_msg("flows.csv: unexpected line %s", l);
		n++;
	}
	assert_true(n > 50);
	char *list = malloc(n * 96 + 128), *w = list;
	w += sprintf(w, "# written from a generated incast's flows.csv\nstart_us,src,dst,size_bytes,priority,transport,class,query\n");
	for (unsigned id = 0; id < n; id++) {
		size_t i = 0;
		while (i < n && v[i].id != id)
			i++;
		if (i == n)
			fail_msg("flow %u did not complete: every flow must, for the replay to have it", id);
		w += sprintf(w, "%.6f,%u,%u,%llu,%u,dctcp,lossy,%d\n", v[i].start_ns / 1000, v[i].src, v[i].dst, v[i].size,
			     v[i].prio, 1000 + 7 * v[i].q);
	}
	write_file(dir, "list.csv", list);
	snprintf(text, sizeof(text), "%sworkloads = ({ type = \"file\"; path = \"%s/list.csv\"; });\n", common, dir);
	write_file(dir, "rep.cfg", text);
	snprintf(args, sizeof(args), "run --quiet '%s/rep.cfg' --out '%s'", dir, rep);
	r = tl_sharebuf(args);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	tl_cmd_free(&r);

	char *f2 = tl_slurp_in(rep, "flows.csv"), *f1 = tl_slurp_in(gen, "flows.csv");
	assert_string_equal(f1, f2);
	json_t *a = tl_json_load(gen, "summary.json"), *b = tl_json_load(rep, "summary.json");
	static const char *const keys[] = { "fct_slowdown", "qct_slowdown", "queries_started", "queries_completed" };
	for (size_t k = 0; k < 4; k++)
		if (!json_equal(tl_json_get(a, keys[k]), tl_json_get(b, keys[k])))
			fail_msg("summary.json %s differs between the generated incast and its flow list", keys[k]);
	long long queries = tl_json_int(b, "qct_slowdown.count");
	print_message("%zu responses, %lld queries replayed\n", n, queries);
	assert_true(queries > 5);
	assert_int_equal(tl_json_int(b, "fct_slowdown.incast.count"), n);
	json_decref(a);
	json_decref(b);
	free(f1);
	free(f2);
	free(list);
	free(v);
	free(flows);
	free(gen);
	free(rep);
	tl_rmtree(dir);
	free(dir);
}

/* --- one command line --- */

/* --opt=VALUE is --opt VALUE for every option of run, as for compare. */
static void test_option_forms(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	char *a = tl_path_in(dir, "a"), *b = tl_path_in(dir, "b");
	snprintf(args, sizeof(args), "run --quiet --seed=4 --set=run.duration_ms=2 --set run.arrivals_ms=1 --out='%s'", a);
	struct tl_cmd r = tl_sharebuf(args);
	if (r.status != 0)
		fail_msg("sharebuf %s: exit %d: %s", args, r.status, r.err);
	tl_cmd_free(&r);
	snprintf(args, sizeof(args), "run -q --seed 4 --set run.duration_ms=2 --set run.arrivals_ms=1 --out '%s'", b);
	r = tl_sharebuf(args);
	assert_int_equal(r.status, 0);
	tl_cmd_free(&r);
	char *x = tl_slurp_in(a, "flows.csv"), *y = tl_slurp_in(b, "flows.csv");
	assert_string_equal(x, y);
	free(x);
	free(y);
	json_t *sum = tl_json_load(a, "summary.json");
	assert_int_equal(tl_json_int(sum, "seed"), 4);
	assert_true(fabs(tl_json_num(sum, "sim_time_s") - 0.002) < 1e-12);
	json_decref(sum);
	free(a);
	free(b);
	tl_rmtree(dir);
	free(dir);
}

/* `sharebuf CMD --help` for every command: its usage on stdout with its options (generated
 * from its table), status 0, nothing run; after other arguments too, mistakes included:
 * --help wins. */
static void test_command_help(void **state)
{
	(void)state;
	static const struct {
		const char *cmd, *opts[8];
	} cmds[] = {
		{ "run", { "--set KEY=VALUE", "--seed N", "--out DIR", "-q, --quiet" } },
		{ "compare", { "--schemes A,B,...", "-j, --jobs N", "--set KEY=VALUE", "--seed N", "--out DIR",
			       "-q, --quiet", "--collect" } },
		{ "sweep", { "--out DIR", "-j, --jobs N", "--set KEY=VALUE", "--dry-run", "--collect", "--emit-slurm",
			     "--point I", "--mpi" } },
		{ "list", { NULL } },
		{ "params", { NULL } },
		{ "default-scenario", { NULL } },
	};
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		for (int form = 0; form < 3; form++) {
			char args[256], want[128];
			snprintf(args, sizeof(args), "%s %s", cmds[i].cmd,
				 form == 0 ? "--help" : form == 1 ? "--frobnicate -h" : "extra words --out /nonexistent/x --help");
			struct tl_cmd r = tl_sharebuf(args);
			if (r.status != 0)
				fail_msg("sharebuf %s: exit %d: %s", args, r.status, r.err);
			snprintf(want, sizeof(want), "usage: sharebuf %s", cmds[i].cmd);
			if (strncmp(r.out, want, strlen(want)))
				fail_msg("sharebuf %s prints: %s", args, r.out);
			assert_non_null(strstr(r.out, "\noptions:\n"));
			assert_non_null(strstr(r.out, "\n  -h, --help "));
			for (size_t o = 0; o < 8 && cmds[i].opts[o]; o++) {
				char line[64];
				snprintf(line, sizeof(line), "\n  %s ", cmds[i].opts[o]);
				if (!strstr(r.out, line))
					fail_msg("sharebuf %s lists no %s: %s", args, cmds[i].opts[o], r.out);
			}
			assert_string_equal(r.err, "");
			tl_cmd_free(&r);
		}
	/* a word that is an option's value is not --help: run's DIR is "--help" here */
	char *dir = tl_tmpdir(), args[4300];
	snprintf(args, sizeof(args), "run --quiet --set run.duration_ms=0.1 --out %s/--help", dir);
	struct tl_cmd r = tl_sharebuf(args);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	char *sum = tl_path_in(dir, "--help/summary.json");
	assert_true(tl_exists(sum));
	free(sum);
	tl_cmd_free(&r);
	tl_rmtree(dir);
	free(dir);
}

/* A value may begin with "--" (--out --x: the directory "--x"; test_option_forms has both
 * forms), and `--opt=` gives the empty value. */
static void test_value_forms(void **state)
{
	(void)state;
	char *dir = tl_tmpdir();
	char args[4400];
	snprintf(args, sizeof(args), "run -q --set run.duration_ms=0.1 --out %s/--x", dir);
	struct tl_cmd r = tl_sharebuf(args);
	assert_int_equal(r.status, 0);
	tl_cmd_free(&r);
	char *x = tl_path_in(dir, "--x/summary.json");
	assert_true(tl_exists(x));
	free(x);
	/* --opt= is the empty value, refused by the option that needs one */
	r = tl_sharebuf("compare --jobs= --collect");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "sharebuf compare: --jobs expects a whole number from 1 to 4096, got ''\n");
	tl_cmd_free(&r);
	tl_rmtree(dir);
	free(dir);
}

/* The three programs share one option grammar (core/opt.h): the same words for the same
 * mistake, in every program and command, each on one line of stderr with exit status 2, and
 * the same value in both forms. */
static void test_one_grammar(void **state)
{
	(void)state;
	static const struct {
		const char *prog, *args, *err;
	} cases[] = {
		{ "sharebuf", "run --bogus", "sharebuf run: unknown option '--bogus' (see 'sharebuf run --help')" },
		{ "sharebuf", "sweep s.cfg --bogus=1", "sharebuf sweep: unknown option '--bogus' (see 'sharebuf sweep --help')" },
		{ "sharebuf-load", "plan --bogus", "sharebuf-load plan: unknown option '--bogus' (see 'sharebuf-load plan --help')" },
		{ "sharebuf-switch", "--bogus", "sharebuf-switch: unknown option '--bogus' (see 'sharebuf-switch --help')" },
		/* an option of another command is unknown to this one */
		{ "sharebuf-load", "client s.cfg --nstat f", "sharebuf-load client: unknown option '--nstat' (see 'sharebuf-load client --help')" },
		{ "sharebuf", "compare --out", "sharebuf compare: --out expects a value (--out DIR)" },
		{ "sharebuf-load", "report --out", "sharebuf-load report: --out expects a value (--out DIR)" },
		{ "sharebuf-switch", "s.cfg --out", "sharebuf-switch: --out expects a value (--out DIR)" },
		{ "sharebuf", "compare --out a --out=b", "sharebuf compare: --out given twice (see 'sharebuf compare --help')" },
		{ "sharebuf-load", "report --out=a --out b", "sharebuf-load report: --out given twice (see 'sharebuf-load report --help')" },
		{ "sharebuf-switch", "--out=a --out=b", "sharebuf-switch: --out given twice (see 'sharebuf-switch --help')" },
		{ "sharebuf", "run a b", "sharebuf run: unexpected argument 'b' (see 'sharebuf run --help')" },
		{ "sharebuf-load", "server x", "sharebuf-load server: unexpected argument 'x' (see 'sharebuf-load server --help')" },
		{ "sharebuf-switch", "a b", "sharebuf-switch: unexpected argument 'b' (see 'sharebuf-switch --help')" },
		{ "sharebuf", "sweep", "sharebuf sweep: expected SPEC (see 'sharebuf sweep --help')" },
		{ "sharebuf-switch", "--out d --port a=02:00:00:00:00:01", "sharebuf-switch: expected SCENARIO (see 'sharebuf-switch --help')" },
		{ "sharebuf-load", "server", "sharebuf-load server: expected --listen PORT (see 'sharebuf-load server --help')" },
		{ "sharebuf-switch", "s.cfg --port a=02:00:00:00:00:01", "sharebuf-switch: expected --out DIR (see 'sharebuf-switch --help')" },
		{ "sharebuf", "compare --jobs x", "sharebuf compare: --jobs expects a whole number from 1 to 4096, got 'x'" },
		{ "sharebuf", "sweep s.cfg -j 0", "sharebuf sweep: --jobs expects a whole number from 1 to 4096, got '0'" },
		{ "sharebuf", "sweep s.cfg --point=-1", "sharebuf sweep: --point expects a whole number >= 0, got '-1'" },
		{ "sharebuf", "sweep s.cfg --point=", "sharebuf sweep: --point expects a whole number >= 0, got '' (is SLURM_ARRAY_TASK_ID set?)" },
		{ "sharebuf-load", "server --listen=x", "sharebuf-load server: --listen expects a whole number from 1 to 65535, got 'x'" },
		{ "sharebuf-load", "server --listen x", "sharebuf-load server: --listen expects a whole number from 1 to 65535, got 'x'" },
		{ "sharebuf-switch", "s.cfg --duration-s=x", "sharebuf-switch: --duration-s expects a number of seconds in (0, 1e6], got 'x'" },
		{ "sharebuf", "run --quiet=1", "sharebuf run: --quiet takes no value, got '1'" },
		{ "sharebuf-load", "client --reuse=1", "sharebuf-load client: --reuse takes no value, got '1'" },
		{ "sharebuf-switch", "--busy-poll=1", "sharebuf-switch: --busy-poll takes no value, got '1'" },
		{ "sharebuf", "run --set a", "sharebuf run: --set expects KEY=VALUE, got 'a'" },
		{ "sharebuf-load", "info --set a b", "sharebuf-load info: --set expects KEY=VALUE, got 'a'; write --set a=b" },
		{ "sharebuf-switch", "--set=a", "sharebuf-switch: --set expects KEY=VALUE, got 'a'" },
		{ "sharebuf", "frob", "sharebuf: unknown command 'frob' (see 'sharebuf --help')" },
		{ "sharebuf-load", "frob", "sharebuf-load: unknown command 'frob' (see 'sharebuf-load --help')" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tl_cmd r = !strcmp(cases[i].prog, "sharebuf") ? tl_sharebuf(cases[i].args)
								      : tl_sibling(cases[i].prog, cases[i].args);
		char want[512];
		snprintf(want, sizeof(want), "%s\n", cases[i].err);
		if (r.status != 2 || strcmp(r.err, want))
			fail_msg("%s %s: exit %d, stderr: %s\nexpected: %s", cases[i].prog, cases[i].args, r.status, r.err, want);
		assert_string_equal(r.out, "");
		tl_cmd_free(&r);
	}
}

/* `--help` of every command of the other two programs: the usage with its options on stdout,
 * exit 0; each program's --help lists its commands; no command is a usage error. */
static void test_sibling_help(void **state)
{
	(void)state;
	static const struct {
		const char *prog, *cmd, *opts[9];
	} cmds[] = {
		{ "sharebuf-load", "server", { "--listen PORT", "--cc NAME", "--idle-ms MS" } },
		{ "sharebuf-load", "client", { "--host I", "--out DIR", "--set KEY=VALUE", "--peers FILE", "--port P",
					       "--preopen N", "--grace-ms MS", "--reuse" } },
		{ "sharebuf-load", "report", { "--out DIR", "--set KEY=VALUE", "--switch SWDIR", "--nstat FILE" } },
		{ "sharebuf-load", "plan", { "--set KEY=VALUE", "--host I" } },
		{ "sharebuf-load", "info", { "--set KEY=VALUE" } },
		{ "sharebuf-switch", NULL, { "--port IFNAME=MAC", "--out DIR", "--set KEY=VALUE", "--duration-s S", "--busy-poll" } },
	};
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		for (int form = 0; form < 2; form++) {
			char args[128], want[128];
			snprintf(args, sizeof(args), "%s %s", cmds[i].cmd ? cmds[i].cmd : "", form ? "--bogus -h" : "--help");
			struct tl_cmd r = tl_sibling(cmds[i].prog, args);
			if (r.status != 0)
				fail_msg("%s %s: exit %d: %s", cmds[i].prog, args, r.status, r.err);
			snprintf(want, sizeof(want), "usage: %s%s%s", cmds[i].prog, cmds[i].cmd ? " " : "",
				 cmds[i].cmd ? cmds[i].cmd : "");
			if (strncmp(r.out, want, strlen(want)))
				fail_msg("%s %s prints: %s", cmds[i].prog, args, r.out);
			for (size_t o = 0; o < 9 && cmds[i].opts[o]; o++) {
				char line[64];
				snprintf(line, sizeof(line), "\n  %s ", cmds[i].opts[o]);
				if (!strstr(r.out, line))
					fail_msg("%s %s lists no %s: %s", cmds[i].prog, args, cmds[i].opts[o], r.out);
			}
			assert_non_null(strstr(r.out, "\n  -h, --help "));
			assert_string_equal(r.err, "");
			tl_cmd_free(&r);
		}
	struct tl_cmd r = tl_sibling("sharebuf-load", "--help");
	assert_int_equal(r.status, 0);
	static const char *const load_cmds[] = { "server", "client", "report", "plan", "info" };
	for (size_t i = 0; i < 5; i++) {
		char line[64];
		snprintf(line, sizeof(line), "\n  %s ", load_cmds[i]);
		assert_non_null(strstr(r.out, line));
	}
	tl_cmd_free(&r);
	r = tl_sibling("sharebuf-load", "");
	assert_int_equal(r.status, 2);
	assert_true(!strncmp(r.err, "usage: sharebuf-load COMMAND", 28));
	tl_cmd_free(&r);
	r = tl_sharebuf("--help");
	static const char *const sb_cmds[] = { "run", "compare", "sweep", "list", "params", "default-scenario" };
	for (size_t i = 0; i < 6; i++) {
		char line[64];
		snprintf(line, sizeof(line), "\n  %s ", sb_cmds[i]);
		assert_non_null(strstr(r.out, line));
	}
	tl_cmd_free(&r);
}

/* `list GROUP` lists that group only; anything else is refused. */
static void test_list_groups(void **state)
{
	(void)state;
	static const struct { const char *group, *title, *entry; } groups[] = {
		{ "schemes", "buffer-management schemes", "\n  dt " },
		{ "transports", "transports", "\n  dcqcn " },
		{ "workloads", "workloads", "\n  incast\n" },
		{ "topologies", "topologies", "\n  fattree\n" },
	};
	struct tl_cmd all = tl_sharebuf("list");
	assert_int_equal(all.status, 0);
	size_t total = 0;
	for (size_t g = 0; g < 4; g++) {
		char args[64];
		snprintf(args, sizeof(args), "list %s", groups[g].group);
		struct tl_cmd r = tl_sharebuf(args);
		assert_int_equal(r.status, 0);
		assert_true(!strncmp(r.out, groups[g].title, strlen(groups[g].title)));
		assert_non_null(strstr(r.out, groups[g].entry));
		/* nothing of the other groups, and exactly its part of the full list */
		for (size_t o = 0; o < 4; o++)
			if (o != g)
				assert_null(strstr(r.out, groups[o].entry));
		assert_non_null(strstr(all.out, r.out));
		total += strlen(r.out);
		tl_cmd_free(&r);
	}
	assert_int_equal(total, strlen(all.out));
	tl_cmd_free(&all);
	struct tl_cmd r = tl_sharebuf("list scheme"); /* the singular is understood */
	assert_int_equal(r.status, 0);
	assert_true(!strncmp(r.out, "buffer-management schemes", 25));
	tl_cmd_free(&r);
	static const struct { const char *args, *msg; } bad[] = {
		{ "list frobs", "sharebuf: list: unknown group \"frobs\", expected one of schemes|transports|workloads|topologies\n" },
		{ "list schemes transports", "sharebuf list: unexpected argument 'transports' (see 'sharebuf list --help')\n" },
		{ "default-scenario extra",
		  "sharebuf default-scenario: unexpected argument 'extra' (see 'sharebuf default-scenario --help')\n" },
		{ "list --frob", "sharebuf list: unknown option '--frob' (see 'sharebuf list --help')\n" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = tl_sharebuf(bad[i].args);
		assert_int_equal(r.status, 2);
		assert_string_equal(r.out, "");
		assert_string_equal(r.err, bad[i].msg);
		tl_cmd_free(&r);
	}
}

/* `params PREFIX`: the rows of the full reference whose key starts with PREFIX (workloads.3.
 * as workloads.N.), under their section headings; none is an error. */
static void test_params_prefix(void **state)
{
	(void)state;
	struct tl_cmd all = tl_sharebuf("params");
	assert_int_equal(all.status, 0);
	static const struct { const char *prefix, *as; size_t min_rows; } cases[] = {
		{ "run.", "run.", 5 },
		{ "switch.dt.", "switch.dt.", 1 },
		{ "switch.dt.alpha", "switch.dt.alpha", 1 },
		{ "workloads.3.load", "workloads.N.load", 2 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char args[128], row[128];
		snprintf(args, sizeof(args), "params %s", cases[i].prefix);
		struct tl_cmd r = tl_sharebuf(args);
		if (r.status != 0)
			fail_msg("sharebuf %s: exit %d: %s", args, r.status, r.err);
		size_t rows = 0;
		char *save = NULL;
		for (char *line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (!strncmp(line, "| `", 3)) {
				snprintf(row, sizeof(row), "| `%s", cases[i].as);
				if (strncmp(line, row, strlen(row)))
					fail_msg("params %s prints the row %s", cases[i].prefix, line);
				/* a row of the full reference, verbatim */
				char *full = malloc(strlen(line) + 3);
				sprintf(full, "\n%s\n", line);
				assert_non_null(strstr(all.out, full));
				free(full);
				rows++;
			} else if (line[0] != '#' && strncmp(line, "| key |", 7) && strncmp(line, "|---", 4)) {
				fail_msg("params %s prints a line that is neither heading nor table: %s", cases[i].prefix, line);
			}
		}
		print_message("params %s: %zu rows\n", cases[i].prefix, rows);
		assert_true(rows >= cases[i].min_rows);
		tl_cmd_free(&r);
	}
	tl_cmd_free(&all);
	struct tl_cmd r = tl_sharebuf("params switch.bogus.");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "sharebuf: params: no scenario key starts with \"switch.bogus.\" (`sharebuf params` lists them all)\n");
	tl_cmd_free(&r);
}

/* --- informational commands --- */

static void expect_row(const char *md, const char *group, const char *key)
{
	char row[160];
	snprintf(row, sizeof(row), "\n| `%s.%s` |", group, key);
	if (!strstr(md, row))
		fail_msg("`sharebuf params` has no row for %s.%s", group, key);
}

static void test_info_commands(void **state)
{
	(void)state;
	struct tl_cmd r = tl_sharebuf("--help");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: sharebuf COMMAND"));
	assert_non_null(strstr(r.out, "run [SCENARIO]"));
	assert_non_null(strstr(r.out, "--seed N"));
	tl_cmd_free(&r);

	r = tl_sharebuf("--version");
	assert_int_equal(r.status, 0);
	unsigned maj, min, pat;
	assert_int_equal(sscanf(r.out, "sharebuf %u.%u.%u", &maj, &min, &pat), 3);
	tl_cmd_free(&r);

	r = tl_sharebuf("list");
	assert_int_equal(r.status, 0);
	static const char *names[] = { "dt", "cs", "static", "dctcp", "cubic", "newreno", "cbr",
				       "poisson", "incast", "longlived", "burst", "file", "single", "leafspine", "fattree" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char want[64];
		snprintf(want, sizeof(want), "\n  %s", names[i]); /* an indented entry */
		if (!strstr(r.out, want))
			fail_msg("`sharebuf list` does not list %s:\n%s", names[i], r.out);
	}
	tl_cmd_free(&r);

	r = tl_sharebuf("params");
	assert_int_equal(r.status, 0);
	assert_true(!strncmp(r.out, "# Scenario keys", 15));
	/* every top-level group has a section, and every key of the parameter tables a row */
	static const char *sections[] = { "\n## run\n", "\n## topology\n", "\n## switch\n", "\n## host\n", "\n## tcp\n",
					  "\n## Workloads\n", "### type = \"poisson\"", "### type = \"file\"" };
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (!strstr(r.out, sections[i]))
			fail_msg("`sharebuf params` lacks %s", sections[i]);
	static const struct { const char *group; const struct sb_param *table; } tables[] = {
		{ "run", sb_run_param_table }, { "topology", sb_topo_param_table },
		{ "switch", sb_switch_param_table }, { "host", sb_host_param_table }, { "tcp", sb_tcp_param_table },
	};
	size_t rows = 0;
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (const struct sb_param *p = tables[t].table; p->name; p++, rows++)
			expect_row(r.out, tables[t].group, p->name);
	for (const struct sb_workload_ops *const *t = sb_workload_all(); *t; t++)
		for (const struct sb_param *p = (*t)->params; p->name; p++, rows++)
			expect_row(r.out, "workloads.N", p->name);
	for (const struct sb_bm_ops *const *b = sb_bm_all(); *b; b++) {
		char group[64], section[80];
		snprintf(group, sizeof(group), "switch.%s", (*b)->name);
		snprintf(section, sizeof(section), "\n### %s\n", group);
		assert_non_null(strstr(r.out, section));
		for (const struct sb_param *p = (*b)->params; p && p->name; p++, rows++)
			expect_row(r.out, group, p->name);
	}
	assert_true(rows > 50);
	/* the checked-in reference is what the program prints (regenerate with `make docs`) */
	char *doc = tl_slurp("docs/scenario-keys.md");
	assert_non_null(doc);
	if (strcmp(doc, r.out) != 0)
		fail_msg("docs/scenario-keys.md is out of date: run `make docs`");
	free(doc);
	tl_cmd_free(&r);

	/* no command, an unknown command: usage errors */
	r = tl_sharebuf("");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "usage: sharebuf"));
	tl_cmd_free(&r);
	r = tl_sharebuf("frobnicate");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "sharebuf: unknown command 'frobnicate'"));
	tl_cmd_free(&r);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_info_commands),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_bad_output_dir),
		cmocka_unit_test(test_flow_list_queries),
		cmocka_unit_test(test_option_forms),
		cmocka_unit_test(test_command_help),
		cmocka_unit_test(test_value_forms),
		cmocka_unit_test(test_one_grammar),
		cmocka_unit_test(test_sibling_help),
		cmocka_unit_test(test_list_groups),
		cmocka_unit_test(test_params_prefix),
		cmocka_unit_test(test_relative_paths),
		cmocka_unit_test(test_run_outputs),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_embedded_default_is_the_file),
	};
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
