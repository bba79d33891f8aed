/*
 * test_sweep.c — `sharebuf sweep` as a user drives it (docs/sweep.md): the grid and zipped
 * axes, the CSVs against the runs' own summaries and statistics computed here, independence
 * from --jobs, resumption after a run or the whole sweep is killed (nothing complete is run
 * again, the CSVs equal an uninterrupted sweep's), the Slurm script run task by task, MPI
 * (when built with it), bad specs, and Student's t against its table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/sweep.h"
#include "testlib.h"

/* Student's t, 0.975 quantile, from the standard tables. */
static void test_student_t(void **state)
{
	(void)state;
	static const struct {
		long df;
		double t;
	} table[] = { { 1, 12.7062 }, { 2, 4.3027 }, { 3, 3.1824 }, { 4, 2.7764 }, { 9, 2.2622 },
		      { 10, 2.2281 }, { 29, 2.0452 }, { 30, 2.0423 }, { 120, 1.9799 }, { 1000, 1.9623 } };
	for (size_t i = 0; i < sizeof(table) / sizeof(*table); i++)
		if (fabs(sb_student_t975(table[i].df) - table[i].t) > 5e-5)
			fail_msg("t(0.975, %ld) = %.6f, the table says %.4f", table[i].df, sb_student_t975(table[i].df),
				 table[i].t);
}

static const char spec_text[] =
	"set = ( \"run.duration_ms=4\", \"run.arrivals_ms=3\" );\n"
	"axes = ( { key = \"workloads.0.load\"; values = [0.3, 0.6]; },\n"
	"         { key = \"switch.dt.alpha\"; values = [0.5, 2.0]; zip = true; },\n"
	"         { key = \"tcp.min_rto_us\"; values = [1000, 5000]; } );\n"
	"schemes = [ \"dt\", \"abm\" ];\n"
	"seeds = [ 1, 2, 3 ];\n";

