/*
 * compare.c — `sharebuf compare`: one scenario and seed under several buffer-management
 * schemes (docs/compare.md).
 *
 * Every scheme's run is a real `sharebuf run` (the program's `run` command, found in its table), made in a
 * child process with `--set switch.scheme=S --out DIR/S --quiet`, so DIR/S holds exactly what
 * `sharebuf run ... --set switch.scheme=S` would have written. The parent checks all input
 * before starting any child, runs at most --jobs children at a time, collects their exit
 * status and messages, and only when all have succeeded reads each DIR/S/summary.json and
 * writes DIR/compare.csv and DIR/compare.json. Nothing it writes depends on --jobs or on the
 * order in which the children finish: rows follow the order of --schemes.
 */
#include "cli/compare.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli/args.h"
#include "scenario/cfg_internal.h"
#include "scenario/cfgfile.h"
#include "core/util.h"
#include "mmu/mmu.h"
#include "core/outdir.h"
#include "sim/report.h"
#include "scenario/scenario.h"
#include "sim/sim.h"

extern const char sb_default_scenario[];

/*
 * The columns of compare.csv, the keys of each compare.json result (after "scheme"), in this
 * order, and where each comes from in summary.json. The first nine are the printed table's;
 * the rest say how many values the statistics rest on. docs/compare.md lists them.
 */
static const struct sb_compare_column columns[] = {
	{ "incast_slowdown_mean", "fct_slowdown.incast.mean", false, { "incast", "mean" }, "fct_slowdown.incast.count" },
	{ "incast_slowdown_p99", "fct_slowdown.incast.p99", false, { "incast", "p99" }, "fct_slowdown.incast.count" },
	{ "qct_slowdown_mean", "qct_slowdown.mean", false, { "QCT", "mean" }, "qct_slowdown.count" },
	{ "qct_slowdown_p99", "qct_slowdown.p99", false, { "QCT", "p99" }, "qct_slowdown.count" },
	{ "short_slowdown_p99", "fct_slowdown.short.p99", false, { "short", "p99" }, "fct_slowdown.short.count" },
	{ "long_slowdown_mean", "fct_slowdown.long.mean", false, { "long", "mean" }, "fct_slowdown.long.count" },
	{ "drops", "drops.total", true, { "", "drops" }, NULL },
	{ "p99_occupancy_bytes", "buffer.p99_occupancy_bytes", true, { "buffer", "p99 (B)" }, NULL },
	{ "pfc_pause_frames", "pfc.pause_frames", true, { "PFC", "pauses" }, NULL },
	{ "drops_lossless", "drops.lossless", true, { NULL, NULL }, NULL },
	{ "pfc_paused_us", "pfc.paused_time_us.total", false, { NULL, NULL }, NULL },
	{ "incast_count", "fct_slowdown.incast.count", true, { NULL, NULL }, NULL },
	{ "qct_count", "qct_slowdown.count", true, { NULL, NULL }, NULL },
	{ "short_count", "fct_slowdown.short.count", true, { NULL, NULL }, NULL },
	{ "long_count", "fct_slowdown.long.count", true, { NULL, NULL }, NULL },
	{ "flows_completed", "flows_completed", true, { NULL, NULL }, NULL },
	{ "flows_unfinished", "flows_unfinished", true, { NULL, NULL }, NULL },
};
#define NCOLS SB_ARRAY_LEN(columns)

const struct sb_compare_column *sb_compare_columns(size_t *n)
{
	*n = NCOLS;
	return columns;
}

struct options {
	const char *path, *out;
	struct sb_opt_list set_list; /* --set and --seed as the parser collects them */
	const char **sets; /* "KEY=VALUE" in command-line order, --seed included (set_list's) */
	size_t nsets;
	const char *schemes_arg; /* NULL: every registered scheme */
	long long jobs;          /* 0: one per online CPU */
	bool quiet;
	bool collect;            /* --collect: tabulate DIR/S/summary.json as they are, run nothing
				  * (the testbed writes them from real packets, docs/testbed.md) */
};

