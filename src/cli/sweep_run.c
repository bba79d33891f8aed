/*
 * sweep_run.c — the `sharebuf sweep` command (docs/sweep.md): its options, --dry-run,
 * --emit-slurm, --point, --collect, and the local runner.
 *
 * Every run is a real `sharebuf run` (the program's `run`, from its table) in a child process, as in
 * `compare`, into DIR/runs/POINT/seed-N; so each run directory holds exactly what that `run`
 * command writes, with its scenario.cfg and provenance. The parent holds DIR's lock
 * (core/outdir.h) for the whole sweep and forwards SIGINT/SIGTERM/SIGHUP to the running
 * children, which remove what they had started; finished runs stay, and the next sweep of the
 * same spec skips them (sb_sweep_run_complete). Nothing written depends on --jobs or on the
 * order in which runs finish.
 */
#include "cli/sweep.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli/args.h"
#include "cli/batch.h"
#include "core/outdir.h"

static const char *const sweep_names[] = { "sweep.csv", "sweep-summary.csv", "sweep.slurm", NULL };

struct options {
	const char *spec, *out;
	long long jobs;  /* 0: one per CPU */
	long long point; /* -1: all */
	bool dry_run, collect, emit_slurm, mpi, quiet;
	struct sb_opt_list set_list; /* as the parser collects them */
	const char **sets;           /* --set KEY=VALUE: after the spec's `set`, for every run */
	size_t nsets;
};

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "sharebuf: sweep: %s%s (see sharebuf sweep --help)\n", what, arg ? arg : "");
	return 2;
}

/* --point I: a whole number; an empty one is most likely SLURM_ARRAY_TASK_ID unset in a task
 * of sweep.slurm, which says so. */
static int point_option(const struct sb_opt_call *c)
{
	if (!*c->value)
		return sb_opt_error(c, "%s expects a whole number >= 0, got '' (is SLURM_ARRAY_TASK_ID set?)", c->opt->name);
	return sb_opt_whole(c);
}

const struct sb_opt sb_sweep_opts[] = {
	SB_ARGS_OUT(struct options, out, "write DIR/runs/, DIR/sweep.csv, DIR/sweep-summary.csv\n(default: out/SPEC's name)"),
	SB_ARGS_JOBS(struct options, jobs, "run N runs at a time (default: one per CPU)"),
	SB_ARGS_SET(struct options, set_list),
	{ "--dry-run", NULL, NULL, 0, sb_opt_true, offsetof(struct options, dry_run), 0, 0, "list the points, run nothing" },
	{ "--collect", NULL, NULL, 0, sb_opt_true, offsetof(struct options, collect), 0, 0,
	  "write the CSVs of the runs there are, run nothing" },
	{ "--emit-slurm", NULL, NULL, 0, sb_opt_true, offsetof(struct options, emit_slurm), 0, 0,
	  "write DIR/sweep.slurm, whose task I runs --point I" },
	{ "--point", NULL, "I", 0, point_option, offsetof(struct options, point), 0, SB_OPT_NO_MAX,
	  "run the runs of point I only" },
	{ "--mpi", NULL, NULL, 0, sb_opt_true, offsetof(struct options, mpi), 0, 0,
	  "under mpirun: rank 0 hands out the runs" },
	SB_ARGS_QUIET(struct options, quiet),
	{ 0 },
};

/*
 * The spec's path, --out and the --set values are written into sweep.slurm, a shell script,
 * and into the commands the sweep prints: a line break (or any control character) there would
 * end the comment or the quoted word it is in, and the next line would run as a command in
 * every task. Quoting cannot help a comment line, so such names are refused.
 */
static int refuse_control(const char *what, const char *s)
{
	for (const char *c = s; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			fprintf(stderr, "sharebuf: sweep: %s: the name holds a control character (byte 0x%02x at offset %zu); "
					"rename it: a line break in a path would run as a command in sweep.slurm\n",
				what, (unsigned char)*c, (size_t)(c - s));
			return 2;
		}
	return 0;
}

/* Parse argv into o. Returns SB_CMD_GO, or the exit status (0 after --help, 2 after a usage
 * error, reported). */
