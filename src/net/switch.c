/*
 * switch.c — forwarding, admission through the MMU, ECN, PFC frames and head drops.
 */
#include "net/switch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "net/pfc.h"
#include "net/net.h"

static inline struct sb_mmu_pkt mmu_view(const struct sb_packet *p, uint16_t out_port)
{
	struct sb_mmu_pkt m = {
		.in_port = p->in_port,
		.out_port = out_port,
		.prio = p->prio,
		.tags = (uint8_t)(((p->flags & SB_PF_FIRST_RTT) ? SB_MT_FIRST_RTT : 0) |
				  ((p->flags & SB_PF_LOSSLESS) ? SB_MT_LOSSLESS : 0)),
		.bytes = p->size,
		.flow_hash = p->hash,
	};
	return m;
}

/* Bytes in a data queue, without reading its line when the port's backlog says it is empty
 * (most packets of a lightly loaded fabric find their queue empty). */
static inline uint64_t queued_bytes(const struct sb_port *port, uint8_t prio)
{
	return (port->backlog & (1u << prio)) ? port->q[prio].bytes : 0;
}

void sb_switch_receive(struct sb_net *net, struct sb_switch *sw, uint16_t in_index, struct sb_packet *pkt)
{
	if (pkt->type == SB_PKT_PFC) {
		sb_pfc_receive(net, &sw->node.ports[in_index], pkt);
		return;
	}
	/* In a large network the MMU's lines were last touched many hops ago: fetch them while
	 * the route is looked up (the usual one-MMU switch names it in the line read anyway). */
	if (sw->only_mmu && pkt->lane == SB_LANE_DATA)
		sb_mmu_prefetch(sw->only_mmu);
	pkt->in_port = in_index;
	uint16_t out = sb_route(&net->routes, &sw->route, pkt->dst, pkt->hash);
	struct sb_port *port = &sw->node.ports[out];
	if (pkt->lane != SB_LANE_DATA) {
		/* Pure ACKs (and RDMA feedback on the control path) travel in the control queue,
		 * outside the shared buffer. */
		sb_port_enqueue(net, port, pkt);
		return;
	}
	struct sb_mmu_pkt m = mmu_view(pkt, out);
	enum sb_drop_cause why = sb_mmu_admit(sb_switch_mmu(sw, out), &m);
	enum sb_sched_arrival to = sb_sched_on_admit(why, port->profile, pkt->prio, pkt->flags & SB_PF_ECT,
						     queued_bytes(port, pkt->prio), pkt->size, &sw->rng);
	if (to == SB_ARRIVAL_DROP) {
		sw->drops[why]++;
		net->stats.drops[why]++;
		net->stats.pkts_dropped++;
		if (pkt->flags & SB_PF_LOSSLESS)
			net->stats.pkts_dropped_lossless++;
		sb_packet_free(&net->engine, pkt);
		return;
	}
	if (to == SB_ARRIVAL_MARK)
		pkt->flags |= SB_PF_CE;
	sb_port_enqueue(net, port, pkt);
}

void sb_switch_on_dequeue(struct sb_net *net, struct sb_switch *sw, struct sb_port *port, struct sb_packet *pkt)
{
	struct sb_mmu_pkt m = mmu_view(pkt, port->index);
	sb_mmu_release(sb_switch_mmu(sw, port->index), &m, SB_RELEASE_TX);
	if (sb_sched_on_dequeue(port->profile, pkt->prio, pkt->flags & SB_PF_ECT, queued_bytes(port, pkt->prio),
				&sw->rng))
		pkt->flags |= SB_PF_CE;
	if (pkt->int_id && pkt->type == SB_PKT_DATA) {
		/* INT (telemetry.h), on data only (an ACK in a data queue carries its record back):
		 * the port's cumulative bytes including this packet (the port counts it after this
		 * hook) and what its data queues hold behind it, all priorities, since they share the
		 * link whose load HPCC and PowerTCP estimate. */
		uint64_t qlen = 0;
		for (int q = 0; q < SB_NPRIO; q++)
			qlen += port->q[q].bytes;
		sb_int_push(&net->engine.telemetry, pkt->int_id, sb_now(&net->engine), port->tx_bytes + pkt->size, port->rate_bps, qlen);
	}
}

/* --- MMU environment: what schemes may ask of the switch --- */

static sb_time env_now(void *ctx)
{
	return sb_now(&((struct sb_switch *)ctx)->node.net->engine);
}

static void env_timer_fire(void *obj, uint64_t timer_id)
{
	sb_mmu_timer(obj, (unsigned)timer_id);
}

static void env_arm_timer(void *ctx, struct sb_mmu *mmu, sb_time at, unsigned timer_id)
{
	struct sb_switch *sw = ctx;
	sb_at(&sw->node.net->engine, at, env_timer_fire, mmu, timer_id);
}

static void env_send_pfc(void *ctx, struct sb_mmu *mmu, uint16_t port, uint8_t prio_mask, bool pause,
			 bool port_level)
{
	struct sb_switch *sw = ctx;
	(void)mmu;
	sb_pfc_send(sw->node.net, &sw->node.ports[port], prio_mask, pause, port_level);
}

