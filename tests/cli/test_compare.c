/*
 * test_compare.c — `sharebuf compare`, driven as a user would (from the repository root):
 * each scheme's directory is what a separate `run` writes, compare.csv and compare.json hold
 * the documented columns and agree with the summaries, nothing depends on --jobs or on the
 * order in which runs finish, bad input fails before anything runs and leaves nothing behind,
 * and a failed run leaves no compare.csv/json.
 *
 * Runs are short (SHORT below), so the whole program takes about a second.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "mmu/mmu.h"
#include "testlib.h"

#define SHORT "--set run.duration_ms=4 --set run.arrivals_ms=3"

/* The columns of compare.csv after `scheme` (= the keys of a compare.json result), and where
 * summary.json has them: the contract of docs/compare.md, written out independently of
 * src/cli/compare.c. */
static const struct {
	const char *column, *key;
	bool integer;
} spec[] = {
	{ "incast_slowdown_mean", "fct_slowdown.incast.mean", false },
	{ "incast_slowdown_p99", "fct_slowdown.incast.p99", false },
	{ "qct_slowdown_mean", "qct_slowdown.mean", false },
	{ "qct_slowdown_p99", "qct_slowdown.p99", false },
	{ "short_slowdown_p99", "fct_slowdown.short.p99", false },
	{ "long_slowdown_mean", "fct_slowdown.long.mean", false },
	{ "drops", "drops.total", true },
	{ "p99_occupancy_bytes", "buffer.p99_occupancy_bytes", true },
	{ "pfc_pause_frames", "pfc.pause_frames", true },
	{ "drops_lossless", "drops.lossless", true },
	{ "pfc_paused_us", "pfc.paused_time_us.total", false },
	{ "incast_count", "fct_slowdown.incast.count", true },
	{ "qct_count", "qct_slowdown.count", true },
	{ "short_count", "fct_slowdown.short.count", true },
	{ "long_count", "fct_slowdown.long.count", true },
	{ "flows_completed", "flows_completed", true },
	{ "flows_unfinished", "flows_unfinished", true },
};
#define NSPEC (sizeof(spec) / sizeof(spec[0]))

static const char *const run_files[] = { "flows.csv", "summary.json", "occupancy.csv", "drops.csv", "scenario.cfg" };

/* --- helpers --- */


/* Remove every line starting with `prefix`, in place. */
static void drop_lines_starting(char *s, const char *prefix)
{
	for (char *line = s; *line;) {
		char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
		if (!strncmp(line, prefix, strlen(prefix)))
			memmove(line, line + len, strlen(line + len) + 1);
		else
			line += len;
	}
}

static struct tl_cmd sharebuf_ok(const char *args)
{
	struct tl_cmd r = tl_sharebuf(args);
	if (r.status != 0)
		fail_msg("sharebuf %s: exit %d: %s", args, r.status, r.err);
	return r;
}

/* "dt|cs|static|...": the registered schemes, as the messages list them. */
static void known_schemes(char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (const struct sb_bm_ops *const *s = sb_bm_all(); *s; s++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? "|" : "", (*s)->name);
}

/* compare.csv's header, from the spec. */
static void expected_header(char *buf, size_t n)
{
	size_t used = (size_t)snprintf(buf, n, "scheme");
	for (size_t c = 0; c < NSPEC; c++)
		used += (size_t)snprintf(buf + used, n - used, ",%s", spec[c].column);
}

/* compare.csv and compare.json of `cmp` hold, for each of `schemes` in order, exactly the
 * values of cmp/SCHEME/summary.json. */
