/*
 * pfc.c — PFC frames on the wire, pause state at the upstream, and paused-time accounting.
 */
#include "net/pfc.h"

#include <stdlib.h>
#include "core/util.h"
#include "net/deadlock.h"
#include "net/port.h"
#include "net/net.h"

/* Port-level pauses count as paused time for the priorities that carry lossless traffic (all
 * eight if the run declares none), so idle priorities do not inflate the totals. */
static uint8_t port_level_scope(const struct sb_net *net)
{
	return net->lossless_prio_mask ? net->lossless_prio_mask : 0xFF;
}

uint8_t sb_pfc_paused_mask(const struct sb_net *net, const struct sb_port *port)
{
	return (uint8_t)(port->paused | (port->port_paused ? port_level_scope(net) : 0));
}

sb_time sb_pfc_paused_time(const struct sb_net *net, const struct sb_port *port, unsigned prio)
{
	sb_time t = port->paused_total[prio];
	if (port->pfc_effective & (1u << prio))
		t += sb_now(&net->engine) - port->pause_since[prio];
	return t;
}

static void record_episode(struct sb_net *net, sb_time duration)
{
	struct sb_pfc_record *r = &net->pfc;
	if (!r->episodes)
		r->episodes = sb_spill_new();
	sb_spill_add(r->episodes, (double)duration, 1); /* exact: durations stay below 2^53 ps */
	if (duration > r->episode_max)
		r->episode_max = duration;
}

/* Open and close pause episodes for the priorities whose effective state changed. */
static void account(struct sb_net *net, struct sb_port *port)
{
	uint8_t now_mask = sb_pfc_paused_mask(net, port), was = port->pfc_effective;
	if (now_mask == was)
		return;
	sb_time now = sb_now(&net->engine);
	for (unsigned p = 0; p < SB_NPRIO; p++) {
		uint8_t bit = (uint8_t)(1u << p);
		if ((now_mask & bit) && !(was & bit)) {
			port->pause_since[p] = now;
			port->pause_episodes[p]++;
		} else if (!(now_mask & bit) && (was & bit)) {
			sb_time d = now - port->pause_since[p];
			port->paused_total[p] += d;
			record_episode(net, d);
		}
	}
	port->pfc_effective = now_mask;
	port->deadlock_reported &= now_mask; /* a queue that resumed may deadlock anew later */
	if (now_mask & ~was)
		sb_deadlock_pause_started(net);
}

void sb_port_pfc(struct sb_net *net, struct sb_port *port, uint8_t mask, bool pause, bool port_level)
{
	if (pause) {
		if (port_level)
			port->port_paused = true;
		else
			port->paused |= mask;
		port->pause_rx++;
	} else {
		if (port_level)
			port->port_paused = false;
		else
			port->paused &= (uint8_t)~mask;
		port->resume_rx++;
	}
	account(net, port);
	if (!pause && !port->kick_pending)
		sb_port_kick(net, port);
}

/* --- sending --- */

static void log_event(struct sb_net *net, const struct sb_port *port, uint8_t prio, bool pause)
{
	struct sb_pfc_record *r = &net->pfc;
	if (!r->events)
		r->events = sb_reclog_new(sizeof(struct sb_pfc_event));
	struct sb_pfc_event e = { sb_now(&net->engine), port->node->id, port->index, prio, pause };
	sb_reclog_add(r->events, &e);
}

/* 802.1Qbb: a quantum is 512 bit times of the link. */
static sb_time quanta_time(const struct sb_port *port, uint64_t quanta)
{
	return sb_tx_time((uint32_t)(quanta * 64), port->rate_bps);
}

static void emit(struct sb_net *net, struct sb_port *port, uint8_t mask, bool pause, bool port_level)
{
	struct sb_packet *f = sb_packet_new(&net->engine);
	f->type = SB_PKT_PFC;
	f->lane = SB_LANE_CONTROL;
	f->size = 64;
	f->flow = mask;
	f->flags = (uint8_t)((pause ? SB_PF_PAUSE : 0) | (port_level ? SB_PF_PORT_LEVEL : 0));
	f->seq = pause && net->pfc_params->mode == SB_PFC_QUANTA ? (uint64_t)net->pfc_params->quanta : 0;
	sb_port_enqueue(net, port, f);
}

static void refresh(void *obj, uint64_t arg);

static void arm_refresh(struct sb_net *net, struct sb_port *port)
{
	if (port->pfc_refresh_pending)
		return;
	double fraction = net->pfc_params->refresh_fraction;
	sb_time hold = quanta_time(port, (uint64_t)net->pfc_params->quanta);
	port->pfc_refresh_pending = true;
	sb_at(&net->engine, sb_now(&net->engine) + (sb_time)((double)hold * fraction), refresh, port, 0);
}