static struct tl_cmd sweep(const char *args, int want)
{
	struct tl_cmd r = tl_sharebuf(args);
	if (r.status != want)
		fail_msg("sharebuf %s: exit %d (expected %d): %s", args, r.status, want, r.err);
	return r;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Field `col` (0-based) of a CSV line without quotes. */
static double field(const char *line, int col)
{
	for (int c = 0; c < col; c++)
		line = strchr(line, ',') + 1;
	return strtod(line, NULL);
}

/* The line of `csv` that starts with `prefix`. */
static const char *line_of(const char *csv, const char *prefix)
{
	for (const char *l = csv; *l; l = strchr(l, '\n') + 1)
		if (!strncmp(l, prefix, strlen(prefix)))
			return l;
	fail_msg("no line starts with %s", prefix);
	return NULL;
}

/* 2 zipped load/alpha pairs x 2 RTOs x 2 schemes = 8 points, 3 seeds each; sweep.csv holds each
 * run's summary values, sweep-summary.csv their mean, sd and t-interval; --jobs 1 and 3 write
 * the same bytes. */
static void test_grid_zip_and_csvs(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	char *spec = tl_write_file(dir, "spec.cfg", spec_text);
	char *a = tl_path_in(dir, "a"), *b = tl_path_in(dir, "b");
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --dry-run", spec, a);
	struct tl_cmd r = sweep(args, 0);
	assert_non_null(strstr(r.out, "8 points x 3 seeds = 24 runs"));
	assert_non_null(strstr(r.out, "0004-load=0.6-alpha=2-min_rto_us=1000-scheme=dt"));
	assert_null(strstr(r.out, "load=0.3-alpha=2")); /* zipped: never 0.3 with 2 */
	tl_cmd_free(&r);
	assert_false(tl_exists(a)); /* a dry run writes nothing */

	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --jobs 3 --quiet", spec, a);
	tl_cmd_free((r = sweep(args, 0), &r));
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --jobs 1 --quiet", spec, b);
	tl_cmd_free((r = sweep(args, 0), &r));
	char *csv = tl_slurp_in(a, "sweep.csv"), *csv_b = tl_slurp_in(b, "sweep.csv");
	char *sum = tl_slurp_in(a, "sweep-summary.csv"), *sum_b = tl_slurp_in(b, "sweep-summary.csv");
	assert_string_equal(csv, csv_b);
	assert_string_equal(sum, sum_b);
	assert_int_equal(count_lines(csv), 1 + 24);
	assert_int_equal(count_lines(sum), 1 + 8);
	static const char head[] = "point,workloads.0.load,switch.dt.alpha,tcp.min_rto_us,switch.scheme,seed,"
				   "incast_slowdown_mean,",
			  head_sum[] = "point,workloads.0.load,switch.dt.alpha,tcp.min_rto_us,switch.scheme,n,"
				       "incast_slowdown_mean_mean,incast_slowdown_mean_sd,incast_slowdown_mean_ci95,";
	assert_true(!strncmp(csv, head, strlen(head)));
	assert_true(!strncmp(sum, head_sum, strlen(head_sum)));

	/* point 5 = load 0.6, alpha 2, RTO 1000, abm: each seed's row against its summary.json */
	const char *point = "0005-load=0.6-alpha=2-min_rto_us=1000-scheme=abm";
	double v[3];
	for (int s = 0; s < 3; s++) {
		char rel[256], prefix[300];
		snprintf(rel, sizeof(rel), "runs/%s/seed-%d", point, s + 1);
		char *run = tl_path_in(a, rel);
		json_t *j = tl_json_load(run, "summary.json");
		assert_string_equal(json_string_value(tl_json_get(j, "scheme")), "abm");
		assert_int_equal(tl_json_int(j, "seed"), s + 1);
		snprintf(prefix, sizeof(prefix), "%s,0.6,2,1000,abm,%d,", point, s + 1);
		const char *l = line_of(csv, prefix);
		v[s] = tl_json_num(j, "fct_slowdown.incast.mean");
		assert_true(fabs(field(l, 6) - v[s]) <= 1e-9 * v[s]);
		assert_int_equal((long long)field(l, 12), tl_json_int(j, "drops.total"));
		char *scen = tl_slurp_in(run, "scenario.cfg");
		assert_non_null(strstr(scen, "min_rto_us = 1000.0;"));
		assert_non_null(strstr(scen, "load = 0.6;"));
		free(scen);
		json_decref(j);
		free(run);
	}
	double mean = (v[0] + v[1] + v[2]) / 3, ss = 0;
	for (int s = 0; s < 3; s++)
		ss += (v[s] - mean) * (v[s] - mean);
	double sd = sqrt(ss / 2), ci = 4.302653 * sd / sqrt(3);
	const char *l = line_of(sum, point);
	assert_int_equal((int)field(l, 5), 3);
	assert_true(fabs(field(l, 6) - mean) <= 1e-8 * mean);
	assert_true(fabs(field(l, 7) - sd) <= 1e-6 * sd);
	assert_true(fabs(field(l, 8) - ci) <= 1e-6 * ci);
	free(csv);
	free(csv_b);
	free(sum);
	free(sum_b);
	free(spec);
	free(a);
	free(b);
	tl_rmtree(dir);
	free(dir);
}

/* With one seed there is no spread: sd and ci95 are empty. */
static void test_one_seed(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	char *spec = tl_write_file(dir, "one.cfg", "set = ( \"run.duration_ms=3\", \"run.arrivals_ms=2\" );\n"
						 "schemes = [ \"cs\" ];\n");
	char *out = tl_path_in(dir, "o");
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --quiet", spec, out);
	struct tl_cmd r = sweep(args, 0);
	tl_cmd_free(&r);
	char *sum = tl_slurp_in(out, "sweep-summary.csv");
	const char *row = strchr(sum, '\n') + 1;
	assert_true(!strncmp(row, "0000-scheme=cs,cs,1,", 20));
	assert_non_null(strstr(row, ",,")); /* empty sd, ci95 */
	char *run = tl_path_in(out, "runs/0000-scheme=cs/seed-default");
	assert_true(tl_exists(run));
	free(run);
	free(sum);
	free(spec);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* Mistakes fail before anything runs, with the spec's line and key, and write nothing. */
static void test_bad_specs(void **state)
{
	(void)state;
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "axis = ();\n", "spec.cfg:1: axis: unknown key, expected base, set, axes, schemes, seeds, metrics or extract" },
		{ "axes = ( { name = \"a.b\"; variants = ( { value = \"x\"; set = [ \"tcp.min_rto_us=1000\" ]; } ); } );\n",
		  "spec.cfg:1: axes.0: name: expected the axis' column name, a word without '.'" },
		{ "axes = ( { name = \"p\"; variants = ( { value = \"x\"; } ); } );\n",
		  "spec.cfg:1: axes.0: variants: \"x\": set: expected its overrides" },
		{ "axes = ( { name = \"p\"; variants = ( { value = \"x\"; set = [ \"a=1\" ]; },\n"
		  "                                     { value = \"x\"; set = [ \"b=1\" ]; } ); } );\n",
		  "spec.cfg:2: axes.0: variants: \"x\" is named twice" },
		{ "axes = ( { name = \"p\"; variants = ( { value = \"x\"; set = [ \"tcp.min_rto\" ]; } ); } );\n",
		  "spec.cfg:1: axes.0: variants: \"tcp.min_rto\": expected KEY=VALUE" },
		{ "axes = ( { name = \"p\"; key = \"tcp.min_rto_us\"; variants = (); } );\n",
		  "unknown key \"key\" in a variant axis" },
		{ "axes = ( { name = \"p\"; variants = ( { value = \"x\"; set = [ \"tcp.min_rto_uss=1\" ]; } ); } );\n",
		  "point 0000-p=x: --set tcp.min_rto_uss: unknown key" },
		{ "metrics = [ \"pfc.pause_frames\", \"pfc.pause_frames\" ];\n", "spec.cfg:1: metrics: pfc.pause_frames is listed twice" },
		{ "extract = \"missing.sh\";\n", "spec.cfg:1: extract: cannot open " },
		{ "axes = ( { key = \"workloads.0.load\"; values = [0.3, 0.5]; },\n"
		  "         { key = \"switch.dt.alpha\"; values = [1.0]; zip = true; } );\n",
		  "spec.cfg:2: axes: switch.dt.alpha has 1 values but moves with workloads.0.load (zip = true), which has 2" },
		{ "axes = ( { key = \"workloads.0.lod\"; values = [0.3]; } );\n",
		  "point 0000-lod=0.3: --set workloads.0.lod: unknown key" },
		{ "axes = ( { key = \"workloads.0.load\"; values = [0.3, 7.0]; } );\n", "point 0001-load=7: --set workloads.0.load" },
		{ "seeds = [ 1, 1 ];\n", "spec.cfg:1: seeds: seed 1 is listed twice" },
		{ "schemes = [ \"dtt\" ];\n", "point 0000-scheme=dtt: --set switch.scheme" },
		{ "axes = ( { key = \"run.seed\"; values = [1]; } );\n", "the seeds are the spec's `seeds`" },
		{ "base = \"nowhere.cfg\";\n", "cannot open" },
	};
	char *dir = tl_tmpdir(), args[8192];
	char *out = tl_path_in(dir, "out");
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char *spec = tl_write_file(dir, "spec.cfg", bad[i].text);
		snprintf(args, sizeof(args), "sweep '%s' --out '%s'", spec, out);
		struct tl_cmd r = sweep(args, 1);
		if (!strstr(r.err, bad[i].want))
			fail_msg("spec %zu: expected \"%s\" in: %s", i, bad[i].want, r.err);
		assert_false(tl_exists(out));
		tl_cmd_free(&r);
		free(spec);
	}
	char *spec = tl_write_file(dir, "spec.cfg", "schemes = [ \"dt\", \"cs\" ];\n");
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --point 2", spec, out);
	struct tl_cmd r = sweep(args, 2);
	assert_non_null(strstr(r.err, "--point 2: the spec has 2 points, 0 to 1"));
	tl_cmd_free(&r);
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --point ''", spec, out);
	r = sweep(args, 2);
	assert_non_null(strstr(r.err, "SLURM_ARRAY_TASK_ID"));
	tl_cmd_free(&r);
	assert_false(tl_exists(out));
	free(spec);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* A variant axis runs each variant's overrides (one scheme configured two ways), `metrics`
 * adds summary.json keys and `extract` a script's numbers as columns of both CSVs, each equal
 * to the run's own value; a script that changes its names, prints a non-number or fails, or
 * a metric key that is not a number, stops the CSVs with the run and the reason. */