/* One scheme's run. */
struct job {
	const char *scheme;
	char *dir;           /* DIR/scheme */
	char *set;           /* "switch.scheme=scheme" */
	FILE *log;           /* the child's stdout and stderr (NULL: not captured) */
	int status;          /* its exit status; -1 killed or not started */
	int signal;          /* the signal that killed it, or 0 */
	bool started, done;
	json_t *summary;     /* its summary.json, once read */
};

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *join_path(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	bool slash = n > 0 && dir[n - 1] == '/';
	size_t len = n + strlen(name) + 2;
	char *p = sb_xmalloc(len);
	snprintf(p, len, "%s%s%s", dir, slash ? "" : "/", name);
	return p;
}

/* "dt|cs|static": every registered scheme, for messages. */
static void known_schemes(char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (const struct sb_bm_ops *const *s = sb_bm_all(); *s && used < n; s++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", s == sb_bm_all() ? "" : "|", (*s)->name);
}

/* ---------- the command line ---------- */

static int usage_error(const char *fmt, ...) SB_PRINTF(1, 2);
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "sharebuf: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	return 2;
}

/* The n characters at *s without blanks around them: advances *s, returns the new length. */
static size_t trim(const char **s, size_t n)
{
	while (n && (**s == ' ' || **s == '\t')) {
		(*s)++;
		n--;
	}
	while (n && ((*s)[n - 1] == ' ' || (*s)[n - 1] == '\t'))
		n--;
	return n;
}

const struct sb_opt sb_compare_opts[] = {
	{ "--schemes", NULL, "A,B,...", 0, sb_opt_string, offsetof(struct options, schemes_arg), 0, 0,
	  "the schemes to run, in this order (default: every scheme that\ncan carry the traffic)" },
	SB_ARGS_JOBS(struct options, jobs, "run N schemes at a time (default: one per CPU)"),
	SB_ARGS_SET(struct options, set_list),
	SB_ARGS_SEED(struct options, set_list),
	SB_ARGS_OUT(struct options, out, "write DIR/SCHEME/ and DIR/compare.{csv,json} (default: out)"),
	SB_ARGS_QUIET(struct options, quiet),
	{ "--collect", NULL, NULL, 0, sb_opt_true, offsetof(struct options, collect), 0, 0,
	  "run nothing: tabulate the DIR/SCHEME/summary.json already there" },
	{ 0 },
};

/* Parse argv into o. Returns SB_CMD_GO, or the exit status (0 after --help, 2 after a usage
 * error, reported). */
static int parse_options(const struct sb_cmd_call *c, int argc, char **argv, struct options *o)
{
	struct sb_opt_list args = { 0 };
	int rc = sb_cmd_parse(c, argc, argv, o, &args);
	o->sets = o->set_list.v;
	o->nsets = o->set_list.n;
	o->path = args.n ? args.v[0] : NULL; /* a word of argv: it outlives the list */
	sb_opt_list_free(&args);
	if (rc != SB_CMD_GO)
		return rc;
	/* The scheme is what compare varies: a --set of it would be overridden in every run. */
	for (size_t i = 0; i < o->nsets; i++) {
		const char *key = o->sets[i];
		size_t n = trim(&key, strcspn(key, "="));
		if (n == strlen("switch.scheme") && !strncmp(key, "switch.scheme", n))
			return usage_error("--set switch.scheme: compare sets the scheme of each run itself; "
					   "list the schemes with --schemes A,B,...");
	}
	return SB_CMD_GO;
}

/* Split --schemes (NULL: every registered scheme) into names, each a registered scheme, none
 * twice. Returns the number of schemes, or -1 after reporting the mistake. */
static long parse_schemes(const char *arg, char ***out)
{
	char known[512];
	known_schemes(known, sizeof(known));
	char **names = NULL;
	long n = 0;
	if (!arg) {
		for (const struct sb_bm_ops *const *s = sb_bm_all(); *s; s++) {
			names = sb_xrealloc(names, (size_t)(n + 1) * sizeof(*names));
			names[n++] = sb_xstrdup((*s)->name);
		}
		*out = names;
		return n;
	}
	if (!arg[strspn(arg, " \t,")]) {
		usage_error("--schemes: the list is empty, expected scheme names separated by commas (%s)", known);
		return -1;
	}
	for (const char *p = arg;; p++) {
		size_t len = strcspn(p, ",");
		const char *s = p;
		size_t m = trim(&s, len);
		char *name = sb_xmalloc(m + 1);
		memcpy(name, s, m);
		name[m] = 0;
		bool twice = false;
		for (long i = 0; i < n; i++)
			twice |= !strcmp(names[i], name);
		bool ok = false;
		if (!m) {
			usage_error("--schemes: an empty name in the list (\"%s\"), expected scheme names separated by commas (%s)",
				    arg, known);
		} else if (!sb_bm_find(name)) {
			struct cfg_suggestion sug = { name, NULL, 0 };
			cfg_consider_schemes(&sug);
			usage_error("--schemes: unknown scheme \"%s\"%s%s%s, expected one of %s", name,
				    sug.best ? " (did you mean " : "", sug.best ? sug.best : "", sug.best ? "?)" : "", known);
		} else if (twice) {
			usage_error("--schemes: %s is listed twice", name);
		} else {
			ok = true;
		}
		if (!ok) {
			free(name);
			for (long i = 0; i < n; i++)
				free(names[i]);
			free(names);
			return -1;
		}
		names = sb_xrealloc(names, (size_t)(n + 1) * sizeof(*names));
		names[n++] = name;
		p += len;
		if (!*p)
			break;
	}
	*out = names;
	return n;
}

