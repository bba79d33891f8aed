/*
 * sweep_spec.c — reading a sweep spec (docs/sweep.md §2) into its points and runs.
 *
 * The spec is a libconfig file, like a scenario, with these top-level keys:
 *   base    = "scenario.cfg";          the base scenario, relative to the spec (default: the
 *                                      embedded default scenario)
 *   set     = ( "run.duration_ms=10" ); overrides applied to every run
 *   axes    = ( { key = "workloads.0.load"; values = [0.3, 0.5]; },
 *               { key = "switch.dt.alpha"; values = [0.5, 1.0]; zip = true; } );
 *   schemes = [ "dt", "abm" ];         an axis of switch.scheme, varied last
 *   seeds   = [ 1, 2, 3 ];             each point runs once per seed
 *   metrics = [ "pfc.pause_frames" ];  more summary.json keys for the CSVs
 *   extract = "metrics.sh";            a script run on each run's directory for more metrics
 * An axis can also be a list of named variants, each a set of overrides:
 *   { name = "policy"; variants = ( { value = "dt"; set = [ "switch.scheme=sonic",
 *     "switch.sonic.policy=dt" ]; }, ... ); }
 * (one scheme configured two ways is one value of such an axis, not two axes to zip).
 * Axes combine as a grid, the first varying slowest; an axis with `zip = true` moves together
 * with the one before it instead (same number of values), so a spec can zip some keys and
 * cross the others. Every run's scenario is loaded and validated here, as `run` would, so a
 * mistake in any point fails before anything runs; the resolved scenario's hash is what a
 * finished run is later recognised by.
 */
#include "cli/sweep.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "scenario/cfgfile.h"
#include "core/lines.h"
#include "scenario/scenario.h"

extern const char sb_default_scenario[];

static int spec_fail(struct sb_error *err, const char *spec, const config_setting_t *s, const char *key,
		     const char *fmt, ...) SB_PRINTF(5, 6);
static int spec_fail(struct sb_error *err, const char *spec, const config_setting_t *s, const char *key,
		     const char *fmt, ...)
{
	char what[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	unsigned line = s ? config_setting_source_line(s) : 0;
	if (line)
		return sb_fail(err, "%s:%u: %s: %s", spec, line, key, what);
	return sb_fail(err, "%s: %s: %s", spec, key, what);
}

/* A scalar setting as the text of a --set value: integers exactly, reals with the fewest
 * digits that read back the same, strings as they are. NULL for anything else. */
static char *value_text(const config_setting_t *s)
{
	char buf[64];
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: snprintf(buf, sizeof(buf), "%lld", config_setting_get_int64(s)); break;
	case CONFIG_TYPE_FLOAT: {
		double v = config_setting_get_float(s);
		for (int digits = 15; digits <= 17; digits++) {
			snprintf(buf, sizeof(buf), "%.*g", digits, v);
			if (strtod(buf, NULL) == v)
				break;
		}
		break;
	}
	case CONFIG_TYPE_BOOL: snprintf(buf, sizeof(buf), "%s", config_setting_get_bool(s) ? "true" : "false"); break;
	case CONFIG_TYPE_STRING: return sb_xstrdup(config_setting_get_string(s));
	default: return NULL;
	}
	return sb_xstrdup(buf);
}

/* A list or array of strings (`set`, `schemes`) into *out. */
static int string_list(const char *spec, const config_setting_t *s, const char *key, char ***out, size_t *n,
		       struct sb_error *err)
{
	if (!config_setting_is_aggregate(s) || config_setting_is_group(s))
		return spec_fail(err, spec, s, key, "expected a list of strings [ \"a\", \"b\" ]");
	*n = (size_t)config_setting_length(s);
	*out = sb_xcalloc(*n + 1, sizeof(**out));
	for (size_t i = 0; i < *n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		if (config_setting_type(e) != CONFIG_TYPE_STRING || !*config_setting_get_string(e))
			return spec_fail(err, spec, e, key, "element %zu: expected a non-empty string", i);
		(*out)[i] = sb_xstrdup(config_setting_get_string(e));
	}
	return 0;
}

/* A scenario key as the reader resolves it (scenario/cfg_override.c): blanks around it dropped,
 * and an index written with leading zeros (workloads.007.load) the same index
 * (workloads.7.load). For "KEY=VALUE", the KEY's. Malloc'd. */
static char *canonical_key(const char *set)
{
	size_t len = strcspn(set, "=");
	while (len && isspace((unsigned char)set[len - 1]))
		len--;
	while (len && isspace((unsigned char)*set))
		set++, len--;
	char *out = sb_xmalloc(len + 1), *o = out;
	for (size_t i = 0; i < len;) {
		size_t part = 0;
		while (i + part < len && set[i + part] != '.')
			part++;
		size_t digits = 0;
		while (digits < part && isdigit((unsigned char)set[i + digits]))
			digits++;
		size_t skip = 0;
		if (digits == part) /* an index: no leading zeros, but keep one digit */
			while (skip + 1 < part && set[i + skip] == '0')
				skip++;
		memcpy(o, set + i + skip, part - skip);
		o += part - skip;
		i += part;
		if (i < len)
			*o++ = set[i++]; /* the dot */
	}
	*o = 0;
	return out;
}