static int parse_options(const struct sb_cmd_call *c, int argc, char **argv, struct options *o, char *default_out,
			 size_t n)
{
	struct sb_opt_list args = { 0 };
	int rc = sb_cmd_parse(c, argc, argv, o, &args);
	o->sets = o->set_list.v;
	o->nsets = o->set_list.n;
	o->spec = args.n ? args.v[0] : NULL; /* a word of argv: it outlives the list */
	sb_opt_list_free(&args);
	if (rc != SB_CMD_GO)
		return rc;
	if (refuse_control("the spec file", o->spec) || (o->out && refuse_control("--out", o->out)))
		return 2;
	for (size_t i = 0; i < o->nsets; i++)
		if (refuse_control("--set", o->sets[i]))
			return 2;
	int modes = o->dry_run + o->collect + o->emit_slurm + o->mpi + (o->point >= 0);
	if (modes > 1)
		return usage_error("--dry-run, --collect, --emit-slurm, --mpi and --point exclude each other", NULL);
	if (!o->out) { /* out/NAME for NAME.cfg */
		const char *base = strrchr(o->spec, '/') ? strrchr(o->spec, '/') + 1 : o->spec;
		size_t len = strcspn(base, ".");
		snprintf(default_out, n, "out/%.*s", (int)SB_MIN(len ? len : strlen(base), 200), len ? base : "sweep");
		o->out = default_out;
	}
	return SB_CMD_GO;
}

/* ---------- the local runner ---------- */

/* What a failed run printed, indented, after which run it was. */
static void report_failure(const struct sb_sweep *sw, size_t r, int status, FILE *log)
{
	if (WIFEXITED(status))
		fprintf(stderr, "sharebuf: sweep: the run of %s failed with exit status %d:\n", sw->runs[r].dir,
			WEXITSTATUS(status));
	else
		fprintf(stderr, "sharebuf: sweep: the run of %s was killed by signal %d\n", sw->runs[r].dir,
			WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	if (!log)
		return;
	rewind(log);
	char line[1024];
	while (fgets(line, sizeof(line), log))
		fprintf(stderr, "  %s%s", line, strchr(line, '\n') ? "" : "\n");
}

static void progress(size_t done, size_t total, size_t skipped, size_t running, double t0, size_t started_done)
{
	double el = wall_now() - t0;
	fprintf(stderr, "\r  sweep: %zu of %zu runs done (%zu already complete), %zu running", done, total, skipped,
		running);
	if (started_done)
		fprintf(stderr, ", ETA %.1f s   ", el / (double)started_done * (double)(total - done));
	else
		fprintf(stderr, "   ");
	fflush(stderr);
}

struct batch_ctx {
	const struct sb_sweep *sw;
	const size_t *todo;
	size_t n, skipped;
	bool show;
	double t0;
	size_t succeeded; /* runs that ended with status 0: an interrupted or failed one is not done */
};

static char **job_args(void *ctx, size_t i, int *argc)
{
	const struct batch_ctx *c = ctx;
	return sb_sweep_run_args(c->sw, c->todo[i], argc);
}

static void job_done(void *ctx, size_t i, int st, FILE *log)
{
	struct batch_ctx *c = ctx;
	bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	c->succeeded += ok;
	if (!ok && !sb_outdir_stopped())
		report_failure(c->sw, c->todo[i], st, log);
	if (log)
		fclose(log);
}

static void job_progress(void *ctx, size_t ended, size_t running)
{
	const struct batch_ctx *c = ctx;
	if (c->show)
		progress(c->skipped + c->succeeded, c->skipped + c->n, c->skipped, running, c->t0, ended);
}

/* Run the runs of `todo` (n of them), at most `jobs` at a time (cli/batch.h). Returns the
 * number that failed or were not run. */
static size_t run_all(const struct sb_sweep *sw, const size_t *todo, size_t n, long jobs, const struct sb_cmd_call *run,
		      bool show, size_t skipped)
{
	struct batch_ctx c = { sw, todo, n, skipped, show, wall_now(), 0 };
	struct sb_batch b = { n, jobs, run, "sweep", &c, job_args, sb_sweep_run_args_free, job_done, job_progress };
	size_t failed = sb_batch_run(&b);
	if (show) /* the last run's end, which the batch reports no more */
		fprintf(stderr, "\r  sweep: %zu of %zu runs done (%zu already complete)                    \n",
			skipped + c.succeeded, skipped + n, skipped);
	return failed;
}

/* The runs (all, or of one point) that are not complete yet, into todo; returns how many. */
static size_t pending(const struct sb_sweep *sw, long point, size_t *todo, size_t *complete, bool quiet)
{
	size_t n = 0, stale = 0;
	*complete = 0;
	char why[600], first[1200] = "";
	for (size_t r = 0; r < sw->nruns; r++) {
		if (point >= 0 && sw->runs[r].point != (size_t)point)
			continue;
		if (sb_sweep_run_state(sw, r, why, sizeof(why))) {
			(*complete)++;
			continue;
		}
		todo[n++] = r;
		if (*why && !stale++)
			snprintf(first, sizeof(first), "%s: %s", sw->runs[r].dir, why);
	}
	/* a finished run made from other inputs runs again (docs/sweep.md §3): say so, once */
	if (stale && !quiet)
		fprintf(stderr, "sharebuf: sweep: %zu finished run%s made from other inputs run%s again, e.g. %s\n", stale,
			stale == 1 ? "" : "s", stale == 1 ? "s" : "", first);
	return n;
}

/* The names a sweep makes under DIR (runs/, runs/POINT/, runs/POINT/seed-N) are the sweep's,
 * not the user's: a symbolic link planted as one of them would lead its runs to write, and
 * remove their names' stale files, wherever it points (as compare refuses for DIR/<scheme>).
 * Returns 0, or -1 with the message printed. */
static int refuse_planted_links(const struct sb_sweep *sw, long point)
{
	size_t base = strlen(sw->out);
	for (size_t r = 0; r < sw->nruns; r++) {
		if (point >= 0 && sw->runs[r].point != (size_t)point)
			continue;
		const char *dir = sw->runs[r].dir;
		char path[4096];
		/* every component after DIR: at each '/' past DIR, and the whole */
		for (size_t i = base + 1; dir[i - 1]; i++) {
			if (dir[i] != '/' && dir[i] != '\0')
				continue;
			if (i >= sizeof(path))
				break;
			memcpy(path, dir, i);
			path[i] = '\0';
			struct stat st;
			if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
				fprintf(stderr, "sharebuf: sweep: %s is a symbolic link: a sweep writes its runs into directories of "
						"its own (remove the link)\n",
					path);
				return -1;
			}
		}
	}
	return 0;
}

