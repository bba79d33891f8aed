/*
 * bm_dt.c — Dynamic Thresholds (Choudhury & Hahne, 1998), the de-facto shared-buffer scheme.
 *
 * An egress queue (port, prio) may grow while its length stays below
 *     T_p(t) = α_p · (B − Q(t))
 * where B is the buffer and Q(t) its occupancy. A packet is dropped iff q + L > T_p (q and T
 * on pre-arrival counters, L the packet's units). With n queues of equal α permanently
 * overloaded, each settles at α·B/(1+nα) and B/(1+nα) stays free (tests/sim/test_dt.c checks it).
 */
#include <stddef.h>
#include "mmu/mmu.h"

struct dt_state {
	double alpha[SB_MMU_NPRIO];
};

static const struct sb_param dt_params[] = {
	{ "alpha", SB_P_PRIO, offsetof(struct dt_state, alpha), "1", 0.0, 1e6, "",
	  NULL, "α per priority: threshold = α · (buffer − occupancy)" },
	SB_PARAM_END
};

static enum sb_drop_cause dt_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	const struct dt_state *s = sb_mmu_state(m);
	if (m->used + pkt->units > m->buffer)
		return SB_DROP_BUFFER_FULL;
	uint64_t threshold = sb_mmu_scale(s->alpha[pkt->prio], m->buffer - m->used);
	if (m->q_egr[sb_mmu_qi(pkt->out_port, pkt->prio)] + pkt->units > threshold)
		return SB_DROP_THRESHOLD;
	return SB_ADMIT;
}

const struct sb_bm_ops sb_bm_dt = {
	.name = "dt",
	.summary = "Dynamic Thresholds: queue < alpha * free buffer (Choudhury-Hahne)",
	.params = dt_params,
	.state_size = sizeof(struct dt_state),
	.admit = dt_admit,
};
