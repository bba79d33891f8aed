/*
 * test_experiment_specs.c — every sweep of every experiment is valid, at the reduced and at the
 * paper scale, checked in seconds. A mistake in a spec (a missing comma, a key the scenario
 * does not know) or a paper-scale `--set` that only `--full` passes (a value out of range)
 * otherwise shows only when that sweep starts, possibly hours into a run.
 *
 * For each experiment directory found by glob (experiments/PAPER/, so a new one is covered
 * without editing this file):
 *   - `DRY_RUN=1 sh experiments/PAPER/run.sh` and the same with `--full`, and
 *     `DRY_RUN=1 sh experiments/PAPER/run-variants.sh` when there is one: the script makes its
 *     `sharebuf sweep` calls with `--dry-run` added (docs/sweep.md §2: every point of the sweep,
 *     with the script's overrides, loaded and validated as a run would) and exits. Each must
 *     exit 0, list at least one sweep, list points for every sweep, and write nothing in its
 *     OUT. run-variants.sh takes no arguments (the paper-scale runs it needs, such as ABM's
 *     `run.sh --full`, it calls itself), so it is run once;
 *   - every spec of experiments/PAPER/sweeps/ must be one that some script's dry run listed (a
 *     spec no script runs is dead, or a script runs it in a way this check misses), and is
 *     also dry-run alone, with no overrides.
 *
 * The scripts run with the program under test (SB, absolute: this build's sharebuf, so `make
 * sanitize` checks its own), OUT in a temporary directory, and the other environment settings
 * the scripts read unset, so a user's FIGS or EXTRA cannot narrow the check.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testlib.h"

/* One sweep a dry run listed: its spec, relative to the repository root, and its points. */
struct listed {
	char spec[PATH_MAX];
	long points;
};

/* One script's dry run, recorded for the check that every spec is run by some script. */
struct script_run {
	char name[600]; /* "experiments/abm/run.sh --full" */
	char test[700]; /* the test's name: the function's (as tools/mutate.sh reads it), then name */
	const char *script;
	const char *arg; /* "" or "--full" */
	struct listed *sweeps;
	size_t nsweeps;
};

static char root[PATH_MAX];    /* the repository root (the working directory), with a '/' */
static char program[PATH_MAX]; /* the sharebuf under test, absolute: edt's run.sh changes directory */
static struct script_run *runs;
static size_t nruns;
static glob_t scripts, specs;

/* The sweeps a `sharebuf sweep --dry-run` output lists: each starts with the line
 * "SPEC: N point(s) x M seed(s) = R runs into DIR/runs/" (docs/sweep.md §1). A spec given
 * by its absolute path (edt's ON/OFF sweep runs in another directory) is made relative to the
 * root, through realpath: the script's $(pwd) may name the root by another (symlinked) path. */
static size_t parse_listed(const char *out, struct listed **res)
{
	size_t n = 0, cap = 8;
	*res = calloc(cap, sizeof(**res));
	assert_non_null(*res);
	for (const char *line = out; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		const char *cfg = strstr(line, ".cfg: ");
		long points;
		char unit[16];
		if (cfg && cfg < line + len && sscanf(cfg + 6, "%ld %15s x", &points, unit) == 2 &&
		    (strcmp(unit, "point") == 0 || strcmp(unit, "points") == 0)) {
			if (n == cap) {
				*res = realloc(*res, (cap *= 2) * sizeof(**res));
				assert_non_null(*res);
			}
			char given[PATH_MAX], real[PATH_MAX];
			snprintf(given, sizeof(given), "%.*s", (int)(cfg + 4 - line), line);
			const char *spec = given;
			if (given[0] == '/' && realpath(given, real) && strncmp(real, root, strlen(root)) == 0)
				spec = real + strlen(root);
			snprintf((*res)[n].spec, sizeof((*res)[n].spec), "%s", spec);
			(*res)[n].points = points;
			n++;
		}
		line = eol ? eol + 1 : NULL;
	}
	return n;
}