static int run_local(const struct sb_sweep *sw, const struct options *o, const struct sb_cmd_call *run)
{
	struct sb_error err = { "" };
	bool whole = o->point < 0;
	/* a --point task shares DIR with the other tasks: only its runs' directories are locked */
	if (whole && sb_outdir_claim(sw->out, sweep_names, &err)) {
		sb_outdir_release(true);
		fprintf(stderr, "sharebuf: %s\n", err.msg);
		return 1;
	}
	if (refuse_planted_links(sw, o->point)) {
		if (whole)
			sb_outdir_release(false);
		return 1;
	}
	size_t *todo = sb_xcalloc(sw->nruns + 1, sizeof(*todo)), complete;
	size_t n = pending(sw, o->point, todo, &complete, o->quiet);
	long jobs = o->jobs;
	if (jobs <= 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = cpus > 0 ? cpus : 1;
	}
	if ((size_t)jobs > n)
		jobs = n ? (long)n : 1;
	double t0 = wall_now();
	size_t failed = run_all(sw, todo, n, jobs, run, !o->quiet && isatty(STDERR_FILENO), complete);
	free(todo);
	int sig = sb_outdir_stopped();
	if (sig) {
		fprintf(stderr, "sharebuf: sweep: stopped by signal %d (%s); the finished runs are kept, run the same "
				"command again to go on\n", sig, strsignal(sig));
		if (whole)
			sb_outdir_release(false);
		sb_outdir_die(sig);
	}
	int rc = 0;
	if (failed) {
		fprintf(stderr, "sharebuf: sweep: %zu of %zu runs failed; the others are kept, %s\n", failed, n,
			whole ? "no sweep.csv was written" : "collect once every point is complete");
		rc = 1;
	} else if (whole && sb_sweep_write_csv(sw, &err)) {
		fprintf(stderr, "sharebuf: %s\n", err.msg);
		rc = 1;
	}
	if (whole)
		sb_outdir_release(false);
	if (rc == 0 && !o->quiet) {
		printf("sweep %s: %zu runs (%zu already complete, %zu run now) in %.1f s, %ld at a time\n", sw->spec,
		       whole ? sw->nruns : sw->nseeds, complete, n, wall_now() - t0, jobs);
		if (whole)
			printf("outputs: %s/{sweep.csv,sweep-summary.csv}, one directory per run in %s/runs/\n", sw->out,
			       sw->out);
	}
	return rc;
}

/* ---------- --dry-run, --collect, --emit-slurm ---------- */

