/*
 * topo.c — instantiate a topology plan: nodes, ports, links, then the shortest-path ECMP tables
 * (routes.c).
 */
#include "topo/topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"

static void wire_port(struct sb_port *p, struct sb_node *node, uint16_t index, uint64_t rate, sb_time delay)
{
	p->node = node;
	p->net = node->net;
	p->node_kind = node->kind;
	p->index = index;
	sb_port_set_rate(p, rate);
	p->delay = delay;
	p->sched = SB_SCHED_DRR;
	p->profile = &sb_port_profile_default;
}

int sb_topo_build(struct sb_net *net, const struct sb_topo_plan *plan, struct sb_error *err)
{
	uint32_t H = plan->nhosts, S = plan->nswitches, N = H + S;
	uint16_t *nports = sb_xcalloc(N, sizeof(*nports));
	for (size_t i = 0; i < plan->nlinks; i++) {
		const struct sb_topo_link *l = &plan->links[i];
		if (nports[l->a] == UINT16_MAX || nports[l->b] == UINT16_MAX) {
			free(nports);
			return sb_fail(err, "topology: a node would need more than %u ports", UINT16_MAX);
		}
		nports[l->a]++;
		nports[l->b]++;
	}
	for (uint32_t h = 0; h < H; h++)
		if (nports[h] != 1) {
			unsigned links = nports[h];
			free(nports);
			return sb_fail(err, "topology: host %u has %u links, expected 1", h, links);
		}
	net->nnodes = N;
	net->nhosts = H;
	net->nswitches = S;
	net->nracks = plan->nracks;
	net->nodes = sb_xcalloc(N, sizeof(*net->nodes));
	net->hosts = sb_xcalloc(H, sizeof(*net->hosts));
	net->host_nics = sb_xcalloc_aligned(H ? H : 1, sizeof(*net->host_nics), _Alignof(struct sb_port));
	net->switches = sb_xcalloc(S ? S : 1, sizeof(*net->switches));
	uint32_t tier_count[4] = { 0 };
	for (uint32_t i = 0; i < N; i++) {
		struct sb_node *n;
		if (i < H) {
			struct sb_host *h = sb_xcalloc(1, sizeof(*h));
			h->index = i;
			h->rack = plan->host_rack[i];
			sb_rng_init(&h->rng, net->seed, SB_STREAM_HOST + i);
			net->hosts[i] = h;
			n = &h->node;
			n->kind = SB_NODE_HOST;
			snprintf(n->name, sizeof(n->name), "h%u", i);
		} else {
			struct sb_switch *sw = sb_xcalloc_aligned(1, sizeof(*sw), _Alignof(struct sb_switch));
			sw->index = i - H;
			sb_rng_init(&sw->rng, net->seed, SB_STREAM_SWITCH + sw->index);
			net->switches[i - H] = sw;
			n = &sw->node;
			n->kind = SB_NODE_SWITCH;
			uint8_t tier = plan->switch_tier[i - H];
			n->tier = tier;
			snprintf(n->name, sizeof(n->name), "%s%u", sb_topo_tier_name[tier & 3], tier_count[tier & 3]++);
		}
		n->net = net;
		n->id = i;
		n->ports = i < H ? &net->host_nics[i] : sb_xcalloc_aligned(nports[i], sizeof(*n->ports), _Alignof(struct sb_port));
		net->nodes[i] = n;
	}
	memset(nports, 0, N * sizeof(*nports));
	for (size_t i = 0; i < plan->nlinks; i++) {
		const struct sb_topo_link *l = &plan->links[i];
		struct sb_node *a = net->nodes[l->a], *b = net->nodes[l->b];
		struct sb_port *pa = &a->ports[nports[l->a]], *pb = &b->ports[nports[l->b]];
		wire_port(pa, a, nports[l->a]++, l->rate_bps, l->delay);
		wire_port(pb, b, nports[l->b]++, l->rate_bps, l->delay);
		pa->peer = pb;
		pb->peer = pa;
		pa->peer_node = b;
		pa->peer_kind = pb->node_kind;
		pa->peer_index = pb->index;
		pb->peer_node = a;
		pb->peer_kind = pa->node_kind;
		pb->peer_index = pa->index;
	}
	for (uint32_t i = 0; i < N; i++)
		net->nodes[i]->nports = nports[i];
	free(nports);
	/* Racks: hosts of a rack are numbered contiguously by every builder; generators rely on it. */
	net->rack_first = sb_xcalloc(plan->nracks, sizeof(uint32_t));
	net->rack_count = sb_xcalloc(plan->nracks, sizeof(uint32_t));
	for (uint32_t h = H; h-- > 0;) {
		uint32_t r = plan->host_rack[h];
		net->rack_first[r] = h;
		net->rack_count[r]++;
	}
	for (uint32_t h = 0; h < H; h++) {
		uint32_t r = plan->host_rack[h];
		if (h < net->rack_first[r] || h >= net->rack_first[r] + net->rack_count[r])
			return sb_fail(err, "topology: hosts of rack %u are not numbered contiguously", r);
	}
	return sb_routes_build(net, err);
}
