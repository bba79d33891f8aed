/*
 * sim.c — building, running, checking and freeing a simulation; host send/receive.
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
#include "topo/topo.h"
#include "transport/rdma_nic.h"
#include "transport/transport.h"
#include "workload/workload.h"

void sb_flow_acked(struct sb_sim *sim, struct sb_flow *f, uint64_t cumulative_ack);

/* Once per run (then nic_warn_at is raised out of reach): the first NIC queue, with no
 * host.nic_buffer_bytes, that holds more than SB_NIC_WARN_BYTES. Its flow sees no congestion
 * signal on its path, and the simulation's memory grows with the queue. */
static void nic_warn(struct sb_sim *sim, uint64_t bytes, uint32_t src, uint32_t dst, uint32_t flow, uint8_t prio)
{
	sim->nic_warn_at = UINT64_MAX;
	fprintf(stderr,
		"sharebuf: warning: at %.3f ms host %u's NIC holds %llu B of priority %u (flow %u, host %u -> %u), "
		"more than %llu B: host.nic_buffer_bytes = 0 sets no limit, so a flow that "
		"meets no congested switch port sees neither ECN nor loss; set host.nic_buffer_bytes to bound it "
		"(reported once per run)\n",
		sb_time_to_us(sb_now(&sim->engine)) / 1e3, src, (unsigned long long)bytes, prio, flow, src, dst,
		(unsigned long long)SB_NIC_WARN_BYTES);
}

void sb_host_send(struct sb_sim *sim, struct sb_packet *pkt)
{
	struct sb_port *nic = &sim->host_nics[pkt->src];
	sim->stats.pkts_sent++;
	if (sim->inject && sim->inject(sim->inject_ctx, pkt)) {
		sim->stats.drops_injected++;
		sim->stats.pkts_dropped++;
		sb_packet_free(&sim->engine, pkt);
		return;
	}
	if (sim->nic_limit && pkt->type == SB_PKT_DATA) {
		uint64_t queued = 0;
		for (int q = 0; q < SB_NPRIO; q++)
			queued += nic->q[q].bytes;
		if (queued + pkt->size > sim->nic_limit) {
			sim->stats.drops_nic++;
			sim->hosts[pkt->src]->nic_drops++;
			sim->stats.pkts_dropped++;
			if (pkt->flags & SB_PF_LOSSLESS)
				sim->stats.pkts_dropped_lossless++;
			sb_packet_free(&sim->engine, pkt);
			return;
		}
	}
	uint8_t prio = pkt->prio;
	uint32_t flow = pkt->flow, src = pkt->src, dst = pkt->dst;
	if (sim->nic_control_fifo)
		sb_port_enqueue_fifo(sim, nic, pkt); /* one FIFO per priority for all the host sends */
	else
		sb_port_enqueue(sim, nic, pkt);
	/* one compare, on the counter the enqueue has just written (SB_NIC_WARN_BYTES) */
	if (nic->q[prio].bytes > sim->nic_warn_at)
		nic_warn(sim, nic->q[prio].bytes, src, dst, flow, prio);
}

static void host_receive(struct sb_sim *sim, struct sb_node *host, uint16_t in_index, struct sb_packet *pkt)
{
	if (pkt->type == SB_PKT_PFC) {
		sb_pfc_receive(sim, &host->ports[in_index], pkt);
		return;
	}
	sim->stats.pkts_delivered++;
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
	sb_packet_recycle(&sim->engine, pkt);
	sb_flow_packet_gone_of(sim, f); /* last: it may release f */
}

void sb_node_receive(struct sb_sim *sim, const struct sb_port *from, struct sb_packet *pkt)
{
	if (from->peer_kind == SB_NODE_SWITCH)
		sb_switch_receive(sim, (struct sb_switch *)from->peer_node, from->peer_index, pkt);
	else
		host_receive(sim, from->peer_node, from->peer_index, pkt);
}

/* --- path facts --- */

/* Walk one shortest path (the first ECMP choice at every hop): all ECMP paths of the supported
 * topologies have the same length and link rates. */
struct path_sum {
	sb_time prop;
	sb_time ser_data, ser_ack;
	uint64_t bottleneck_bps;
};

