/*
 * testlib.h — helpers shared by the test programs: scenarios from text, running a simulation
 * with every invariant checked, temporary directories.
 */
#ifndef SB_TESTLIB_H
#define SB_TESTLIB_H

#include <stdbool.h>
#include "sim/scenario.h"
#include "sim/sim.h"

/* Load a scenario from libconfig text plus overrides; aborts the test on error. */
void tl_scenario(struct sb_scenario *sc, const char *text, const char *const *sets, size_t nsets);
/* Build and run, then assert conservation and MMU invariants (sb_sim_check). */
void tl_run_checked(struct sb_sim *sim, const struct sb_scenario *sc);
/* A fresh temporary directory (removed by tl_rmtree). */
char *tl_tmpdir(void);
void tl_rmtree(const char *dir);
/* Read a whole file into a malloc'd string (NULL if missing). */
char *tl_slurp(const char *path);

#endif