static void check_tables(const char *cmp, const char *const *schemes, size_t n, const char *scenario,
			 long long seed)
{
	json_t *root = tl_json_load(cmp, "compare.json");
	assert_int_equal(json_object_size(root), 4);
	assert_string_equal(json_string_value(tl_json_get(root, "scenario")), scenario);
	assert_int_equal(json_integer_value(tl_json_get(root, "seed")), seed);
	json_t *names = tl_json_get(root, "schemes"), *results = tl_json_get(root, "results");
	assert_int_equal(json_array_size(names), n);
	assert_int_equal(json_array_size(results), n);

	char *csv = tl_slurp_in(cmp, "compare.csv"), header[2048];
	expected_header(header, sizeof(header));
	char *save = NULL, *line = strtok_r(csv, "\n", &save);
	assert_non_null(line);
	assert_string_equal(line, header);

	for (size_t i = 0; i < n; i++) {
		char *sdir = tl_path_in(cmp, schemes[i]);
		json_t *sum = tl_json_load(sdir, "summary.json");
		assert_string_equal(json_string_value(tl_json_get(sum, "scheme")), schemes[i]);
		assert_string_equal(json_string_value(tl_json_get(sum, "scenario")), scenario);
		assert_string_equal(json_string_value(json_array_get(names, i)), schemes[i]);
		json_t *r = json_array_get(results, i);
		assert_int_equal(json_object_size(r), 1 + NSPEC);
		assert_string_equal(json_string_value(tl_json_get(r, "scheme")), schemes[i]);

		line = strtok_r(NULL, "\n", &save);
		if (!line)
			fail_msg("compare.csv has no row for %s", schemes[i]);
		char *fsave = NULL, *field = strtok_r(line, ",", &fsave);
		assert_string_equal(field, schemes[i]);
		for (size_t c = 0; c < NSPEC; c++) {
			json_t *want = tl_json_get(sum, spec[c].key), *got = tl_json_get(r, spec[c].column);
			field = strtok_r(NULL, ",", &fsave);
			if (!field)
				fail_msg("compare.csv row %s lacks %s", schemes[i], spec[c].column);
			char *end;
			if (spec[c].integer) {
				assert_true(json_is_integer(want) && json_is_integer(got));
				assert_int_equal(json_integer_value(got), json_integer_value(want));
				assert_int_equal(strtoll(field, &end, 10), json_integer_value(want));
			} else {
				assert_true(json_is_real(got));
				double w = json_number_value(want), j = json_number_value(got), f = strtod(field, &end);
				if (j != w || f != w)
					fail_msg("%s %s: summary.json %.17g, compare.json %.17g, compare.csv %s", schemes[i],
						 spec[c].column, w, j, field);
			}
			assert_int_equal(*end, 0);
		}
		assert_null(strtok_r(NULL, ",", &fsave));
		json_decref(sum);
		free(sdir);
	}
	assert_null(strtok_r(NULL, "\n", &save));
	free(csv);
	json_decref(root);
}

/* --- each scheme's directory is a separate `run`; the tables match the summaries --- */

static void test_compare_is_runs(void **state)
{
	(void)state;
	static const char *const schemes[] = { "dt", "cs", "static" };
	const char *opts = "scenarios/default.cfg --quiet " SHORT " --seed 3 --set workloads.0.load=0.5";
	char *dir = tl_tmpdir(), *cmp = tl_path_in(dir, "cmp"), args[8192];
	snprintf(args, sizeof(args), "compare %s --schemes dt,cs,static --jobs 3 --out '%s'", opts, cmp);
	struct tl_cmd r = sharebuf_ok(args);
	assert_string_equal(r.out, ""); /* --quiet */
	assert_string_equal(r.err, "");
	tl_cmd_free(&r);
	assert_int_equal(tl_count_entries(cmp), 2 + 3); /* compare.csv, compare.json, one dir per scheme */

	for (size_t s = 0; s < 3; s++) {
		char name[64];
		snprintf(name, sizeof(name), "run-%s", schemes[s]);
		char *alone = tl_path_in(dir, name), *mine = tl_path_in(cmp, schemes[s]);
		snprintf(args, sizeof(args), "run %s --set switch.scheme=%s --out '%s'", opts, schemes[s], alone);
		r = sharebuf_ok(args);
		tl_cmd_free(&r);
		assert_int_equal(tl_count_entries(mine), sizeof(run_files) / sizeof(*run_files));
		for (size_t f = 0; f < sizeof(run_files) / sizeof(*run_files); f++) {
			char *x = tl_slurp_in(alone, run_files[f]), *y = tl_slurp_in(mine, run_files[f]);
			if (!strcmp(run_files[f], "summary.json")) {
				tl_drop_line(x, "\"wall_time_s\"");
				tl_drop_line(y, "\"wall_time_s\"");
				tl_drop_line(x, "\"command_line\""); /* --out differs */
				tl_drop_line(y, "\"command_line\"");
			}
			if (strcmp(x, y))
				fail_msg("%s/%s differs from a separate run's", mine, run_files[f]);
			free(x);
			free(y);
		}
		free(alone);
		free(mine);
	}
	check_tables(cmp, schemes, 3, "scenarios/default.cfg", 3);

	/* the short scenario fills every group the table shows, and the schemes differ */
	json_t *root = tl_json_load(cmp, "compare.json");
	json_t *res = tl_json_get(root, "results");
	for (size_t c = 0; c < 4; c++) {
		static const char *const counts[] = { "incast_count", "qct_count", "short_count", "long_count" };
		assert_true(json_integer_value(tl_json_get(json_array_get(res, 0), counts[c])) > 0);
	}
	assert_true(json_integer_value(tl_json_get(json_array_get(res, 2), "drops")) >
		    json_integer_value(tl_json_get(json_array_get(res, 1), "drops"))); /* static drops more than cs */
	json_decref(root);
	free(cmp);
	tl_rmtree(dir);
	free(dir);
}