static bool env_expel_head(void *ctx, struct sb_mmu *mmu, uint16_t port_index, uint8_t prio)
{
	struct sb_switch *sw = ctx;
	struct sb_net *net = sw->node.net;
	struct sb_packet *p = sb_port_pop_head(&sw->node.ports[port_index], prio);
	if (!p)
		return false;
	struct sb_mmu_pkt m = mmu_view(p, port_index);
	sb_mmu_release(mmu, &m, SB_RELEASE_EXPELLED);
	sw->drops[SB_DROP_EXPELLED]++;
	net->stats.drops[SB_DROP_EXPELLED]++;
	net->stats.pkts_dropped++;
	if (p->flags & SB_PF_LOSSLESS)
		net->stats.pkts_dropped_lossless++;
	sb_packet_free(&net->engine, p);
	return true;
}

int sb_switch_init_mmus(struct sb_net *net, struct sb_switch *sw, const struct sb_switch_params *p,
			sb_mmu_maker_fn make, void *make_ctx, struct sb_error *err)
{
	const struct sb_bm_ops *ops = sb_bm_find(p->scheme);
	if (!ops)
		return sb_fail(err, "switch.scheme: unknown scheme \"%s\" (see `sharebuf list`)", p->scheme);
	if (net->lossless_prio_mask && !ops->lossless && !p->lossless_as_label) {
		/* A lossy scheme would drop lossless packets silently: no PFC, no headroom. */
		char capable[256] = "";
		size_t len = 0;
		for (const struct sb_bm_ops *const *s = sb_bm_all(); *s; s++)
			if ((*s)->lossless && len < sizeof(capable))
				len += (size_t)snprintf(capable + len, sizeof(capable) - len, "%s%s", len ? ", " : "",
							(*s)->name);
		return sb_fail(err,
			       "switch.scheme: \"%s\" has no PFC or headroom, but workloads send lossless traffic "
			       "(class = \"lossless\", priorities 0x%02x); expected a lossless-capable scheme: %s "
			       "(or switch.lossless_as_label = true to use the class only as a label)",
			       p->scheme, net->lossless_prio_mask, capable);
	}

	uint16_t nports = sw->node.nports;
	uint16_t group = p->mmu_ports > 0 && p->mmu_ports < nports ? (uint16_t)p->mmu_ports : nports;
	sw->nmmus = (uint16_t)((nports + group - 1) / group);
	sw->mmus = sb_xcalloc(sw->nmmus, sizeof(*sw->mmus));
	sw->mmu_of_port = sb_xcalloc(nports, sizeof(*sw->mmu_of_port));
	uint64_t *rates = sb_xcalloc(nports, sizeof(*rates));
	sb_time *delays = sb_xcalloc(nports, sizeof(*delays));
	double total_rate = 0;
	for (uint16_t i = 0; i < nports; i++) {
		rates[i] = sw->node.ports[i].rate_bps;
		delays[i] = sw->node.ports[i].delay;
		total_rate += (double)rates[i];
		sw->mmu_of_port[i] = (uint16_t)(i / group);
	}
	uint64_t buffer = sb_switch_buffer_for_rates(p, rates, nports);
	struct sb_mmu_env env = { sw, env_now, env_arm_timer, env_send_pfc, env_expel_head };
	int rc = 0;
	for (uint16_t g = 0; g < sw->nmmus && rc == 0; g++) {
		/* Each MMU gets the share of the buffer its ports' capacity represents. */
		double group_rate = 0;
		for (uint16_t i = (uint16_t)(g * group); i < nports && i < (g + 1) * group; i++)
			group_rate += (double)rates[i];
		struct sb_mmu_config cfg = {
			.nports = nports,
			.buffer_bytes = sw->nmmus == 1 ? buffer : (uint64_t)((double)buffer * group_rate / total_rate),
			.cell_bytes = (uint32_t)p->cell_bytes,
			.port_rate_bps = rates,
			.port_delay_ps = delays,
			.max_frame_bytes = net->max_frame_bytes,
			.lossless_prio_mask = net->lossless_prio_mask,
			.port_lo = (uint16_t)(g * group),
			.port_hi = (uint16_t)SB_MIN((uint32_t)(g + 1) * group, (uint32_t)nports),
			.seed = sb_mix64(net->seed ^ ((uint64_t)sw->index << 16) ^ g),
		};
		struct sb_mmu *m = make(make_ctx, &cfg, &env, sw->node.name, err);
		if (!m) {
			rc = -1;
			break;
		}
		m->id = g;
		sw->mmus[g] = m;
	}
	free(rates);
	free(delays);
	if (rc == 0 && sw->nmmus == 1)
		sw->only_mmu = sw->mmus[0];
	return rc;
}

void sb_switch_free(struct sb_switch *sw)
{
	for (uint16_t g = 0; g < sw->nmmus; g++)
		sb_mmu_free(sw->mmus[g]);
	free(sw->mmus);
	free(sw->mmu_of_port);
}