static void test_variants_and_metrics(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	char *spec = tl_write_file(dir, "spec.cfg",
		"set = ( \"run.duration_ms=4\", \"run.arrivals_ms=3\" );\n"
		"axes = ( { name = \"policy\";\n"
		"           variants = ( { value = \"sonic-dt\"; set = [ \"switch.scheme=sonic\", \"switch.sonic.policy=dt\" ]; },\n"
		"                        { value = \"sonic-abm\"; set = [ \"switch.scheme=sonic\", \"switch.sonic.policy=abm\" ]; } ); },\n"
		"         { key = \"tcp.min_rto_us\"; values = [ 1000, 2000 ]; zip = true; } );\n"
		"seeds = [ 1, 2 ];\n"
		"metrics = [ \"buffer.max_occupancy_bytes\", \"fct_slowdown.short.p50\" ];\n"
		"extract = \"rows.sh\";\n");
	char *script = tl_write_file(dir, "rows.sh",
		"awk -F, 'NR > 1 { n++ } END { printf \"rows,%d\\nhalf,%.1f\\n\", n, n / 2 }' \"$1/flows.csv\"\n");
	char *out = tl_path_in(dir, "o");
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --dry-run", spec, out);
	struct tl_cmd r = sweep(args, 0);
	assert_non_null(strstr(r.out, "0001-policy=sonic-abm-min_rto_us=2000"));
	assert_non_null(strstr(r.out, "switch.scheme=sonic switch.sonic.policy=abm tcp.min_rto_us=2000"));
	tl_cmd_free(&r);
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --quiet --jobs 2", spec, out);
	tl_cmd_free((r = sweep(args, 0), &r));
	char *csv = tl_slurp_in(out, "sweep.csv"), *sum = tl_slurp_in(out, "sweep-summary.csv");
	const char *head = "point,policy,tcp.min_rto_us,seed,";
	assert_true(!strncmp(csv, head, strlen(head)));
	assert_non_null(strstr(csv, ",flows_unfinished,buffer.max_occupancy_bytes,fct_slowdown.short.p50,rows,half\n"));
	assert_non_null(strstr(sum, ",rows_mean,rows_sd,rows_ci95,half_mean,half_sd,half_ci95\n"));
	/* each row: the variant's overrides were run, and its extra columns are its own values */
	const char *const runs[4] = { "0000-policy=sonic-dt-min_rto_us=1000/seed-1", "0000-policy=sonic-dt-min_rto_us=1000/seed-2",
				      "0001-policy=sonic-abm-min_rto_us=2000/seed-1", "0001-policy=sonic-abm-min_rto_us=2000/seed-2" };
	const char *line = strchr(csv, '\n') + 1;
	double rows_sum = 0;
	for (int i = 0; i < 4; i++, line = strchr(line, '\n') + 1) {
		char *rel = tl_path_in("runs", runs[i]), *rundir = tl_path_in(out, rel);
		json_t *js = tl_json_load(rundir, "summary.json");
		const char *cl = json_string_value(tl_json_get(js, "provenance.command_line"));
		assert_non_null(strstr(cl, i < 2 ? "--set switch.scheme=sonic --set switch.sonic.policy=dt --set tcp.min_rto_us=1000"
						 : "--set switch.scheme=sonic --set switch.sonic.policy=abm --set tcp.min_rto_us=2000"));
		assert_true(!strncmp(line, i < 2 ? "0000-policy=sonic-dt-min_rto_us=1000,sonic-dt,1000,"
					       : "0001-policy=sonic-abm-min_rto_us=2000,sonic-abm,2000,", 30));
		int ncol = 0;
		for (const char *c = head; *c; c++)
			ncol += *c == ',';
		size_t nheadline;
		sb_compare_columns(&nheadline);
		ncol += (int)nheadline; /* compare.csv's headline metrics come first */
		assert_int_equal((long long)field(line, ncol), json_integer_value(tl_json_get(js, "buffer.max_occupancy_bytes")));
		assert_true(fabs(field(line, ncol + 1) - json_number_value(tl_json_get(js, "fct_slowdown.short.p50"))) < 1e-6);
		char *flows = tl_slurp_in(rundir, "flows.csv");
		double rows = (double)count_lines(flows) - 1;
		assert_true(field(line, ncol + 2) == rows);
		assert_true(field(line, ncol + 3) == rows / 2);
		if (i < 2)
			rows_sum += rows;
		free(flows);
		json_decref(js);
		free(rel);
		free(rundir);
	}
	/* the summary's mean of the script's column over point 0's seeds */
	const char *srow = line_of(sum, "0000-");
	assert_non_null(strstr(sum, "rows_mean"));
	int rows_col = 0;
	for (const char *c = sum; c < strstr(sum, "rows_mean"); c++)
		rows_col += *c == ',';
	assert_true(field(srow, rows_col) == rows_sum / 2);
	free(csv);
	free(sum);
	/* --set comes after the spec's set (a changed scenario: no run is complete) and before the
	 * axes (an axis' key set on the command line is still the axis'), and Slurm tasks repeat it */
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --set run.arrivals_ms=2 --dry-run", spec, out);
	r = sweep(args, 0);
	assert_non_null(strstr(r.out, "0 of 4 runs complete"));
	tl_cmd_free(&r);
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --set tcp.min_rto_us=7000 --dry-run", spec, out);
	r = sweep(args, 0);
	assert_non_null(strstr(r.out, "4 of 4 runs complete"));
	tl_cmd_free(&r);
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --set run.arrivals_ms=2 --emit-slurm --quiet", spec, out);
	tl_cmd_free((r = sweep(args, 0), &r));
	char *slurm = tl_slurp_in(out, "sweep.slurm");
	assert_non_null(strstr(slurm, " --set run.arrivals_ms=2 --quiet --point "));
	assert_non_null(strstr(slurm, " --set run.arrivals_ms=2 --collect\n"));
	free(slurm);
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --set run.arrivals_ms", spec, out);
	r = sweep(args, 2);
	assert_string_equal(r.err, "sharebuf sweep: --set expects KEY=VALUE, got 'run.arrivals_ms'\n");
	tl_cmd_free(&r);
	/* the script's answers checked: another name, a non-number, a failure */
	static const char *const bad[][2] = {
		{ "case $1 in *seed-2) echo other,1 ;; *) echo rows,1 ;; esac\n", "line 1 is \"other,1\", expected rows,VALUE" },
		{ "echo rows,many\n", "rows: \"many\" is not a number" },
		{ "echo rows,1; exit 3\n", "failed (status 3)" },
		{ "echo rows1\n", "expected lines NAME,VALUE" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		free(tl_write_file(dir, "rows.sh", bad[i][0]));
		snprintf(args, sizeof(args), "sweep '%s' --out '%s' --quiet", spec, out);
		r = sweep(args, 1);
		if (!strstr(r.err, bad[i][1]))
			fail_msg("script %zu: expected \"%s\" in: %s", i, bad[i][1], r.err);
		tl_cmd_free(&r);
	}
	free(tl_write_file(dir, "rows.sh", "echo rows,1\n"));
	char *spec2 = tl_write_file(dir, "spec.cfg",
		"set = ( \"run.duration_ms=4\", \"run.arrivals_ms=3\" );\n"
		"axes = ( { name = \"policy\";\n"
		"           variants = ( { value = \"sonic-dt\"; set = [ \"switch.scheme=sonic\", \"switch.sonic.policy=dt\" ]; },\n"
		"                        { value = \"sonic-abm\"; set = [ \"switch.scheme=sonic\", \"switch.sonic.policy=abm\" ]; } ); },\n"
		"         { key = \"tcp.min_rto_us\"; values = [ 1000, 2000 ]; zip = true; } );\n"
		"seeds = [ 1, 2 ];\n"
		"metrics = [ \"pfc.first_deadlock_us\" ];\n");
	r = sweep(args, 1);
	assert_non_null(strstr(r.err, "pfc.first_deadlock_us is missing or not a number"));
	tl_cmd_free(&r);
	free(spec2);
	free(script);
	free(spec);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* inode and modification time of DIR/runs/POINT/seed-S/summary.json, to tell a rerun. */
static void stamp(const char *dir, const char *rel, struct stat *st)
{
	char *p = tl_path_in(dir, rel);
	if (stat(p, st))
		memset(st, 0, sizeof(*st));
	free(p);
}

/* The run directories of `out` that hold a summary.json, as "POINT/seed-S" (up to 64). */
static size_t complete_runs(const char *out, char names[64][200])
{
	char *runs = tl_path_in(out, "runs");
	DIR *d = opendir(runs);
	size_t n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) && n < 64) {
		if (e->d_name[0] == '.')
			continue;
		for (int s = 1; s <= 2; s++) {
			char rel[200], *p;
			snprintf(rel, sizeof(rel), "%.150s/seed-%d/summary.json", e->d_name, s);
			p = tl_path_in(runs, rel);
			if (tl_exists(p))
				snprintf(names[n++], 200, "runs/%.150s/seed-%d/summary.json", e->d_name, s);
			free(p);
		}
	}
	if (d)
		closedir(d);
	free(runs);
	return n;
}