struct text_at {
	const char *text;
	size_t index;
};

static int text_at_cmp(const void *a, const void *b)
{
	const struct text_at *x = a, *y = b;
	int c = strcmp(x->text, y->text);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Whether two of the n texts are equal: then *first and *second (first < second) are the
 * indices of such a pair, the second the earliest that repeats one before it. Sorting keeps
 * a long list (a sweep may have SB_SWEEP_MAX_RUNS values) from costing n^2 comparisons. */
static bool find_duplicate(char *const *texts, size_t n, size_t *first, size_t *second)
{
	struct text_at *v = sb_xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = (struct text_at){ texts[i], i };
	qsort(v, n, sizeof(*v), text_at_cmp);
	bool found = false;
	for (size_t i = 1; i < n; i++)
		if (!strcmp(v[i - 1].text, v[i].text) && (!found || v[i].index < *second)) {
			/* the equal run starts at its lowest index; v[i - 1] may be a later one of it */
			size_t lo = i - 1;
			while (lo > 0 && !strcmp(v[lo - 1].text, v[i].text))
				lo--;
			*first = v[lo].index;
			*second = v[i].index;
			found = true;
		}
	free(v);
	return found;
}

/* Refuse a `set` list (the spec's, or a variant's) that sets one key twice, under any
 * spelling: the later would silently win over the earlier. */
static int check_set_keys(const char *spec, const config_setting_t *s, const char *key, char *const *sets, size_t n,
			  struct sb_error *err)
{
	char **keys = sb_xcalloc(n + 1, sizeof(*keys));
	for (size_t i = 0; i < n; i++)
		keys[i] = canonical_key(sets[i]);
	size_t a, b;
	int rc = 0;
	if (find_duplicate(keys, n, &a, &b))
		rc = spec_fail(err, spec, config_setting_get_elem(s, (unsigned)b), key,
			       "\"%s\" and \"%s\" set the same key %s: one value per key", sets[a], sets[b], keys[b]);
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	return rc;
}

/* One axis as read: its key (a variant axis: its name), its values, and whether it moves with
 * the axis before it. A variant axis has the overrides of each value; a key axis none. */
struct axis {
	char *key;
	char **values;
	size_t n;
	bool zip;
	struct sb_sweep_variants *variants;
	unsigned line; /* of its group in the spec (0: unknown), for messages */
};

static void free_variants(struct sb_sweep_variants *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		for (char **k = v->set[i]; k && *k; k++)
			free(*k);
		free(v->set[i]);
	}
	free(v->set);
	free(v);
}

static void free_axes(struct axis *ax, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(ax[i].key);
		for (size_t v = 0; v < ax[i].n; v++)
			free(ax[i].values[v]);
		free(ax[i].values);
		free_variants(ax[i].variants);
	}
	free(ax);
}

/* A variant axis' `variants`: ( { value = "dt"; set = [ "KEY=VALUE", ... ]; }, ... ). */
static int read_variants(const char *spec, const config_setting_t *v, const char *key, struct axis *a,
			 struct sb_error *err)
{
	if (!config_setting_is_list(v) || config_setting_length(v) == 0)
		return spec_fail(err, spec, v, key, "variants: expected a non-empty list ( { value = \"dt\"; "
				 "set = [ \"KEY=VALUE\", ... ]; }, ... )");
	a->n = (size_t)config_setting_length(v);
	a->values = sb_xcalloc(a->n, sizeof(*a->values));
	a->variants = sb_xcalloc(1, sizeof(*a->variants));
	a->variants->n = a->n;
	a->variants->set = sb_xcalloc(a->n, sizeof(*a->variants->set));
	for (size_t i = 0; i < a->n; i++) {
		const config_setting_t *g = config_setting_get_elem(v, (unsigned)i);
		if (!config_setting_is_group(g))
			return spec_fail(err, spec, g, key, "variants: element %zu: expected a group { value = ...; set = [...]; }", i);
		for (int m = 0; m < config_setting_length(g); m++) {
			const config_setting_t *e = config_setting_get_elem(g, (unsigned)m);
			if (strcmp(config_setting_name(e), "value") && strcmp(config_setting_name(e), "set"))
				return spec_fail(err, spec, e, key, "variants: unknown key \"%s\", expected value and set",
						 config_setting_name(e));
		}
		const config_setting_t *val = config_setting_get_member(g, "value"), *set = config_setting_get_member(g, "set");
		if (!val || config_setting_type(val) != CONFIG_TYPE_STRING || !*config_setting_get_string(val))
			return spec_fail(err, spec, val ? val : g, key, "variants: element %zu: value: expected a non-empty "
					 "string, the variant's name in the CSVs", i);
		a->values[i] = sb_xstrdup(config_setting_get_string(val));
		for (size_t k = 0; k < i; k++)
			if (!strcmp(a->values[k], a->values[i]))
				return spec_fail(err, spec, val, key, "variants: \"%s\" is named twice", a->values[i]);
		size_t nset = 0;
		if (!set)
			return spec_fail(err, spec, g, key, "variants: \"%s\": set: expected its overrides [ \"KEY=VALUE\", ... ]",
					 a->values[i]);
		if (string_list(spec, set, key, &a->variants->set[i], &nset, err))
			return -1;
		for (size_t k = 0; k < nset; k++)
			if (!strchr(a->variants->set[i][k], '='))
				return spec_fail(err, spec, set, key, "variants: \"%s\": expected KEY=VALUE", a->variants->set[i][k]);
		char where[160];
		snprintf(where, sizeof(where), "%s: variants: \"%.40s\"", key, a->values[i]);
		if (check_set_keys(spec, set, where, a->variants->set[i], nset, err))
			return -1;
	}
	return 0;
}

