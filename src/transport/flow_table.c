/*
 * flow_table.c — recycled flow slots and the id -> slot map (see flow_table.h).
 */
#include "transport/flow_table.h"

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
		t->slabs[slab] = sb_xcalloc_aligned(SB_FLOW_SLAB, sizeof(struct sb_flow), _Alignof(struct sb_flow));
	}
	return t->nslots++;
}

/* Room in the id map for ids below `end`. */
static void cover_ids(struct sb_flow_table *t, uint64_t end)
{
	if (end >= UINT32_MAX) {
		fprintf(stderr, "sharebuf: more than %u flows in one run\n", UINT32_MAX - 1);
		abort();
	}
	uint32_t need = (uint32_t)((end + SB_FLOW_IDS - 1) / SB_FLOW_IDS);
	if (need <= t->nchunks_cap)
		return;
	uint32_t cap = t->nchunks_cap ? t->nchunks_cap : 16;
	while (cap < need)
		cap *= 2;
	t->slot_of = sb_xrealloc(t->slot_of, cap * sizeof(*t->slot_of));
	t->chunk_live = sb_xrealloc(t->chunk_live, cap * sizeof(*t->chunk_live));
	memset(t->slot_of + t->nchunks_cap, 0, (cap - t->nchunks_cap) * sizeof(*t->slot_of));
	memset(t->chunk_live + t->nchunks_cap, 0, (cap - t->nchunks_cap) * sizeof(*t->chunk_live));
	t->nchunks_cap = cap;
}

/* A zeroed slot for `id`, already counted in its chunk's chunk_live. */
static struct sb_flow *place(struct sb_flow_table *t, uint32_t id)
{
	uint32_t c = id / SB_FLOW_IDS;
	if (!t->slot_of[c])
		t->slot_of[c] = sb_xcalloc(SB_FLOW_IDS, sizeof(uint32_t));
	uint32_t s = take_slot(t);
	t->slot_of[c][id % SB_FLOW_IDS] = s + 1;
	if (++t->live > t->peak_live)
		t->peak_live = t->live;
	struct sb_flow *f = &t->slabs[s / SB_FLOW_SLAB][s % SB_FLOW_SLAB];
	memset(f, 0, sizeof(*f));
	f->id = id;
	return f;
}

struct sb_flow *sb_flow_table_add(struct sb_flow_table *t)
{
	uint32_t id = t->next_id;
	cover_ids(t, (uint64_t)id + 1);
	t->chunk_live[id / SB_FLOW_IDS]++;
	t->next_id++;
	return place(t, id);
}

uint32_t sb_flow_table_reserve(struct sb_flow_table *t, uint32_t n)
{
	uint32_t first = t->next_id;
	cover_ids(t, (uint64_t)first + n);
	/* a reserved id counts as a flow not released yet: its chunk stays until it was created
	 * and released */
	for (uint32_t id = first; id < first + n;) {
		uint32_t c = id / SB_FLOW_IDS, end = (c + 1) * SB_FLOW_IDS < first + n ? (c + 1) * SB_FLOW_IDS : first + n;
		t->chunk_live[c] += end - id;
		id = end;
	}
	t->next_id += n;
	return first;
}

struct sb_flow *sb_flow_table_add_reserved(struct sb_flow_table *t, uint32_t id)
{
	return place(t, id);
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
