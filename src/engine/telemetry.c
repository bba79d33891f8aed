/*
 * telemetry.c — the pool of INT records (see telemetry.h).
 */
#include "engine/telemetry.h"

#include <stdio.h>
#include <stdlib.h>
#include "core/util.h"

/* Double the pool and thread the new records onto the free list (lowest index first, so
 * handles are handed out in a deterministic order). */
static void int_grow(struct sb_int_pool *p)
{
	uint32_t old = p->cap, cap = old ? old * 2 : 1024;
	if (cap <= old) {
		fprintf(stderr, "sharebuf: more than %u INT records in flight\n", old);
		abort();
	}
	p->rec = sb_xrealloc(p->rec, (size_t)cap * sizeof(*p->rec));
	uint32_t first = old ? old : 1; /* record 0 stands for "none" */
	for (uint32_t i = cap - 1; i >= first; i--) {
		p->rec[i].next_free = p->free_head;
		p->free_head = i;
	}
	p->cap = cap;
}

uint32_t sb_int_alloc(struct sb_int_pool *p)
{
	if (!p->free_head)
		int_grow(p);
	uint32_t id = p->free_head;
	p->free_head = p->rec[id].next_free;
	p->rec[id].nhops = 0;
	p->live++;
	return id;
}

void sb_int_pool_free(struct sb_int_pool *p)
{
	free(p->rec);
	*p = (struct sb_int_pool){ 0 };
}