static int read_axis(const char *spec, const config_setting_t *g, size_t index, struct axis *a, struct sb_error *err)
{
	char key[64];
	snprintf(key, sizeof(key), "axes.%zu", index);
	if (!config_setting_is_group(g))
		return spec_fail(err, spec, g, key, "expected a group { key = \"...\"; values = [ ... ]; }");
	a->line = config_setting_source_line(g);
	const config_setting_t *k = config_setting_get_member(g, "key"), *v = config_setting_get_member(g, "values"),
			       *z = config_setting_get_member(g, "zip"), *name = config_setting_get_member(g, "name"),
			       *variants = config_setting_get_member(g, "variants");
	bool variant_axis = name || variants;
	for (int i = 0; i < config_setting_length(g); i++) {
		const char *member = config_setting_name(config_setting_get_elem(g, (unsigned)i));
		bool ok = variant_axis ? !strcmp(member, "name") || !strcmp(member, "variants") || !strcmp(member, "zip")
				       : !strcmp(member, "key") || !strcmp(member, "values") || !strcmp(member, "zip");
		if (!ok)
			return spec_fail(err, spec, config_setting_get_elem(g, (unsigned)i), key,
					 variant_axis ? "unknown key \"%s\" in a variant axis, expected name, variants and zip"
						      : "unknown key \"%s\", expected key, values and zip (or name and variants)",
					 member);
	}
	if (z && config_setting_type(z) != CONFIG_TYPE_BOOL)
		return spec_fail(err, spec, z, key, "zip: expected true or false");
	a->zip = z && config_setting_get_bool(z);
	if (a->zip && index == 0)
		return spec_fail(err, spec, z, key, "zip: the first axis has no axis before it to move with");
	if (variant_axis) {
		/* a name, not a scenario key: no dot, so it cannot be mistaken for one */
		if (!name || config_setting_type(name) != CONFIG_TYPE_STRING || !*config_setting_get_string(name) ||
		    strpbrk(config_setting_get_string(name), ".=,\"") )
			return spec_fail(err, spec, name ? name : g, key, "name: expected the axis' column name, a word "
					 "without '.', '=', ',' or '\"' (policy)");
		a->key = sb_xstrdup(config_setting_get_string(name));
		if (!strcmp(a->key, "point") || !strcmp(a->key, "seed") || !strcmp(a->key, "n"))
			return spec_fail(err, spec, name, key, "name: \"%s\" is a column of the CSVs already", a->key);
		if (!variants)
			return spec_fail(err, spec, g, key, "variants: a named axis needs its variants");
		return read_variants(spec, variants, key, a, err);
	}
	if (!k || config_setting_type(k) != CONFIG_TYPE_STRING || !*config_setting_get_string(k))
		return spec_fail(err, spec, k ? k : g, key, "key: expected the scenario key to vary, as --set writes it "
						    "(workloads.0.load)");
	a->key = sb_xstrdup(config_setting_get_string(k));
	if (!strcmp(a->key, "run.seed"))
		return spec_fail(err, spec, k, key, "key: the seeds are the spec's `seeds`, not an axis");
	if (!strcmp(a->key, "switch.scheme"))
		return spec_fail(err, spec, k, key, "key: the schemes are the spec's `schemes`, not an axis");
	if (!v || !config_setting_is_aggregate(v) || config_setting_is_group(v) || config_setting_length(v) == 0)
		return spec_fail(err, spec, v ? v : g, key, "values: expected a non-empty list [ 0.3, 0.5 ]");
	a->n = (size_t)config_setting_length(v);
	a->values = sb_xcalloc(a->n, sizeof(*a->values));
	for (size_t i = 0; i < a->n; i++) {
		const config_setting_t *e = config_setting_get_elem(v, (unsigned)i);
		if (!(a->values[i] = value_text(e)))
			return spec_fail(err, spec, e, key, "values: element %zu: expected a number, a string or a boolean", i);
	}
	/* a value twice would make two points of one run: rows for runs that never differed */
	size_t first, second;
	if (find_duplicate(a->values, a->n, &first, &second))
		return spec_fail(err, spec, config_setting_get_elem(v, (unsigned)second), key,
				 "values: element %zu is element %zu again (%s): each value once", second, first,
				 a->values[second]);
	return 0;
}