/* --- nothing depends on --jobs or on the order runs finish; rows follow --schemes --- */

static void test_jobs_and_order(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	const char *jobs[3] = { "--jobs 1", "--jobs 2", "" };
	char *outs[3], *stdouts[3];
	for (int i = 0; i < 3; i++) {
		char name[16];
		snprintf(name, sizeof(name), "j%d", i);
		outs[i] = tl_path_in(dir, name);
		snprintf(args, sizeof(args), "compare " SHORT " --schemes dt,cs,static %s --out '%s'", jobs[i], outs[i]);
		struct tl_cmd r = sharebuf_ok(args);
		stdouts[i] = r.out;
		free(r.err);
	}
	static const char *const names[] = { "compare.csv", "compare.json", "dt/flows.csv", "cs/flows.csv",
					     "static/occupancy.csv", "static/drops.csv" };
	for (size_t f = 0; f < sizeof(names) / sizeof(names[0]); f++) {
		char *a = tl_slurp_in(outs[0], names[f]);
		for (int i = 1; i < 3; i++) {
			char *b = tl_slurp_in(outs[i], names[f]);
			if (strcmp(a, b))
				fail_msg("%s differs between `%s` and `%s`", names[f], jobs[0], jobs[i]);
			free(b);
		}
		free(a);
	}
	static const char *const order[] = { "dt", "cs", "static" };
	check_tables(outs[0], order, 3, "(default)", 1);

	/* the printed table: a title, two header lines, one row per scheme in order, then notes */
	char want[8300];
	snprintf(want, sizeof(want), "\noutputs: %s/{compare.csv,compare.json}", outs[0]);
	assert_non_null(strstr(stdouts[0], want));
	assert_true(!strncmp(stdouts[0], "scenario (default), seed 1: 3 schemes", 37));
	char *save = NULL, *copy = strdup(stdouts[0]);
	strtok_r(copy, "\n", &save);
	char *h1 = strtok_r(NULL, "\n", &save), *h2 = strtok_r(NULL, "\n", &save);
	assert_non_null(strstr(h1, "incast"));
	assert_non_null(strstr(h1, "QCT"));
	assert_true(!strncmp(h2, "scheme ", 7));
	for (size_t i = 0; i < 3; i++) {
		char *row = strtok_r(NULL, "\n", &save);
		assert_non_null(row);
		assert_true(!strncmp(row, order[i], strlen(order[i])) && row[strlen(order[i])] == ' ');
	}
	free(copy);
	/* and it is the same whatever --jobs, apart from the wall times and the paths */
	for (int i = 0; i < 3; i++) {
		drop_lines_starting(stdouts[i], "wall:");
		drop_lines_starting(stdouts[i], "outputs:");
	}
	assert_string_equal(stdouts[0], stdouts[1]);
	assert_string_equal(stdouts[0], stdouts[2]);

	/* another order gives the same rows in that order */
	char *rev = tl_path_in(dir, "rev");
	snprintf(args, sizeof(args), "compare --quiet " SHORT " --schemes static,cs,dt --jobs 3 --out '%s'", rev);
	struct tl_cmd r = sharebuf_ok(args);
	tl_cmd_free(&r);
	static const char *const reversed[] = { "static", "cs", "dt" };
	check_tables(rev, reversed, 3, "(default)", 1);
	char *a = tl_slurp_in(outs[0], "compare.csv"), *b = tl_slurp_in(rev, "compare.csv");
	char *la[4], *lb[4], *sa = NULL, *sb = NULL;
	for (int i = 0; i < 4; i++) {
		la[i] = strtok_r(i ? NULL : a, "\n", &sa);
		lb[i] = strtok_r(i ? NULL : b, "\n", &sb);
	}
	assert_string_equal(la[0], lb[0]);
	for (int i = 1; i < 4; i++)
		assert_string_equal(la[i], lb[4 - i]);
	free(a);
	free(b);

	/* one scheme is a comparison of one */
	char *one = tl_path_in(dir, "one");
	snprintf(args, sizeof(args), "compare --quiet " SHORT " --schemes cs --out '%s'", one);
	r = sharebuf_ok(args);
	tl_cmd_free(&r);
	static const char *const just_cs[] = { "cs" };
	check_tables(one, just_cs, 1, "(default)", 1);
	assert_int_equal(tl_count_entries(one), 3);

	free(one);
	free(rev);
	for (int i = 0; i < 3; i++) {
		free(outs[i]);
		free(stdouts[i]);
	}
	tl_rmtree(dir);
	free(dir);
}

