/*
 * world.c — the workload layer's one window on the run (world.h): every read of the network
 * and every flow, query and event a generator creates goes through here.
 */
#include "workload/world.h"

#include "net/net.h"
#include "transport/flows.h"
#include "workload/class.h"
#include "workload/workload.h"

uint32_t sb_world_hosts(const struct sb_wl_world *w) { return w->flows->net->nhosts; }
uint32_t sb_world_racks(const struct sb_wl_world *w) { return w->flows->net->nracks; }
uint32_t sb_world_rack_of(const struct sb_wl_world *w, uint32_t host) { return w->flows->net->hosts[host]->rack; }
uint32_t sb_world_rack_first(const struct sb_wl_world *w, uint32_t rack) { return w->flows->net->rack_first[rack]; }
uint32_t sb_world_rack_count(const struct sb_wl_world *w, uint32_t rack) { return w->flows->net->rack_count[rack]; }
uint64_t sb_world_seed(const struct sb_wl_world *w) { return w->seed; }
sb_time sb_world_arrivals_end(const struct sb_wl_world *w) { return w->arrivals_end; }
sb_time sb_world_now(const struct sb_wl_world *w) { return sb_now(&w->flows->net->engine); }

void sb_world_at(struct sb_wl_world *w, sb_time when, sb_event_fn fn, void *obj)
{
	sb_at(&w->flows->net->engine, when, fn, obj, 0);
}

double sb_world_host_bps(const struct sb_wl_world *w, uint32_t host)
{
	return (double)w->flows->net->hosts[host]->node.ports[0].rate_bps;
}

/* The rack's uplinks shared by its hosts: the capacity an "uplink" load is relative to. */
double sb_world_uplink_share_bps(const struct sb_wl_world *w, uint32_t host)
{
	const struct sb_port *nic = &w->flows->net->hosts[host]->node.ports[0];
	const struct sb_node *tor = nic->peer->node;
	double up = 0, hosts = 0;
	for (uint16_t p = 0; p < tor->nports; p++) {
		if (tor->ports[p].peer->node->kind == SB_NODE_HOST)
			hosts += 1;
		else
			up += (double)tor->ports[p].rate_bps;
	}
	return up > 0 && hosts > 0 ? up / hosts : (double)nic->rate_bps;
}

void sb_world_note_lossless(struct sb_wl_world *w, int prio)
{
	w->flows->net->lossless_prio_mask |= (uint8_t)(1u << prio);
}

struct sb_flow *sb_world_spawn(const struct sb_wl_run *r, uint32_t src, uint32_t dst, uint64_t size,
			       sb_time start, enum sb_flow_kind kind)
{
	struct sb_flow *f = sb_flow_create(r->world->flows, src, dst, size, start, r->transport);
	f->prio = (uint8_t)r->prio;
	f->lossless = r->klass == SB_CLASS_LOSSLESS;
	f->kind = (uint8_t)kind;
	return f;
}

int32_t sb_world_query(const struct sb_wl_run *r, uint32_t host, sb_time start, uint16_t responses,
		       uint32_t responder, uint64_t bytes)
{
	return r->world->query_new(r->world->query_ctx, host, start, responses, responder, bytes, r->transport);
}

int sb_world_check_host(const struct sb_wl_run *r, const char *key, int64_t h, struct sb_error *err)
{
	uint32_t n = r->world->flows->net->nhosts;
	if (h < 0 || h >= (int64_t)n)
		return sb_wl_fail(&r->env, key, err, "%lld is not a host (the topology has %u, 0..%u)", (long long)h,
				  n, n - 1);
	return 0;
}
