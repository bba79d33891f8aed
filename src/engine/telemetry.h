/*
 * telemetry.h — in-band network telemetry (INT) records, for the congestion controls that
 * read the state of every switch on their path (HPCC, PowerTCP).
 *
 * A data packet that wants telemetry carries a handle (`int_id` ≠ 0) to one record of the
 * simulation's pool. Each switch appends one hop at dequeue, when the packet starts
 * transmission on the egress port (sb_switch_on_dequeue): the time, the port's cumulative
 * transmitted bytes including this packet, the bytes left in the port's data queues, and the
 * link rate. That is what HPCC's and PowerTCP's switches insert (Li et al. SIGCOMM'19 §3.2;
 * Addanki et al. NSDI'22 §4). The receiver moves the handle into its ACK (the ACK echoes the
 * record without copying it); the sender reads it and frees it with the ACK.
 *
 * Why a pool and not bytes in the packet: a record of 5 hops is 168 bytes, and struct
 * sb_packet must stay one cache line. Only packets that asked for telemetry pay for it. The
 * packet owns its record: sb_packet_free() releases it, so a packet dropped anywhere (switch,
 * NIC, expelled by a scheme) cannot leak one, and sb_sim_check() counts live records against
 * the packets that hold them.
 *
 * Handles are indices, not pointers, so the pool may grow (realloc) while records are in
 * flight; a pointer from sb_int_get() is valid only until the next sb_int_alloc().
 *
 * Limits: at most SB_INT_MAX_HOPS hops are recorded (HPCC's limit); further switches append
 * nothing. The telemetry bytes themselves are not added to the packet's wire size: the
 * transport's header_bytes is taken to include them.
 */
#ifndef SB_TELEMETRY_H
#define SB_TELEMETRY_H

#include <stdint.h>
#include "core/time.h"

#define SB_INT_MAX_HOPS 5

struct sb_int_hop {
	sb_time ts;        /* when the packet left the egress port */
	uint64_t tx_bytes; /* bytes the port had transmitted, this packet included */
	uint64_t rate_bps; /* link rate of the port */
	uint32_t qlen;     /* bytes in the port's data queues after this packet left */
};

struct sb_int_rec {
	uint32_t next_free; /* free list link (0 = end); meaningless while in use */
	uint8_t nhops;
	struct sb_int_hop hop[SB_INT_MAX_HOPS];
};

struct sb_int_pool {
	struct sb_int_rec *rec; /* rec[0] is never handed out: handle 0 means "no record" */
	uint32_t cap;
	uint32_t free_head;
	uint64_t live;
};

void sb_int_pool_free(struct sb_int_pool *p);
/* A fresh record with no hops; never returns 0. */
uint32_t sb_int_alloc(struct sb_int_pool *p);

static inline struct sb_int_rec *sb_int_get(struct sb_int_pool *p, uint32_t id) { return &p->rec[id]; }

static inline void sb_int_release(struct sb_int_pool *p, uint32_t id)
{
	p->rec[id].next_free = p->free_head;
	p->free_head = id;
	p->live--;
}

/* Append one hop (nothing beyond SB_INT_MAX_HOPS). */
static inline void sb_int_push(struct sb_int_pool *p, uint32_t id, sb_time ts, uint64_t tx_bytes,
			       uint64_t rate_bps, uint64_t qlen)
{
	struct sb_int_rec *r = &p->rec[id];
	if (r->nhops >= SB_INT_MAX_HOPS)
		return;
	r->hop[r->nhops++] = (struct sb_int_hop){
		.ts = ts, .tx_bytes = tx_bytes, .rate_bps = rate_bps,
		.qlen = qlen > UINT32_MAX ? UINT32_MAX : (uint32_t)qlen,
	};
}

#endif