/* --- bad input: fails before anything runs, says why, leaves nothing --- */

struct bad_case {
	const char *name;
	const char *file;   /* written as bad.cfg (NULL: none) */
	const char *args;   /* after `compare`; BAD = the path of bad.cfg, $K = the known schemes */
	int status;
	const char *msgs[2]; /* substrings of stderr ($D: the temporary directory, $K as above) */
};

static const struct bad_case bad_cases[] = {
	{ "unknown scheme", NULL, "--schemes dt,zzzz", 2,
	  { "sharebuf: --schemes: unknown scheme \"zzzz\", expected one of $K\n" } },
	{ "misspelt scheme", NULL, "--schemes dt,statik", 2,
	  { "sharebuf: --schemes: unknown scheme \"statik\" (did you mean static?), expected one of $K\n" } },
	{ "empty --schemes", NULL, "--schemes ''", 2,
	  { "sharebuf: --schemes: the list is empty, expected scheme names separated by commas ($K)" } },
	{ "empty name in --schemes", NULL, "--schemes dt,,cs", 2,
	  { "sharebuf: --schemes: an empty name in the list (\"dt,,cs\")" } },
	{ "scheme twice", NULL, "--schemes dt,cs,dt", 2, { "sharebuf: --schemes: dt is listed twice" } },
	{ "--schemes without a value", NULL, "--schemes", 2, { "sharebuf compare: --schemes expects a value (--schemes A,B,...)\n" } },
	{ "bad key in the file", "run: {\n  seed = 1;\n  bogus = 3;\n};\n", "BAD", 1,
	  { "sharebuf: $D/bad.cfg:3: run.bogus: unknown key" } },
	{ "bad key in --set", NULL, "--set run.bogus=1", 1, { "sharebuf: --set run.bogus: unknown key" } },
	{ "value out of range", NULL, "--set topology.hosts_per_leaf=0", 1,
	  { "sharebuf: --set topology.hosts_per_leaf: 0 is out of range, expected a value in [1, 4096]" } },
	{ "missing scenario file", NULL, "'$D/nosuch.cfg'", 1,
	  { "sharebuf: cannot open $D/nosuch.cfg: No such file or directory" } },
	{ "the scheme in --set", NULL, "--set switch.scheme=cs", 2,
	  { "sharebuf: --set switch.scheme: compare sets the scheme of each run itself" } },
	{ "a setting only one scheme refuses", NULL,
	  "--schemes dt,static --set switch.cell_bytes=256 --set switch.static.queue_bytes=100", 1,
	  { "sharebuf: compare: with switch.scheme=static: --set switch.static.queue_bytes: switch leaf0: static: queue share of 100 bytes is smaller than one unit" } },
	{ "--jobs 0", NULL, "--jobs 0", 2, { "sharebuf compare: --jobs expects a whole number from 1 to 4096, got '0'\n" } },
	{ "--jobs not a number", NULL, "--jobs many", 2, { "sharebuf compare: --jobs expects a whole number" } },
	{ "--seed not a number", NULL, "--seed x", 2, { "sharebuf compare: --seed expects a whole number >= 0, got 'x'\n" } },
	{ "--set without =", NULL, "--set run.seed 3", 2,
	  { "sharebuf compare: --set expects KEY=VALUE, got 'run.seed'; write --set run.seed=3\n" } },
	{ "unknown option", NULL, "--frobnicate", 2, { "sharebuf compare: unknown option '--frobnicate' (see 'sharebuf compare --help')\n" } },
	{ "two scenario files", "run: { seed = 1; };\n", "BAD BAD", 2, { "sharebuf compare: unexpected argument '$D/bad.cfg'" } },
	{ "--out is a file", NULL, "--out '$D/bad.cfg'", 1, { "sharebuf: --out: $D/bad.cfg exists and is not a directory" } },
};

