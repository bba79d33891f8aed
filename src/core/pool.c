#include "core/pool.h"

#include <stdio.h>
#include <stdlib.h>
#include "core/util.h"

/* Chunks are cache-line aligned and objects of more than 32 bytes get whole cache lines, so
 * a hot object (a packet) is one line, never two. */
#define LINE 64

struct sb_pool_chunk {
	struct sb_pool_chunk *next;
};

void sb_pool_init(struct sb_pool *p, size_t obj_size, size_t per_chunk)
{
	size_t a = obj_size > LINE / 2 ? LINE : _Alignof(max_align_t);
	if (obj_size < sizeof(void *))
		obj_size = sizeof(void *);
	p->obj_size = (obj_size + a - 1) / a * a;
	p->per_chunk = per_chunk ? per_chunk : 1024;
	p->free_list = NULL;
	p->chunks = NULL;
	p->live = p->peak_live = p->capacity = 0;
}

void sb_pool_grow(struct sb_pool *p)
{
	/* the chunk header takes the first line; objects start on the second */
	size_t bytes = LINE + p->obj_size * p->per_chunk;
	struct sb_pool_chunk *c = aligned_alloc(LINE, (bytes + LINE - 1) / LINE * LINE);
	if (!c) {
		fprintf(stderr, "sharebuf: out of memory (pool chunk of %zu bytes)\n", bytes);
		abort();
	}
	c->next = p->chunks;
	p->chunks = c;
	char *base = (char *)c + LINE;
	/* Thread the free list so the lowest address is handed out first (sequential reuse). */
	for (size_t i = p->per_chunk; i-- > 0;) {
		void *obj = base + i * p->obj_size;
		*(void **)obj = p->free_list;
		p->free_list = obj;
	}
	p->capacity += p->per_chunk;
}

void sb_pool_destroy(struct sb_pool *p)
{
	while (p->chunks) {
		struct sb_pool_chunk *next = p->chunks->next;
		free(p->chunks);
		p->chunks = next;
	}
	p->free_list = NULL;
}
