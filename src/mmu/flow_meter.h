/*
 * flow_meter.h — per-flow byte counters for schemes that tell short flows from long ones
 * (FAB's short-flow α, IB's elephant test).
 *
 * A meter is one slot of a direct-mapped table indexed by flow_hash & mask, allocated once at
 * init: no allocation and no iteration per packet, so run time and results do not depend on
 * how many flows exist. A slot belongs to the first flow that counts into it; a flow hashing to
 * a busy slot *shares* its counter instead of evicting the owner, so a collision can only make
 * a flow look longer (never hand a long flow the short-flow treatment). A flow idle for longer
 * than the scheme's window starts counting from zero again.
 */
#ifndef SB_FLOW_METER_H
#define SB_FLOW_METER_H

#include <stdbool.h>
#include <stdint.h>
#include "core/time.h"

struct sb_flow_meter {
	uint32_t owner;     /* flow_hash of the flow that claimed the slot */
	uint32_t bytes;     /* bytes counted since the last idle reset, saturating */
	sb_time last_seen;  /* last arrival counted into this slot */
};

/* Count `bytes` of flow `hash` at `now`; returns the count including them. *shared is set
 * when the slot belongs to another active flow, *reset when an idle period restarted it. */
static inline uint32_t sb_flow_meter_count(struct sb_flow_meter *m, uint32_t hash, uint32_t bytes,
					   sb_time now, sb_time idle, bool *shared, bool *reset)
{
	*reset = m->bytes && now - m->last_seen > idle;
	if (*reset)
		m->bytes = 0;
	*shared = m->bytes && m->owner != hash;
	if (!m->bytes)
		m->owner = hash;
	uint64_t total = (uint64_t)m->bytes + bytes;
	m->bytes = total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
	m->last_seen = now;
	return m->bytes;
}

#endif
