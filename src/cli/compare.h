/*
 * compare.h — `sharebuf compare`: the same scenario and seed under several buffer-management
 * schemes, one `run` per scheme in parallel processes, and a side-by-side table of the
 * headline metrics (docs/compare.md).
 */
#ifndef SB_COMPARE_H
#define SB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include "cli/batch.h"
#include "core/cmd.h"


/*
 * `sharebuf compare [SCENARIO] [--schemes A,B,...] [--jobs N] [--set KEY=VALUE]... [--seed N]
 * [--out DIR] [--quiet] [--collect]`; argv holds the arguments after "compare", read with
 * sb_compare_opts.
 *
 * Checks every input first: the options, each scheme name, and the scenario with every
 * scheme (the same load and validation as `run`), so a mistake fails before anything runs
 * and leaves nothing behind. Then, for each scheme S in the order given, a child process
 * calls the program's `run` (found in c's table) with `SCENARIO --set ... --set switch.scheme=S --out DIR/S --quiet`, at most
 * --jobs at a time. When all have succeeded it reads each DIR/S/summary.json and writes
 * DIR/compare.csv and DIR/compare.json, then prints the table. Returns the exit status.
 */
int sb_cmd_compare(const struct sb_cmd_call *c, int argc, char **argv);
extern const struct sb_opt sb_compare_opts[];

/* A headline metric: a column of compare.csv (and of `sweep`'s CSVs, docs/sweep.md). */
struct sb_compare_column {
	const char *name;    /* CSV column and JSON key */
	const char *key;     /* dotted key in summary.json */
	bool integer;        /* an integer in summary.json (else a real) */
	const char *head[2]; /* the printed table's two header lines (NULL: not printed) */
	const char *count;   /* the group's count: the table shows "-" when it is 0 */
};

/* The headline metrics in compare.csv's order (docs/compare.md); *n gets their number. */
const struct sb_compare_column *sb_compare_columns(size_t *n);

#endif