/* Load, validate and build the scenario exactly as `run` would with `--set switch.scheme=S`
 * added (building catches what only a scheme's set-up can see, e.g. a static share smaller
 * than one cell), then free it: the child process loads it again through `run`. On failure,
 * *lossy_only says whether the only trouble is that S has no PFC or headroom while the
 * scenario has lossless traffic (sb_switch_init_mmus refuses that), which compare may skip. */
static int check_scenario(const struct options *o, const char *scheme_set, bool *lossy_only, struct sb_error *err)
{
	const char **sets = sb_xcalloc(o->nsets + 1, sizeof(*sets));
	if (o->nsets) /* no --set: o->sets is NULL, which memcpy may not be given even for 0 bytes */
		memcpy(sets, o->sets, o->nsets * sizeof(*sets));
	sets[o->nsets] = scheme_set;
	struct sb_scenario sc;
	sb_scenario_defaults(&sc);
	*lossy_only = false;
	int rc = sb_cfg_load(&sc, o->path, sb_default_scenario, sets, o->nsets + 1, err);
	if (rc == 0)
		rc = sb_scenario_validate(&sc, err);
	if (rc == 0) {
		struct sb_sim sim;
		rc = sb_sim_build(&sim, &sc, err);
		/* the workloads, which set the lossless priorities, are built before the switches */
		const struct sb_bm_ops *ops = sb_bm_find(sc.sw.scheme);
		*lossy_only = rc && ops && !ops->lossless && sim.net.lossless_prio_mask && !sc.sw.lossless_as_label;
		sb_sim_free(&sim);
	}
	sb_scenario_free(&sc);
	free(sets);
	return rc;
}

/* ---------- the runs ---------- */

struct batch_ctx {
	struct job *jv;
	const struct options *o;
	size_t n, ended;
	bool progress;
	size_t succeeded; /* ended with status 0: an interrupted run is not done */
};

/* `run` for one scheme: SCENARIO --set ... --set switch.scheme=S --out DIR/S --quiet. */
static char **job_args(void *ctx, size_t i, int *argc)
{
	const struct batch_ctx *c = ctx;
	const struct options *o = c->o;
	struct job *j = &c->jv[i];
	char **args = sb_xcalloc(2 * o->nsets + 8, sizeof(*args));
	int n = 0;
	if (o->path)
		args[n++] = (char *)o->path;
	for (size_t k = 0; k < o->nsets; k++) {
		args[n++] = "--set";
		args[n++] = (char *)o->sets[k];
	}
	args[n++] = "--set";
	args[n++] = j->set;
	args[n++] = "--out";
	args[n++] = j->dir;
	args[n++] = "--quiet";
	args[n] = NULL;
	*argc = n;
	j->started = true;
	return args;
}

static void job_args_free(char **args)
{
	free(args); /* the strings are borrowed */
}

static void job_done(void *ctx, size_t i, int st, FILE *log)
{
	struct batch_ctx *c = ctx;
	struct job *j = &c->jv[i];
	c->ended++;
	c->succeeded += WIFEXITED(st) && WEXITSTATUS(st) == 0;
	j->done = true;
	j->log = log;
	if (WIFEXITED(st)) {
		j->status = WEXITSTATUS(st);
	} else {
		j->status = -1;
		j->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	}
}

static void job_progress(void *ctx, size_t ended, size_t running)
{
	const struct batch_ctx *c = ctx;
	if (!c->progress)
		return;
	fprintf(stderr, "\r  compare: %zu of %zu runs done, %zu running   ", c->succeeded, c->n, running);
	fflush(stderr);
}