static int dry_run(const struct sb_sweep *sw)
{
	size_t complete_total = 0, stale = 0;
	char first_stale[1200] = "";
	int wname = (int)strlen("point");
	for (size_t p = 0; p < sw->npoints; p++)
		wname = SB_MAX(wname, (int)strlen(sw->points[p].name));
	printf("%s: %zu point%s x %zu seed%s = %zu runs into %s/runs/\n", sw->spec, sw->npoints,
	       sw->npoints == 1 ? "" : "s", sw->nseeds, sw->nseeds == 1 ? "" : "s", sw->nruns, sw->out);
	printf("%-*s  %s\n", wname, "point", "complete  --set");
	for (size_t p = 0; p < sw->npoints; p++) {
		size_t done = 0;
		for (size_t s = 0; s < sw->nseeds; s++) {
			size_t r = p * sw->nseeds + s;
			char why[600];
			bool ok = sb_sweep_run_state(sw, r, why, sizeof(why));
			done += ok;
			if (!ok && *why && !stale++)
				snprintf(first_stale, sizeof(first_stale), "%s: %s", sw->runs[r].dir, why);
		}
		complete_total += done;
		printf("%-*s  %4zu/%-4zu", wname, sw->points[p].name, done, sw->nseeds);
		for (size_t c = 0; c < sw->ncolumns; c++)
			if (sw->variants[c]) /* a named variant: its overrides */
				for (char **k = sw->variants[c]->set[sw->points[p].index[c]]; *k; k++)
					printf(" %s", *k);
			else
				printf(" %s=%s", sw->columns[c], sw->points[p].values[c]);
		printf("\n");
	}
	printf("seeds:");
	for (size_t s = 0; s < sw->nseeds; s++) {
		if (sw->seeds)
			printf(" %lld", (long long)sw->seeds[s]);
		else
			printf(" (the scenario's run.seed)");
	}
	printf("\n%zu of %zu runs complete, %zu to run\n", complete_total, sw->nruns, sw->nruns - complete_total);
	if (stale)
		printf("%zu of them finished but are not this sweep's runs and will run again, e.g. %s\n", stale,
		       first_stale);
	return 0;
}

static int collect(const struct sb_sweep *sw, bool quiet)
{
	struct sb_error err = { "" };
	int rc = 0;
	if (sb_outdir_claim(sw->out, sweep_names, &err) || sb_sweep_write_csv(sw, &err)) {
		fprintf(stderr, "sharebuf: %s\n", err.msg);
		rc = 1;
	}
	sb_outdir_release(false);
	if (rc == 0 && !quiet)
		printf("outputs: %s/{sweep.csv,sweep-summary.csv} from %zu runs\n", sw->out, sw->nruns);
	return rc;
}

static void quote(FILE *f, const char *s)
{
	char *q = NULL;
	size_t len = 0;
	sb_shell_quote_append(&q, &len, s);
	fputs(q, f);
	free(q);
}

/* The command line's --set options, as the tasks and --collect must repeat them. */
static void cli_sets(FILE *f, const struct sb_sweep *sw)
{
	for (size_t i = 0; i < sw->ncli_sets; i++) {
		fputs(" --set ", f);
		quote(f, sw->fixed[sw->nfixed - sw->ncli_sets + i]);
	}
}

