/*
 * sweep.h — `sharebuf sweep SPEC`: a grid of runs over scenario keys, schemes and seeds, run
 * locally (--jobs processes), by MPI ranks (--mpi) or as a Slurm array (--emit-slurm, then
 * --point i per task and --collect), resumable, ending in DIR/sweep.csv and
 * DIR/sweep-summary.csv (docs/sweep.md).
 *
 * The pieces, one concept per file:
 *   sweep_spec.c  reads SPEC into a struct sb_sweep: its points (one combination of axis
 *                 values and scheme), its seeds, and for each run (point × seed) the
 *                 `sharebuf run` arguments and the SHA-256 of the resolved scenario that run
 *                 will simulate (sim/provenance.h), checked by loading every run's scenario;
 *   sweep_run.c   the command: options, --dry-run, --emit-slurm, the local runner (child
 *                 processes, progress with ETA, resumption), --point;
 *   sweep_csv.c   reading the runs' summary.json files and writing the two CSVs, with means,
 *                 standard deviations and Student-t 95 % confidence intervals over seeds;
 *   sweep_mpi.c   the MPI runner, built only when mpicc is found (Makefile).
 *
 * A run is complete when DIR/runs/POINT/seed-N/ holds its outputs and its summary.json's
 * provenance matches the run the sweep would make now: the resolved scenario's hash, the
 * program (version and commit) and the SHA-256 of every file the scenario reads (CDFs, flow
 * lists, the base scenario and its @includes). A killed sweep started again skips those and
 * runs the rest; a changed spec, input file or program reruns what it changed.
 */
#ifndef SB_SWEEP_H
#define SB_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cli/compare.h"
#include "core/util.h"
#include "sim/provenance.h"

/* One combination of axis values (and scheme). */
struct sb_sweep_point {
	char *name;    /* its directory under DIR/runs: "0003-load=0.5-scheme=dt" */
	char **values; /* per column of sb_sweep.columns, as written to --set and the CSVs */
	size_t *index; /* per column: which of its axis' values (selects a variant's overrides) */
};

/* A variant axis' values (docs/sweep.md §2): value i stands for the overrides set[i]. */
struct sb_sweep_variants {
	char ***set;   /* set[i]: NULL-terminated "KEY=VALUE" list of value i */
	size_t n;
};

/* One run: a point with one seed. */
struct sb_sweep_run {
	size_t point;
	int64_t seed;  /* -1: the scenario's own run.seed (the spec lists no seeds) */
	char *dir;     /* DIR/runs/POINT/seed-N (or .../seed-default) */
	char sha256[SB_SHA256_HEX]; /* of the resolved scenario it simulates */
	size_t *inputs; /* the files it reads (sim/provenance.h), as indices into sb_sweep.files */
	size_t ninputs;
};

struct sb_sweep {
	char *spec;         /* the spec file as given */
	char *base;         /* the base scenario's path (absolute), or NULL: the embedded default */
	char **fixed;       /* the spec's `set` overrides, then the command line's --set, "KEY=VALUE" */
	size_t nfixed;
	size_t ncli_sets;   /* the last ncli_sets of `fixed` came from --set */
	char **columns;     /* the axis keys in order (switch.scheme last when `schemes` is given);
			     * a variant axis' column is its name */
	struct sb_sweep_variants **variants; /* per column: NULL for a key axis */
	size_t ncolumns;
	struct sb_sweep_point *points;
	size_t npoints;
	int64_t *seeds;     /* NULL with nseeds = 1: the scenario's own seed */
	size_t nseeds;
	struct sb_sweep_run *runs; /* point-major: run r is point r / nseeds, seed r % nseeds */
	size_t nruns;
	char **metrics;     /* the spec's `metrics`: more summary.json keys for the CSVs */
	size_t nmetrics;
	char *extract;      /* the spec's `extract` script (absolute path), or NULL */
	char *out;          /* DIR */
	struct sb_provenance_input *files; /* every file some run reads, hashed once when loading */
	size_t nfiles;
};

/* The most runs (points x seeds) a sweep may have (docs/sweep.md §2): every run's scenario is
 * loaded when the spec is read and each gets a directory; a grid beyond this is almost always
 * a mistake (an axis too many), and the point count is checked as it is multiplied, so no
 * product wraps. */
#define SB_SWEEP_MAX_RUNS 100000

/* Read and check SPEC (every run's scenario is loaded and validated) for output directory
 * `out`, with `nsets` more "KEY=VALUE" overrides for every run (the command line's --set,
 * applied after the spec's `set`, before the axes). Returns 0, or -1 with "SPEC:LINE: key:
 * what was expected" (or the scenario's own message, naming the point) in err. */
int sb_sweep_load(struct sb_sweep *sw, const char *spec, const char *out, const char *const *sets, size_t nsets,
		  struct sb_error *err);
/* The same for a spec held in `text`, named `name` in messages, with at most `max_runs` runs
 * (the fuzzing harness keeps each input fast with a small limit): a `base` or `extract` it
 * names is still opened, and @include is relative to the working directory. */
int sb_sweep_load_text(struct sb_sweep *sw, const char *name, const char *text, const char *out,
		       const char *const *sets, size_t nsets, size_t max_runs, struct sb_error *err);
void sb_sweep_free(struct sb_sweep *sw);

/* The arguments of `sharebuf run` for run r (NULL-terminated, malloc'd array of borrowed and
 * owned strings: free with sb_sweep_run_args_free), and their number in *argc. */
char **sb_sweep_run_args(const struct sb_sweep *sw, size_t r, int *argc);
void sb_sweep_run_args_free(char **args);

/* Whether run r's outputs are complete and its provenance matches (see above). */
bool sb_sweep_run_complete(const struct sb_sweep *sw, size_t r);
/* The same, and when the run has finished but is not this sweep's (its summary.json names
 * another scenario, another program or other input contents), why, in `why` (n bytes; ""
 * for a run that has not finished). */
bool sb_sweep_run_state(const struct sb_sweep *sw, size_t r, char *why, size_t n);

/* Write DIR/sweep.csv and DIR/sweep-summary.csv from the runs' summaries, each through a
 * temporary renamed into place. Returns 0, or -1 with err set (a missing or incomplete run
 * names its directory). */
int sb_sweep_write_csv(const struct sb_sweep *sw, struct sb_error *err);

/* The two-sided 95 % quantile of Student's t with `df` degrees of freedom (df >= 1). */
double sb_student_t975(long df);

/* `sharebuf sweep SPEC [options]` (argv after "sweep", read with sb_sweep_opts); each run is
 * the program's `run` command, found in c's table. */
int sb_cmd_sweep(const struct sb_cmd_call *c, int argc, char **argv);
extern const struct sb_opt sb_sweep_opts[];

/* The MPI runner (sweep_mpi.c): rank 0 hands out the runs not yet complete, the other ranks
 * run them with `run`, then rank 0 writes the CSVs. Returns the exit status. Weak: NULL in a
 * program built without MPI. */
int sb_sweep_mpi(struct sb_sweep *sw, const struct sb_cmd_call *run, bool quiet) __attribute__((weak));

#endif
