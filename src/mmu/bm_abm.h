/*
 * bm_abm.h — read-only views of the ABM scheme's state (src/mmu/bm_abm.c), for tests, reports
 * and embedders that want to see what the scheme decided. Every function returns a neutral
 * value (0, or 1 for factors) when `m` does not run ABM.
 */
#ifndef SB_BM_ABM_H
#define SB_BM_ABM_H

#include <stdbool.h>
#include <stdint.h>
#include "mmu/mmu.h"

extern const struct sb_bm_ops sb_bm_abm;

/* γ = μ/b of egress queue (port, prio) as of the last update tick, in (0, 1]. */
double sb_abm_gamma(const struct sb_mmu *m, uint16_t port, uint8_t prio);
/* n_p, the congested-queue count of priority `prio` used by admission (>= 1). */
double sb_abm_n(const struct sb_mmu *m, uint8_t prio);
/* The threshold (units) an arriving packet of (port, prio) would be held to now; first_rtt
 * selects the first-RTT α (when the scheme honours the tag). Compared against the queue
 * length beyond the port reserve. */
uint64_t sb_abm_threshold(const struct sb_mmu *m, uint16_t port, uint8_t prio, bool first_rtt);
/* Update ticks run so far. */
uint64_t sb_abm_ticks(const struct sb_mmu *m);

#endif