/* `DRY_RUN=1 sh SCRIPT ARG` with OUT=out_dir, the program under test, and none of the
 * scripts' other settings from the environment; stdout and stderr captured. */
static struct tl_cmd dry_run_script(const char *script, const char *arg, const char *out_dir)
{
	char *dir = tl_tmpdir();
	char cmd[8192];
	snprintf(cmd, sizeof(cmd),
		 "env -u FIGS -u ONLY -u EXTRA -u PLOT_ONLY -u NOREPORT -u ARRIVALS_MS -u DRAIN_MS -u MIN_RTO_US "
		 "-u JOBS DRY_RUN=1 SB='%s' OUT='%s' timeout -k 5 300 sh '%s' %s >'%s/stdout' 2>'%s/stderr' </dev/null",
		 program, out_dir, script, arg, dir, dir);
	int rc = system(cmd);
	struct tl_cmd r = { rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, tl_slurp_in(dir, "stdout"),
			    tl_slurp_in(dir, "stderr") };
	tl_rmtree(dir);
	free(dir);
	return r;
}

/* The checks shared by a script's dry run and a spec's: exit 0, some sweep listed, every
 * listed sweep with points, nothing written in `out_dir`. Cleans up, then fails with `what`. */
static void expect_listed(const char *what, struct tl_cmd *c, const struct listed *l, size_t n, char *tmp,
			  const char *out_dir)
{
	char why[256] = "";
	if (c->status != 0)
		snprintf(why, sizeof(why), "exit status %d", c->status);
	else if (n == 0)
		snprintf(why, sizeof(why), "no sweep listed");
	else if (tl_exists(out_dir))
		snprintf(why, sizeof(why), "a dry run wrote its output directory %s", out_dir);
	for (size_t i = 0; !*why && i < n; i++)
		if (l[i].points <= 0)
			snprintf(why, sizeof(why), "%s lists %ld points", l[i].spec, l[i].points);
	if (*why) {
		/* the sweeps it listed, then the end of its stderr, where a sweep's error is (cmocka
		 * prints a few KB per message: a whole point list would hide it) */
		print_message("%s: %s\n", what, why);
		for (size_t i = 0; i < n; i++)
			print_message("  listed %s: %ld points\n", l[i].spec, l[i].points);
		size_t elen = strlen(c->err);
		print_message("--- stderr%s:\n%s\n", elen > 3000 ? " (its end)" : "", c->err + (elen > 3000 ? elen - 3000 : 0));
		tl_rmtree(tmp);
		fail_msg("%s: %s", what, why);
	}
	tl_cmd_free(c);
	tl_rmtree(tmp);
	free(tmp);
}

static void test_script_dry_run(void **state)
{
	struct script_run *r = *state;
	char *tmp = tl_tmpdir(), *out = tl_path_in(tmp, "out");
	struct tl_cmd c = dry_run_script(r->script, r->arg, out);
	r->nsweeps = parse_listed(c.out, &r->sweeps);
	char what[700];
	snprintf(what, sizeof(what), "DRY_RUN=1 sh %s", r->name);
	expect_listed(what, &c, r->sweeps, r->nsweeps, tmp, out);
	free(out);
}

/* After the scripts' dry runs (cmocka runs the tests in order): each spec is one of theirs. */
static void test_every_spec_is_run(void **state)
{
	(void)state;
	assert_true(nruns > 0);
	assert_true(specs.gl_pathc > 0);
	size_t missing = 0;
	for (size_t s = 0; s < specs.gl_pathc; s++) {
		bool found = false;
		for (size_t i = 0; i < nruns && !found; i++)
			for (size_t j = 0; j < runs[i].nsweeps && !found; j++)
				found = strcmp(runs[i].sweeps[j].spec, specs.gl_pathv[s]) == 0;
		if (!found) {
			print_message("%s: no script's dry run lists it\n", specs.gl_pathv[s]);
			missing++;
		}
	}
	if (missing)
		fail_msg("%zu spec(s) listed by no script's dry run: run by no script, by a call DRY_RUN misses, "
			 "or after a failure above",
			 missing);
}

