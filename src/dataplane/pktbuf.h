/*
 * pktbuf.h — the software switch's packet buffers: one preallocated pool of fixed-size slots.
 *
 * A received frame is copied out of the receive ring into a slot (the ring slot must go back
 * to the kernel at once), waits in an egress queue, and is copied into the transmit ring when
 * the shaper lets it go. The pool is allocated once when the switch starts; the per-packet
 * path only pops and pushes its free list, so it never allocates. A frame that finds the pool
 * empty is dropped and counted (drop cause "no_slot"), which a pool sized from the MMU's buffer
 * (dpswitch.c) makes rare: the MMU refuses first.
 */
#ifndef SB_DP_PKTBUF_H
#define SB_DP_PKTBUF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Largest frame held: 1500 B of MTU, the Ethernet header and room for a VLAN tag. */
#define SB_DP_FRAME_MAX 1536

struct sb_dp_pkt {
	struct sb_dp_pkt *next; /* FIFO or free list */
	uint32_t len;           /* frame bytes (no FCS) */
	uint32_t hash;          /* 5-tuple hash (MMU per-flow state) */
	uint16_t in_port;
	uint8_t prio;
	uint8_t tags;           /* enum sb_mmu_pkt_tags */
	bool ect;               /* ECN-capable: may be marked */
	bool ctrl;              /* control path: not in the MMU */
	uint8_t ip_version;
	uint8_t data[SB_DP_FRAME_MAX];
};

struct sb_dp_pool {
	struct sb_dp_pkt *slots;
	struct sb_dp_pkt *free;
	uint32_t n, nfree;
};

/* Allocate n slots; false if the memory is not there. */
static inline bool sb_dp_pool_init(struct sb_dp_pool *pool, uint32_t n)
{
	pool->slots = calloc(n, sizeof(*pool->slots));
	if (!pool->slots)
		return false;
	pool->n = pool->nfree = n;
	pool->free = NULL;
	for (uint32_t i = n; i-- > 0;) {
		pool->slots[i].next = pool->free;
		pool->free = &pool->slots[i];
	}
	return true;
}

static inline void sb_dp_pool_fini(struct sb_dp_pool *pool)
{
	free(pool->slots);
	pool->slots = pool->free = NULL;
	pool->n = pool->nfree = 0;
}

static inline struct sb_dp_pkt *sb_dp_pool_get(struct sb_dp_pool *pool)
{
	struct sb_dp_pkt *p = pool->free;
	if (p) {
		pool->free = p->next;
		pool->nfree--;
		p->next = NULL;
	}
	return p;
}

static inline void sb_dp_pool_put(struct sb_dp_pool *pool, struct sb_dp_pkt *p)
{
	p->next = pool->free;
	pool->free = p;
	pool->nfree++;
}

#endif