/* No run of the sweep holds its directory's lock any more: killed runs clean up by SIGTERM,
 * and the lock file a SIGKILLed run leaves is no longer held (flock). */
static bool runs_released(const char *out, double seconds)
{
	char *runs = tl_path_in(out, "runs");
	bool held = true;
	for (int i = 0; i < (int)(seconds * 20) && held; i++) {
		held = false;
		DIR *d = opendir(runs);
		struct dirent *e;
		while (d && (e = readdir(d)) && !held) {
			for (int s = 1; s <= 2 && !held; s++) {
				char rel[300];
				snprintf(rel, sizeof(rel), "%.150s/seed-%d/.sharebuf.lock", e->d_name, s);
				char *p = tl_path_in(runs, rel);
				int fd = open(p, O_RDONLY);
				held = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0;
				if (fd >= 0)
					close(fd);
				free(p);
			}
		}
		if (d)
			closedir(d);
		if (held)
			usleep(50000);
	}
	free(runs);
	return !held;
}

/* Killed mid-way (a run by SIGKILL; then the sweep itself by SIGKILL), started again: the
 * runs that had finished are not run again, and the CSVs equal an uninterrupted sweep's. */
static void test_resume(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	char *spec = tl_write_file(dir, "spec.cfg",
				   "set = ( \"run.duration_ms=20\" );\n"
				   "axes = ( { key = \"workloads.0.load\"; values = [0.3, 0.4, 0.5, 0.6]; } );\n"
				   "seeds = [ 1, 2 ];\n");
	char *whole = tl_path_in(dir, "whole"), *out = tl_path_in(dir, "out");
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --quiet --jobs 2", spec, whole);
	struct tl_cmd r = sweep(args, 0);
	tl_cmd_free(&r);

	for (int pass = 0; pass < 2; pass++) {
		/* pass 0: SIGKILL one run once the first is complete; pass 1: SIGKILL the sweep */
		const char *const argv[] = { "sweep", spec, "--out", out, "--jobs", "1", "--quiet", NULL };
		/* the lock of a later run: with --jobs 1 the runs before it have ended, and it has
		 * only started (it writes its files ~0.1 s later) */
		char *first = tl_path_in(out, pass ? "runs/0002-load=0.5/seed-1/.sharebuf.lock"
						   : "runs/0000-load=0.3/seed-2/.sharebuf.lock");
		char *err = tl_path_in(dir, "err.txt");
		pid_t p = tl_sharebuf_start(argv, NULL, err);
		assert_true(tl_wait_for(first, 30));
		if (pass == 0) { /* the sweep's one running child (--jobs 1) */
			char path[128], kids[64] = "";
			snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)p, (int)p);
			for (int i = 0; i < 200 && atoi(kids) <= 0; i++) { /* a proc file: no size to slurp by */
				FILE *f = fopen(path, "r");
				if (!f || !fgets(kids, sizeof(kids), f))
					kids[0] = 0;
				if (f)
					fclose(f);
				if (atoi(kids) <= 0)
					usleep(10000);
			}
			assert_true(atoi(kids) > 0);
			kill(atoi(kids), SIGKILL);
		} else {
			kill(p, SIGKILL);
		}
		int st = tl_wait_pid(p, 30);
		if (pass == 0)
			assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 1); /* one run failed, the rest ran */
		else
			assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
		assert_true(runs_released(out, 10));
		free(first);
		free(err);
		char done[64][200];
		size_t n = complete_runs(out, done);
		if (n < 1 || n >= 8)
			fail_msg("pass %d: %zu runs complete after the kill, expected 1 to 7", pass, n);
		struct stat before[64], after;
		for (size_t i = 0; i < n; i++)
			stamp(out, done[i], &before[i]);
		snprintf(args, sizeof(args), "sweep '%s' --out '%s' --jobs 2", spec, out);
		r = sweep(args, 0);
		char want[64];
		snprintf(want, sizeof(want), "(%zu already complete, %zu run now)", n, 8 - n);
		if (!strstr(r.out, want))
			fail_msg("pass %d: expected \"%s\" in: %s", pass, want, r.out);
		tl_cmd_free(&r);
		for (size_t i = 0; i < n; i++) {
			stamp(out, done[i], &after);
			if (after.st_ino != before[i].st_ino || after.st_mtim.tv_nsec != before[i].st_mtim.tv_nsec ||
			    after.st_mtim.tv_sec != before[i].st_mtim.tv_sec)
				fail_msg("pass %d: %s was written again", pass, done[i]);
		}
		static const char *const csvs[] = { "sweep.csv", "sweep-summary.csv" };
		for (int c = 0; c < 2; c++) {
			char *x = tl_slurp_in(whole, csvs[c]), *y = tl_slurp_in(out, csvs[c]);
			assert_string_equal(x, y);
			free(x);
			free(y);
		}
		if (pass == 0) { /* start over for pass 1, keeping nothing */
			tl_rmtree(out);
		}
	}
	/* a changed spec is a changed run: the provenance no longer matches, so it runs again */
	char *spec2 = tl_write_file(dir, "spec.cfg",
				    "set = ( \"run.duration_ms=19\" );\n"
				    "axes = ( { key = \"workloads.0.load\"; values = [0.3, 0.4, 0.5, 0.6]; } );\n"
				    "seeds = [ 1, 2 ];\n");
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --dry-run", spec2, out);
	r = sweep(args, 0);
	assert_non_null(strstr(r.out, "0 of 8 runs complete, 8 to run"));
	tl_cmd_free(&r);
	free(spec2);
	free(spec);
	free(whole);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* --emit-slurm's script, run once per array task with SLURM_ARRAY_TASK_ID set, then --collect:
 * the same CSVs as a local sweep. */
