/*
 * sim.c — building, running, checking and freeing a simulation; the flows' observer.
 */
#include "sim/sim.h"

#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "net/deadlock.h"
#include "net/pfc.h"
#include "net/switch.h"
#include "sim/estimate.h"
#include "sim/flowlog.h"
#include "sim/report.h"
#include "scenario/scenario_mmu.h"
#include "topo/topo.h"
#include "transport/rdma_nic.h"
#include "transport/transport.h"
#include "workload/workload.h"

/* --- lifecycle --- */

/* The flows' observer (transport/flows.h): the run's records, flow log, queries and report. */
static void flow_created(void *ctx, struct sb_flow *f)
{
	sb_report_flow_created(ctx, f);
}

static void flow_completed(void *ctx, struct sb_flow *f, const struct sb_flow_result *r)
{
	struct sb_sim *sim = ctx;
	sb_flowlog_add(sim, r);
	if (sim->flows.keep_finished) {
		if (sim->nrecords == sim->records_cap) {
			sim->records_cap = sim->records_cap ? sim->records_cap * 2 : 4096;
			sim->records = sb_xrealloc(sim->records, sim->records_cap * sizeof(*sim->records));
		}
		sim->records[sim->nrecords++] = *r;
	}
	if (f->query_id >= 0) {
		struct sb_query *q = &sim->queries[f->query_id];
		q->done++;
		if (f->finish > q->last_finish)
			q->last_finish = f->finish;
	}
}

static void flow_released(void *ctx, struct sb_flow *f)
{
	sb_report_flow_released(ctx, f);
}

int32_t sb_query_new(struct sb_sim *sim, uint32_t host, sb_time start, uint16_t responses,
		     uint32_t responder, uint64_t bytes)
{
	if (sim->nqueries == sim->queries_cap) {
		sim->queries_cap = sim->queries_cap ? sim->queries_cap * 2 : 256;
		sim->queries = sb_xrealloc(sim->queries, sim->queries_cap * sizeof(*sim->queries));
	}
	sim->queries[sim->nqueries] = (struct sb_query){
		.start = start, .host = host, .responder = responder, .bytes = bytes, .responses = responses,
	};
	return (int32_t)sim->nqueries++;
}

/* The workloads' hooks (workload/world.h): their keys are the scenario's, their queries the
 * report's. */
static struct sb_wl_env workload_env(const void *sc, size_t wi)
{
	return sb_scenario_workload_env(sc, wi);
}

static int32_t workload_query(void *ctx, uint32_t host, sb_time start, uint16_t responses, uint32_t responder,
			      uint64_t bytes, const struct sb_transport_ops *ops)
{
	struct sb_sim *sim = ctx;
	int32_t q = sb_query_new(sim, host, start, responses, responder, bytes);
	sim->queries[q].ops = ops;
	return q;
}

int sb_sim_build(struct sb_sim *sim, const struct sb_scenario *sc, struct sb_error *err)
{
	memset(sim, 0, sizeof(*sim));
	sim->sc = sc;
	sim->seed = (uint64_t)sc->run.seed;
	/* before anything is allocated: a scenario too large for the machine is refused, not
	 * built until the kernel kills the process */
	if (sb_check_memory(sc, err))
		return -1;
	sb_engine_init(&sim->net.engine, sb_flows_packet_gone, &sim->flows);
	sim->net.seed = sim->seed;
	sim->net.deliver = sb_flows_deliver;
	sim->net.deliver_ctx = &sim->flows;
	sim->flows = (struct sb_flows){
		.net = &sim->net, .tcp = &sc->tcp, .rdma = &sc->rdma, .seed = sim->seed,
		.obs = { flow_created, flow_completed, flow_released, sim },
	};
	sim->net.pfc_params = &sc->pfc;
	sim->net.max_frame_bytes = sb_scenario_max_frame_bytes(sc);
	sim->stop_at = sb_time_from_ms(sc->run.duration_ms);
	sim->net.stop_at = sim->stop_at;
	sim->arrivals_end = sc->run.arrivals_ms > 0 ? sb_time_from_ms(sc->run.arrivals_ms) : sim->stop_at;
	if (sim->arrivals_end > sim->stop_at)
		sim->arrivals_end = sim->stop_at;

	struct sb_topo_plan plan;
	int rc = sb_topo_plan_make(&plan, &sc->topo, err);
	if (rc == 0)
		rc = sb_topo_plan_remove_links(&plan, &sc->topo.remove_links, sc->source, err);
	if (rc == 0)
		rc = sb_topo_build(&sim->net, &plan, err);
	sb_topo_plan_free(&plan);
	if (rc == 0)
		sb_net_configure_hosts(&sim->net, &sc->host);
	/* Workloads first: they only create flows and schedule events, and they tell which
	 * priorities carry lossless traffic (file workloads per line), which the MMUs need. */
	sim->wl = (struct sb_wl_world){
		.flows = &sim->flows, .workloads = sc->workloads, .nworkloads = sc->nworkloads,
		.env = workload_env, .env_ctx = sc, .seed = sim->seed, .arrivals_end = sim->arrivals_end,
		.query_new = workload_query, .query_ctx = sim,
	};
	if (rc == 0)
		rc = sb_workloads_start(&sim->wl, err);
	for (uint32_t s = 0; rc == 0 && s < sim->net.nswitches; s++) {
		sb_net_configure_switch_ports(&sim->net, sim->net.switches[s], &sc->sw);
		rc = sb_switch_init_mmus(&sim->net, sim->net.switches[s], &sc->sw, sb_scenario_mmu_maker, (void *)sc, err);
	}
	if (rc == 0 && sim->net.lossless_prio_mask)
		sim->net.deadlock = sb_deadlock_new(&sim->net);
	return rc;
}