/* Copy what a child printed to our stderr, each line indented. */
static void relay_log(struct job *j)
{
	if (!j->log)
		return;
	rewind(j->log);
	char line[1024];
	bool bol = true;
	while (fgets(line, sizeof(line), j->log)) {
		fprintf(stderr, "%s%s", bol ? "  " : "", line);
		bol = strchr(line, '\n') != NULL;
	}
	if (!bol)
		fputc('\n', stderr);
}

/* Run every job, at most `jobs` at a time (cli/batch.h). Returns the number of failed jobs. */
static size_t run_jobs(struct job *jv, size_t n, long jobs, const struct options *o, const struct sb_cmd_call *run,
		       bool progress)
{
	struct batch_ctx c = { jv, o, n, 0, progress, 0 };
	struct sb_batch b = { n, jobs, run, "compare", &c, job_args, job_args_free, job_done, job_progress };
	size_t failed = sb_batch_run(&b);
	if (progress)
		fprintf(stderr, "\r  compare: %zu of %zu runs done               \n", c.succeeded, n);
	return failed;
}

/* ---------- the results ---------- */

static json_t *summary_get(json_t *root, const char *dotted)
{
	char key[128];
	snprintf(key, sizeof(key), "%s", dotted);
	json_t *cur = root;
	for (char *save = NULL, *k = strtok_r(key, ".", &save); k && cur; k = strtok_r(NULL, ".", &save))
		cur = json_is_object(cur) ? json_object_get(cur, k) : NULL;
	return cur;
}

/* Read DIR/S/summary.json and check it has every value compare needs. */
static int read_summary(struct job *j, struct sb_error *err)
{
	char *path = join_path(j->dir, "summary.json");
	json_error_t jerr;
	j->summary = json_load_file(path, 0, &jerr);
	if (!j->summary) {
		sb_fail(err, "compare: cannot read %s: %s (line %d)", path, jerr.text, jerr.line);
		free(path);
		return -1;
	}
	const char *scheme = json_string_value(summary_get(j->summary, "scheme"));
	if (!scheme || strcmp(scheme, j->scheme)) {
		sb_fail(err, "compare: %s is the summary of scheme \"%s\", not %s", path, scheme ? scheme : "", j->scheme);
		free(path);
		return -1;
	}
	const char *need[NCOLS + 2];
	need[0] = "scenario";
	need[1] = "seed";
	for (size_t c = 0; c < NCOLS; c++)
		need[c + 2] = columns[c].key;
	for (size_t c = 0; c < NCOLS + 2; c++) {
		json_t *v = summary_get(j->summary, need[c]);
		bool is_int = c == 1 || (c >= 2 && columns[c - 2].integer);
		bool ok = c == 0 ? json_is_string(v) : is_int ? json_is_integer(v) : json_is_number(v);
		if (!ok) {
			sb_fail(err, "compare: %s: %s is missing or not %s", path, need[c],
				c == 0 ? "a string" : is_int ? "an integer" : "a number");
			free(path);
			return -1;
		}
	}
	free(path);
	return 0;
}

static void write_csv(FILE *f, const struct job *jv, size_t n)
{
	fprintf(f, "scheme");
	for (size_t c = 0; c < NCOLS; c++)
		fprintf(f, ",%s", columns[c].name);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s", jv[i].scheme);
		for (size_t c = 0; c < NCOLS; c++) {
			json_t *v = summary_get(jv[i].summary, columns[c].key);
			if (columns[c].integer)
				fprintf(f, ",%lld", (long long)json_integer_value(v));
			else
				fprintf(f, ",%.10g", json_number_value(v));
		}
		fputc('\n', f);
	}
}

static json_t *compare_json(const struct job *jv, size_t n)
{
	json_t *root = json_object();
	json_object_set(root, "scenario", summary_get(jv[0].summary, "scenario"));
	json_object_set(root, "seed", summary_get(jv[0].summary, "seed"));
	json_t *schemes = json_array(), *results = json_array();
	for (size_t i = 0; i < n; i++) {
		json_array_append_new(schemes, json_string(jv[i].scheme));
		json_t *r = json_object();
		json_object_set_new(r, "scheme", json_string(jv[i].scheme));
		for (size_t c = 0; c < NCOLS; c++) {
			json_t *v = summary_get(jv[i].summary, columns[c].key);
			json_object_set_new(r, columns[c].name,
					    columns[c].integer ? json_integer(json_integer_value(v)) : json_real(json_number_value(v)));
		}
		json_array_append_new(results, r);
	}
	json_object_set_new(root, "schemes", schemes);
	json_object_set_new(root, "results", results);
	return root;
}

