/*
 * sim.c — building, running, checking and freeing a simulation; delivery to the transports.
 */
#include "sim/sim.h"

#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "net/deadlock.h"
#include "net/pfc.h"
#include "net/switch.h"
#include "sim/estimate.h"
#include "sim/report.h"
#include "sim/scenario_mmu.h"
#include "topo/topo.h"
#include "transport/rdma_nic.h"
#include "transport/transport.h"
#include "workload/workload.h"

void sb_flow_acked(struct sb_sim *sim, struct sb_flow *f, uint64_t cumulative_ack);

/* --- path facts --- */

sb_time sb_base_rtt(const struct sb_sim *sim, uint32_t src, uint32_t dst, uint32_t pkt_bytes)
{
	return sb_path_rtt(&sim->net, src, dst, pkt_bytes, (uint32_t)sim->sc->tcp.ack_bytes);
}

static struct sb_framing tcp_framing(const struct sb_sim *sim)
{
	const struct sb_tcp_params *t = &sim->sc->tcp;
	return (struct sb_framing){ (uint32_t)t->mss, (uint32_t)t->header_bytes, (uint32_t)t->ack_bytes };
}

struct sb_framing sb_transport_framing(const struct sb_sim *sim, const struct sb_transport_ops *ops)
{
	return ops && ops->framing ? ops->framing(sim) : tcp_framing(sim);
}

/*
 * Ideal FCT (docs/outputs.md): the base RTT of the path for the flow's first packet plus the
 * remaining wire bytes at the bottleneck rate:
 *   ideal = 2·Σ prop + Σ_hops ser(first packet) + Σ_hops ser(ACK) + (wire_bytes − first) · 8 / C_min
 * and, for transports that complete at the receiver, the one-way part only:
 *   ideal_oneway = Σ prop + Σ_hops ser(first packet) + (wire_bytes − first) · 8 / C_min
 * with wire_bytes = size + ceil(size / payload) · header, in the transport's framing (TCP's:
 * tcp.mss and tcp.header_bytes). This is exactly the FCT of a flow alone on a path of equal
 * link rates sending at line rate, so slowdown ≥ 1 up to rounding.
 */
static sb_time ideal(const struct sb_sim *sim, uint32_t src, uint32_t dst, uint64_t size, bool with_ack,
		     struct sb_framing fr)
{
	uint64_t mss = fr.payload;
	uint64_t pkts = size ? (size + mss - 1) / mss : 1;
	uint64_t wire = size + pkts * fr.header;
	uint32_t first = (uint32_t)((size < mss ? size : mss) + fr.header);
	struct sb_path_sum s = sb_path_walk(&sim->net, src, dst, first, fr.ack);
	sb_time one_way = s.prop + s.ser_data + sb_tx_time(wire - first, s.bottleneck_bps);
	return with_ack ? one_way + s.prop + s.ser_ack : one_way;
}

sb_time sb_ideal_fct(const struct sb_sim *sim, uint32_t src, uint32_t dst, uint64_t size)
{
	return ideal(sim, src, dst, size, true, tcp_framing(sim));
}

sb_time sb_ideal_fct_oneway(const struct sb_sim *sim, uint32_t src, uint32_t dst, uint64_t size)
{
	return ideal(sim, src, dst, size, false, tcp_framing(sim));
}

sb_time sb_transport_ideal_fct(const struct sb_sim *sim, const struct sb_transport_ops *ops, uint32_t src,
			       uint32_t dst, uint64_t size)
{
	sb_time setup = ops && ops->setup_time ? ops->setup_time(sim, src, dst) : 0;
	return setup + ideal(sim, src, dst, size, !ops || ops->on_ack != NULL, sb_transport_framing(sim, ops));
}

/* --- lifecycle --- */

/* The network's delivery hook: a packet reached host `host`; its flow's transport takes it. */
static void host_deliver(void *ctx, struct sb_host *host, struct sb_packet *pkt)
{
	struct sb_sim *sim = ctx;
	struct sb_flow *f = sb_flow_get(sim, pkt->flow);
	/* a flow is released only once none of its packets exists, so this one's flow is live */
	if (pkt->type == SB_PKT_DATA) {
		f->ops->on_data(sim, f, pkt);
	} else if (f->ops->on_ack) {
		f->ops->on_ack(sim, f, pkt);
		/* a CNP or a handshake packet acknowledges no data */
		if (pkt->type == SB_PKT_ACK || pkt->type == SB_PKT_NACK)
			sb_flow_acked(sim, f, pkt->seq);
	}
	sb_packet_recycle(&sim->net.engine, pkt);
	sb_flow_packet_gone_of(sim, f); /* last: it may release f */
}

/* The engine's packet_gone hook: a freed packet of a flow is one less in the network. */
static void packet_gone(void *sim, uint32_t flow)
{
	sb_flow_packet_gone(sim, flow);
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
	sb_engine_init(&sim->net.engine, packet_gone, sim);
	sim->net.seed = sim->seed;
	sim->net.deliver = host_deliver;
	sim->net.deliver_ctx = sim;
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
	if (rc == 0)
		rc = sb_workloads_start(sim, err);
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
	sb_workloads_free(sim);
	for (uint32_t i = 0; i < sim->net.nnodes; i++)
		if (sim->net.nodes[i]->kind == SB_NODE_HOST)
			sb_rdma_nic_free(((struct sb_host *)sim->net.nodes[i])->rdma);
	sb_flow_table_free(&sim->flows);
	free(sim->records);
	free(sim->queries);
	sb_net_free(&sim->net);
	memset(sim, 0, sizeof(*sim));
}

uint32_t sb_sim_max_frame_bytes(const struct sb_sim *sim)
{
	return sb_scenario_max_frame_bytes(sim->sc);
}

uint32_t sb_scenario_max_frame_bytes(const struct sb_scenario *sc)
{
	int64_t tcp = sc->tcp.mss + sc->tcp.header_bytes, rdma = sc->rdma.mtu + sc->rdma.header_bytes;
	return (uint32_t)(tcp > rdma ? tcp : rdma);
}
