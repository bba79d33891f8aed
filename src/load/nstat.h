/*
 * nstat.h — the testbed hosts' kernel TCP counters in the run's summary.json.
 *
 * testbed/run.sh saves `nstat -az` of every host's network namespace (hosts/nstat<i>.txt): a
 * "#kernel" line, then one counter per line, its name, its value and a rate. The simulator's
 * summary.json "tcp" block (sim.h, struct sb_tcp_counters; docs/outputs.md) holds its own
 * value of a chosen few of these counters; summing the hosts' values into the same keys makes
 * the testbed's summary.json say what Linux did beside what the simulator's TCP did, in one
 * format (`sharebuf compare --collect` and testbed/validate.sh read both alike).
 */
#ifndef SB_LOAD_NSTAT_H
#define SB_LOAD_NSTAT_H

#include "core/util.h"
#include "load/plan.h"

/* Add the counters of one `nstat -az` output at `path` to p's simulation's stats.tcp.
 * Counters it does not map are skipped; a line that is not "NAME VALUE [RATE]" is an error
 * (-1, err "PATH:LINE: ..."), as is a file that cannot be read. */
int sb_load_nstat(struct sb_load_plan *p, const char *path, struct sb_error *err);

#endif
