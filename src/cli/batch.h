/*
 * batch.h — run the `sharebuf run` command many times, at most N at a time, each in a child
 * process: the local runner of `compare` (one run per scheme) and of `sweep` (one run per point
 * and seed).
 *
 * Why child processes and not threads: a run is the whole program (it claims its output
 * directory, installs signal handlers, may exit on a fatal error); a child gives each run that
 * process and keeps one run's failure from taking the others down.
 *
 * Signals (core/outdir.h): the caller holds its own directory's claim (or none); the batch
 * registers every running child with outdir's handler, so SIGINT/SIGTERM/SIGHUP to the parent
 * reach the children, which remove what they had started; no new child starts once a signal
 * arrived. Each child also gets SIGTERM when the parent dies outright (SIGKILL), so nothing is
 * left running that holds a run's directory. A child's stdout and stderr go to a temporary
 * file handed to the caller when the child ends.
 */
#ifndef SB_BATCH_H
#define SB_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "core/cmd.h"

struct sb_batch {
	size_t n;               /* jobs 0 .. n-1, started in this order */
	long parallel;          /* at most this many at a time (>= 1) */
	const struct sb_cmd_call *run; /* the command each child runs (`run`, from the program's table) */
	const char *who;        /* "compare", "sweep": for messages */
	void *ctx;
	/* The arguments of job i (malloc'd, NULL-terminated) and their number; the batch frees them
	 * with free_args once the child is started. */
	char **(*args)(void *ctx, size_t i, int *argc);
	void (*free_args)(char **args);
	/* Job i has ended with `status` (as waitpid gives it); `log` holds what it printed (NULL if
	 * no temporary file could be made) and now belongs to the callee. */
	void (*done)(void *ctx, size_t i, int status, FILE *log);
	/* Called before each wait, or NULL: how many jobs have ended and how many are running. */
	void (*progress)(void *ctx, size_t ended, size_t running);
};

/* Run the batch. Returns the number of jobs that did not succeed: failed (done() was told),
 * could not be started (reported), or were not started because a signal asked to stop. */
size_t sb_batch_run(const struct sb_batch *b);

#endif
