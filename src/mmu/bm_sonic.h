/*
 * bm_sonic.h — read-only views of the SONiC buffer model (src/mmu/bm_sonic.c), for tests,
 * reports and embedders. Every function returns false / NULL / a neutral value when `m` does
 * not run `sonic`.
 */
#ifndef SB_BM_SONIC_H
#define SB_BM_SONIC_H

#include <stdbool.h>
#include <stdint.h>
#include "mmu/mmu.h"
#include "mmu/pfc_ingress.h"

extern const struct sb_bm_ops sb_bm_sonic;

/* Pool sizes and occupancies, in units (Reverie §2.2.2, Table 1). */
struct sb_sonic_pools {
	uint64_t b_ing, b_h, b_egr_lossless, b_egr_lossy;      /* sizes */
	uint64_t q_ing, q_h, q_egr_lossless, q_egr_lossy;      /* occupancies */
};
bool sb_sonic_pools(const struct sb_mmu *m, struct sb_sonic_pools *out);

/* The headroom, pause and resume state of the lossless ingress queues. */
const struct sb_pfc_ingress *sb_sonic_pfc(const struct sb_mmu *m);

/* policy = abm: n_p of a counter view (ingress: false, egress: true) and priority, and μ of
 * queue (port, prio) in that view, as admission would use them now. 1 under policy = dt. */
double sb_sonic_abm_n(const struct sb_mmu *m, bool egress, uint8_t prio);
double sb_sonic_abm_mu(const struct sb_mmu *m, bool egress, uint16_t port, uint8_t prio);

#endif
