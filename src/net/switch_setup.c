/*
 * switch_setup.c — what a switch is made of, from its parameters alone: the ECN decision, the
 * buffer from the ports' rates, a port's marking table and DRR quanta (net/switch.h). Apart
 * from switch.c (forwarding in the simulated network) because the software switch
 * (src/dataplane/) builds itself with these too, and links this object without the
 * simulator's world. Its MMU comes from the scenario (scenario/scenario_mmu.h).
 */
#include "net/switch.h"

#include <stdio.h>
#include <string.h>
#include "core/util.h"
#include "net/params.h"

bool sb_ecn_decide(const struct sb_ecn_cfg *e, uint64_t qbytes, struct sb_rng *rng)
{
	if (e->mode == SB_ECN_OFF || qbytes <= e->kmin)
		return false;
	if (e->mode == SB_ECN_STEP || qbytes > e->kmax)
		return true;
	/* RED: probability rises linearly from 0 at kmin to pmax at kmax */
	uint64_t span = e->kmax - e->kmin;
	uint64_t threshold = (uint64_t)(((unsigned __int128)e->pmax_q32 * (qbytes - e->kmin)) / span);
	return (sb_rng_u64(rng) >> 32) < threshold;
}

uint64_t sb_switch_buffer_for_rates(const struct sb_switch_params *p, const uint64_t *rate_bps, uint16_t nports)
{
	if (p->buffer_bytes > 0)
		return (uint64_t)p->buffer_bytes;
	double total = 0;
	for (uint16_t i = 0; i < nports; i++)
		total += p->buffer_per_port_per_gbps * (double)rate_bps[i] / 1e9;
	return (uint64_t)(total + 0.5);
}

void sb_switch_port_tables(const struct sb_switch_params *p, uint64_t rate_bps, struct sb_ecn_cfg ecn[SB_NPRIO],
			   uint32_t quantum[SB_NPRIO])
{
	/* a queue drains in proportion to its port's rate, so a marking threshold in bytes
	 * stands for a delay only at the rate it was chosen for */
	double scale = p->ecn_ref_gbps > 0 ? (double)rate_bps / (p->ecn_ref_gbps * 1e9) : 1;
	memset(ecn, 0, SB_NPRIO * sizeof(*ecn)); /* padding too: tables are compared with memcmp */
	for (int q = 0; q < SB_NPRIO; q++) {
		double qb = p->drr_weight[q] * (double)p->drr_quantum_bytes;
		quantum[q] = qb < 1 ? 1 : (uint32_t)qb;
		struct sb_ecn_cfg *e = &ecn[q];
		e->mode = (uint8_t)p->ecn_mode;
		/* saturated: 1e12 bytes at ecn_ref_gbps = 1e-6 on a 25 Gb/s port is 2.5e19, beyond
		 * uint64_t (undefined); a threshold no queue reaches is what it means */
		e->kmin = sb_u64_saturate(p->ecn_kmin_bytes[q] * scale);
		e->kmax = sb_u64_saturate(p->ecn_kmax_bytes[q] * scale);
		if (e->kmax < e->kmin)
			e->kmax = e->kmin;
		if (e->kmax == e->kmin && e->mode == SB_ECN_RED)
			e->mode = SB_ECN_STEP;
		double pm = p->ecn_pmax[q] < 0 ? 0 : p->ecn_pmax[q] > 1 ? 1 : p->ecn_pmax[q];
		e->pmax_q32 = (uint32_t)(pm * 4294967295.0);
	}
}
