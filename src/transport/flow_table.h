/*
 * flow_table.h — where flows live: recycled slots, found by flow id.
 *
 * A flow's state (struct sb_flow, about 3.2 KB with TCP's scoreboard) lives in a slot from its
 * creation until it is released: it has completed and nothing can reach it any more (no packet
 * of it in the network, no timer it wants, no scheduler holding it; transport/flows.c decides). Its
 * slot then goes back on a free list and the next flow created takes it (LIFO: the slot is
 * still warm in cache), so the memory of the table follows the flows *in flight*, not the
 * flows started: a run of any simulated length holds at most `peak_live` slots.
 *
 * Flow ids are never reused: they number flows in creation order (flows.csv's flow_id, the
 * ECMP hash) and packets and events carry them. An id maps to its slot through a table of
 * 4096-id chunks; a chunk whose flows were all released is freed, and the lookup of a
 * released flow's id returns NULL (a late event or packet is then recognised as such, never
 * a use after free: the slot may hold another flow by then).
 *
 * Slots are allocated in slabs of SB_FLOW_SLAB and never moved, so a pointer to a live flow
 * stays valid while the table grows.
 */
#ifndef SB_FLOW_TABLE_H
#define SB_FLOW_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "transport/flow.h"

#define SB_FLOW_IDS 4096u  /* ids per chunk of the id -> slot map */
#define SB_FLOW_SLAB 64u   /* slots per allocation (200 KB) */

struct sb_flow_table {
	uint32_t **slot_of;     /* [id / SB_FLOW_IDS][id % SB_FLOW_IDS]: slot + 1, 0 = released;
				 * a chunk is NULL once all its ids were issued and released */
	uint32_t *chunk_live;   /* per id chunk: flows of it not released yet */
	uint32_t nchunks_cap;
	struct sb_flow **slabs; /* slot s is slabs[s / SB_FLOW_SLAB][s % SB_FLOW_SLAB] */
	uint32_t nslots, slabs_cap;
	uint32_t *free_slots;   /* stack of released slots (LIFO) */
	uint32_t nfree;
	uint32_t next_id;       /* flows created so far */
	uint32_t live, peak_live; /* flows holding a slot now, and at most so far */
};

/* The flow of `id`, or NULL when it was released (or never created). */
static inline struct sb_flow *sb_flow_table_get(const struct sb_flow_table *t, uint32_t id)
{
	if (id >= t->next_id)
		return NULL;
	const uint32_t *chunk = t->slot_of[id / SB_FLOW_IDS];
	uint32_t s = chunk ? chunk[id % SB_FLOW_IDS] : 0;
	if (!s)
		return NULL;
	s--;
	return &t->slabs[s / SB_FLOW_SLAB][s % SB_FLOW_SLAB];
}

/* A zeroed slot for the next id (its `id` field set). Aborts beyond 2^32 - 2 flow ids. */
struct sb_flow *sb_flow_table_add(struct sb_flow_table *t);
/* Reserve the next `n` ids, the first returned, for flows created later (in any order) with
 * sb_flow_table_add_reserved: the file workload reads its flow list as the run goes, and its
 * flows keep the ids they would have had if all were created at build time. */
uint32_t sb_flow_table_reserve(struct sb_flow_table *t, uint32_t n);
/* A zeroed slot for reserved id `id` (each reserved id once). */
struct sb_flow *sb_flow_table_add_reserved(struct sb_flow_table *t, uint32_t id);
/* Give the slot of live flow `f` back; its id then maps to NULL. */
void sb_flow_table_release(struct sb_flow_table *t, struct sb_flow *f);
void sb_flow_table_free(struct sb_flow_table *t);

#endif