void sb_sim_run(struct sb_sim *sim)
{
	sb_report_run_start(sim);
	sb_time step = sim->stop_at / 100 + 1;
	for (sb_time t = step; ; t += step) {
		sb_time until = t < sim->stop_at ? t : sim->stop_at;
		sb_eventq_run_until(&sim->net.engine.eq, until);
		sb_report_progress(sim, until);
		if (until >= sim->stop_at || sb_eventq_peek_time(&sim->net.engine.eq) == SB_TIME_NEVER)
			break;
	}
	sb_report_run_end(sim);
}

static uint64_t count_fifo(const struct sb_fifo *f, bool pfc_only, bool exclude_pfc, uint64_t *with_int)
{
	uint64_t n = 0;
	for (const struct sb_packet *p = f->head; p; p = p->next) {
		bool is_pfc = p->type == SB_PKT_PFC;
		if ((pfc_only && is_pfc) || (exclude_pfc && !is_pfc) || (!pfc_only && !exclude_pfc))
			n++;
		if (p->int_id && with_int)
			(*with_int)++;
	}
	return n;
}

int sb_sim_check(struct sb_sim *sim, struct sb_error *err)
{
	uint64_t in_network = 0, queued_pfc = 0, with_int = 0;
	for (uint32_t i = 0; i < sim->net.nnodes; i++) {
		struct sb_node *n = sim->net.nodes[i];
		for (uint16_t p = 0; p < n->nports; p++) {
			struct sb_port *port = &n->ports[p];
			in_network += count_fifo(&port->ctrl, false, true, &with_int);
			queued_pfc += count_fifo(&port->ctrl, true, false, NULL);
			for (const struct sb_packet *k = port->wire.head; k; k = k->next) {
				with_int += k->int_id != 0;
				if (k->type == SB_PKT_PFC)
					queued_pfc++;
				else
					in_network++;
			}
			for (int q = 0; q < SB_NPRIO; q++) {
				in_network += port->q[q].pkts;
				for (const struct sb_packet *k = port->q[q].head; k; k = k->next)
					with_int += k->int_id != 0;
			}
		}
	}
	struct sb_net_stats *s = &sim->net.stats;
	if (s->pkts_sent != s->pkts_delivered + s->pkts_dropped + in_network)
		return sb_fail(err,
			       "packet conservation: %llu sent != %llu delivered + %llu dropped + %llu in the network",
			       (unsigned long long)s->pkts_sent, (unsigned long long)s->pkts_delivered,
			       (unsigned long long)s->pkts_dropped, (unsigned long long)in_network);
	uint64_t live = sim->net.engine.packets.live;
	if (live != in_network + queued_pfc)
		return sb_fail(err, "packet pool: %llu packets live but %llu in the network",
			       (unsigned long long)live, (unsigned long long)(in_network + queued_pfc));
	if (sim->net.engine.telemetry.live != with_int)
		return sb_fail(err, "telemetry: %llu INT records live but %llu packets hold one",
			       (unsigned long long)sim->net.engine.telemetry.live, (unsigned long long)with_int);
	for (uint32_t i = 0; i < sim->net.nswitches; i++) {
		struct sb_switch *sw = sim->net.switches[i];
		for (uint16_t g = 0; g < sw->nmmus; g++) {
			if (sb_mmu_check(sw->mmus[g], err)) {
				char why[sizeof(err->msg)];
				snprintf(why, sizeof(why), "%s", err->msg);
				return sb_fail(err, "switch %s MMU %u: %s", sw->node.name, g, why);
			}
			/* what the MMU holds is exactly what the data queues of its ports hold */
			uint64_t held = 0;
			for (uint16_t p = 0; p < sw->node.nports; p++)
				if (sw->mmu_of_port[p] == g)
					for (int q = 0; q < SB_NPRIO; q++)
						held += sw->node.ports[p].q[q].bytes;
			struct sb_mmu *m = sw->mmus[g];
			uint64_t held_units = 0;
			for (uint16_t p = 0; p < sw->node.nports; p++)
				if (sw->mmu_of_port[p] == g)
					for (int q = 0; q < SB_NPRIO; q++)
						for (const struct sb_packet *k = sw->node.ports[p].q[q].head; k; k = k->next)
							held_units += sb_mmu_units(m, k->size);
			if (held_units != m->used)
				return sb_fail(err, "switch %s MMU %u accounts %llu units but its queues hold %llu (%llu bytes)",
					       sw->node.name, g, (unsigned long long)m->used,
					       (unsigned long long)held_units, (unsigned long long)held);
		}
	}
	return 0;
}

void sb_sim_free(struct sb_sim *sim)
{
	sb_report_free(sim);
	sb_workloads_free(&sim->wl);
	for (uint32_t i = 0; i < sim->net.nnodes; i++)
		if (sim->net.nodes[i]->kind == SB_NODE_HOST)
			sb_rdma_nic_free(((struct sb_host *)sim->net.nodes[i])->rdma);
	sb_flows_free(&sim->flows);
	free(sim->records);
	free(sim->queries);
	sb_net_free(&sim->net);
	memset(sim, 0, sizeof(*sim));
}

uint32_t sb_sim_max_frame_bytes(const struct sb_sim *sim)
{
	return sb_scenario_max_frame_bytes(sim->sc);
}