static void test_spec_alone(void **state)
{
	const char *spec = *state;
	char *tmp = tl_tmpdir(), *out = tl_path_in(tmp, "out");
	char args[2048];
	snprintf(args, sizeof(args), "sweep '%s' --dry-run --out '%s'", spec, out);
	struct tl_cmd c = tl_sharebuf(args);
	struct listed *l;
	size_t n = parse_listed(c.out, &l);
	char what[2100];
	snprintf(what, sizeof(what), "sharebuf %s", args);
	if (n > 1 || (n == 1 && strcmp(l[0].spec, spec) != 0))
		fail_msg("%s: listed %zu sweeps, the first %s", what, n, l[0].spec);
	expect_listed(what, &c, l, n, tmp, out);
	free(l);
	free(out);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	if (!getcwd(root, sizeof(root) - 1) || !realpath(tl_sharebuf_path(), program)) {
		fprintf(stderr, "test_experiment_specs: no working directory or no program %s\n", tl_sharebuf_path());
		return 1;
	}
	strcat(root, "/");
	/* glob sorts, so the tests' order and names do not depend on the file system */
	int variants = 0;
	if (glob("experiments/*/run.sh", 0, NULL, &scripts) != 0 ||
	    ((variants = glob("experiments/*/run-variants.sh", GLOB_APPEND, NULL, &scripts)) != 0 &&
	     variants != GLOB_NOMATCH) ||
	    glob("experiments/*/sweeps/*.cfg", 0, NULL, &specs) != 0) {
		fprintf(stderr, "test_experiment_specs: no experiments/*/run.sh or sweeps/*.cfg (run from the repository root)\n");
		return 1;
	}
	runs = calloc(2 * scripts.gl_pathc, sizeof(*runs));
	struct CMUnitTest *tests = calloc(2 * scripts.gl_pathc + 1 + specs.gl_pathc, sizeof(*tests));
	if (!runs || !tests)
		return 1;
	size_t nt = 0;
	for (size_t i = 0; i < scripts.gl_pathc; i++) {
		const char *s = scripts.gl_pathv[i];
		bool main_script = strcmp(s + strlen(s) - strlen("/run.sh"), "/run.sh") == 0;
		for (int full = 0; full <= main_script; full++) {
			struct script_run *r = &runs[nruns++];
			r->script = s;
			r->arg = full ? "--full" : "";
			snprintf(r->name, sizeof(r->name), "%s%s%s", s, full ? " " : "", r->arg);
			snprintf(r->test, sizeof(r->test), "test_script_dry_run(%s)", r->name);
			tests[nt++] = (struct CMUnitTest){ r->test, test_script_dry_run, NULL, NULL, r };
		}
	}
	tests[nt++] = (struct CMUnitTest){ "test_every_spec_is_run", test_every_spec_is_run, NULL, NULL, NULL };
	char (*spec_test)[PATH_MAX + 32] = calloc(specs.gl_pathc, sizeof(*spec_test));
	if (!spec_test)
		return 1;
	for (size_t i = 0; i < specs.gl_pathc; i++) {
		snprintf(spec_test[i], sizeof(spec_test[i]), "test_spec_alone(%s)", specs.gl_pathv[i]);
		tests[nt++] = (struct CMUnitTest){ spec_test[i], test_spec_alone, NULL, NULL, specs.gl_pathv[i] };
	}
	int rc = _cmocka_run_group_tests("experiment_specs", tests, nt, NULL, NULL);
	for (size_t i = 0; i < nruns; i++)
		free(runs[i].sweeps);
	free(runs);
	free(tests);
	free(spec_test);
	globfree(&scripts);
	globfree(&specs);
	return rc;
}