/* Write DIR/compare.csv and DIR/compare.json, each through a unique hidden temporary file
 * (outdir.c), renamed only once both are complete and with signals held, so that one is
 * never left without the other. */
static int write_files(const char *dir, const struct job *jv, size_t n, struct sb_error *err)
{
	static const char *const names[2] = { "compare.csv", "compare.json" };
	char *final[2], tmp[2][4096];
	FILE *f[2] = { NULL, NULL };
	int rc = 0;
	for (int i = 0; i < 2; i++)
		final[i] = join_path(dir, names[i]);
	for (int i = 0; i < 2 && rc == 0; i++)
		if (!(f[i] = sb_outdir_tmp_open(dir, names[i], tmp[i], sizeof(tmp[i]), err)))
			rc = -1;
	if (rc == 0) {
		write_csv(f[0], jv, n);
		json_t *j = compare_json(jv, n);
		json_dumpf(j, f[1], JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', f[1]);
		json_decref(j);
	}
	rc = sb_outdir_commit(f, tmp, final, 2, rc, err);
	for (int i = 0; i < 2; i++)
		free(final[i]);
	return rc;
}

/* The table on stdout: one row per scheme, in --schemes order. */
static void print_table(const struct job *jv, size_t n, const char *out, long jobs, double wall)
{
	enum { W = 32 };
	size_t ncols = 0;
	while (ncols < NCOLS && columns[ncols].head[0])
		ncols++;
	char (*cell)[NCOLS][W] = sb_xcalloc(n, sizeof(*cell));
	int width[NCOLS + 1];
	int name_w = (int)strlen("scheme");
	bool empty_group = false;
	for (size_t c = 0; c < ncols; c++)
		width[c] = (int)SB_MAX(strlen(columns[c].head[0]), strlen(columns[c].head[1]));
	for (size_t i = 0; i < n; i++) {
		name_w = SB_MAX(name_w, (int)strlen(jv[i].scheme));
		for (size_t c = 0; c < ncols; c++) {
			json_t *v = summary_get(jv[i].summary, columns[c].key);
			if (columns[c].count && json_integer_value(summary_get(jv[i].summary, columns[c].count)) == 0) {
				snprintf(cell[i][c], W, "-");
				empty_group = true;
			} else if (columns[c].integer) {
				snprintf(cell[i][c], W, "%lld", (long long)json_integer_value(v));
			} else {
				snprintf(cell[i][c], W, "%.2f", json_number_value(v));
			}
			width[c] = SB_MAX(width[c], (int)strlen(cell[i][c]));
		}
	}
	printf("scenario %s, seed %lld: %zu scheme%s; slowdown = FCT / ideal FCT (QCT / ideal QCT for queries)\n",
	       json_string_value(summary_get(jv[0].summary, "scenario")),
	       (long long)json_integer_value(summary_get(jv[0].summary, "seed")), n, n == 1 ? "" : "s");
	for (int line = 0; line < 2; line++) {
		printf("%-*s", name_w, line ? "scheme" : "");
		for (size_t c = 0; c < ncols; c++)
			printf("  %*s", width[c], columns[c].head[line]);
		printf("\n");
	}
	for (size_t i = 0; i < n; i++) {
		printf("%-*s", name_w, jv[i].scheme);
		for (size_t c = 0; c < ncols; c++)
			printf("  %*s", width[c], cell[i][c]);
		printf("\n");
	}
	free(cell);
	printf("short: flows < 100 KB, long: flows > 1 MB; drops: packets; buffer: p99 occupancy of the sampled switches\n");
	if (empty_group)
		printf("-: no flow (or query) of that group completed\n");
	printf("wall:");
	for (size_t i = 0; i < n; i++)
		printf(" %s %.2f s%s", jv[i].scheme, json_number_value(summary_get(jv[i].summary, "wall_time_s")),
		       i + 1 < n ? "," : "");
	printf("; %.2f s in all, %ld run%s at a time\n", wall, jobs, jobs == 1 ? "" : "s");
	size_t olen = strlen(out);
	const char *sep = olen && out[olen - 1] == '/' ? "" : "/";
	printf("outputs: %s%s{compare.csv,compare.json}, one directory per scheme %s%s<scheme>/\n", out, sep, out, sep);
}

int sb_cmd_compare(const struct sb_cmd_call *c, int argc, char **argv)
{
	struct options o = { .out = "out" };
	char **names = NULL;
	struct job *jv = NULL;
	long n = 0, njobs = 0; /* schemes listed; runs (those not skipped) */
	bool claimed = false;
	struct sb_cmd_call run; /* each scheme's run: the program's `run` */
	int rc = parse_options(c, argc, argv, &o);
	if (rc != SB_CMD_GO)
		goto done;
	rc = 0;
	if (sb_cmd_lookup(c->prog, "run", &run)) {
		fprintf(stderr, "%s: the program has no run command\n", c->who);
		rc = 1;
		goto done;
	}
	if ((n = parse_schemes(o.schemes_arg, &names)) < 0) {
		n = 0;
		rc = 2;
		goto done;
	}
	if (n == 0) {
		fprintf(stderr, "sharebuf: compare: no scheme is registered\n");
		rc = 1;
		goto done;
	}

	/* Everything is checked before anything runs or is written. */
	jv = sb_xcalloc((size_t)n, sizeof(*jv));
	njobs = n; /* until the skipped ones are taken out: `done` frees them all */
	bool *skip = sb_xcalloc((size_t)n, sizeof(*skip));
	struct sb_error err = { "" }, first_skip = { "" };
	for (long i = 0; i < n; i++) {
		struct job *j = &jv[i];
		j->scheme = names[i];
		j->dir = join_path(o.out, names[i]);
		size_t len = strlen("switch.scheme=") + strlen(names[i]) + 1;
		j->set = sb_xmalloc(len);
		snprintf(j->set, len, "switch.scheme=%s", names[i]);
		j->status = -1;
		bool lossy_only;
		if (check_scenario(&o, j->set, &lossy_only, &err)) {
			/* Without --schemes, "every scheme" means every scheme that can run the
			 * scenario: one without PFC cannot carry lossless traffic, and is skipped
			 * (noted below) rather than failing the comparison of the others. Named in
			 * --schemes, it is an error as in `run`. */
			if (lossy_only && !o.schemes_arg) {
				skip[i] = true;
				if (!first_skip.msg[0])
					first_skip = err;
				continue;
			}
			/* A mistake of the scenario is reported in run's words; one that only some
			 * schemes reveal (another scheme passes) also names the scheme. */
			bool scheme_specific = i > 0;
			for (long k = 1; k < n && !scheme_specific; k++) {
				struct sb_error other = { "" };
				char set[256];
				bool unused;
				snprintf(set, sizeof(set), "switch.scheme=%s", names[k]);
				scheme_specific = check_scenario(&o, set, &unused, &other) == 0;
			}
			if (scheme_specific)
				fprintf(stderr, "sharebuf: compare: with switch.scheme=%s: %s\n", names[i], err.msg);
			else
				fprintf(stderr, "sharebuf: %s\n", err.msg);
			rc = 1;
			free(skip);
			goto done;
		}
		struct stat st;
		/* lstat: a link planted as DIR/<scheme> would lead the run to write (and remove its
		 * names' stale files) wherever it points; the name is compare's, not the user's */
		if (lstat(j->dir, &st) == 0 && S_ISLNK(st.st_mode)) {
			fprintf(stderr, "sharebuf: --out: %s is a symbolic link: compare writes each scheme's run into a "
					"directory of its own (remove the link)\n",
				j->dir);
			rc = 1;
			free(skip);
			goto done;
		}
		if (stat(j->dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "sharebuf: --out: %s exists and is not a directory\n", j->dir);
			rc = 1;
			free(skip);
			goto done;
		}
	}
	/* keep the schemes that run, in order */
	char skipped[1024] = "";
	size_t used = 0;
	njobs = 0;
	for (long i = 0; i < n; i++) {
		if (skip[i]) {
			if (used < sizeof(skipped))
				used += (size_t)snprintf(skipped + used, sizeof(skipped) - used, "%s%s", used ? ", " : "",
							 jv[i].scheme);
			free(jv[i].dir);
			free(jv[i].set);
		} else {
			jv[njobs++] = jv[i];
		}
	}
	free(skip);
	if (njobs == 0) {
		fprintf(stderr, "sharebuf: %s\n", first_skip.msg);
		rc = 1;
		goto done;
	}
	if (*skipped)
		fprintf(stderr, "sharebuf: compare: skipped %s: no PFC or headroom for the scenario's lossless traffic "
				"(`sharebuf list` marks the lossless-capable schemes)\n",
			skipped);

	static const char *const compare_names[] = { "compare.csv", "compare.json", NULL };
	if (sb_outdir_claim(o.out, compare_names, &err)) {
		sb_outdir_release(true);
		fprintf(stderr, "sharebuf: %s\n", err.msg);
		rc = 1;
		goto done;
	}
	claimed = true;
	/* A compare.csv/json of an earlier compare would no longer match the directories this
	 * one rewrites, whether it succeeds or not. */
	for (int i = 0; i < 2; i++) {
		char *p = join_path(o.out, compare_names[i]);
		unlink(p);
		free(p);
	}

	long jobs = o.jobs;
	if (jobs <= 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = cpus > 0 ? cpus : 1;
	}
	if (jobs > njobs)
		jobs = njobs;
	double t0 = wall_now();
	size_t failed = 0;
	for (long i = 0; o.collect && i < njobs; i++)
		jv[i] = (struct job){ .scheme = jv[i].scheme, .dir = jv[i].dir, .set = jv[i].set, .started = true, .done = true };
	if (!o.collect)
		failed = run_jobs(jv, (size_t)njobs, jobs, &o, &run, !o.quiet && isatty(STDERR_FILENO));
	double wall = wall_now() - t0;
	int sig = sb_outdir_stopped();
	if (sig) {
		/* Every run has ended (run_jobs waited for them): each removed its temporaries and
		 * the directory it created. What remains are the runs that had finished. */
		long finished = 0;
		for (long i = 0; i < njobs; i++)
			finished += jv[i].done && jv[i].status == 0;
		fprintf(stderr, "sharebuf: compare: stopped by signal %d (%s) with %ld of %ld runs finished; the others "
				"were stopped, no compare.csv or compare.json was written\n",
			sig, strsignal(sig), finished, njobs);
		sb_outdir_release(true);
		sb_outdir_die(sig);
	}

	/* Messages of the runs, in --schemes order; the exit status is the first failure's. */
	for (long i = 0; i < njobs; i++) {
		struct job *j = &jv[i];
		if (j->status != 0) {
			if (!j->started)
				fprintf(stderr, "sharebuf: compare: %s: not run\n", j->scheme);
			else if (j->signal)
				fprintf(stderr, "sharebuf: compare: %s: the run was killed by signal %d (%s)\n", j->scheme,
					j->signal, strsignal(j->signal));
			else if (j->status > 0)
				fprintf(stderr, "sharebuf: compare: %s: the run failed with exit status %d:\n", j->scheme,
					j->status);
			else
				fprintf(stderr, "sharebuf: compare: %s: the run did not finish\n", j->scheme);
			if (rc == 0)
				rc = j->status > 0 ? j->status : 1;
		}
		relay_log(j);
	}
	if (failed) {
		fprintf(stderr, "sharebuf: compare: %zu of %ld runs failed; no compare.csv or compare.json was written\n",
			failed, njobs);
		if (rc == 0)
			rc = 1;
		goto done;
	}
	for (long i = 0; i < njobs && rc == 0; i++)
		if (read_summary(&jv[i], &err))
			rc = 1;
	if (rc == 0 && write_files(o.out, jv, (size_t)njobs, &err))
		rc = 1;
	if (rc) {
		fprintf(stderr, "sharebuf: %s\n", err.msg);
		goto done;
	}
	if (!o.quiet)
		print_table(jv, (size_t)njobs, o.out, jobs, wall);

done:
	/* a failed compare removes DIR if it created it and nothing is in it: never a user's files */
	if (claimed)
		sb_outdir_release(rc != 0);
	for (long i = 0; jv && i < njobs; i++) {
		if (jv[i].log)
			fclose(jv[i].log);
		json_decref(jv[i].summary);
		free(jv[i].dir);
		free(jv[i].set);
	}
	free(jv);
	for (long i = 0; i < n; i++)
		free(names[i]);
	free(names);
	sb_opt_list_free(&o.set_list);
	return rc;
}