/* Quanta mode: re-send PAUSE for whatever this port still asserts, before the upstream's
 * timer runs out. */
static void refresh(void *obj, uint64_t arg)
{
	struct sb_port *port = obj;
	struct sb_net *net = port->net;
	(void)arg;
	port->pfc_refresh_pending = false;
	if (!port->pfc_asserted && !port->pfc_port_asserted)
		return;
	if (port->pfc_asserted) {
		emit(net, port, port->pfc_asserted, true, false);
		net->pfc.refresh_frames++;
	}
	if (port->pfc_port_asserted) {
		emit(net, port, 0xFF, true, true);
		net->pfc.refresh_frames++;
	}
	arm_refresh(net, port);
}

void sb_pfc_send(struct sb_net *net, struct sb_port *port, uint8_t mask, bool pause, bool port_level)
{
	if (port_level) {
		port->pfc_port_asserted = pause;
		if (pause)
			net->stats.pfc_port_pause_frames++;
		else
			net->stats.pfc_port_resume_frames++;
	} else {
		if (pause) {
			port->pfc_asserted |= mask;
			net->stats.pfc_pause_frames++;
		} else {
			port->pfc_asserted &= (uint8_t)~mask;
			net->stats.pfc_resume_frames++;
		}
	}
	if (net->pfc_params->log) {
		if (port_level)
			log_event(net, port, SB_PFC_PORT_LEVEL_PRIO, pause);
		else
			for (unsigned p = 0; p < SB_NPRIO; p++)
				if (mask & (1u << p))
					log_event(net, port, (uint8_t)p, pause);
	}
	emit(net, port, mask, pause, port_level);
	if (pause && net->pfc_params->mode == SB_PFC_QUANTA)
		arm_refresh(net, port);
}

/* --- receiving --- */

#define EXPIRY_PORT SB_NPRIO /* index of the port-level timer in pause_expiry[] */

/* Quanta mode: a pause timer ran out; lift what no later frame has extended. */
static void expire(void *obj, uint64_t arg)
{
	struct sb_port *port = obj;
	struct sb_net *net = port->net;
	sb_time now = sb_now(&net->engine);
	if (arg & 0x100) {
		if (port->port_paused && port->pause_expiry[EXPIRY_PORT] <= now)
			sb_port_pfc(net, port, 0xFF, false, true);
		return;
	}
	uint8_t lift = 0;
	for (unsigned p = 0; p < SB_NPRIO; p++)
		if ((arg & (1u << p)) && (port->paused & (1u << p)) && port->pause_expiry[p] <= now)
			lift |= (uint8_t)(1u << p);
	if (lift)
		sb_port_pfc(net, port, lift, false, false);
}

/* arg: bits 0-7 mask, bit 8 port-level, bit 9 pause, bits 16+ quanta. */
static void apply(struct sb_net *net, struct sb_port *port, uint64_t arg)
{
	uint8_t mask = (uint8_t)arg;
	bool port_level = arg & 0x100, pause = arg & 0x200;
	uint64_t quanta = arg >> 16;
	if (pause && quanta == 0 && net->pfc_params->mode == SB_PFC_QUANTA)
		pause = false; /* 802.1Qbb: zero quanta = resume */
	sb_port_pfc(net, port, mask, pause, port_level);
	if (pause && quanta) {
		sb_time until = sb_now(&net->engine) + quanta_time(port, quanta);
		if (port_level)
			port->pause_expiry[EXPIRY_PORT] = until;
		else
			for (unsigned p = 0; p < SB_NPRIO; p++)
				if (mask & (1u << p))
					port->pause_expiry[p] = until;
		sb_at(&net->engine, until, expire, port, (uint64_t)mask | (port_level ? 0x100 : 0));
	}
}

static void apply_later(void *obj, uint64_t arg)
{
	struct sb_port *port = obj;
	apply(port->net, port, arg);
}

void sb_pfc_receive(struct sb_net *net, struct sb_port *port, struct sb_packet *frame)
{
	uint64_t arg = (uint64_t)(uint8_t)frame->flow | ((frame->flags & SB_PF_PORT_LEVEL) ? 0x100 : 0) |
		       ((frame->flags & SB_PF_PAUSE) ? 0x200 : 0) | (frame->seq << 16);
	sb_packet_free(&net->engine, frame);
	sb_time delay = (sb_time)(net->pfc_params->processing_delay_ns * (double)SB_NS);
	if (delay)
		sb_at(&net->engine, sb_now(&net->engine) + delay, apply_later, port, arg);
	else
		apply(net, port, arg);
}

void sb_pfc_record_free(struct sb_pfc_record *r)
{
	sb_reclog_free(r->events);
	sb_spill_free(r->episodes);
	*r = (struct sb_pfc_record){ 0 };
}