/* Replace $D by dir, $K by the known schemes and BAD by the quoted path of bad.cfg. */
static char *expand(const char *s, const char *dir)
{
	char known[512], out[16384], *w = out;
	known_schemes(known, sizeof(known));
	for (const char *p = s; *p;) {
		if (!strncmp(p, "$D", 2)) {
			w += sprintf(w, "%s", dir);
			p += 2;
		} else if (!strncmp(p, "$K", 2)) {
			w += sprintf(w, "%s", known);
			p += 2;
		} else if (!strncmp(p, "BAD", 3)) {
			w += sprintf(w, "'%s/bad.cfg'", dir);
			p += 3;
		} else {
			*w++ = *p++;
		}
	}
	*w = 0;
	return strdup(out);
}

static void test_bad_input(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		char *dir = tl_tmpdir();
		free(tl_write_file(dir, "bad.cfg", c->file ? c->file : "run: { seed = 1; };\n"));
		char *args = expand(c->args, dir), *out = tl_path_in(dir, "out"), cmd[16500];
		/* a case's own --out instead of the temporary one (--out is given once) */
		if (strstr(args, "--out "))
			snprintf(cmd, sizeof(cmd), "compare " SHORT " %s", args);
		else
			snprintf(cmd, sizeof(cmd), "compare --out '%s' " SHORT " %s", out, args);
		struct tl_cmd r = tl_sharebuf(cmd);
		print_message("bad input [%s]: exit %d: %s", c->name, r.status, r.err);
		if (r.status != c->status)
			fail_msg("[%s] exit status %d, expected %d (stderr: %s)", c->name, r.status, c->status, r.err);
		assert_string_equal(r.out, "");
		for (size_t m = 0; m < 2 && c->msgs[m]; m++) {
			char *want = expand(c->msgs[m], dir);
			if (!strstr(r.err, want))
				fail_msg("[%s] stderr lacks \"%s\": %s", c->name, want, r.err);
			free(want);
		}
		/* one message, nothing run, nothing written */
		assert_ptr_equal(strchr(r.err, '\n'), r.err + strlen(r.err) - 1);
		if (tl_exists(out))
			fail_msg("[%s] the output directory %s was created", c->name, out);
		assert_int_equal(tl_count_entries(dir), 1); /* bad.cfg */
		tl_cmd_free(&r);
		free(out);
		free(args);
		tl_rmtree(dir);
		free(dir);
	}
}

/* --- a run that fails: which one is said, and no compare.csv/json is left --- */

