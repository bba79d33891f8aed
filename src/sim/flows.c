/*
 * flows.c — the flow table, flow timers, completion and the records reported in flows.csv.
 */
#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "sim/flowlog.h"
#include "sim/report.h"
#include "sim/sim.h"
#include "transport/transport.h"

const char *const sb_flow_kind_name[SB_KIND_N] = {
	[SB_KIND_BACKGROUND] = "background", [SB_KIND_INCAST] = "incast",
	[SB_KIND_LONGLIVED] = "longlived",   [SB_KIND_CBR] = "cbr",
	[SB_KIND_FILE] = "file",             [SB_KIND_BURST] = "burst",
};

void sb_flow_start(struct sb_sim *sim, struct sb_flow *f)
{
	sim->stats.flows_started++;
	if (sim->plan) {
		sim->plan(sim->plan_ctx, sim, f);
		return;
	}
	f->ops->start(sim, f);
}

static void flow_start(void *obj, uint64_t id)
{
	struct sb_sim *sim = obj;
	sb_flow_start(sim, sb_flow_get(sim, (uint32_t)id)); /* not released: it has not completed */
}

static void init_flow(struct sb_sim *sim, struct sb_flow *f, uint32_t src, uint32_t dst, uint64_t size,
		      sb_time start, const struct sb_transport_ops *ops)
{
	/* the slot is zeroed, tx included: a TCP receiver may see data before its sender
	 * started (tests) */
	f->src = src;
	f->dst = dst;
	f->size = size;
	f->start = start;
	f->ops = ops;
	f->query_id = -1;
	f->prio = 1;
	/* The ECMP hash of the 5-tuple: deterministic per (seed, flow). */
	f->hash = (uint32_t)sb_mix64(sim->seed ^ ((uint64_t)f->id << 20) ^ ((uint64_t)src << 40) ^ dst);
	f->timer_at = f->timer_scheduled = SB_TIME_NEVER;
	sb_report_flow_created(sim, f);
}

struct sb_flow *sb_flow_create(struct sb_sim *sim, uint32_t src, uint32_t dst, uint64_t size,
			       sb_time start, const struct sb_transport_ops *ops)
{
	struct sb_flow *f = sb_flow_table_add(&sim->flows);
	init_flow(sim, f, src, dst, size, start, ops);
	sb_at(&sim->net.engine, start, flow_start, sim, f->id);
	return f;
}

struct sb_flow *sb_flow_create_reserved(struct sb_sim *sim, uint32_t id, uint32_t src, uint32_t dst, uint64_t size,
					sb_time start, const struct sb_transport_ops *ops)
{
	struct sb_flow *f = sb_flow_table_add_reserved(&sim->flows, id);
	init_flow(sim, f, src, dst, size, start, ops);
	return f;
}

/* A flow's timer fires. Stale events (the deadline moved) are recognised and skipped; a
 * deadline moved later is re-armed lazily here, so moving a timer never touches the heap. */
static void flow_timer(void *obj, uint64_t id)
{
	struct sb_sim *sim = obj;
	struct sb_flow *f = sb_flow_get(sim, (uint32_t)id);
	sb_time now = sb_now(&sim->net.engine);
	/* released: this was its last, stale, firing (a released flow wants no timer) */
	if (!f || f->timer_scheduled != now)
		return;
	f->timer_scheduled = SB_TIME_NEVER;
	if (f->timer_at == SB_TIME_NEVER)
		return;
	if (f->timer_at > now) {
		f->timer_scheduled = f->timer_at;
		sb_at(&sim->net.engine, f->timer_at, flow_timer, sim, id);
		return;
	}
	f->timer_at = SB_TIME_NEVER;
	if (f->ops->on_timer)
		f->ops->on_timer(sim, f);
	sb_flow_release_if_done(sim, f);
}

struct sb_packet *sb_flow_control_packet(struct sb_sim *sim, struct sb_flow *f, uint8_t type, uint64_t seq,
					 uint32_t size, uint8_t lane, bool to_sender)
{
	struct sb_packet *p = sb_packet_new(&sim->net.engine);
	p->type = type;
	p->lane = lane;
	p->seq = seq;
	p->size = size;
	p->flow = f->id;
	f->in_network++;
	p->src = to_sender ? f->dst : f->src;
	p->dst = to_sender ? f->src : f->dst;
	p->hash = f->hash;
	p->prio = f->prio;
	p->flags = f->lossless ? SB_PF_LOSSLESS : 0;
	return p;
}

