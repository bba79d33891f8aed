/*
 * sweep_csv.c — a sweep's results (docs/sweep.md §4): which runs are complete, and
 * DIR/sweep.csv (one row per point and seed) and DIR/sweep-summary.csv (one row per point:
 * mean, sample standard deviation and Student-t 95 % confidence interval over its seeds) from
 * the runs' summary.json files.
 *
 * The metrics are compare.csv's (cli/compare.h), read from the same summary.json keys, so a
 * sweep row and a compare row of the same run agree; then the spec's `metrics` (more
 * summary.json keys) and the lines its `extract` script prints for each run. Everything written is a function of the
 * runs' summaries and the spec alone: a local, an MPI and a Slurm sweep of one spec write the
 * same bytes.
 */
#include "cli/sweep.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "scenario/cfgfile.h"
#include "core/outdir.h"
#include "sim/provenance.h"

/* P(|T| < t) for Student's t with df degrees of freedom, by the finite series of Abramowitz &
 * Stegun 26.7.3 (df odd) and 26.7.4 (df even), exact for integer df. */
static double t_two_sided(double t, long df)
{
	double theta = atan(t / sqrt((double)df)), s = sin(theta), c = cos(theta);
	if (df % 2 == 0) {
		double term = 1, sum = 1;
		for (long k = 1; 2 * k <= df - 2; k++) {
			term *= c * c * (double)(2 * k - 1) / (double)(2 * k);
			sum += term;
		}
		return s * sum;
	}
	if (df == 1)
		return 2 * theta / M_PI;
	double term = c, sum = c;
	for (long k = 1; 2 * k + 1 <= df - 2; k++) {
		term *= c * c * (double)(2 * k) / (double)(2 * k + 1);
		sum += term;
	}
	return 2 / M_PI * (theta + s * sum);
}