/* A directory name's piece: letters, digits and ._+-= kept, anything else '_'. */
static void name_append(char *buf, size_t cap, const char *s)
{
	size_t len = strlen(buf);
	for (; *s && len + 1 < cap; s++)
		buf[len++] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-=", *s) ? *s : '_';
	buf[len] = 0;
}

/* The axis of the spec's `schemes` (an axis key cannot be switch.scheme, a variant axis' name
 * has no dot). */
static bool is_schemes(const struct axis *a)
{
	return !a->variants && !strcmp(a->key, "switch.scheme");
}

/*
 * The number of runs (points x seeds), checked against SB_SWEEP_MAX_RUNS as it is multiplied,
 * so that no product wraps (64 axes of 2 values once gave 0 points, an empty sweep that
 * "succeeded"; 40 gave a point count no allocation could hold). The message names the axis
 * (or `seeds`) at which the grid passes the limit.
 */
static int count_runs(const char *spec, const struct axis *ax, size_t nax, size_t nseeds, unsigned seeds_line,
		      size_t max, size_t *npoints, struct sb_error *err)
{
	size_t points = 1, runs;
	for (size_t i = 0; i < nax; i++) {
		char key[64] = "schemes";
		if (!is_schemes(&ax[i]))
			snprintf(key, sizeof(key), "axes.%zu", i);
		if (!ax[i].zip && (__builtin_mul_overflow(points, ax[i].n, &points) || points > max)) {
			if (ax[i].line)
				return sb_fail(err, "%s:%u: %s: the grid passes %zu points here (%zu values); a sweep has at most "
					       "%zu runs, points x seeds (docs/sweep.md §2): split it into several sweeps",
					       spec, ax[i].line, key, max, ax[i].n, max);
			return sb_fail(err, "%s: %s: the grid passes %zu points here (%zu values); a sweep has at most %zu runs, "
				       "points x seeds (docs/sweep.md §2): split it into several sweeps",
				       spec, key, max, ax[i].n, max);
		}
	}
	if (__builtin_mul_overflow(points, nseeds, &runs) || runs > max)
		return sb_fail(err, "%s:%u: seeds: %zu points x %zu seeds is more than %zu runs, the most a sweep has "
			       "(docs/sweep.md §2): split it into several sweeps", spec, seeds_line, points, nseeds,
			       max);
	if (points == 0 || runs == 0) /* not reachable: every list is non-empty; never an empty sweep */
		return sb_fail(err, "%s: the sweep has no runs", spec);
	*npoints = points;
	return 0;
}

/* The points: the grid of the axis groups (zipped axes form one group), schemes last;
 * sw->npoints is count_runs'. */
static void make_points(struct sb_sweep *sw, const struct axis *ax, size_t nax)
{
	size_t ngroups = 0, *group_of = sb_xcalloc(nax + 1, sizeof(*group_of)), *group_len = sb_xcalloc(nax + 1, sizeof(size_t));
	for (size_t i = 0; i < nax; i++) {
		if (!ax[i].zip)
			group_len[ngroups++] = ax[i].n;
		group_of[i] = ngroups - 1;
	}
	sw->points = sb_xcalloc(sw->npoints, sizeof(*sw->points));
	size_t *idx = sb_xcalloc(ngroups + 1, sizeof(*idx));
	int width = sw->npoints > 9999 ? (sw->npoints > 999999 ? 9 : 6) : 4;
	for (size_t p = 0; p < sw->npoints; p++) {
		/* mixed radix, the last group fastest */
		size_t rest = p;
		for (size_t g = ngroups; g-- > 0;) {
			idx[g] = rest % group_len[g];
			rest /= group_len[g];
		}
		struct sb_sweep_point *pt = &sw->points[p];
		pt->values = sb_xcalloc(sw->ncolumns, sizeof(*pt->values));
		pt->index = sb_xcalloc(sw->ncolumns, sizeof(*pt->index));
		char name[256];
		snprintf(name, sizeof(name), "%0*zu", width, p);
		for (size_t c = 0; c < sw->ncolumns; c++) {
			pt->index[c] = idx[group_of[c]];
			pt->values[c] = sb_xstrdup(ax[c].values[pt->index[c]]);
			const char *dot = strrchr(ax[c].key, '.');
			name_append(name, 200, "-");
			name_append(name, 200, dot ? dot + 1 : ax[c].key);
			name_append(name, 200, "=");
			name_append(name, 200, pt->values[c]);
		}
		pt->name = sb_xstrdup(name);
	}
	free(idx);
	free(group_of);
	free(group_len);
}

