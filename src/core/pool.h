/*
 * pool.h — fixed-size object pools (slabs) for packets and other per-event objects.
 *
 * Objects come from chunks of many objects; freed objects go on an intrusive free list and are
 * reused LIFO (the most recently freed object is still warm in cache). The pool only allocates
 * (a cache-line aligned chunk) when it is empty, so in steady state the hot path never allocates. Chunks are freed
 * only when the pool is destroyed.
 */
#ifndef SB_POOL_H
#define SB_POOL_H

#include <stddef.h>
#include <stdint.h>

struct sb_pool_chunk;

struct sb_pool {
	size_t obj_size;
	size_t per_chunk;
	void *free_list;
	struct sb_pool_chunk *chunks;
	uint64_t live;      /* objects handed out and not yet returned */
	uint64_t peak_live;
	uint64_t capacity;  /* objects allocated in all chunks */
};

void sb_pool_init(struct sb_pool *p, size_t obj_size, size_t per_chunk);
void sb_pool_destroy(struct sb_pool *p);
void sb_pool_grow(struct sb_pool *p);

static inline void *sb_pool_get(struct sb_pool *p)
{
	if (!p->free_list)
		sb_pool_grow(p);
	void *obj = p->free_list;
	p->free_list = *(void **)obj;
	if (++p->live > p->peak_live)
		p->peak_live = p->live;
	return obj;
}

static inline void sb_pool_put(struct sb_pool *p, void *obj)
{
	*(void **)obj = p->free_list;
	p->free_list = obj;
	p->live--;
}

#endif
