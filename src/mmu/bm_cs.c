/*
 * bm_cs.c — Complete Sharing: any queue may take any free space. Drops only when the
 * buffer is full. The upper bound on burst absorption and the lower bound on isolation.
 */
#include "mmu/mmu.h"

static enum sb_drop_cause cs_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	return m->used + pkt->units > m->buffer ? SB_DROP_BUFFER_FULL : SB_ADMIT;
}

const struct sb_bm_ops sb_bm_cs = {
	.name = "cs",
	.summary = "Complete Sharing: admit while the buffer has room",
	.admit = cs_admit,
};
