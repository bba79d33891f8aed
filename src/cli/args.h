/*
 * args.h — the options `run` and `compare` share, parsed one way for both (docs/outputs.md,
 * docs/compare.md): `--opt VALUE` and `--opt=VALUE` for every option with a value, `--seed N`
 * as `--set run.seed=N`, and a `--set` without "=" refused at once with what to write instead
 * (it used to take the next word for a second scenario file).
 */
#ifndef SB_ARGS_H
#define SB_ARGS_H

#include <stddef.h>

/* If argv[*i] is one of the `n` options of `valued` ("--out VALUE" or "--out=VALUE"; a
 * single-dash alias has only the first form), set *opt to the option as listed and *val to
 * its value, advancing *i past a separate value. Returns 1 when it is one of them, 0 when not,
 * or an exit status of 2 (reported) when the value is missing. */
int sb_args_valued(int argc, char **argv, int *i, const char *const *valued, size_t n, const char **opt,
		   const char **val);

/* --seed N: "run.seed=N" into buf. Returns 0, or 2 (reported) when N is not a non-negative integer. */
int sb_args_seed(const char *v, char *buf, size_t n);

/* --set KEY=VALUE: 0, or 2 (reported) when VALUE has no "=". `next` is the argument after it
 * (NULL if none): "--set run.seed 3" suggests "--set run.seed=3". */
int sb_args_set(const char *v, const char *next);

/* "--help" or "-h". */
int sb_args_is_help(const char *a);

#endif
