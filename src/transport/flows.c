/*
 * flows.c — the flows' lifecycle: creation, start, timers, delivery to the transports,
 * completion and release (flows.h).
 */
#include "transport/flows.h"

#include <stdlib.h>
#include <string.h>
#include "core/util.h"

const char *const sb_flow_kind_name[SB_KIND_N] = {
	[SB_KIND_BACKGROUND] = "background", [SB_KIND_INCAST] = "incast",
	[SB_KIND_LONGLIVED] = "longlived",   [SB_KIND_CBR] = "cbr",
	[SB_KIND_FILE] = "file",             [SB_KIND_BURST] = "burst",
};

void sb_flow_start(struct sb_flows *fl, struct sb_flow *f)
{
	fl->stats.flows_started++;
	if (fl->plan) {
		fl->plan(fl->plan_ctx, fl, f);
		return;
	}
	f->ops->start(fl, f);
}

static void flow_start(void *obj, uint64_t id)
{
	struct sb_flows *fl = obj;
	sb_flow_start(fl, sb_flow_get(fl, (uint32_t)id)); /* not released: it has not completed */
}

static void init_flow(struct sb_flows *fl, struct sb_flow *f, uint32_t src, uint32_t dst, uint64_t size,
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
	f->hash = (uint32_t)sb_mix64(fl->seed ^ ((uint64_t)f->id << 20) ^ ((uint64_t)src << 40) ^ dst);
	f->timer_at = f->timer_scheduled = SB_TIME_NEVER;
	if (fl->obs.created)
		fl->obs.created(fl->obs.ctx, f);
}

struct sb_flow *sb_flow_create(struct sb_flows *fl, uint32_t src, uint32_t dst, uint64_t size,
			       sb_time start, const struct sb_transport_ops *ops)
{
	struct sb_flow *f = sb_flow_table_add(&fl->table);
	init_flow(fl, f, src, dst, size, start, ops);
	sb_at(&fl->net->engine, start, flow_start, fl, f->id);
	return f;
}

struct sb_flow *sb_flow_create_reserved(struct sb_flows *fl, uint32_t id, uint32_t src, uint32_t dst, uint64_t size,
					sb_time start, const struct sb_transport_ops *ops)
{
	struct sb_flow *f = sb_flow_table_add_reserved(&fl->table, id);
	init_flow(fl, f, src, dst, size, start, ops);
	return f;
}

/* A flow's timer fires. Stale events (the deadline moved) are recognised and skipped; a
 * deadline moved later is re-armed lazily here, so moving a timer never touches the heap. */
static void flow_timer(void *obj, uint64_t id)
{
	struct sb_flows *fl = obj;
	struct sb_flow *f = sb_flow_get(fl, (uint32_t)id);
	sb_time now = sb_now(&fl->net->engine);
	/* released: this was its last, stale, firing (a released flow wants no timer) */
	if (!f || f->timer_scheduled != now)
		return;
	f->timer_scheduled = SB_TIME_NEVER;
	if (f->timer_at == SB_TIME_NEVER)
		return;
	if (f->timer_at > now) {
		f->timer_scheduled = f->timer_at;
		sb_at(&fl->net->engine, f->timer_at, flow_timer, fl, id);
		return;
	}
	f->timer_at = SB_TIME_NEVER;
	if (f->ops->on_timer)
		f->ops->on_timer(fl, f);
	sb_flow_release_if_done(fl, f);
}

