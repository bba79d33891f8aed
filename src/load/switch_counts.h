/*
 * switch_counts.h — the testbed switch's measurements in the run's outputs.
 *
 * build/sharebuf-switch writes DIR/summary.json (drops by cause, peak occupancy) and
 * DIR/occupancy.csv (the simulator's columns, docs/outputs.md) of real packets; the
 * simulator's writers put a run's drops and buffer samples into summary.json, drops.csv and
 * occupancy.csv. Taking the switch's numbers into the planned simulation (plan.h) before it is
 * written makes the testbed's summary.json carry the same keys with the switch's values, so
 * that `sharebuf compare --collect` tabulates a testbed run as it does a simulated one.
 */
#ifndef SB_LOAD_SWITCH_COUNTS_H
#define SB_LOAD_SWITCH_COUNTS_H

#include "core/util.h"
#include "load/plan.h"

/* Read DIR/summary.json and DIR/occupancy.csv of build/sharebuf-switch into p's simulation:
 * drops by cause (a cause the simulator does not have, e.g. a full receive ring, counts in
 * the total only), the MMU's peak occupancy, and every occupancy sample. -1 + err naming
 * the file (and line) when one is missing or not the switch's. */
int sb_load_switch_counts(struct sb_load_plan *p, const char *dir, struct sb_error *err);

#endif