/* A spec's path for a file it names: relative to the spec's directory, made absolute so that
 * the runs find it from any working directory. */
static char *beside_spec(const char *spec, const char *name)
{
	char *path;
	const char *slash = strrchr(spec, '/');
	if (name[0] == '/' || !slash) {
		path = sb_xstrdup(name);
	} else {
		size_t dir = (size_t)(slash - spec) + 1, len = dir + strlen(name) + 1;
		path = sb_xmalloc(len);
		snprintf(path, len, "%.*s%s", (int)dir, spec, name);
	}
	char *real = realpath(path, NULL);
	if (real) {
		free(path);
		return real;
	}
	return path; /* missing: the scenario reader says so */
}

char **sb_sweep_run_args(const struct sb_sweep *sw, size_t r, int *argc)
{
	const struct sb_sweep_run *run = &sw->runs[r];
	const struct sb_sweep_point *pt = &sw->points[run->point];
	size_t nsets = sw->nfixed;
	for (size_t c = 0; c < sw->ncolumns; c++) {
		if (!sw->variants[c])
			nsets++;
		else
			for (char **k = sw->variants[c]->set[pt->index[c]]; *k; k++)
				nsets++;
	}
	char **a = sb_xcalloc(2 * nsets + 10, sizeof(*a));
	int n = 0;
	a[n++] = sb_xstrdup(sw->base ? sw->base : "");
	if (!sw->base)
		n--, free(a[0]), a[0] = NULL;
	for (size_t i = 0; i < sw->nfixed; i++) {
		a[n++] = sb_xstrdup("--set");
		a[n++] = sb_xstrdup(sw->fixed[i]);
	}
	for (size_t c = 0; c < sw->ncolumns; c++) {
		if (sw->variants[c]) {
			for (char **k = sw->variants[c]->set[pt->index[c]]; *k; k++) {
				a[n++] = sb_xstrdup("--set");
				a[n++] = sb_xstrdup(*k);
			}
			continue;
		}
		size_t len = strlen(sw->columns[c]) + strlen(pt->values[c]) + 2;
		a[n++] = sb_xstrdup("--set");
		a[n] = sb_xmalloc(len);
		snprintf(a[n++], len, "%s=%s", sw->columns[c], pt->values[c]);
	}
	if (run->seed >= 0) {
		char seed[64];
		snprintf(seed, sizeof(seed), "run.seed=%lld", (long long)run->seed);
		a[n++] = sb_xstrdup("--set");
		a[n++] = sb_xstrdup(seed);
	}
	a[n++] = sb_xstrdup("--out");
	a[n++] = sb_xstrdup(run->dir);
	a[n++] = sb_xstrdup("--quiet");
	a[n] = NULL;
	*argc = n;
	return a;
}

void sb_sweep_run_args_free(char **args)
{
	for (char **a = args; a && *a; a++)
		free(*a);
	free(args);
}

/* The files run r's scenario reads, each hashed once for the whole sweep (sw->files): what
 * the run's summary.json must record for the run to count as this sweep's. */
static void hash_inputs(struct sb_sweep *sw, size_t r, const struct sb_scenario *sc)
{
	size_t n;
	char **files = sb_provenance_input_files(sc, &n);
	struct sb_sweep_run *run = &sw->runs[r];
	run->inputs = sb_xcalloc(n + 1, sizeof(*run->inputs));
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < sw->nfiles && strcmp(sw->files[k].path, files[i]))
			k++;
		if (k == sw->nfiles) {
			/* a file that cannot be read now (a flow list a script writes before the
			 * runs, when the spec is only dry-run) gets no hash: no finished run matches
			 * it, and the run itself reports the file if it is still missing */
			struct sb_provenance_input in = { sb_xstrdup(files[i]), "" };
			struct sb_error ignored = { "" };
			if (sb_sha256_file(in.path, in.sha256, &ignored))
				in.sha256[0] = 0;
			sw->files = sb_xrealloc(sw->files, (sw->nfiles + 1) * sizeof(*sw->files));
			sw->files[sw->nfiles++] = in;
		}
		run->inputs[run->ninputs++] = k;
	}
	sb_provenance_input_files_free(files, n);
}

/* Load run r's scenario as `run` would, validate it, and keep its resolved scenario's hash. */
static int check_run(struct sb_sweep *sw, size_t r, struct sb_error *err)
{
	int argc;
	char **args = sb_sweep_run_args(sw, r, &argc);
	const char **sets = sb_xcalloc((size_t)argc, sizeof(*sets));
	size_t nsets = 0;
	for (int i = 0; i < argc; i++)
		if (!strcmp(args[i], "--set"))
			sets[nsets++] = args[++i];
	struct sb_scenario sc;
	struct sb_error inner = { "" };
	sb_scenario_defaults(&sc);
	int rc = sb_cfg_load(&sc, sw->base, sb_default_scenario, sets, nsets, &inner);
	if (rc == 0)
		rc = sb_scenario_validate(&sc, &inner);
	if (rc == 0) {
		char *text = sb_cfg_resolved_text(&sc);
		sb_sha256_hex(text, strlen(text), sw->runs[r].sha256);
		free(text);
		hash_inputs(sw, r, &sc);
	}
	if (rc) {
		sb_fail(err, "%s: point %s: %s", sw->spec, sw->points[sw->runs[r].point].name, inner.msg);
	}
	sb_scenario_free(&sc);
	free(sets);
	sb_sweep_run_args_free(args);
	return rc;
}