struct sb_packet *sb_flow_control_packet(struct sb_flows *fl, struct sb_flow *f, uint8_t type, uint64_t seq,
					 uint32_t size, uint8_t lane, bool to_sender)
{
	struct sb_packet *p = sb_packet_new(&fl->net->engine);
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

struct sb_packet *sb_flow_data_packet(struct sb_flows *fl, struct sb_flow *f, uint64_t seq,
				      uint32_t payload, uint32_t header, uint64_t first_rtt_end)
{
	struct sb_packet *p = sb_packet_new(&fl->net->engine);
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
	p->t_sent = sb_now(&fl->net->engine);
	p->flags = (uint8_t)((f->ecn ? SB_PF_ECT : 0) | (f->lossless ? SB_PF_LOSSLESS : 0) |
			     (seq < first_rtt_end ? SB_PF_FIRST_RTT : 0));
	return p;
}

void sb_flow_arm_timer(struct sb_flows *fl, struct sb_flow *f, sb_time at)
{
	f->timer_at = at;
	if (at != SB_TIME_NEVER && at < f->timer_scheduled) {
		f->timer_scheduled = at;
		sb_at(&fl->net->engine, at, flow_timer, fl, f->id);
	}
}

void sb_flow_complete_at(struct sb_flows *fl, struct sb_flow *f, sb_time now, sb_time rx_when)
{
	f->completed = true;
	f->finish = now;
	sb_flow_arm_timer(fl, f, SB_TIME_NEVER);
	fl->stats.flows_completed++;
	struct sb_flow_result r = {
		.id = f->id, .src = f->src, .dst = f->dst, .size = f->size,
		.prio = f->prio, .lossless = f->lossless, .kind = f->kind, .query_id = f->query_id,
		.start = f->start, .fct = now - f->start,
		.ideal = sb_transport_ideal_fct(fl, f->ops, f->src, f->dst, f->size),
		.rx_fct = rx_when - f->start,
	};
	if (fl->obs.completed)
		fl->obs.completed(fl->obs.ctx, f, &r);
	sb_flow_release_if_done(fl, f);
}

static void flow_complete(struct sb_flows *fl, struct sb_flow *f)
{
	sb_time now = sb_now(&fl->net->engine);
	sb_flow_complete_at(fl, f, now, f->done ? f->received : now);
}

void sb_flow_received(struct sb_flows *fl, struct sb_flow *f)
{
	if (f->done)
		return;
	f->done = true;
	f->received = sb_now(&fl->net->engine);
	if (!f->ops->on_ack)
		flow_complete(fl, f);
}

/* Called after the transport handled an ACK: the sender now knows the last byte arrived. */
static void flow_acked(struct sb_flows *fl, struct sb_flow *f, uint64_t cumulative_ack)
{
	if (!f->completed && f->size && cumulative_ack >= f->size)
		flow_complete(fl, f);
}

void sb_flow_release_if_done(struct sb_flows *fl, struct sb_flow *f)
{
	if (!f->completed || f->in_network || f->timer_at != SB_TIME_NEVER || fl->keep_finished)
		return;
	if (f->ops->held && f->ops->held(f))
		return;
	/* A timer event may still be pending (timer_scheduled): it finds the id released and
	 * does nothing, as it would have done for a completed flow (flow_timer). */
	if (fl->obs.released)
		fl->obs.released(fl->obs.ctx, f);
	sb_flow_table_release(&fl->table, f);
}

void sb_flow_packet_gone_of(struct sb_flows *fl, struct sb_flow *f)
{
	if (f->in_network && --f->in_network == 0 && f->completed)
		sb_flow_release_if_done(fl, f);
}

void sb_flow_packet_gone(struct sb_flows *fl, uint32_t id)
{
	struct sb_flow *f = sb_flow_get(fl, id);
	if (f) /* NULL: a packet made by hand (tests) for no live flow */
		sb_flow_packet_gone_of(fl, f);
}

void sb_flows_deliver(void *ctx, struct sb_host *host, struct sb_packet *pkt)
{
	struct sb_flows *fl = ctx;
	struct sb_flow *f = sb_flow_get(fl, pkt->flow);
	/* a flow is released only once none of its packets exists, so this one's flow is live */
	if (pkt->type == SB_PKT_DATA) {
		f->ops->on_data(fl, f, pkt);
	} else if (f->ops->on_ack) {
		f->ops->on_ack(fl, f, pkt);
		/* a CNP or a handshake packet acknowledges no data */
		if (pkt->type == SB_PKT_ACK || pkt->type == SB_PKT_NACK)
			flow_acked(fl, f, pkt->seq);
	}
	sb_packet_recycle(&fl->net->engine, pkt);
	sb_flow_packet_gone_of(fl, f); /* last: it may release f */
}

void sb_flows_packet_gone(void *ctx, uint32_t id)
{
	sb_flow_packet_gone(ctx, id);
}

void sb_flows_free(struct sb_flows *fl)
{
	sb_flow_table_free(&fl->table);
}
