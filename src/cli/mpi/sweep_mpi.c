/*
 * sweep_mpi.c — `mpirun -n N sharebuf sweep SPEC --mpi` (docs/sweep.md §6): rank 0 hands out
 * the runs that are not complete yet, one at a time, to whichever rank asks next; the other
 * ranks run them and ask again. Rank 0 then writes the CSVs, the same bytes as a local sweep
 * (sweep_csv.c reads only the runs' summaries).
 *
 * Built only when the Makefile finds Open MPI's mpicc, and linked into the program only, so
 * the library, the tests and a machine without MPI never need it (sweep.h declares the entry
 * point weak: NULL without this file).
 *
 * Every rank loads the spec itself (the same file, so the same runs in the same order) and
 * needs the output directory on a file system all ranks share. A worker runs `run` in its own
 * process, not in a child: Open MPI does not promise that fork() is safe after MPI_Init.
 * Messages are two ints: worker -> 0 {the run it finished or -1, its exit status}; 0 -> worker
 * {the next run, or -1: stop}.
 */
#include "cli/sweep.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/outdir.h"

enum { TAG_READY = 1, TAG_WORK = 2 };

static const char *const sweep_names[] = { "sweep.csv", "sweep-summary.csv", "sweep.slurm", NULL };

static int run_one(struct sb_sweep *sw, size_t r, const struct sb_cmd_call *run)
{
	int argc;
	char **args = sb_sweep_run_args(sw, r, &argc);
	int rc = sb_cmd_run(run, argc, args);
	fflush(NULL);
	sb_sweep_run_args_free(args);
	return rc;
}

/* Rank 0: hand out `todo` to the n - 1 workers (run them itself when alone). Returns the
 * number of runs that failed. */
static size_t hand_out(struct sb_sweep *sw, const size_t *todo, size_t n, int ranks, const struct sb_cmd_call *run)
{
	size_t next = 0, failed = 0;
	if (ranks == 1) {
		for (; next < n; next++)
			if (run_one(sw, todo[next], run)) {
				fprintf(stderr, "sharebuf: sweep: the run of %s failed\n", sw->runs[todo[next]].dir);
				failed++;
			}
		return failed;
	}
	int working = ranks - 1;
	while (working > 0) {
		int msg[2];
		MPI_Status st;
		MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, TAG_READY, MPI_COMM_WORLD, &st);
		if (msg[0] >= 0 && msg[1] != 0) {
			fprintf(stderr, "sharebuf: sweep: the run of %s failed with exit status %d on rank %d (its message "
					"is above)\n", sw->runs[msg[0]].dir, msg[1], st.MPI_SOURCE);
			failed++;
		}
		int work = next < n ? (int)todo[next++] : -1;
		working -= work < 0;
		MPI_Send(&work, 1, MPI_INT, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
	}
	return failed;
}

/* The other ranks: ask, run, report, until told to stop. */
static void work(struct sb_sweep *sw, const struct sb_cmd_call *run)
{
	int msg[2] = { -1, 0 };
	for (;;) {
		int r;
		MPI_Send(msg, 2, MPI_INT, 0, TAG_READY, MPI_COMM_WORLD);
		MPI_Recv(&r, 1, MPI_INT, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (r < 0)
			return;
		msg[0] = r;
		msg[1] = run_one(sw, (size_t)r, run);
	}
}

int sb_sweep_mpi(struct sb_sweep *sw, const struct sb_cmd_call *run, bool quiet)
{
	int rank, ranks;
	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	struct sb_error err = { "" };
	int ok = 1, rc = 0;
	size_t *todo = NULL, n = 0, complete = 0;
	double t0 = MPI_Wtime();
	if (rank == 0) {
		if (sb_outdir_claim(sw->out, sweep_names, &err)) {
			sb_outdir_release(true);
			fprintf(stderr, "sharebuf: %s\n", err.msg);
			ok = 0;
		}
		todo = sb_xcalloc(sw->nruns + 1, sizeof(*todo));
		for (size_t r = 0; ok && r < sw->nruns; r++) {
			if (sb_sweep_run_complete(sw, r))
				complete++;
			else
				todo[n++] = r;
		}
	}
	MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!ok) {
		free(todo);
		MPI_Finalize();
		return 1;
	}
	if (rank == 0) {
		size_t failed = hand_out(sw, todo, n, ranks, run);
		if (failed) {
			fprintf(stderr, "sharebuf: sweep: %zu of %zu runs failed; the others are kept, no sweep.csv was "
					"written\n", failed, n);
			rc = 1;
		} else if (sb_sweep_write_csv(sw, &err)) {
			fprintf(stderr, "sharebuf: %s\n", err.msg);
			rc = 1;
		}
		sb_outdir_release(false);
		if (rc == 0 && !quiet)
			printf("sweep %s: %zu runs (%zu already complete, %zu run now) in %.1f s on %d MPI ranks\n"
			       "outputs: %s/{sweep.csv,sweep-summary.csv}, one directory per run in %s/runs/\n",
			       sw->spec, sw->nruns, complete, n, MPI_Wtime() - t0, ranks, sw->out, sw->out);
	} else {
		work(sw, run);
	}
	free(todo);
	/* every rank ends with rank 0's status, so mpirun's is the sweep's */
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return rc;
}
