/*
 * switch_setup.c — what a switch is made of, from its parameters alone: the
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
#include "net/sched.h"

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
	double scale = sb_sched_ecn_scale(rate_bps, p->ecn_ref_gbps);
	memset(ecn, 0, SB_NPRIO * sizeof(*ecn)); /* padding too: tables are compared with memcmp */
	for (int q = 0; q < SB_NPRIO; q++) {
		quantum[q] = sb_sched_quantum(p->drr_weight[q], (double)p->drr_quantum_bytes);
		sb_sched_ecn_set(&ecn[q], p->ecn_mode, p->ecn_kmin_bytes[q], p->ecn_kmax_bytes[q], p->ecn_pmax[q], scale);
	}
}