struct sb_packet *sb_flow_data_packet(struct sb_sim *sim, struct sb_flow *f, uint64_t seq,
				      uint32_t payload, uint32_t header, uint64_t first_rtt_end)
{
	struct sb_packet *p = sb_packet_new(&sim->net.engine);
	p->type = SB_PKT_DATA;
	p->seq = seq;
	p->payload = (uint16_t)payload;
	p->size = payload + header;
	p->flow = f->id;
	f->in_network++;
	p->src = f->src;
	p->dst = f->dst;
	p->hash = f->hash;
	p->prio = f->prio;
	p->t_sent = sb_now(&sim->net.engine);
	p->flags = (uint8_t)((f->ecn ? SB_PF_ECT : 0) | (f->lossless ? SB_PF_LOSSLESS : 0) |
			     (seq < first_rtt_end ? SB_PF_FIRST_RTT : 0));
	return p;
}

void sb_flow_arm_timer(struct sb_sim *sim, struct sb_flow *f, sb_time at)
{
	f->timer_at = at;
	if (at != SB_TIME_NEVER && at < f->timer_scheduled) {
		f->timer_scheduled = at;
		sb_at(&sim->net.engine, at, flow_timer, sim, f->id);
	}
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

void sb_flow_complete_at(struct sb_sim *sim, struct sb_flow *f, sb_time now, sb_time rx_when)
{
	f->completed = true;
	f->finish = now;
	sb_flow_arm_timer(sim, f, SB_TIME_NEVER);
	sim->stats.flows_completed++;
	struct sb_flow_result r = {
		.id = f->id, .src = f->src, .dst = f->dst, .size = f->size,
		.prio = f->prio, .lossless = f->lossless, .kind = f->kind, .query_id = f->query_id,
		.start = f->start, .fct = now - f->start,
		.ideal = sb_transport_ideal_fct(sim, f->ops, f->src, f->dst, f->size),
		.rx_fct = rx_when - f->start,
	};
	sb_flowlog_add(sim, &r);
	if (sim->keep_finished) {
		if (sim->nrecords == sim->records_cap) {
			sim->records_cap = sim->records_cap ? sim->records_cap * 2 : 4096;
			sim->records = sb_xrealloc(sim->records, sim->records_cap * sizeof(*sim->records));
		}
		sim->records[sim->nrecords++] = r;
	}
	if (f->query_id >= 0) {
		struct sb_query *q = &sim->queries[f->query_id];
		q->done++;
		if (now > q->last_finish)
			q->last_finish = now;
	}
	sb_flow_release_if_done(sim, f);
}

static void flow_complete(struct sb_sim *sim, struct sb_flow *f)
{
	sb_time now = sb_now(&sim->net.engine);
	sb_flow_complete_at(sim, f, now, f->done ? f->received : now);
}

void sb_flow_received(struct sb_sim *sim, struct sb_flow *f)
{
	if (f->done)
		return;
	f->done = true;
	f->received = sb_now(&sim->net.engine);
	if (!f->ops->on_ack)
		flow_complete(sim, f);
}

/* Called after the transport handled an ACK: the sender now knows the last byte arrived. */
void sb_flow_acked(struct sb_sim *sim, struct sb_flow *f, uint64_t cumulative_ack)
{
	if (!f->completed && f->size && cumulative_ack >= f->size)
		flow_complete(sim, f);
}

void sb_flow_release_if_done(struct sb_sim *sim, struct sb_flow *f)
{
	if (!f->completed || f->in_network || f->timer_at != SB_TIME_NEVER || sim->keep_finished)
		return;
	if (f->ops->held && f->ops->held(f))
		return;
	/* A timer event may still be pending (timer_scheduled): it finds the id released and
	 * does nothing, as it would have done for a completed flow (flow_timer). */
	sb_report_flow_released(sim, f);
	sb_flow_table_release(&sim->flows, f);
}

void sb_flow_packet_gone_of(struct sb_sim *sim, struct sb_flow *f)
{
	if (f->in_network && --f->in_network == 0 && f->completed)
		sb_flow_release_if_done(sim, f);
}

void sb_flow_packet_gone(struct sb_sim *sim, uint32_t id)
{
	struct sb_flow *f = sb_flow_get(sim, id);
	if (f) /* NULL: a packet made by hand (tests) for no live flow */
		sb_flow_packet_gone_of(sim, f);
}
