/*
 * args.h — the options `run`, `compare` and `sweep` share (docs/outputs.md, docs/compare.md):
 * their entries of the option tables (core/opt.h), so that the three spell and check them one
 * way. --seed N is --set run.seed=N, in its place among the --set options (a later one wins).
 */
#ifndef SB_ARGS_H
#define SB_ARGS_H

#include "core/opt.h"

/* --seed N: "run.seed=N" added to the struct sb_opt_list at the option's offset (the --set
 * list), N a whole number. */
int sb_args_seed(const struct sb_opt_call *c);

/* The table entries, for an options struct of type T with the fields named. */
#define SB_ARGS_SET(T, sets)                                                                        \
	{ "--set", NULL, "KEY=VALUE", SB_OPT_REPEAT, sb_opt_key_value, offsetof(T, sets), 0, 0,        \
	  "override a key of the scenario (docs/scenario-keys.md)" }
#define SB_ARGS_SEED(T, sets)                                                                       \
	{ "--seed", NULL, "N", SB_OPT_REPEAT, sb_args_seed, offsetof(T, sets), 0, SB_OPT_NO_MAX,                 \
	  "the same as --set run.seed=N" }
#define SB_ARGS_OUT(T, out, help) { "--out", NULL, "DIR", 0, sb_opt_string, offsetof(T, out), 0, 0, help }
#define SB_ARGS_QUIET(T, quiet)                                                                     \
	{ "--quiet", "-q", NULL, 0, sb_opt_true, offsetof(T, quiet), 0, 0,                             \
	  "print nothing on stdout and no progress line" }
#define SB_ARGS_JOBS(T, jobs, help) { "--jobs", "-j", "N", 0, sb_opt_whole, offsetof(T, jobs), 1, 4096, help }

#endif