static void test_failed_run(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *cmp = tl_path_in(dir, "cmp"), args[8192];
	snprintf(args, sizeof(args), "compare --quiet " SHORT " --schemes dt,cs,static --out '%s'", cmp);
	struct tl_cmd r = sharebuf_ok(args);
	tl_cmd_free(&r);
	assert_int_equal(tl_count_entries(cmp), 5);

	/* cs's run cannot put its flows.csv in place (a directory is in the way): it fails after
	 * simulating, when compare has long started it */
	char *cs = tl_path_in(cmp, "cs"), *blocker = tl_path_in(cs, "flows.csv");
	assert_int_equal(unlink(blocker), 0);
	assert_int_equal(mkdir(blocker, 0777), 0);
	char *dt_summary = tl_path_in(cmp, "dt/summary.json");
	assert_int_equal(unlink(dt_summary), 0);
	snprintf(args, sizeof(args), "compare " SHORT " --seed 2 --schemes dt,cs,static --jobs 2 --out '%s'", cmp);
	r = tl_sharebuf(args);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "");
	char want[8400];
	snprintf(want, sizeof(want),
		 "sharebuf: compare: cs: the run failed with exit status 1:\n"
		 "  sharebuf: cannot replace %s/flows.csv: Is a directory\n"
		 "sharebuf: compare: 1 of 3 runs failed; no compare.csv or compare.json was written\n",
		 cs);
	assert_string_equal(r.err, want);
	tl_cmd_free(&r);
	/* neither the new tables nor the old ones, which the rewritten directories contradict */
	char *csv = tl_path_in(cmp, "compare.csv"), *json = tl_path_in(cmp, "compare.json");
	assert_false(tl_exists(csv));
	assert_false(tl_exists(json));
	/* the other runs did complete */
	char *s = tl_slurp(dt_summary);
	assert_non_null(s);
	assert_non_null(strstr(s, "\"seed\": 2,"));
	free(s);
	assert_int_equal(tl_count_entries(cmp), 3);

	free(csv);
	free(json);
	free(dt_summary);
	free(blocker);
	free(cs);
	free(cmp);
	tl_rmtree(dir);
	free(dir);
}

/* --- lossless traffic: the schemes that can carry it --- */

/* Without --schemes, compare runs every scheme that can carry the scenario's traffic: with a
 * lossless (RDMA) workload, the lossless-capable ones, noting the others in one line; sih and
 * dsh reserve for the run's one lossless priority, so they fit the default switches. A
 * lossy-only scheme named in --schemes is an error that names the key. */
static void test_lossless_traffic(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *cmp = tl_path_in(dir, "cmp"), args[8192], known[512];
	known_schemes(known, sizeof(known));
	snprintf(args, sizeof(args), "compare --quiet " SHORT " --set workloads.1.transport=dcqcn --out '%s'", cmp);
	struct tl_cmd r = sharebuf_ok(args);
	assert_string_equal(r.out, "");
	/* one line naming every skipped scheme, in `list` order */
	char skipped[512] = "", capable[8][32];
	size_t ncap = 0;
	for (const struct sb_bm_ops *const *s = sb_bm_all(); *s; s++) {
		if ((*s)->lossless) {
			assert_true(ncap < 8);
			snprintf(capable[ncap++], sizeof(capable[0]), "%s", (*s)->name);
		} else {
			size_t used = strlen(skipped);
			snprintf(skipped + used, sizeof(skipped) - used, "%s%s", used ? ", " : "", (*s)->name);
		}
	}
	char want[1024];
	snprintf(want, sizeof(want),
		 "sharebuf: compare: skipped %s: no PFC or headroom for the scenario's lossless traffic "
		 "(`sharebuf list` marks the lossless-capable schemes)\n",
		 skipped);
	assert_string_equal(r.err, want);
	tl_cmd_free(&r);
	const char *names[8] = { 0 };
	for (size_t i = 0; i < ncap; i++)
		names[i] = capable[i];
	check_tables(cmp, names, ncap, "(default)", 1);
	assert_int_equal(tl_count_entries(cmp), 2 + ncap);
	json_t *root = tl_json_load(cmp, "compare.json");
	json_t *res = tl_json_get(root, "results");
	for (size_t i = 0; i < ncap; i++) /* the incasts ran over RDMA, lossless */
		assert_true(json_integer_value(tl_json_get(json_array_get(res, i), "incast_count")) > 0);
	json_decref(root);

	/* named explicitly, a scheme without PFC is refused before anything runs */
	char *out2 = tl_path_in(dir, "named");
	snprintf(args, sizeof(args), "compare --quiet " SHORT " --set workloads.1.transport=dcqcn --schemes sih,dt --out '%s'",
		 out2);
	r = tl_sharebuf(args);
	assert_int_equal(r.status, 1);
	assert_true(!strncmp(r.err, "sharebuf: compare: with switch.scheme=dt: switch.scheme: \"dt\" has no PFC or headroom", 83));
	assert_false(tl_exists(out2));
	tl_cmd_free(&r);
	free(out2);
	free(cmp);
	tl_rmtree(dir);
	free(dir);
}

