/*
 * sweep_csv.c — a sweep's results (docs/sweep.md §4): which runs are complete, and
 * DIR/sweep.csv (one row per point and seed) and DIR/sweep-summary.csv (one row per point:
 * mean, sample standard deviation and Student-t 95 % confidence interval over its seeds) from
 * the runs' summary.json files.
 *
 * The metrics are compare.csv's (cli/compare.h), read from the same summary.json keys, so a
 * sweep row and a compare row of the same run agree. Everything written is a function of the
 * runs' summaries and the spec alone: a local, an MPI and a Slurm sweep of one spec write the
 * same bytes.
 */
#include "cli/sweep.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim/outdir.h"

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
	char key[128];
	snprintf(key, sizeof(key), "%s", dotted);
	json_t *cur = root;
	for (char *save = NULL, *k = strtok_r(key, ".", &save); k && cur; k = strtok_r(NULL, ".", &save))
		cur = json_is_object(cur) ? json_object_get(cur, k) : NULL;
	return cur;
}

bool sb_sweep_run_complete(const struct sb_sweep *sw, size_t r)
{
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
	json_t *sum = json_load_file(p, 0, NULL);
	free(p);
	const char *recorded = json_string_value(get(sum, "provenance.scenario_sha256"));
	bool ok = recorded && !strcmp(recorded, run->sha256);
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

/* Every run's summary, checked for every metric; NULL entries never remain on success. */
static int read_summaries(const struct sb_sweep *sw, json_t **sums, struct sb_error *err)
{
	size_t ncols;
	const struct sb_compare_column *cols = sb_compare_columns(&ncols);
	for (size_t r = 0; r < sw->nruns; r++) {
		if (!sb_sweep_run_complete(sw, r))
			return sb_fail(err, "sweep: %s is not complete (or not this spec's run): run the sweep (or its "
				       "--point %zu) again", sw->runs[r].dir, sw->runs[r].point);
		char *p = path_in(sw->runs[r].dir, "summary.json");
		json_error_t jerr;
		sums[r] = json_load_file(p, 0, &jerr);
		if (!sums[r]) {
			sb_fail(err, "sweep: cannot read %s: %s", p, jerr.text);
			free(p);
			return -1;
		}
		for (size_t c = 0; c <= ncols; c++) {
			const char *key = c < ncols ? cols[c].key : "seed";
			json_t *v = get(sums[r], key);
			if (c < ncols && !cols[c].integer ? !json_is_number(v) : !json_is_integer(v)) {
				sb_fail(err, "sweep: %s: %s is missing or not a number", p, key);
				free(p);
				return -1;
			}
		}
		free(p);
	}
	return 0;
}

static void write_runs(FILE *f, const struct sb_sweep *sw, json_t **sums)
{
	size_t ncols;
	const struct sb_compare_column *cols = sb_compare_columns(&ncols);
	header(f, sw);
	fputs(",seed", f);
	for (size_t c = 0; c < ncols; c++)
		fprintf(f, ",%s", cols[c].name);
	fputc('\n', f);
	for (size_t r = 0; r < sw->nruns; r++) {
		point_fields(f, sw, sw->runs[r].point);
		fprintf(f, ",%lld", (long long)json_integer_value(get(sums[r], "seed")));
		for (size_t c = 0; c < ncols; c++) {
			json_t *v = get(sums[r], cols[c].key);
			if (cols[c].integer)
				fprintf(f, ",%lld", (long long)json_integer_value(v));
			else
				fprintf(f, ",%.10g", json_number_value(v));
		}
		fputc('\n', f);
	}
}

/* Per point: n, then for each metric its mean, sample standard deviation (n − 1) and the
 * half-width of the 95 % interval, t(0.975, n − 1) · sd / √n; with n = 1 the last two are
 * empty (one seed gives no spread). */
static void write_stats(FILE *f, const struct sb_sweep *sw, json_t **sums)
{
	size_t ncols;
	const struct sb_compare_column *cols = sb_compare_columns(&ncols);
	header(f, sw);
	fputs(",n", f);
	for (size_t c = 0; c < ncols; c++)
		fprintf(f, ",%s_mean,%s_sd,%s_ci95", cols[c].name, cols[c].name, cols[c].name);
	fputc('\n', f);
	size_t n = sw->nseeds;
	double t = n > 1 ? sb_student_t975((long)n - 1) : 0;
	for (size_t p = 0; p < sw->npoints; p++) {
		point_fields(f, sw, p);
		fprintf(f, ",%zu", n);
		for (size_t c = 0; c < ncols; c++) {
			double sum = 0, sq = 0;
			for (size_t s = 0; s < n; s++)
				sum += json_number_value(get(sums[p * n + s], cols[c].key));
			double mean = sum / (double)n;
			for (size_t s = 0; s < n; s++) {
				double d = json_number_value(get(sums[p * n + s], cols[c].key)) - mean;
				sq += d * d;
			}
			fprintf(f, ",%.10g", mean);
			if (n > 1) {
				double sd = sqrt(sq / (double)(n - 1));
				fprintf(f, ",%.10g,%.10g", sd, t * sd / sqrt((double)n));
			} else {
				fputs(",,", f);
			}
		}
		fputc('\n', f);
	}
}

int sb_sweep_write_csv(const struct sb_sweep *sw, struct sb_error *err)
{
	json_t **sums = sb_xcalloc(sw->nruns, sizeof(*sums));
	int rc = read_summaries(sw, sums, err);
	static const char *const names[2] = { "sweep.csv", "sweep-summary.csv" };
	char tmp[2][4096];
	FILE *f[2] = { NULL, NULL };
	for (int i = 0; i < 2 && rc == 0; i++)
		if (!(f[i] = sb_outdir_tmp_open(sw->out, names[i], tmp[i], sizeof(tmp[i]), err)))
			rc = -1;
	if (rc == 0) {
		write_runs(f[0], sw, sums);
		write_stats(f[1], sw, sums);
	}
	char *final[2] = { path_in(sw->out, names[0]), path_in(sw->out, names[1]) };
	rc = sb_outdir_commit(f, tmp, final, 2, rc, err);
	free(final[0]);
	free(final[1]);
	for (size_t r = 0; r < sw->nruns; r++)
		json_decref(sums[r]);
	free(sums);
	return rc;
}