/*
 * Refuse two axes that set one scenario key, under any spelling (workloads.00.load and
 * workloads.0.load; a variant's override of a key another axis varies; a variant setting
 * switch.scheme beside `schemes`): the later axis' value silently wins, and the earlier one's
 * column would name values no run had.
 */
static int check_axis_keys(const char *spec, const struct axis *ax, size_t nax, struct sb_error *err)
{
	size_t n = 0, cap = 16;
	char **keys = sb_xcalloc(cap, sizeof(*keys));
	size_t *owner = sb_xcalloc(cap, sizeof(*owner));
	int rc = 0;
	for (size_t i = 0; i < nax && rc == 0; i++) {
		size_t mine = n; /* this axis' keys start here: its variants may share keys */
		char *one[2] = { ax[i].key, NULL };
		for (size_t v = 0; v < (ax[i].variants ? ax[i].variants->n : 1) && rc == 0; v++) {
			for (char **k = ax[i].variants ? ax[i].variants->set[v] : one; *k; k++) {
				char *c = canonical_key(*k);
				bool seen = false;
				for (size_t j = 0; j < n && !seen; j++) {
					if (strcmp(keys[j], c))
						continue;
					seen = true;
					if (j < mine) {
						const char *what = is_schemes(&ax[i]) ? "`schemes`" : ax[i].key;
						rc = sb_fail(err, "%s:%u: axes: %s sets %s, which the axis %s sets already: one "
							     "key, one axis", spec, ax[i].line ? ax[i].line : ax[owner[j]].line,
							     what, c, ax[owner[j]].key);
					}
				}
				if (seen) {
					free(c);
					if (rc)
						break;
					continue;
				}
				if (n == cap) {
					cap *= 2;
					keys = sb_xrealloc(keys, cap * sizeof(*keys));
					owner = sb_xrealloc(owner, cap * sizeof(*owner));
				}
				keys[n] = c;
				owner[n++] = i;
			}
		}
	}
	for (size_t j = 0; j < n; j++)
		free(keys[j]);
	free(keys);
	free(owner);
	return rc;
}

