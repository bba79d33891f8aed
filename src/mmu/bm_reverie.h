/*
 * bm_reverie.h — read-only views of the Reverie scheme (src/mmu/bm_reverie.c), for tests,
 * reports and embedders. Every function returns false / NULL / a neutral value when `m` does
 * not run `reverie`.
 */
#ifndef SB_BM_REVERIE_H
#define SB_BM_REVERIE_H

#include <stdbool.h>
#include <stdint.h>
#include "mmu/mmu.h"
#include "mmu/pfc_ingress.h"

extern const struct sb_bm_ops sb_bm_reverie;

/* The shared pool b* and its occupancy q* (lossless bytes not in headroom + lossy bytes), and
 * the headroom pool, in units. */
struct sb_reverie_pools {
	uint64_t b_shared, b_h;
	uint64_t q_shared, q_h;
};
bool sb_reverie_pools(const struct sb_mmu *m, struct sb_reverie_pools *out);

const struct sb_pfc_ingress *sb_reverie_pfc(const struct sb_mmu *m);

/* The low-pass-filtered length of a lossless ingress queue (egress = false) or a lossy egress
 * queue (egress = true), as of its last update. */
double sb_reverie_lpf(const struct sb_mmu *m, bool egress, uint16_t port, uint8_t prio);
/* n_p of the lossless (egress = false) or lossy (true) queues of a priority. */
double sb_reverie_n(const struct sb_mmu *m, bool egress, uint8_t prio);

#endif
