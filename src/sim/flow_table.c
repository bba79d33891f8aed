/*
 * flow_table.c — recycled flow slots and the id -> slot map (see flow_table.h).
 */
#include "sim/flow_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"

static uint32_t take_slot(struct sb_flow_table *t)
{
	if (t->nfree)
		return t->free_slots[--t->nfree];
	if (t->nslots % SB_FLOW_SLAB == 0) {
		uint32_t slab = t->nslots / SB_FLOW_SLAB;
		if (slab == t->slabs_cap) {
			t->slabs_cap = t->slabs_cap ? t->slabs_cap * 2 : 16;
			t->slabs = sb_xrealloc(t->slabs, t->slabs_cap * sizeof(*t->slabs));
			/* a released slot goes on the stack, which never holds more than nslots */
			t->free_slots = sb_xrealloc(t->free_slots, (size_t)t->slabs_cap * SB_FLOW_SLAB * sizeof(uint32_t));
		}
		t->slabs[slab] = sb_xmalloc(SB_FLOW_SLAB * sizeof(struct sb_flow));
	}
	return t->nslots++;
}

struct sb_flow *sb_flow_table_add(struct sb_flow_table *t)
{
	uint32_t id = t->next_id;
	if (id == UINT32_MAX) {
		fprintf(stderr, "sharebuf: more than %u flows in one run\n", UINT32_MAX - 1);
		abort();
	}
	uint32_t c = id / SB_FLOW_IDS;
	if (c == t->nchunks_cap) {
		uint32_t cap = t->nchunks_cap ? t->nchunks_cap * 2 : 16;
		t->slot_of = sb_xrealloc(t->slot_of, cap * sizeof(*t->slot_of));
		t->chunk_live = sb_xrealloc(t->chunk_live, cap * sizeof(*t->chunk_live));
		memset(t->slot_of + t->nchunks_cap, 0, (cap - t->nchunks_cap) * sizeof(*t->slot_of));
		memset(t->chunk_live + t->nchunks_cap, 0, (cap - t->nchunks_cap) * sizeof(*t->chunk_live));
		t->nchunks_cap = cap;
	}
	if (!t->slot_of[c])
		t->slot_of[c] = sb_xcalloc(SB_FLOW_IDS, sizeof(uint32_t));
	uint32_t s = take_slot(t);
	t->slot_of[c][id % SB_FLOW_IDS] = s + 1;
	t->chunk_live[c]++;
	t->next_id++;
	if (++t->live > t->peak_live)
		t->peak_live = t->live;
	struct sb_flow *f = &t->slabs[s / SB_FLOW_SLAB][s % SB_FLOW_SLAB];
	memset(f, 0, sizeof(*f));
	f->id = id;
	return f;
}

void sb_flow_table_release(struct sb_flow_table *t, struct sb_flow *f)
{
	uint32_t id = f->id, c = id / SB_FLOW_IDS;
	uint32_t s = t->slot_of[c][id % SB_FLOW_IDS] - 1;
	t->slot_of[c][id % SB_FLOW_IDS] = 0;
	t->free_slots[t->nfree++] = s;
	t->live--;
	/* a chunk is done when every id of it was issued and released */
	if (--t->chunk_live[c] == 0 && t->next_id >= (c + 1) * SB_FLOW_IDS) {
		free(t->slot_of[c]);
		t->slot_of[c] = NULL;
	}
}

void sb_flow_table_free(struct sb_flow_table *t)
{
	for (uint32_t c = 0; c < t->nchunks_cap; c++)
		free(t->slot_of[c]);
	free(t->slot_of);
	free(t->chunk_live);
	for (uint32_t s = 0; s * SB_FLOW_SLAB < t->nslots; s++)
		free(t->slabs[s]);
	free(t->slabs);
	free(t->free_slots);
	memset(t, 0, sizeof(*t));
}
