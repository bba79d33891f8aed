/*
 * engine.h — the discrete-event engine: the clock, scheduling, and the packets' lifecycle.
 *
 * This is the layer every model layer runs on (docs/architecture.md §1.0): the network
 * (net/), the topology (topo/), the transports (transport/) and the workloads (workload/)
 * reach the time, schedule their events and take and return packets through a struct
 * sb_engine, and the engine names none of them. The simulation (sim/) embeds one engine as
 * the first member of struct sb_sim and tells it, through one hook, what a packet's flow
 * must learn when the packet is freed. A future parallel run gives each partition an engine
 * of its own; nothing here is shared between two engines.
 *
 * It owns:
 *   - the event queue (core/event.h): the clock is eq.now, and sb_at() schedules fn(obj, arg);
 *   - the packet pool (core/pool.h): one 64-byte slot per struct sb_packet (engine/packet.h);
 *   - the INT records of the packets that carry one (engine/telemetry.h), because a packet
 *     owns its record: freeing the packet releases it, wherever the packet ends.
 *
 * Why the flow accounting is a hook and not a call: the engine sits below the transports,
 * which own flows. A packet leaves the simulation in two ways. Delivered to a host, it is
 * recycled by the host's receive path, which accounts its flow itself (sb_packet_recycle(),
 * no hook). Dropped, expelled or refused anywhere else, it is freed with sb_packet_free(),
 * which calls the hook once: drops are a few per thousand packet-hops, so the per-packet
 * forwarding path (link, switch, MMU) makes no indirect call it did not make before.
 */
#ifndef SB_ENGINE_H
#define SB_ENGINE_H

#include <stdint.h>
#include "core/event.h"
#include "core/pool.h"
#include "core/time.h"
#include "engine/packet.h"
#include "engine/telemetry.h"

/* A packet of flow `flow` left the simulation without being delivered (sb_packet_free()).
 * `world` is the hook's context, given to sb_engine_init(). */
typedef void (*sb_packet_gone_fn)(void *world, uint32_t flow);

struct sb_engine {
	struct sb_eventq eq;            /* the clock (eq.now) and every pending event */
	struct sb_pool packets;         /* struct sb_packet slots */
	struct sb_int_pool telemetry;   /* INT records of packets that carry one */
	sb_packet_gone_fn packet_gone;  /* the flows' accounting of freed packets, or NULL */
	void *world;                    /* packet_gone's context */
};

/* An engine at time 0 with no event and no packet. `gone` may be NULL (no flows to tell). */
void sb_engine_init(struct sb_engine *e, sb_packet_gone_fn gone, void *world);
/* Frees the queue, the pool's chunks and the INT records; packets still out are lost with it. */
void sb_engine_free(struct sb_engine *e);

/* --- the clock and scheduling --- */
static inline sb_time sb_now(const struct sb_engine *e) { return e->eq.now; }
/* fn(obj, arg) at `when` (>= now; events of the same instant fire in scheduling order). */
static inline void sb_at(struct sb_engine *e, sb_time when, sb_event_fn fn, void *obj, uint64_t arg)
{
	sb_schedule(&e->eq, when, fn, obj, arg);
}

/* --- packets --- */
/* A zeroed packet from the pool: a data-lane DATA packet of flow 0 with no INT record. */
static inline struct sb_packet *sb_packet_new(struct sb_engine *e)
{
	struct sb_packet *p = sb_pool_get(&e->packets);
	*p = (struct sb_packet){ 0 };
	return p;
}
/* Back to the pool (and its INT record), nothing else: for a caller that accounts the
 * packet's flow itself (a host receiving it, which has the flow at hand). */
static inline void sb_packet_recycle(struct sb_engine *e, struct sb_packet *p)
{
	if (p->int_id)
		sb_int_release(&e->telemetry, p->int_id);
	sb_pool_put(&e->packets, p);
}
/* A packet leaves the simulation (dropped, expelled, a PFC frame consumed): back to the pool,
 * and, unless it is a PFC frame (whose `flow` is a priority mask), one packet less in the
 * network for its flow, through the hook (which may let the flow be released). */
static inline void sb_packet_free(struct sb_engine *e, struct sb_packet *p)
{
	if (p->type != SB_PKT_PFC && e->packet_gone)
		e->packet_gone(e->world, p->flow);
	sb_packet_recycle(e, p);
}

#endif
