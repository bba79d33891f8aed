#include "engine/engine.h"

void sb_engine_init(struct sb_engine *e, sb_packet_gone_fn gone, void *world)
{
	*e = (struct sb_engine){ .packet_gone = gone, .world = world };
	sb_eventq_init(&e->eq);
	/* 4096 packets (256 KiB) a chunk: a small run allocates once, a large one rarely */
	sb_pool_init(&e->packets, sizeof(struct sb_packet), 4096);
}

void sb_engine_free(struct sb_engine *e)
{
	sb_pool_destroy(&e->packets);
	sb_int_pool_free(&e->telemetry);
	sb_eventq_free(&e->eq);
}
