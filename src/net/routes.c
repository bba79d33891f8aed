/* The lookups of the forwarding tables (net/routes.h); topo/routes.c computes the tables. */
#include "net/routes.h"

#include <stdlib.h>

uint32_t sb_route_group(const struct sb_routes *rt, const struct sb_route_view *v, uint32_t dst, uint16_t *ports,
			uint32_t cap)
{
	struct sb_route_dst d = sb_route_dst_of(rt, dst);
	if (d.rack == v->rack) {
		if (cap)
			ports[0] = d.port;
		return 1;
	}
	uint32_t n;
	uint16_t one;
	const uint16_t *g = sb_route_entry_group(rt, v->row[d.rack], &n, &one);
	for (uint32_t i = 0; i < n && i < cap; i++)
		ports[i] = g[i];
	return n;
}

void sb_routes_free(struct sb_routes *rt)
{
	free(rt->dst);
	free(rt->rows);
	free(rt->ports);
	free(rt->big);
	*rt = (struct sb_routes){ 0 };
}