static int read_spec(struct sb_sweep *sw, config_t *cfg, struct axis **axes, size_t *naxes, char ***schemes,
		     size_t *nschemes, unsigned *schemes_line, unsigned *seeds_line, struct sb_error *err)
{
	const char *spec = sw->spec;
	const config_setting_t *root = config_root_setting(cfg);
	for (int i = 0; i < config_setting_length(root); i++) {
		const config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
		const char *name = config_setting_name(s);
		static const char *const known[] = { "base", "set", "axes", "schemes", "seeds", "metrics", "extract" };
		bool ok = false;
		for (size_t k = 0; k < SB_ARRAY_LEN(known); k++)
			ok |= !strcmp(name, known[k]);
		if (!ok)
			return spec_fail(err, spec, s, name, "unknown key, expected base, set, axes, schemes, seeds, metrics "
					 "or extract");
	}
	const config_setting_t *s;
	if ((s = config_setting_get_member(root, "base"))) {
		if (config_setting_type(s) != CONFIG_TYPE_STRING || !*config_setting_get_string(s))
			return spec_fail(err, spec, s, "base", "expected the base scenario's file name");
		sw->base = beside_spec(spec, config_setting_get_string(s));
	}
	if ((s = config_setting_get_member(root, "set")) && string_list(spec, s, "set", &sw->fixed, &sw->nfixed, err))
		return -1;
	for (size_t i = 0; i < sw->nfixed; i++)
		if (!strchr(sw->fixed[i], '='))
			return spec_fail(err, spec, s, "set", "\"%s\": expected KEY=VALUE", sw->fixed[i]);
	if (s && check_set_keys(spec, s, "set", sw->fixed, sw->nfixed, err))
		return -1;
	if ((s = config_setting_get_member(root, "schemes"))) {
		if (string_list(spec, s, "schemes", schemes, nschemes, err))
			return -1;
		/* an empty list would be an axis of no values: a sweep of nothing */
		if (*nschemes == 0)
			return spec_fail(err, spec, s, "schemes", "expected a non-empty list of schemes [ \"dt\", \"abm\" ]");
		size_t first, second;
		if (find_duplicate(*schemes, *nschemes, &first, &second))
			return spec_fail(err, spec, config_setting_get_elem(s, (unsigned)second), "schemes",
					 "%s is listed twice (elements %zu and %zu)", (*schemes)[second], first, second);
		*schemes_line = config_setting_source_line(s);
	}
	if ((s = config_setting_get_member(root, "metrics"))) {
		if (string_list(spec, s, "metrics", &sw->metrics, &sw->nmetrics, err))
			return -1;
		for (size_t i = 0; i < sw->nmetrics; i++) {
			if (strpbrk(sw->metrics[i], ",\" \n"))
				return spec_fail(err, spec, s, "metrics", "\"%s\": expected a summary.json key such as "
						 "pfc.pause_frames", sw->metrics[i]);
			for (size_t k = 0; k < i; k++)
				if (!strcmp(sw->metrics[k], sw->metrics[i]))
					return spec_fail(err, spec, s, "metrics", "%s is listed twice", sw->metrics[i]);
		}
	}
	if ((s = config_setting_get_member(root, "extract"))) {
		if (config_setting_type(s) != CONFIG_TYPE_STRING || !*config_setting_get_string(s))
			return spec_fail(err, spec, s, "extract", "expected a script's file name (run as sh SCRIPT RUNDIR)");
		sw->extract = beside_spec(spec, config_setting_get_string(s));
		/* the scenario reader's check: `sh /dev/zero` or a FIFO would never end */
		char *text;
		size_t len;
		struct sb_error inner = { "" };
		if (sb_cfg_read_whole(sw->extract, sw->extract, "a script", SB_CFG_MAX_BYTES, &len, &text, &inner))
			return spec_fail(err, spec, s, "extract", "%s", inner.msg);
		free(text);
	}
	if ((s = config_setting_get_member(root, "seeds"))) {
		bool list = config_setting_is_aggregate(s) && !config_setting_is_group(s) && config_setting_length(s) > 0;
		if (!list)
			return spec_fail(err, spec, s, "seeds", "expected a non-empty list of seeds [ 1, 2, 3 ]");
		sw->nseeds = (size_t)config_setting_length(s);
		sw->seeds = sb_xcalloc(sw->nseeds, sizeof(*sw->seeds));
		*seeds_line = config_setting_source_line(s);
		char **text = sb_xcalloc(sw->nseeds + 1, sizeof(*text));
		int rc = 0;
		for (size_t i = 0; i < sw->nseeds && rc == 0; i++) {
			const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
			int t = config_setting_type(e);
			if ((t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) || config_setting_get_int64(e) < 0)
				rc = spec_fail(err, spec, e, "seeds", "element %zu: expected a non-negative integer", i);
			sw->seeds[i] = config_setting_get_int64(e);
			text[i] = value_text(e);
		}
		size_t first, second;
		if (rc == 0 && find_duplicate(text, sw->nseeds, &first, &second))
			rc = spec_fail(err, spec, config_setting_get_elem(s, (unsigned)second), "seeds",
				       "seed %lld is listed twice", (long long)sw->seeds[second]);
		for (size_t i = 0; i < sw->nseeds; i++)
			free(text[i]);
		free(text);
		if (rc)
			return -1;
	}
	if ((s = config_setting_get_member(root, "axes"))) {
		if (!config_setting_is_list(s) && !(config_setting_is_array(s) && config_setting_length(s) == 0))
			return spec_fail(err, spec, s, "axes", "expected a list of groups ( { key = ...; values = [...]; }, ... )");
		*naxes = (size_t)config_setting_length(s);
		*axes = sb_xcalloc(*naxes + 1, sizeof(**axes));
		for (size_t i = 0; i < *naxes; i++) {
			const config_setting_t *g = config_setting_get_elem(s, (unsigned)i);
			if (read_axis(spec, g, i, &(*axes)[i], err))
				return -1;
			for (size_t k = 0; k < i; k++)
				if (!strcmp((*axes)[k].key, (*axes)[i].key))
					return spec_fail(err, spec, g, "axes", "%s is an axis twice", (*axes)[i].key);
			if ((*axes)[i].zip && (*axes)[i].n != (*axes)[i - 1].n)
				return spec_fail(err, spec, g, "axes", "%s has %zu values but moves with %s (zip = true), which has %zu",
						 (*axes)[i].key, (*axes)[i].n, (*axes)[i - 1].key, (*axes)[i - 1].n);
		}
	}
	return 0;
}