static struct path_sum walk(const struct sb_sim *sim, uint32_t src, uint32_t dst, uint32_t data_bytes,
			    uint32_t ack_bytes)
{
	struct path_sum s = { 0, 0, 0, UINT64_MAX };
	const struct sb_port *p = &sim->hosts[src]->node.ports[0];
	for (int hop = 0; hop < 64; hop++) {
		s.prop += p->delay;
		s.ser_data += sb_tx_time(data_bytes, p->rate_bps);
		s.ser_ack += sb_tx_time(ack_bytes, p->peer->rate_bps);
		if (p->rate_bps < s.bottleneck_bps)
			s.bottleneck_bps = p->rate_bps;
		const struct sb_node *n = p->peer->node;
		if (n->kind == SB_NODE_HOST)
			break;
		const struct sb_switch *sw = (const struct sb_switch *)n;
		uint16_t first = 0;
		sb_route_group(&sim->routes, &sw->route, dst, &first, 1);
		p = &sw->node.ports[first];
	}
	return s;
}

sb_time sb_path_rtt(const struct sb_sim *sim, uint32_t src, uint32_t dst, uint32_t data_bytes, uint32_t ack_bytes)
{
	struct path_sum s = walk(sim, src, dst, data_bytes, ack_bytes);
	return 2 * s.prop + s.ser_data + s.ser_ack;
}

sb_time sb_base_rtt(const struct sb_sim *sim, uint32_t src, uint32_t dst, uint32_t pkt_bytes)
{
	return sb_path_rtt(sim, src, dst, pkt_bytes, (uint32_t)sim->sc->tcp.ack_bytes);
}