static void test_slurm(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	char *spec = tl_write_file(dir, "spec.cfg", spec_text);
	char *local = tl_path_in(dir, "local"), *slurm = tl_path_in(dir, "slurm");
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --quiet", spec, local);
	struct tl_cmd r = sweep(args, 0);
	tl_cmd_free(&r);
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --emit-slurm", spec, slurm);
	r = sweep(args, 0);
	assert_non_null(strstr(r.out, "8 array tasks"));
	tl_cmd_free(&r);
	char *script = tl_slurp_in(slurm, "sweep.slurm");
	assert_non_null(strstr(script, "#SBATCH --array=0-7\n"));
	free(script);
	/* collecting before the tasks ran names what is missing */
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --collect", spec, slurm);
	r = sweep(args, 1);
	assert_non_null(strstr(r.err, "is not complete"));
	tl_cmd_free(&r);
	for (int i = 7; i >= 0; i--) { /* any order */
		char cmd[4400];
		snprintf(cmd, sizeof(cmd), "SLURM_ARRAY_TASK_ID=%d sh '%s/sweep.slurm'", i, slurm);
		assert_int_equal(system(cmd), 0);
	}
	r = sweep(args, 0);
	tl_cmd_free(&r);
	static const char *const csvs[] = { "sweep.csv", "sweep-summary.csv" };
	for (int c = 0; c < 2; c++) {
		char *x = tl_slurp_in(local, csvs[c]), *y = tl_slurp_in(slurm, csvs[c]);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
	free(spec);
	free(local);
	free(slurm);
	tl_rmtree(dir);
	free(dir);
}

/* `mpirun --oversubscribe -n 3 sharebuf sweep SPEC --mpi` writes the same CSVs as a local
 * sweep, and a second one finds every run complete. Skipped, saying why, without mpirun or
 * with a program built without MPI. Open MPI refuses to run as root unless told it may: CI
 * runs as root, hence the two variables (docs/sweep.md). */
static void test_mpi(void **state)
{
	(void)state;
	if (system("command -v mpirun > /dev/null 2>&1") != 0) {
		print_message("test_mpi skipped: mpirun is not installed (sh tools/install-deps.sh installs Open MPI)\n");
		skip();
	}
	char *dir = tl_tmpdir(), args[8192];
	char *spec = tl_write_file(dir, "spec.cfg", spec_text);
	char *local = tl_path_in(dir, "local"), *mpi = tl_path_in(dir, "mpi"), *log = tl_path_in(dir, "mpi.log");
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --quiet", spec, local);
	struct tl_cmd r = sweep(args, 0);
	tl_cmd_free(&r);
	const char *sb = tl_sharebuf_path();
	char cwd[4096] = "", cmd[9000];
	if (sb[0] != '/')
		assert_non_null(getcwd(cwd, sizeof(cwd) - 1));
	for (int pass = 0; pass < 2; pass++) {
		/* leaks of Open MPI's own start-up are not ours: LeakSanitizer off for the ranks */
		snprintf(cmd, sizeof(cmd),
			 "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 "
			 "mpirun --oversubscribe -n 3 '%s%s%s' sweep '%s' --out '%s' --mpi > '%s' 2>&1",
			 cwd, *cwd ? "/" : "", sb, spec, mpi, log);
		int st = system(cmd);
		char *out = tl_slurp(log);
		if (out && strstr(out, "built without MPI")) {
			print_message("test_mpi skipped: this sharebuf was built without MPI (no mpicc at build time)\n");
			free(out);
			skip();
		}
		if (st != 0)
			fail_msg("mpirun failed (%d): %s", st, out ? out : "");
		assert_non_null(strstr(out, pass ? "(24 already complete, 0 run now)" : "(0 already complete, 24 run now)"));
		assert_non_null(strstr(out, "on 3 MPI ranks"));
		free(out);
		static const char *const csvs[] = { "sweep.csv", "sweep-summary.csv" };
		for (int c = 0; c < 2; c++) {
			char *x = tl_slurp_in(local, csvs[c]), *y = tl_slurp_in(mpi, csvs[c]);
			assert_string_equal(x, y);
			free(x);
			free(y);
		}
	}
	free(spec);
	free(local);
	free(mpi);
	free(log);
	tl_rmtree(dir);
	free(dir);
}

/* ---------- hardening: inputs, limits, duplicates, untrusted names ---------- */

/* A CDF file of docs/workloads.md's format whose sizes are `scale` times a small curve's. */
static char *write_cdf(const char *dir, int scale)
{
	char text[256];
	snprintf(text, sizeof(text), "# size_bytes cumulative_probability\n%d 0\n%d 0.5\n%d 1\n", 1000 * scale,
		 2000 * scale, 8000 * scale);
	return tl_write_file(dir, "my.cdf", text);
}

/* docs/outputs.md §3: summary.json records the SHA-256 of every file the scenario reads (here
 * the CDF named by the spec's `set`), computed here from the bytes the test wrote; and a sweep
 * counts a finished run as its own only when those inputs and the program are the same: after
 * the CDF is edited (flows 10 times larger) no run is complete, the dry run names the file,
 * and the sweep runs every point again, so sweep.csv is made from the new CDF alone. A run
 * recorded as made by another commit is not complete either. */
static void test_input_files(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192], text[8192];
	char *cdf = write_cdf(dir, 1), *real = realpath(cdf, NULL);
	snprintf(text, sizeof(text),
		 "set = ( \"run.duration_ms=4\", \"run.arrivals_ms=3\", \"workloads.0.cdf=%s\" );\n"
		 "axes = ( { key = \"workloads.0.load\"; values = [0.3, 0.5]; } );\n", cdf);
	char *spec = tl_write_file(dir, "spec.cfg", text);
	char *out = tl_path_in(dir, "out");
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --quiet", spec, out);
	tl_cmd_free((struct tl_cmd[]){ sweep(args, 0) });
	char *csv_old = tl_slurp_in(out, "sweep.csv");
	char *run0 = tl_path_in(out, "runs/0000-load=0.3/seed-default");
	char *bytes = tl_slurp(cdf), hex[SB_SHA256_HEX];
	sb_sha256_hex(bytes, strlen(bytes), hex);
	json_t *sum = tl_json_load(run0, "summary.json");
	json_t *in = tl_json_get(sum, "provenance.inputs");
	assert_int_equal(json_array_size(in), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(in, 0), "path")), real);
	assert_string_equal(json_string_value(json_object_get(json_array_get(in, 0), "sha256")), hex);
	json_decref(sum);
	free(bytes);

	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --dry-run", spec, out);
	struct tl_cmd r = sweep(args, 0);
	assert_non_null(strstr(r.out, "2 of 2 runs complete, 0 to run"));
	tl_cmd_free(&r);
	free(write_cdf(dir, 10)); /* the same path, flows 10 times larger */
	r = sweep(args, 0);
	assert_non_null(strstr(r.out, "0 of 2 runs complete, 2 to run"));
	assert_non_null(strstr(r.out, "my.cdf has changed since it was made"));
	tl_cmd_free(&r);
	snprintf(args, sizeof(args), "sweep '%s' --out '%s'", spec, out);
	r = sweep(args, 0);
	assert_non_null(strstr(r.out, "(0 already complete, 2 run now)"));
	tl_cmd_free(&r);
	char *csv_new = tl_slurp_in(out, "sweep.csv");
	assert_string_not_equal(csv_old, csv_new); /* the new CDF's numbers, in every row */
	bytes = tl_slurp(cdf);
	sb_sha256_hex(bytes, strlen(bytes), hex);
	for (int p = 0; p < 2; p++) {
		char *rd = tl_path_in(out, p ? "runs/0001-load=0.5/seed-default" : "runs/0000-load=0.3/seed-default");
		sum = tl_json_load(rd, "summary.json");
		in = tl_json_get(sum, "provenance.inputs");
		assert_string_equal(json_string_value(json_object_get(json_array_get(in, 0), "sha256")), hex);
		json_decref(sum);
		free(rd);
	}
	free(bytes);

	/* a run made by another program: its commit differs from this one's */
	char *sp = tl_path_in(run0, "summary.json"), *js = tl_slurp(sp);
	sum = json_loads(js, 0, NULL);
	json_object_set_new(json_object_get(sum, "provenance"), "commit", json_string("0123456789abcdef"));
	assert_int_equal(json_dump_file(sum, sp, 0), 0);
	json_decref(sum);
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --dry-run", spec, out);
	r = sweep(args, 0);
	assert_non_null(strstr(r.out, "1 of 2 runs complete, 1 to run"));
	assert_non_null(strstr(r.out, "(commit 0123456789abcdef)"));
	tl_cmd_free(&r);
	free(js);
	free(sp);
	free(csv_old);
	free(csv_new);
	free(run0);
	free(real);
	free(cdf);
	free(spec);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* A spec of `n` axes of 2 values each (then `more`): three scenario keys, then keys that
 * exist nowhere (the count is checked before any run's scenario is loaded). */
static char *axes_spec(int n, const char *more)
{
	static const char *const real[3] = { "key = \"tcp.min_rto_us\"; values = [ 1000, 2000 ];",
					     "key = \"run.duration_ms\"; values = [ 1, 2 ];",
					     "key = \"workloads.0.load\"; values = [ 0.3, 0.5 ];" };
	size_t cap = 256 + strlen(more) + (size_t)n * 96, len = 0;
	char *t = malloc(cap);
	len += (size_t)snprintf(t + len, cap - len, "axes = (");
	for (int i = 0; i < n; i++) {
		char fake[64];
		snprintf(fake, sizeof(fake), "key = \"x.k%d\"; values = [ 1, 2 ];", i);
		len += (size_t)snprintf(t + len, cap - len, "%s { %s }", i ? ",\n" : "\n", i < 3 ? real[i] : fake);
	}
	snprintf(t + len, cap - len, " );\n%s", more);
	return t;
}

/* docs/sweep.md §2: at most SB_SWEEP_MAX_RUNS runs, counted without wrapping: 64 axes of 2
 * values (2^64 points, which wrapped to 0: an empty sweep that exited 0, and a Slurm array of
 * 0-18446744073709551615) and 40 axes (which aborted) are refused at the axis that passes the
 * limit, and so is an empty scheme list; the limit itself is exact (a grid of exactly
 * max_runs is accepted, one run more refused). */
static void test_grid_limit(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	char *out = tl_path_in(dir, "out");
	static const int naxes[] = { 64, 40, 17 }; /* 2^17 = 131072 > 100000: passes at axes.16 */
	for (size_t i = 0; i < 3; i++) {
		char *text = axes_spec(naxes[i], "");
		char *spec = tl_write_file(dir, "spec.cfg", text);
		static const char *const modes[] = { "--dry-run", "--emit-slurm", "" };
		for (int m = 0; m < 3; m++) {
			snprintf(args, sizeof(args), "sweep '%s' --out '%s' %s", spec, out, modes[m]);
			struct tl_cmd r = sweep(args, 1);
			if (!strstr(r.err, "spec.cfg:18: axes.16: the grid passes 100000 points here (2 values); a sweep "
					   "has at most 100000 runs"))
				fail_msg("%d axes: %s", naxes[i], r.err);
			tl_cmd_free(&r);
			assert_false(tl_exists(out));
		}
		free(spec);
		free(text);
	}
	char *spec = tl_write_file(dir, "spec.cfg", "schemes = [ ];\n");
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --dry-run", spec, out);
	struct tl_cmd r = sweep(args, 1);
	assert_non_null(strstr(r.err, "spec.cfg:1: schemes: expected a non-empty list"));
	tl_cmd_free(&r);
	free(spec);

	/* the boundary, with a small limit: 2^3 points x 1 seed = 8 runs fit in 8; x 2 seeds do not */
	struct sb_sweep sw;
	struct sb_error err = { "" };
	char *text = axes_spec(3, "");
	assert_int_equal(sb_sweep_load_text(&sw, "s.cfg", text, out, NULL, 0, 8, &err), 0);
	assert_int_equal(sw.nruns, 8);
	sb_sweep_free(&sw);
	free(text);
	text = axes_spec(3, "seeds = [ 1, 2 ];\n");
	assert_int_equal(sb_sweep_load_text(&sw, "s.cfg", text, out, NULL, 0, 8, &err), -1);
	assert_non_null(strstr(err.msg, "s.cfg:5: seeds: 8 points x 2 seeds is more than 8 runs"));
	sb_sweep_free(&sw);
	free(text);
	text = axes_spec(4, "");
	assert_int_equal(sb_sweep_load_text(&sw, "s.cfg", text, out, NULL, 0, 8, &err), -1);
	assert_non_null(strstr(err.msg, "s.cfg:5: axes.3: the grid passes 8 points here"));
	sb_sweep_free(&sw);
	free(text);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* One key under two spellings, a value, a scheme or an override twice: each would give
 * sweep.csv rows (or columns) for runs that never differed. Refused at the line, naming the
 * key. */
static void test_duplicates(void **state)
{
	(void)state;
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "axes = ( { key = \"workloads.0.load\"; values = [0.3, 0.5]; },\n"
		  "         { key = \"workloads.00.load\"; values = [0.4]; } );\n",
		  "spec.cfg:2: axes: workloads.00.load sets workloads.0.load, which the axis workloads.0.load sets already" },
		{ "axes = ( { key = \"workloads.0.load\"; values = [0.3,\n 0.30]; } );\n",
		  "spec.cfg:2: axes.0: values: element 1 is element 0 again (0.3)" },
		{ "axes = ( { key = \"tcp.min_rto_us\"; values = [1000, 2000, 1000]; } );\n",
		  "spec.cfg:1: axes.0: values: element 2 is element 0 again (1000)" },
		{ "schemes = [ \"dt\", \"abm\",\n \"dt\" ];\n", "spec.cfg:2: schemes: dt is listed twice" },
		{ "set = ( \"tcp.min_rto_us=1000\", \"tcp.min_rto_us = 2000\" );\n",
		  "spec.cfg:1: set: \"tcp.min_rto_us=1000\" and \"tcp.min_rto_us = 2000\" set the same key tcp.min_rto_us" },
		{ "axes = ( { name = \"p\"; variants = ( { value = \"x\"; set = [ \"workloads.0.load=0.3\" ]; } ); },\n"
		  "         { key = \"workloads.0.load\"; values = [0.4]; } );\n",
		  "spec.cfg:2: axes: workloads.0.load sets workloads.0.load, which the axis p sets already" },
		{ "axes = ( { name = \"p\"; variants = ( { value = \"x\"; set = [ \"switch.scheme=abm\" ]; } ); } );\n"
		  "schemes = [ \"dt\" ];\n",
		  "spec.cfg:2: axes: `schemes` sets switch.scheme, which the axis p sets already" },
		{ "seeds = [ 1, 2,\n 1 ];\n", "spec.cfg:2: seeds: seed 1 is listed twice" },
	};
	char *dir = tl_tmpdir(), args[8192];
	char *out = tl_path_in(dir, "out");
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char *spec = tl_write_file(dir, "spec.cfg", bad[i].text);
		snprintf(args, sizeof(args), "sweep '%s' --out '%s' --dry-run", spec, out);
		struct tl_cmd r = sweep(args, 1);
		if (!strstr(r.err, bad[i].want))
			fail_msg("spec %zu: expected \"%s\" in: %s", i, bad[i].want, r.err);
		tl_cmd_free(&r);
		free(spec);
	}
	/* compare refuses a scheme twice as well (it did already) */
	struct tl_cmd r = sweep("compare --schemes dt,dt --out /nonexistent/x", 2);
	assert_non_null(strstr(r.err, "dt is listed twice"));
	tl_cmd_free(&r);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* A spec's name or --out with a line break was written raw into sweep.slurm, where the next
 * line ran as a command in every task: refused (exit 2) with what to do, nothing written.
 * A name with blanks and a quote is quoted for sh ('\'' inside single quotes), in the
 * comments too, and the script still runs its task. */