/* DIR/sweep.slurm: an array job of one task per point, each `sweep SPEC --point i`. */
static int emit_slurm(const struct sb_sweep *sw, bool quiet)
{
	struct sb_error err = { "" };
	char exe[PATH_MAX], cwd[PATH_MAX], tmp[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0 || !getcwd(cwd, sizeof(cwd)))
		return fprintf(stderr, "sharebuf: sweep: cannot find this program's path or the working directory\n"), 1;
	exe[len] = 0;
	/* the #SBATCH line holds DIR's absolute path, unquoted (Slurm reads it, not sh) */
	if (sw->out[0] != '/' && refuse_control("the working directory", cwd))
		return 2;
	if (sb_outdir_claim(sw->out, sweep_names, &err)) {
		sb_outdir_release(true);
		fprintf(stderr, "sharebuf: %s\n", err.msg);
		return 1;
	}
	FILE *f = sb_outdir_tmp_open(sw->out, "sweep.slurm", tmp, sizeof(tmp), &err);
	int rc = f ? 0 : 1;
	if (f) {
		char *abs_out = realpath(sw->out, NULL);
		for (const char *c = abs_out; c && *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f) { /* through a symbolic link: DIR as given */
				free(abs_out);
				abs_out = NULL;
				break;
			}
		/* every name quoted (refuse_control keeps line breaks out of them, so the comments
		 * stay comments), and each command in the comments one that can be pasted as is */
		fputs("#!/bin/sh\n# The Slurm array job of `sharebuf sweep ", f);
		quote(f, sw->spec);
		fputs("` (docs/sweep.md), one task per point:\n#   sbatch ", f);
		char *script = NULL;
		size_t slen = 0;
		sb_shell_quote_append(&script, &slen, sw->out);
		fprintf(f, "%s/sweep.slurm\n# then, once every task has finished:\n#   sharebuf sweep ", script);
		free(script);
		quote(f, sw->spec);
		fputs(" --out ", f);
		quote(f, sw->out);
		cli_sets(f, sw);
		fputs(" --collect\n", f);
		fprintf(f, "#SBATCH --job-name=sharebuf-sweep\n#SBATCH --array=0-%zu\n#SBATCH --ntasks=1\n",
			sw->npoints - 1);
		fprintf(f, "#SBATCH --output=%s/slurm-%%A_%%a.out\ncd ", abs_out ? abs_out : sw->out);
		quote(f, cwd);
		fputs(" || exit 1\nexec ", f);
		quote(f, exe);
		fputs(" sweep ", f);
		quote(f, sw->spec);
		fputs(" --out ", f);
		quote(f, sw->out);
		cli_sets(f, sw);
		fputs(" --quiet --point \"${SLURM_ARRAY_TASK_ID:?is not set: submit this script with sbatch}\"\n", f);
		free(abs_out);
		char final[4096];
		snprintf(final, sizeof(final), "%s/sweep.slurm", sw->out);
		/* executable before it has its name: a chmod of the name after the rename could
		 * reach whatever was put there in between */
		if (fchmod(fileno(f), 0755)) {
			/* not fatal: sbatch reads the script, it need not be executable */
		}
		char *fin[1] = { final };
		if (sb_outdir_commit(&f, &tmp, fin, 1, 0, &err)) {
			fprintf(stderr, "sharebuf: %s\n", err.msg);
			rc = 1;
		}
		if (rc == 0 && !quiet) {
			printf("wrote %s: %zu array tasks (one per point); submit it with sbatch %s, then run\n"
			       "  sharebuf sweep %s --out %s",
			       final, sw->npoints, final, sw->spec, sw->out);
			cli_sets(stdout, sw);
			printf(" --collect\n");
		}
	} else {
		fprintf(stderr, "sharebuf: %s\n", err.msg);
	}
	sb_outdir_release(false);
	return rc;
}

int sb_cmd_sweep(const struct sb_cmd_call *c, int argc, char **argv)
{
	struct options o = { .point = -1 };
	char default_out[256];
	int rc;
	struct sb_sweep sw;
	struct sb_error err = { "" };
	struct sb_cmd_call runc; /* each run: the program's `run` */
	const struct sb_cmd_call *run = &runc;
	rc = parse_options(c, argc, argv, &o, default_out, sizeof(default_out));
	if (rc != SB_CMD_GO) {
		sb_opt_list_free(&o.set_list);
		return rc;
	}
	if (sb_cmd_lookup(c->prog, "run", &runc)) {
		fprintf(stderr, "%s: the program has no run command\n", c->who);
		sb_opt_list_free(&o.set_list);
		return 1;
	}
	if (sb_sweep_load(&sw, o.spec, o.out, o.sets, o.nsets, &err)) {
		sb_opt_list_free(&o.set_list);
		fprintf(stderr, "sharebuf: %s\n", err.msg);
		sb_sweep_free(&sw);
		return 1;
	}
	if (o.point >= (long long)sw.npoints) {
		fprintf(stderr, "sharebuf: sweep: --point %lld: the spec has %zu points, 0 to %zu\n", o.point, sw.npoints,
			sw.npoints - 1);
		rc = 2;
	} else if (o.dry_run) {
		rc = dry_run(&sw);
	} else if (o.collect) {
		rc = collect(&sw, o.quiet);
	} else if (o.emit_slurm) {
		rc = emit_slurm(&sw, o.quiet);
	} else if (o.mpi) {
		if (!sb_sweep_mpi) {
			fprintf(stderr, "sharebuf: sweep: --mpi: this sharebuf was built without MPI (mpicc was not found "
					"at build time; sh tools/install-deps.sh openmpi-bin libopenmpi-dev, then make)\n");
			rc = 1;
		} else {
			rc = sb_sweep_mpi(&sw, run, o.quiet);
		}
	} else {
		rc = run_local(&sw, &o, run);
	}
	sb_sweep_free(&sw);
	sb_opt_list_free(&o.set_list);
	return rc;
}