/* --- the command is documented --- */

static void test_documented(void **state)
{
	(void)state;
	struct tl_cmd r = sharebuf_ok("--help");
	assert_non_null(strstr(r.out, "\n  compare [SCENARIO] [--schemes A,B,...] [--jobs N]"));
	tl_cmd_free(&r);
	char *doc = tl_slurp("docs/compare.md"), header[2048];
	assert_non_null(doc);
	expected_header(header, sizeof(header));
	assert_non_null(strstr(doc, header)); /* the header, verbatim */
	for (size_t c = 0; c < NSPEC; c++) {
		char row[256];
		snprintf(row, sizeof(row), "\n| `%s` | `%s` |", spec[c].column, spec[c].key);
		if (!strstr(doc, row))
			fail_msg("docs/compare.md has no row \"%s\"", row + 1);
	}
	free(doc);
	char *readme = tl_slurp("README.md");
	assert_non_null(readme);
	assert_non_null(strstr(readme, "build/sharebuf compare"));
	free(readme);
}

/* --- --collect: the table of directories already written, nothing run (the testbed's) --- */

static void test_collect(void **state)
{
	(void)state;
	const char *opts = "scenarios/default.cfg --quiet " SHORT " --seed 5";
	char *dir = tl_tmpdir(), *cmp = tl_path_in(dir, "cmp"), args[8192];
	snprintf(args, sizeof(args), "compare %s --schemes dt,cs --out '%s'", opts, cmp);
	struct tl_cmd r = sharebuf_ok(args);
	tl_cmd_free(&r);
	char *csv = tl_slurp_in(cmp, "compare.csv"), *flows = tl_slurp_in(cmp, "dt/flows.csv");
	/* a scheme's summary changed by hand (as the testbed writes its own): collect takes it as is */
	char *sp = tl_path_in(cmp, "cs/summary.json");
	json_t *j = json_load_file(sp, 0, NULL);
	assert_non_null(j);
	json_object_set_new(json_object_get(j, "drops"), "total", json_integer(424242));
	assert_int_equal(json_dump_file(j, sp, JSON_INDENT(2)), 0);
	json_decref(j);
	char *c = tl_path_in(cmp, "compare.csv");
	assert_int_equal(unlink(c), 0);
	snprintf(args, sizeof(args), "compare %s --schemes dt,cs --out '%s' --collect", opts, cmp);
	r = sharebuf_ok(args);
	tl_cmd_free(&r);
	char *again = tl_slurp_in(cmp, "compare.csv"), *flows2 = tl_slurp_in(cmp, "dt/flows.csv");
	assert_string_equal(flows, flows2); /* nothing ran again */
	assert_non_null(strstr(again, ",424242,"));
	/* dt's row is the same as the run's table had it */
	const char *dt = strstr(csv, "\ndt,"), *dt2 = strstr(again, "\ndt,");
	assert_non_null(dt);
	assert_non_null(dt2);
	assert_int_equal(strcspn(dt + 1, "\n"), strcspn(dt2 + 1, "\n"));
	assert_memory_equal(dt, dt2, strcspn(dt + 1, "\n"));
	free(again);
	free(flows2);
	free(c);
	free(sp);
	free(csv);
	free(flows);
	free(cmp);
	tl_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_documented),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_compare_is_runs),
		cmocka_unit_test(test_jobs_and_order),
		cmocka_unit_test(test_failed_run),
		cmocka_unit_test(test_lossless_traffic),
		cmocka_unit_test(test_collect),
	};
	return cmocka_run_group_tests_name("compare", tests, NULL, NULL);
}