uint64_t sb_bottleneck_bps(const struct sb_sim *sim, uint32_t src, uint32_t dst)
{
	return walk(sim, src, dst, 0, 0).bottleneck_bps;
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
	struct path_sum s = walk(sim, src, dst, first, fr.ack);
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

/* The shared copy of a port profile: ports of equal configuration get the same one. */
static const struct sb_port_profile *intern_profile(struct sb_sim *sim, const struct sb_port_profile *profile)
{
	for (size_t i = 0; i < sim->nport_profiles; i++)
		if (!memcmp(sim->port_profiles[i], profile, sizeof(*profile)))
			return sim->port_profiles[i];
	sim->port_profiles = sb_xrealloc(sim->port_profiles, (sim->nport_profiles + 1) * sizeof(*sim->port_profiles));
	struct sb_port_profile *copy = sb_xmalloc(sizeof(*copy));
	memcpy(copy, profile, sizeof(*copy));
	return sim->port_profiles[sim->nport_profiles++] = copy;
}

static void set_quanta(struct sb_port_profile *profile, const double weight[SB_NPRIO], double quantum_bytes)
{
	for (int q = 0; q < SB_NPRIO; q++) {
		double quantum = weight[q] * quantum_bytes;
		profile->quantum[q] = quantum < 1 ? 1 : (uint32_t)quantum;
	}
}

static void configure_nic(struct sb_sim *sim, struct sb_host *h, const struct sb_host_params *p)
{
	struct sb_port *nic = &h->node.ports[0];
	nic->sched = (uint8_t)p->sched;
	struct sb_port_profile profile;
	memset(&profile, 0, sizeof(profile)); /* padding too: profiles are compared with memcmp */
	set_quanta(&profile, p->drr_weight, (double)p->drr_quantum_bytes);
	nic->profile = intern_profile(sim, &profile);
	if (p->nic_rate_gbps > 0)
		sb_port_set_rate(nic, (uint64_t)(p->nic_rate_gbps * 1e9 + 0.5));
}

static void configure_switch_ports(struct sb_sim *sim, struct sb_switch *sw, const struct sb_switch_params *p)
{
	for (uint16_t i = 0; i < sw->node.nports; i++) {
		struct sb_port *port = &sw->node.ports[i];
		port->sched = (uint8_t)p->sched;
		struct sb_port_profile profile;
		memset(&profile, 0, sizeof(profile)); /* padding too: profiles are compared with memcmp */
		profile.ecn_at_dequeue = p->ecn_at == SB_ECN_AT_DEQUEUE;
		sb_switch_port_tables(p, port->rate_bps, profile.ecn, profile.quantum);
		port->profile = intern_profile(sim, &profile);
	}
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
	sb_engine_init(&sim->engine, packet_gone, sim);
	sim->stop_at = sb_time_from_ms(sc->run.duration_ms);
	sim->arrivals_end = sc->run.arrivals_ms > 0 ? sb_time_from_ms(sc->run.arrivals_ms) : sim->stop_at;
	if (sim->arrivals_end > sim->stop_at)
		sim->arrivals_end = sim->stop_at;

	struct sb_topo_plan plan;
	int rc = sb_topo_plan_make(&plan, &sc->topo, err);
	if (rc == 0)
		rc = sb_topo_plan_remove_links(&plan, &sc->topo.remove_links, sc->source, err);
	if (rc == 0)
		rc = sb_topo_build(sim, &plan, err);
	sb_topo_plan_free(&plan);
	sim->nic_limit = (uint64_t)sc->host.nic_buffer_bytes;
	sim->nic_warn_at = sim->nic_limit ? UINT64_MAX : SB_NIC_WARN_BYTES;
	sim->nic_control_fifo = sc->host.control_queue == SB_NIC_CONTROL_FIFO;
	sim->send_jitter = sb_time_from_us(sc->host.send_jitter_us);
	if (rc == 0 && sim->send_jitter) {
		sim->send_jitter_rng = sb_xcalloc(sim->nhosts, sizeof *sim->send_jitter_rng);
		for (uint32_t h = 0; h < sim->nhosts; h++)
			sb_rng_init(&sim->send_jitter_rng[h], sim->seed, SB_STREAM_NIC + h);
	}
	for (uint32_t h = 0; rc == 0 && h < sim->nhosts; h++)
		configure_nic(sim, sim->hosts[h], &sc->host);
	/* Workloads first: they only create flows and schedule events, and they tell which
	 * priorities carry lossless traffic (file workloads per line), which the MMUs need. */
	if (rc == 0)
		rc = sb_workloads_start(sim, err);
	for (uint32_t s = 0; rc == 0 && s < sim->nswitches; s++) {
		configure_switch_ports(sim, sim->switches[s], &sc->sw);
		rc = sb_switch_init_mmus(sim, sim->switches[s], sc, err);
	}
	if (rc == 0 && sim->lossless_prio_mask)
		sim->deadlock = sb_deadlock_new(sim);
	return rc;
}

void sb_sim_run(struct sb_sim *sim)
{
	sb_report_run_start(sim);
	sb_time step = sim->stop_at / 100 + 1;
	for (sb_time t = step; ; t += step) {
		sb_time until = t < sim->stop_at ? t : sim->stop_at;
		sb_eventq_run_until(&sim->engine.eq, until);
		sb_report_progress(sim, until);
		if (until >= sim->stop_at || sb_eventq_peek_time(&sim->engine.eq) == SB_TIME_NEVER)
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
	for (uint32_t i = 0; i < sim->nnodes; i++) {
		struct sb_node *n = sim->nodes[i];
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
	struct sb_stats *s = &sim->stats;
	if (s->pkts_sent != s->pkts_delivered + s->pkts_dropped + in_network)
		return sb_fail(err,
			       "packet conservation: %llu sent != %llu delivered + %llu dropped + %llu in the network",
			       (unsigned long long)s->pkts_sent, (unsigned long long)s->pkts_delivered,
			       (unsigned long long)s->pkts_dropped, (unsigned long long)in_network);
	uint64_t live = sim->engine.packets.live;
	if (live != in_network + queued_pfc)
		return sb_fail(err, "packet pool: %llu packets live but %llu in the network",
			       (unsigned long long)live, (unsigned long long)(in_network + queued_pfc));
	if (sim->engine.telemetry.live != with_int)
		return sb_fail(err, "telemetry: %llu INT records live but %llu packets hold one",
			       (unsigned long long)sim->engine.telemetry.live, (unsigned long long)with_int);
	for (uint32_t i = 0; i < sim->nswitches; i++) {
		struct sb_switch *sw = sim->switches[i];
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
	sb_deadlock_free(sim->deadlock);
	sb_pfc_record_free(&sim->pfc);
	for (uint32_t i = 0; i < sim->nnodes; i++) {
		struct sb_node *n = sim->nodes[i];
		if (n->kind == SB_NODE_SWITCH) {
			sb_switch_free((struct sb_switch *)n);
			free(n->ports);
		} else {
			sb_rdma_nic_free(((struct sb_host *)n)->rdma); /* its port is in host_nics */
		}
		free(n);
	}
	free(sim->nodes);
	free(sim->host_nics);
	free(sim->send_jitter_rng);
	sb_routes_free(&sim->routes);
	for (size_t i = 0; i < sim->nport_profiles; i++)
		free(sim->port_profiles[i]);
	free(sim->port_profiles);
	free(sim->rack_first);
	free(sim->rack_count);
	free(sim->hosts);
	free(sim->switches);
	sb_flow_table_free(&sim->flows);
	free(sim->records);
	free(sim->queries);
	sb_engine_free(&sim->engine);
	memset(sim, 0, sizeof(*sim));
}

uint32_t sb_sim_max_frame_bytes(const struct sb_sim *sim)
{
	return sb_scenario_max_frame_bytes(sim->sc);
}