static void test_slurm_names(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	char *inj = tl_write_file(dir, "inj\ntouch PWNED\n.cfg", "axes = ( { key = \"run.duration_ms\"; values = [1]; } );\n");
	char *out = tl_path_in(dir, "out");
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --emit-slurm", inj, out);
	struct tl_cmd r = sweep(args, 2);
	assert_non_null(strstr(r.err, "the spec file: the name holds a control character (byte 0x0a"));
	tl_cmd_free(&r);
	assert_false(tl_exists(out));
	char *spec = tl_write_file(dir, "it's a spec.cfg", "axes = ( { key = \"run.duration_ms\"; values = [1]; } );\n");
	snprintf(args, sizeof(args), "sweep \"%s\" --out '%s/o\nid' --emit-slurm", spec, dir);
	r = sweep(args, 2);
	assert_non_null(strstr(r.err, "--out: the name holds a control character"));
	tl_cmd_free(&r);
	snprintf(args, sizeof(args), "sweep \"%s\" --out '%s' --set 'run.arrivals_ms=1\ntouch PWNED' --emit-slurm", spec, out);
	r = sweep(args, 2);
	assert_non_null(strstr(r.err, "--set: the name holds a control character"));
	tl_cmd_free(&r);
	assert_false(tl_exists(out));
	snprintf(args, sizeof(args), "sweep \"%s\" --out '%s' --emit-slurm --quiet", spec, out);
	tl_cmd_free((struct tl_cmd[]){ sweep(args, 0) });
	char *script = tl_slurp_in(out, "sweep.slurm");
	assert_non_null(strstr(script, "/it'\\''s a spec.cfg' --out "));
	assert_non_null(strstr(script, "# The Slurm array job of `sharebuf sweep '"));
	char cmd[9000];
	snprintf(cmd, sizeof(cmd), "cd '%s' && SLURM_ARRAY_TASK_ID=0 sh '%s/sweep.slurm'", dir, out);
	assert_int_equal(system(cmd), 0);
	char *pwned = tl_path_in(dir, "PWNED");
	assert_false(tl_exists(pwned));
	free(pwned);
	free(script);
	free(spec);
	free(inj);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* The scenario reader's file checks (cli/cfgfile.h) for what a sweep reads: an @include or an
 * `extract` that is a FIFO (which hung) or larger than 16 MiB (a 100 MB include cost 2.3 GB)
 * is refused at its line; so is a FIFO where --collect reads a run's summary.json. Each is
 * run with a deadline: the defect was a hang. */
static void expect_refused(const char *const *argv, const char *dir, const char *want)
{
	char *err = tl_path_in(dir, "err.txt");
	pid_t p = tl_sharebuf_start(argv, NULL, err);
	int st = tl_wait_pid(p, 30);
	assert_true(st != -1); /* it ended */
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	char *text = tl_slurp(err);
	if (!strstr(text, want))
		fail_msg("expected \"%s\" in: %s", want, text);
	free(text);
	free(err);
}

static void test_spec_files(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	char *fifo = tl_path_in(dir, "fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	char *big = tl_path_in(dir, "big.cfg");
	FILE *f = fopen(big, "w");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), (16 << 20) + 1), 0);
	fclose(f);
	char *out = tl_path_in(dir, "out");
	char *spec = tl_write_file(dir, "spec.cfg", "@include \"fifo\"\n");
	const char *const argv[] = { "sweep", spec, "--out", out, "--dry-run", NULL };
	expect_refused(argv, dir, "spec.cfg:1: @include \"fifo\": not a regular file");
	free(tl_write_file(dir, "spec.cfg", "\n@include \"big.cfg\"\n"));
	expect_refused(argv, dir, "spec.cfg:2: @include \"big.cfg\": it has 16777217 bytes");
	free(tl_write_file(dir, "spec.cfg", "extract = \"fifo\";\n"));
	expect_refused(argv, dir, "spec.cfg:1: extract: cannot open");
	free(tl_write_file(dir, "spec.cfg", "extract = \"/dev/zero\";\n"));
	expect_refused(argv, dir, "spec.cfg:1: extract: cannot open /dev/zero: not a regular file");

	free(tl_write_file(dir, "spec.cfg", "set = ( \"run.duration_ms=2\" );\n"));
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --quiet", spec, out);
	tl_cmd_free((struct tl_cmd[]){ sweep(args, 0) });
	char *sum = tl_path_in(out, "runs/0000/seed-default/summary.json");
	assert_int_equal(unlink(sum), 0);
	assert_int_equal(mkfifo(sum, 0600), 0);
	const char *const collect[] = { "sweep", spec, "--out", out, "--collect", NULL };
	expect_refused(collect, dir, "summary.json: not a regular file");
	free(sum);
	free(spec);
	free(out);
	free(big);
	free(fifo);
	tl_rmtree(dir);
	free(dir);
}

