/*
 * world.c — the workload layer's one window on the simulation (world.h): every read of
 * struct sb_sim and every flow, query and event a generator creates goes through here.
 */
#include "workload/world.h"

#include <stdio.h>
#include "sim/sim.h"
#include "workload/class.h"
#include "workload/workload.h"

const struct sb_workload *sb_world_workloads(const struct sb_sim *sim, size_t *n)
{
	*n = sim->sc->nworkloads;
	return sim->sc->workloads;
}

struct sb_wl_runtime **sb_world_runtime(struct sb_sim *sim) { return &sim->wl; }

struct sb_wl_env sb_world_env(const struct sb_sim *sim, size_t wi)
{
	return sb_scenario_workload_env(sim->sc, wi);
}

/* The flow list's path is the scenario's to resolve: relative to the file that set it. */
char *sb_workload_flow_path(const struct sb_scenario *sc, size_t wi)
{
	const struct sb_workload *wl = &sc->workloads[wi];
	const char *key = NULL, *path = NULL;
	bool builtin_ok;
	char full[48];
	if (wl->ops->input_file)
		path = wl->ops->input_file(wl->params, &key, &builtin_ok);
	snprintf(full, sizeof(full), "workloads.%zu.path", wi);
	return sb_scenario_path(sc, full, path ? path : "");
}

uint32_t sb_world_hosts(const struct sb_sim *sim) { return sim->net.nhosts; }
uint32_t sb_world_racks(const struct sb_sim *sim) { return sim->net.nracks; }
uint32_t sb_world_rack_of(const struct sb_sim *sim, uint32_t host) { return sim->net.hosts[host]->rack; }
uint32_t sb_world_rack_first(const struct sb_sim *sim, uint32_t rack) { return sim->net.rack_first[rack]; }
uint32_t sb_world_rack_count(const struct sb_sim *sim, uint32_t rack) { return sim->net.rack_count[rack]; }
uint64_t sb_world_seed(const struct sb_sim *sim) { return sim->seed; }
sb_time sb_world_arrivals_end(const struct sb_sim *sim) { return sim->arrivals_end; }
sb_time sb_world_now(const struct sb_sim *sim) { return sb_now(&sim->net.engine); }

void sb_world_at(struct sb_sim *sim, sb_time when, sb_event_fn fn, void *obj)
{
	sb_at(&sim->net.engine, when, fn, obj, 0);
}

double sb_world_host_bps(const struct sb_sim *sim, uint32_t host)
{
	return (double)sim->net.hosts[host]->node.ports[0].rate_bps;
}

/* The rack's uplinks shared by its hosts: the capacity an "uplink" load is relative to. */
double sb_world_uplink_share_bps(const struct sb_sim *sim, uint32_t host)
{
	const struct sb_port *nic = &sim->net.hosts[host]->node.ports[0];
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

void sb_world_note_lossless(struct sb_sim *sim, int prio)
{
	sim->net.lossless_prio_mask |= (uint8_t)(1u << prio);
}

struct sb_flow *sb_world_spawn(const struct sb_wl_run *r, uint32_t src, uint32_t dst, uint64_t size,
			       sb_time start, enum sb_flow_kind kind)
{
	struct sb_flow *f = sb_flow_create(&r->sim->flows, src, dst, size, start, r->transport);
	f->prio = (uint8_t)r->prio;
	f->lossless = r->klass == SB_CLASS_LOSSLESS;
	f->kind = (uint8_t)kind;
	return f;
}

int32_t sb_world_query(const struct sb_wl_run *r, uint32_t host, sb_time start, uint16_t responses,
		       uint32_t responder, uint64_t bytes)
{
	int32_t q = sb_query_new(r->sim, host, start, responses, responder, bytes);
	r->sim->queries[q].ops = r->transport;
	return q;
}

int sb_world_check_host(const struct sb_wl_run *r, const char *key, int64_t h, struct sb_error *err)
{
	uint32_t n = r->sim->net.nhosts;
	if (h < 0 || h >= (int64_t)n)
		return sb_wl_fail(&r->env, key, err, "%lld is not a host (the topology has %u, 0..%u)", (long long)h,
				  n, n - 1);
	return 0;
}