/* sb_sweep_load and sb_sweep_load_text: the spec from its file (text NULL) or from text. */
static int load(struct sb_sweep *sw, const char *spec, const char *text, const char *out, const char *const *sets,
		size_t nsets, size_t max_runs, struct sb_error *err)
{
	memset(sw, 0, sizeof(*sw));
	sw->spec = sb_xstrdup(spec);
	sw->out = sb_xstrdup(out);
	sw->nseeds = 1;
	/* the scenario reader's checks: a regular file of bounded size, its @includes too */
	config_t cfg;
	config_init(&cfg);
	if (sb_cfg_parse(&cfg, text ? NULL : spec, text, spec, err)) {
		config_destroy(&cfg);
		return -1;
	}
	struct axis *axes = NULL;
	size_t naxes = 0, nschemes = 0;
	char **schemes = NULL;
	unsigned schemes_line = 0, seeds_line = 0;
	int rc = read_spec(sw, &cfg, &axes, &naxes, &schemes, &nschemes, &schemes_line, &seeds_line, err);
	config_destroy(&cfg);
	if (rc == 0 && nsets) {
		sw->fixed = sb_xrealloc(sw->fixed, (sw->nfixed + nsets + 1) * sizeof(*sw->fixed));
		for (size_t i = 0; i < nsets; i++)
			sw->fixed[sw->nfixed++] = sb_xstrdup(sets[i]);
		sw->fixed[sw->nfixed] = NULL;
		sw->ncli_sets = nsets;
	}
	if (rc == 0 && nschemes) { /* the schemes are the last axis */
		axes = sb_xrealloc(axes, (naxes + 1) * sizeof(*axes));
		axes[naxes] = (struct axis){ sb_xstrdup("switch.scheme"), schemes, nschemes, false, NULL, schemes_line };
		naxes++;
		schemes = NULL;
		nschemes = 0;
	}
	for (size_t i = 0; i < nschemes; i++)
		free(schemes[i]);
	free(schemes);
	if (rc == 0)
		rc = check_axis_keys(sw->spec, axes, naxes, err);
	if (rc == 0)
		rc = count_runs(sw->spec, axes, naxes, sw->nseeds, seeds_line, max_runs, &sw->npoints, err);
	if (rc == 0) {
		sw->ncolumns = naxes;
		sw->columns = sb_xcalloc(naxes + 1, sizeof(*sw->columns));
		sw->variants = sb_xcalloc(naxes + 1, sizeof(*sw->variants));
		for (size_t i = 0; i < naxes; i++) {
			sw->columns[i] = sb_xstrdup(axes[i].key);
			sw->variants[i] = axes[i].variants;
			axes[i].variants = NULL;
		}
		make_points(sw, axes, naxes);
		sw->nruns = sw->npoints * sw->nseeds;
		sw->runs = sb_xcalloc(sw->nruns, sizeof(*sw->runs));
		for (size_t r = 0; r < sw->nruns && rc == 0; r++) {
			struct sb_sweep_run *run = &sw->runs[r];
			run->point = r / sw->nseeds;
			run->seed = sw->seeds ? sw->seeds[r % sw->nseeds] : -1;
			char seed[32] = "seed-default";
			if (run->seed >= 0)
				snprintf(seed, sizeof(seed), "seed-%lld", (long long)run->seed);
			size_t len = strlen(out) + strlen(sw->points[run->point].name) + strlen(seed) + 16;
			run->dir = sb_xmalloc(len);
			snprintf(run->dir, len, "%s/runs/%s/%s", out, sw->points[run->point].name, seed);
			rc = check_run(sw, r, err);
		}
	}
	free_axes(axes, naxes);
	return rc;
}

int sb_sweep_load(struct sb_sweep *sw, const char *spec, const char *out, const char *const *sets, size_t nsets,
		  struct sb_error *err)
{
	return load(sw, spec, NULL, out, sets, nsets, SB_SWEEP_MAX_RUNS, err);
}

int sb_sweep_load_text(struct sb_sweep *sw, const char *name, const char *text, const char *out,
		       const char *const *sets, size_t nsets, size_t max_runs, struct sb_error *err)
{
	return load(sw, name, text, out, sets, nsets, max_runs, err);
}

void sb_sweep_free(struct sb_sweep *sw)
{
	for (size_t p = 0; p < sw->npoints; p++) {
		for (size_t c = 0; c < sw->ncolumns; c++)
			free(sw->points[p].values[c]);
		free(sw->points[p].values);
		free(sw->points[p].index);
		free(sw->points[p].name);
	}
	free(sw->points);
	for (size_t c = 0; c < sw->ncolumns; c++) {
		free(sw->columns[c]);
		free_variants(sw->variants ? sw->variants[c] : NULL);
	}
	free(sw->columns);
	free(sw->variants);
	for (size_t i = 0; i < sw->nmetrics; i++)
		free(sw->metrics[i]);
	free(sw->metrics);
	free(sw->extract);
	for (size_t i = 0; i < sw->nfixed; i++)
		free(sw->fixed[i]);
	free(sw->fixed);
	for (size_t r = 0; r < sw->nruns; r++) {
		free(sw->runs[r].dir);
		free(sw->runs[r].inputs);
	}
	for (size_t i = 0; i < sw->nfiles; i++)
		free(sw->files[i].path);
	free(sw->files);
	free(sw->runs);
	free(sw->seeds);
	free(sw->base);
	free(sw->spec);
	free(sw->out);
	memset(sw, 0, sizeof(*sw));
}