/* An extract script's value of more than 63 characters was cut in sweep.csv (but not in the
 * mean of sweep-summary.csv): the cell holds every character the script printed. */
static void test_extract_long_value(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	static const char value[] = "1.00000000000000000000000000000000000000000000000000000000000000000000000001";
	char text[512];
	snprintf(text, sizeof(text), "echo 'long,%s'\n", value);
	free(tl_write_file(dir, "x.sh", text));
	char *spec = tl_write_file(dir, "spec.cfg", "set = ( \"run.duration_ms=2\" );\nextract = \"x.sh\";\n");
	char *out = tl_path_in(dir, "out");
	snprintf(args, sizeof(args), "sweep '%s' --out '%s' --quiet", spec, out);
	tl_cmd_free((struct tl_cmd[]){ sweep(args, 0) });
	char *csv = tl_slurp_in(out, "sweep.csv");
	char want[200];
	snprintf(want, sizeof(want), ",%s\n", value);
	if (!strstr(csv, want))
		fail_msg("expected the whole value %s in: %s", value, csv);
	free(csv);
	free(spec);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* Start sharebuf with stderr on a pseudo-terminal (the progress line is shown only on a
 * terminal); *master reads it. */
static pid_t start_on_tty(const char *const *argv, int *master)
{
	*master = posix_openpt(O_RDWR | O_NOCTTY);
	assert_true(*master >= 0 && grantpt(*master) == 0 && unlockpt(*master) == 0);
	return tl_sharebuf_start(argv, NULL, ptsname(*master));
}

/* The count N of the last "WHO: N of M runs done" the terminal showed. */
static long last_done(int master, const char *who)
{
	char buf[65536];
	size_t n = 0;
	ssize_t got;
	while (n + 1 < sizeof(buf) && (got = read(master, buf + n, sizeof(buf) - 1 - n)) > 0) /* EIO: closed */
		n += (size_t)got;
	buf[n] = 0;
	close(master);
	long last = -1; /* the progress lines only: "WHO: N of M runs done" */
	for (const char *p = buf; (p = strstr(p, who)); p++) {
		char *end;
		long v = strtol(p + strlen(who), &end, 10);
		if (end != p + strlen(who) && !strncmp(end, " of ", 4))
			last = v;
	}
	assert_true(last >= 0);
	return last;
}

/* After Ctrl-C the progress line counted the interrupted runs as done ("16 of 27" with 15
 * complete; compare said "2 of 2" with none): the last count shown is the number of runs
 * complete on disk. Two at a time, so that one interrupted run ends while another still runs;
 * the first run is short and the others long (simulated seconds), so that the interrupt finds
 * two runs running whatever the machine's speed. */
static void test_interrupted_counts(void **state)
{
	(void)state;
	char *dir = tl_tmpdir();
	char *spec = tl_write_file(dir, "spec.cfg",
				   "axes = ( { key = \"run.duration_ms\"; values = [2, 4000, 4001, 4002]; } );\n"
				   "seeds = [ 1 ];\n");
	char *out = tl_path_in(dir, "out");
	const char *const argv[] = { "sweep", spec, "--out", out, "--jobs", "2", NULL };
	int master;
	pid_t p = start_on_tty(argv, &master);
	char *third = tl_path_in(out, "runs/0002-duration_ms=4001/seed-1/.sharebuf.lock");
	assert_true(tl_wait_for(third, 60)); /* one run has ended, two are running */
	kill(p, SIGINT);
	int st = tl_wait_pid(p, 60);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT);
	char done[64][200];
	size_t complete = complete_runs(out, done);
	long shown = last_done(master, "sweep: ");
	print_message("sweep: %zu runs complete, the last progress line said %ld\n", complete, shown);
	bool sweep_ok = shown == (long)complete; /* reported with compare's, below */

	char *cmp = tl_path_in(dir, "cmp");
	const char *const cargv[] = { "compare", "--schemes", "dt,abm", "--set", "run.duration_ms=4000", "--out", cmp,
				      "--jobs", "2", NULL };
	p = start_on_tty(cargv, &master);
	char *dt = tl_path_in(cmp, "dt/.sharebuf.lock"), *abm = tl_path_in(cmp, "abm/.sharebuf.lock");
	assert_true(tl_wait_for(dt, 60) && tl_wait_for(abm, 60));
	kill(p, SIGINT);
	tl_wait_pid(p, 60);
	size_t finished = 0;
	static const char *const schemes[] = { "dt/summary.json", "abm/summary.json" };
	for (int i = 0; i < 2; i++) {
		char *sum = tl_path_in(cmp, schemes[i]);
		finished += tl_exists(sum);
		free(sum);
	}
	shown = last_done(master, "compare: ");
	print_message("compare: %zu runs complete, the last progress line said %ld\n", finished, shown);
	if (!sweep_ok || shown != (long)finished)
		fail_msg("the last progress lines counted interrupted runs as done (%s%s)", sweep_ok ? "" : "sweep",
			 shown == (long)finished ? "" : " compare");
	free(dt);
	free(abm);
	free(cmp);
	free(third);
	free(spec);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_grid_zip_and_csvs),
		cmocka_unit_test(test_one_seed),
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_variants_and_metrics),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_slurm),
		cmocka_unit_test(test_mpi),
		cmocka_unit_test(test_input_files),
		cmocka_unit_test(test_grid_limit),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_slurm_names),
		cmocka_unit_test(test_spec_files),
		cmocka_unit_test(test_extract_long_value),
		cmocka_unit_test(test_interrupted_counts),
	};
	return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