double sb_student_t975(long df)
{
	double lo = 0, hi = 1000; /* t(0.975, 1) = 12.71: far inside */
	for (int i = 0; i < 200 && hi - lo > 1e-13; i++) {
		double mid = (lo + hi) / 2;
		if (t_two_sided(mid, df) < 0.95)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static char *path_in(const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *p = sb_xmalloc(len);
	snprintf(p, len, "%s/%s", dir, name);
	return p;
}

static json_t *get(json_t *root, const char *dotted)
{
	char *key = sb_xstrdup(dotted); /* whole: a key cut short would name another value */
	json_t *cur = root;
	for (char *save = NULL, *k = strtok_r(key, ".", &save); k && cur; k = strtok_r(NULL, ".", &save))
		cur = json_is_object(cur) ? json_object_get(cur, k) : NULL;
	free(key);
	return cur;
}

/* A run's summary.json, read with the scenario reader's checks (cli/cfgfile.h): a FIFO or a
 * device in its place would block --collect for ever. NULL with err set. */
static json_t *load_summary(const char *path, struct sb_error *err)
{
	char *text;
	size_t len;
	if (sb_cfg_read_whole(path, path, "a summary.json", SB_CFG_MAX_BYTES, &len, &text, err))
		return NULL;
	json_error_t jerr;
	json_t *j = json_loadb(text, len, 0, &jerr);
	free(text);
	if (!j)
		sb_fail(err, "cannot read %s: %s", path, jerr.text);
	return j;
}

/* Whether the summary's provenance is run r's as this sweep would make it now; if not, why. */
static bool same_provenance(const struct sb_sweep *sw, size_t r, json_t *sum, char *why, size_t n)
{
	const struct sb_sweep_run *run = &sw->runs[r];
	const char *recorded = json_string_value(get(sum, "provenance.scenario_sha256"));
	if (!recorded || strcmp(recorded, run->sha256)) {
		snprintf(why, n, "its scenario is not the spec's now (provenance.scenario_sha256 differs)");
		return false;
	}
	/* a program built from another commit (or another dirty tree) may simulate otherwise */
	const char *version = json_string_value(get(sum, "provenance.version")),
		   *commit = json_string_value(get(sum, "provenance.commit"));
	if (!version || !commit || strcmp(version, sb_version) || strcmp(commit, sb_git_commit)) {
		snprintf(why, n, "it was made by sharebuf %s (commit %s), this is %s (commit %s)", version ? version : "?",
			 commit ? commit : "?", sb_version, sb_git_commit);
		return false;
	}
	json_t *inputs = get(sum, "provenance.inputs");
	if (!json_is_array(inputs)) {
		snprintf(why, n, "its summary.json records no input files (provenance.inputs)");
		return false;
	}
	for (size_t i = 0; i < run->ninputs || i < json_array_size(inputs); i++) {
		json_t *e = json_array_get(inputs, i);
		const char *path = json_string_value(json_object_get(e, "path")),
			   *sha = json_string_value(json_object_get(e, "sha256"));
		if (i >= run->ninputs) {
			snprintf(why, n, "it read %s, which this run does not", path ? path : "?");
			return false;
		}
		const struct sb_provenance_input *now = &sw->files[run->inputs[i]];
		if (!path || strcmp(path, now->path)) {
			snprintf(why, n, "it did not read %s", now->path);
			return false;
		}
		if (!sha || strcmp(sha, now->sha256)) {
			snprintf(why, n, "%s %s", now->path, *now->sha256 ? "has changed since it was made" : "cannot be read now");
			return false;
		}
	}
	return true;
}

bool sb_sweep_run_complete(const struct sb_sweep *sw, size_t r)
{
	return sb_sweep_run_state(sw, r, NULL, 0);
}

bool sb_sweep_run_state(const struct sb_sweep *sw, size_t r, char *why, size_t n)
{
	char spare[8];
	if (!why || !n)
		why = spare, n = sizeof(spare);
	why[0] = 0;
	const struct sb_sweep_run *run = &sw->runs[r];
	static const char *const files[] = { "flows.csv", "occupancy.csv", "drops.csv", "scenario.cfg" };
	for (size_t i = 0; i < SB_ARRAY_LEN(files); i++) {
		char *p = path_in(run->dir, files[i]);
		bool there = access(p, R_OK) == 0;
		free(p);
		if (!there)
			return false;
	}
	/* the files of one run are renamed into place together, with signals held (outputs.md
	 * §1): the summary's hash speaks for its scenario.cfg */
	char *p = path_in(run->dir, "summary.json");
	struct sb_error err = { "" };
	json_t *sum = access(p, F_OK) == 0 ? load_summary(p, &err) : NULL;
	free(p);
	if (!sum) {
		snprintf(why, n, "%s", err.msg);
		return false;
	}
	bool ok = same_provenance(sw, r, sum, why, n);
	json_decref(sum);
	return ok;
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void point_fields(FILE *f, const struct sb_sweep *sw, size_t p)
{
	csv_field(f, sw->points[p].name);
	for (size_t c = 0; c < sw->ncolumns; c++) {
		fputc(',', f);
		csv_field(f, sw->points[p].values[c]);
	}
}

static void header(FILE *f, const struct sb_sweep *sw)
{
	fputs("point", f);
	for (size_t c = 0; c < sw->ncolumns; c++) {
		fputc(',', f);
		csv_field(f, sw->columns[c]);
	}
}

/* The metrics of every run: compare.csv's headline metrics, the spec's `metrics` (more
 * summary.json keys) and what its `extract` script prints, as the text a CSV cell holds and
 * as the number the statistics use. */
struct table {
	size_t nruns, nmetrics;
	char **names;   /* nmetrics column names */
	char **text;    /* [r * nmetrics + m] */
	double *value;  /* [r * nmetrics + m] */
	long long *seed;
};

static void table_free(struct table *t)
{
	for (size_t m = 0; m < t->nmetrics; m++)
		free(t->names[m]);
	for (size_t i = 0; i < t->nruns * t->nmetrics; i++)
		free(t->text[i]);
	free(t->names);
	free(t->text);
	free(t->value);
	free(t->seed);
}

static void put(struct table *t, size_t r, size_t m, double value, const char *fmt, ...) SB_PRINTF(5, 6);
static void put(struct table *t, size_t r, size_t m, double value, const char *fmt, ...)
{
	/* the whole text, however long: an extract script's value is written as it printed it */
	va_list ap;
	va_start(ap, fmt);
	char *buf = NULL;
	if (vasprintf(&buf, fmt, ap) < 0)
		buf = NULL;
	va_end(ap);
	t->text[r * t->nmetrics + m] = buf ? buf : sb_xstrdup("");
	t->value[r * t->nmetrics + m] = value;
}

/* A summary.json number: integers exactly, reals with 10 significant digits. */
static int put_json(struct table *t, size_t r, size_t m, json_t *v, bool integer, const char *where,
		    const char *key, struct sb_error *err)
{
	if (integer ? !json_is_integer(v) : !json_is_number(v))
		return sb_fail(err, "sweep: %s: %s is missing or not a number", where, key);
	if (json_is_integer(v))
		put(t, r, m, (double)json_integer_value(v), "%lld", (long long)json_integer_value(v));
	else
		put(t, r, m, json_number_value(v), "%.10g", json_number_value(v));
	return 0;
}

/* Run the spec's extract script on run r's directory: `sh SCRIPT RUNDIR`, whose output is one
 * "name,value" line per metric, the same names in the same order for every run. Its lines go
 * into *lines (malloc'd, NULL-terminated). */
static int extract_run(const struct sb_sweep *sw, size_t r, char ***lines, size_t *nlines, struct sb_error *err)
{
	char *script = NULL, *dir = NULL;
	size_t len = 0;
	sb_shell_quote_append(&script, &len, sw->extract);
	len = 0;
	sb_shell_quote_append(&dir, &len, sw->runs[r].dir);
	len = strlen(script) + strlen(dir) + 8;
	char *cmd = sb_xmalloc(len);
	snprintf(cmd, len, "sh %s %s", script, dir);
	free(script);
	free(dir);
	fflush(NULL);
	FILE *p = popen(cmd, "r");
	free(cmd);
	if (!p)
		return sb_fail(err, "sweep: extract: cannot run sh %s: %s", sw->extract, strerror(errno));
	char *line = NULL;
	size_t cap = 0, n = 0;
	ssize_t got;
	*lines = NULL;
	while ((got = getline(&line, &cap, p)) > 0) {
		while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
			line[--got] = 0;
		if (!got)
			continue;
		*lines = sb_xrealloc(*lines, (n + 2) * sizeof(**lines));
		(*lines)[n++] = sb_xstrdup(line);
		(*lines)[n] = NULL;
	}
	free(line);
	int status = pclose(p);
	*nlines = n;
	if (status != 0)
		return sb_fail(err, "sweep: extract: sh %s %s failed (status %d)", sw->extract, sw->runs[r].dir,
			       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

static void free_lines(char **lines)
{
	for (char **l = lines; l && *l; l++)
		free(*l);
	free(lines);
}

/* Every run's metrics, each checked; on success every cell is set. */
static int read_table(const struct sb_sweep *sw, struct table *t, struct sb_error *err)
{
	size_t ncols;
	const struct sb_compare_column *cols = sb_compare_columns(&ncols);
	char **first = NULL; /* the extract script's lines of run 0: its metric names */
	size_t nextract = 0;
	int rc = 0;
	for (size_t r = 0; r < sw->nruns && rc == 0; r++) {
		char why[600];
		if (!sb_sweep_run_state(sw, r, why, sizeof(why)))
			return sb_fail(err, "sweep: %s is not complete (%s): run the sweep (or its --point %zu) again",
				       sw->runs[r].dir, *why ? why : "it has not finished", sw->runs[r].point);
		char **lines = NULL;
		size_t nlines = 0;
		if (sw->extract && extract_run(sw, r, &lines, &nlines, err)) {
			free_lines(lines);
			rc = -1;
			break;
		}
		if (r == 0) {
			first = lines;
			nextract = nlines;
			t->nruns = sw->nruns;
			t->nmetrics = ncols + sw->nmetrics + nextract;
			t->names = sb_xcalloc(t->nmetrics, sizeof(*t->names));
			t->text = sb_xcalloc(t->nruns * t->nmetrics, sizeof(*t->text));
			t->value = sb_xcalloc(t->nruns * t->nmetrics, sizeof(*t->value));
			t->seed = sb_xcalloc(t->nruns, sizeof(*t->seed));
			for (size_t c = 0; c < ncols; c++)
				t->names[c] = sb_xstrdup(cols[c].name);
			for (size_t m = 0; m < sw->nmetrics; m++)
				t->names[ncols + m] = sb_xstrdup(sw->metrics[m]);
			for (size_t e = 0; e < nextract; e++) {
				char *comma = strchr(first[e], ',');
				if (!comma || comma == first[e] || memchr(first[e], '"', (size_t)(comma - first[e]))) {
					rc = sb_fail(err, "sweep: extract: sh %s %s printed \"%.80s\": expected lines NAME,VALUE",
						     sw->extract, sw->runs[r].dir, first[e]);
					break;
				}
				char *name = sb_xstrdup(first[e]);
				name[comma - first[e]] = 0;
				t->names[ncols + sw->nmetrics + e] = name;
			}
		}
		if (rc == 0 && nlines != nextract)
			rc = sb_fail(err, "sweep: extract: sh %s %s printed %zu metrics, the first run %zu", sw->extract,
				     sw->runs[r].dir, nlines, nextract);
		char *p = path_in(sw->runs[r].dir, "summary.json");
		struct sb_error inner = { "" };
		json_t *sum = rc ? NULL : load_summary(p, &inner);
		if (rc == 0 && !sum)
			rc = sb_fail(err, "sweep: %s", inner.msg);
		if (rc == 0 && !json_is_integer(get(sum, "seed")))
			rc = sb_fail(err, "sweep: %s: seed is missing or not a number", p);
		if (rc == 0)
			t->seed[r] = (long long)json_integer_value(get(sum, "seed"));
		for (size_t c = 0; c < ncols && rc == 0; c++)
			rc = put_json(t, r, c, get(sum, cols[c].key), cols[c].integer, p, cols[c].key, err);
		for (size_t m = 0; m < sw->nmetrics && rc == 0; m++)
			rc = put_json(t, r, ncols + m, get(sum, sw->metrics[m]), false, p, sw->metrics[m], err);
		for (size_t e = 0; e < nextract && rc == 0; e++) {
			const char *name = t->names[ncols + sw->nmetrics + e];
			size_t nlen = strlen(name);
			char *end;
			const char *val = lines[e] + nlen + 1;
			double v = strtod(val, &end);
			if (strncmp(lines[e], name, nlen) || lines[e][nlen] != ',')
				rc = sb_fail(err, "sweep: extract: sh %s %s: line %zu is \"%.80s\", expected %s,VALUE as for the "
					     "first run", sw->extract, sw->runs[r].dir, e + 1, lines[e], name);
			else if (!*val || *end || !isfinite(v))
				rc = sb_fail(err, "sweep: extract: sh %s %s: %s: \"%.40s\" is not a number", sw->extract,
					     sw->runs[r].dir, name, val);
			else
				put(t, r, ncols + sw->nmetrics + e, v, "%s", val);
		}
		json_decref(sum);
		free(p);
		if (lines != first)
			free_lines(lines);
	}
	free_lines(first);
	return rc;
}

static void write_runs(FILE *f, const struct sb_sweep *sw, const struct table *t)
{
	header(f, sw);
	fputs(",seed", f);
	for (size_t m = 0; m < t->nmetrics; m++) {
		fputc(',', f);
		csv_field(f, t->names[m]);
	}
	fputc('\n', f);
	for (size_t r = 0; r < sw->nruns; r++) {
		point_fields(f, sw, sw->runs[r].point);
		fprintf(f, ",%lld", t->seed[r]);
		for (size_t m = 0; m < t->nmetrics; m++) {
			fputc(',', f);
			csv_field(f, t->text[r * t->nmetrics + m]);
		}
		fputc('\n', f);
	}
}

/* Per point: n, then for each metric its mean, sample standard deviation (n − 1) and the
 * half-width of the 95 % interval, t(0.975, n − 1) · sd / √n; with n = 1 the last two are
 * empty (one seed gives no spread). */
static void write_stats(FILE *f, const struct sb_sweep *sw, const struct table *t)
{
	header(f, sw);
	fputs(",n", f);
	for (size_t m = 0; m < t->nmetrics; m++) {
		const char *suffix[3] = { "_mean", "_sd", "_ci95" };
		for (int k = 0; k < 3; k++) {
			size_t len = strlen(t->names[m]) + 8;
			char *col = sb_xmalloc(len);
			snprintf(col, len, "%s%s", t->names[m], suffix[k]);
			fputc(',', f);
			csv_field(f, col);
			free(col);
		}
	}
	fputc('\n', f);
	size_t n = sw->nseeds;
	double tq = n > 1 ? sb_student_t975((long)n - 1) : 0;
	for (size_t p = 0; p < sw->npoints; p++) {
		point_fields(f, sw, p);
		fprintf(f, ",%zu", n);
		for (size_t m = 0; m < t->nmetrics; m++) {
			double sum = 0, sq = 0;
			for (size_t s = 0; s < n; s++)
				sum += t->value[(p * n + s) * t->nmetrics + m];
			double mean = sum / (double)n;
			for (size_t s = 0; s < n; s++) {
				double d = t->value[(p * n + s) * t->nmetrics + m] - mean;
				sq += d * d;
			}
			fprintf(f, ",%.10g", mean);
			if (n > 1) {
				double sd = sqrt(sq / (double)(n - 1));
				fprintf(f, ",%.10g,%.10g", sd, tq * sd / sqrt((double)n));
			} else {
				fputs(",,", f);
			}
		}
		fputc('\n', f);
	}
}

int sb_sweep_write_csv(const struct sb_sweep *sw, struct sb_error *err)
{
	struct table t = { 0 };
	int rc = read_table(sw, &t, err);
	static const char *const names[2] = { "sweep.csv", "sweep-summary.csv" };
	char tmp[2][4096];
	FILE *f[2] = { NULL, NULL };
	for (int i = 0; i < 2 && rc == 0; i++)
		if (!(f[i] = sb_outdir_tmp_open(sw->out, names[i], tmp[i], sizeof(tmp[i]), err)))
			rc = -1;
	if (rc == 0) {
		write_runs(f[0], sw, &t);
		write_stats(f[1], sw, &t);
	}
	char *final[2] = { path_in(sw->out, names[0]), path_in(sw->out, names[1]) };
	rc = sb_outdir_commit(f, tmp, final, 2, rc, err);
	free(final[0]);
	free(final[1]);
	table_free(&t);
	return rc;
}
