/*
 * shapes.c — the topologies of the papers: one switch with N hosts (the Occamy/EDT testbeds),
 * leaf-spine (Reverie, ABM, Occamy ns-3) and k-ary fat-tree (DSH).
 */
#include <stdlib.h>
#include "core/util.h"
#include "topo/topo.h"

uint32_t sb_topo_hosts(const struct sb_topo_params *t)
{
	switch (t->type) {
	case SB_TOPO_SINGLE: return (uint32_t)t->hosts;
	case SB_TOPO_LEAFSPINE: return (uint32_t)(t->hosts_per_leaf * t->leaves);
	case SB_TOPO_FATTREE: return (uint32_t)(t->k * t->k * t->k / 4);
	}
	return 0;
}

void sb_topo_plan_link(struct sb_topo_plan *plan, uint32_t a, uint32_t b, uint64_t rate_bps, sb_time delay)
{
	if (plan->nlinks == plan->links_cap) {
		plan->links_cap = plan->links_cap ? plan->links_cap * 2 : 64;
		plan->links = sb_xrealloc(plan->links, plan->links_cap * sizeof(*plan->links));
	}
	plan->links[plan->nlinks++] = (struct sb_topo_link){ a, b, rate_bps, delay };
}

void sb_topo_plan_free(struct sb_topo_plan *plan)
{
	free(plan->host_rack);
	free(plan->switch_tier);
	free(plan->links);
}

int sb_topo_plan_make(struct sb_topo_plan *plan, const struct sb_topo_params *t, struct sb_error *err)
{
	*plan = (struct sb_topo_plan){ 0 };
	uint64_t host_bps = (uint64_t)(t->host_rate_gbps * 1e9 + 0.5);
	uint64_t fabric_bps = (uint64_t)(t->fabric_rate_gbps * 1e9 + 0.5);
	sb_time host_delay = sb_time_from_us(t->host_delay_us);
	sb_time fabric_delay = sb_time_from_us(t->fabric_delay_us);
	if (host_bps == 0 || (t->type != SB_TOPO_SINGLE && fabric_bps == 0))
		return sb_fail(err, "topology: link rates must be positive");
	uint32_t H = sb_topo_hosts(t);
	if (H < 2)
		return sb_fail(err, "topology: needs at least 2 hosts, has %u", H);
	plan->nhosts = H;
	plan->host_rack = sb_xcalloc(H, sizeof(*plan->host_rack));

	switch (t->type) {
	case SB_TOPO_SINGLE:
		plan->nswitches = 1;
		plan->nracks = 1;
		plan->switch_tier = sb_xcalloc(1, 1);
		plan->switch_tier[0] = 1;
		for (uint32_t h = 0; h < H; h++)
			sb_topo_plan_link(plan, h, H, host_bps, host_delay);
		break;
	case SB_TOPO_LEAFSPINE: {
		uint32_t L = (uint32_t)t->leaves, S = (uint32_t)t->spines, per = (uint32_t)t->hosts_per_leaf;
		if (L > 1 && S == 0)
			return sb_fail(err, "topology.spines: %u leaves need at least one spine", L);
		plan->nswitches = L + S;
		plan->nracks = L;
		plan->switch_tier = sb_xcalloc(plan->nswitches, 1);
		for (uint32_t l = 0; l < L; l++) {
			plan->switch_tier[l] = 1;
			for (uint32_t i = 0; i < per; i++) {
				plan->host_rack[l * per + i] = l;
				sb_topo_plan_link(plan, l * per + i, H + l, host_bps, host_delay);
			}
		}
		for (uint32_t s = 0; s < S; s++)
			plan->switch_tier[L + s] = 2;
		for (uint32_t l = 0; l < L; l++)
			for (uint32_t s = 0; s < S; s++)
				for (int64_t k = 0; k < t->links_per_spine; k++)
					sb_topo_plan_link(plan, H + l, H + L + s, fabric_bps, fabric_delay);
		break;
	}
	case SB_TOPO_FATTREE: {
		/* k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores; k/2 hosts per edge. */
		uint32_t k = (uint32_t)t->k, half = k / 2;
		if (k < 2 || k % 2)
			return sb_fail(err, "topology.k: fat-tree needs an even k >= 2, got %u", k);
		uint32_t edges = k * half, aggs = k * half, cores = half * half;
		plan->nswitches = edges + aggs + cores;
		plan->nracks = edges;
		plan->switch_tier = sb_xcalloc(plan->nswitches, 1);
		uint32_t edge0 = H, agg0 = H + edges, core0 = H + edges + aggs;
		for (uint32_t e = 0; e < edges; e++) {
			plan->switch_tier[e] = 1;
			for (uint32_t i = 0; i < half; i++) {
				plan->host_rack[e * half + i] = e;
				sb_topo_plan_link(plan, e * half + i, edge0 + e, host_bps, host_delay);
			}
		}
		for (uint32_t a = 0; a < aggs; a++)
			plan->switch_tier[edges + a] = 2;
		for (uint32_t c = 0; c < cores; c++)
			plan->switch_tier[edges + aggs + c] = 3;
		for (uint32_t pod = 0; pod < k; pod++)
			for (uint32_t e = 0; e < half; e++)
				for (uint32_t a = 0; a < half; a++)
					sb_topo_plan_link(plan, edge0 + pod * half + e, agg0 + pod * half + a, fabric_bps, fabric_delay);
		for (uint32_t pod = 0; pod < k; pod++)
			for (uint32_t a = 0; a < half; a++)
				for (uint32_t c = 0; c < half; c++)
					sb_topo_plan_link(plan, agg0 + pod * half + a, core0 + a * half + c, fabric_bps, fabric_delay);
		break;
	}
	default:
		return sb_fail(err, "topology.type: unknown type %d", t->type);
	}
	return 0;
}
